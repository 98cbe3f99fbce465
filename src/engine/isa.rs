//! Which SIMD path the engine takes: the paths ([`Isa`]), what this CPU
//! supports, `KUUID_ISA`, and the process's choice ([`isa`]).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(target_arch = "aarch64")]
use super::aarch64;
#[cfg(target_arch = "x86_64")]
use super::x86_64;

/// An implementation of the engine for one instruction set.
///
/// ```
/// use kuuid::engine::Isa;
/// assert!(Isa::Scalar.is_supported());
/// assert!(Isa::available().contains(&kuuid::engine::isa()));
/// assert_eq!("avx2".parse::<Isa>(), Ok(Isa::Avx2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Isa {
    /// Portable Rust: the reference.
    Scalar,
    /// x86-64 AVX2: one id per 256-bit register.
    Avx2,
    /// x86-64 SSE4.1 (with SSSE3), for CPUs and virtual machines without
    /// AVX2: decodes one id in two 128-bit registers (about 5x scalar); encodes
    /// three quarters of each batch in vector registers and the rest with
    /// the scalar table beside them (about 0.9x scalar's time).
    Sse41,
    /// x86-64 AVX-512 F+BW (Skylake-X and later): hex and the fast RNG
    /// in 512-bit registers; base62 two ids per register with `vpermb` for
    /// ASCII where the CPU has VBMI (Ice Lake, Zen 4 and later), AVX2's
    /// base62 where it has not; AES-CTR on 512-bit VAES where it has VAES.
    Avx512,
    /// aarch64 NEON: two ids per iteration, `tbl` for ASCII, `st3` to interleave.
    Neon,
}

/// Every path there is, best last.
const ALL: [Isa; 5] = [Isa::Scalar, Isa::Neon, Isa::Sse41, Isa::Avx2, Isa::Avx512];

impl Isa {
    /// The name `KUUID_ISA` takes.
    ///
    /// ```
    /// assert_eq!(kuuid::engine::Isa::Avx512.name(), "avx512");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Sse41 => "sse41",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
            Isa::Neon => "neon",
        }
    }

    /// Whether this build has the path and this CPU can run it.
    ///
    /// ```
    /// assert!(kuuid::engine::Isa::Scalar.is_supported());
    /// ```
    pub fn is_supported(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => x86_64::sse41::is_supported(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => x86_64::avx2::is_supported(),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => x86_64::avx512::is_supported(),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Isa::Neon => aarch64::neon::is_supported(),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The paths this CPU can run, scalar first, best last.
    ///
    /// ```
    /// let paths = kuuid::engine::Isa::available();
    /// assert_eq!(paths[0], kuuid::engine::Isa::Scalar);
    /// ```
    pub fn available() -> Vec<Isa> {
        ALL.into_iter().filter(|i| i.is_supported()).collect()
    }

    /// The fastest path this CPU can run.
    ///
    /// ```
    /// assert!(kuuid::engine::Isa::best().is_supported());
    /// ```
    pub fn best() -> Isa {
        *Isa::available().last().expect("scalar is always available")
    }

    /// The path `KUUID_ISA` asks for: `None` when unset or empty, an error
    /// when it names no path or one this CPU cannot run. The error says what
    /// is wrong with the value, not where it came from: a caller reporting
    /// it names the variable (the CLI prints `KUUID_ISA: ` before it).
    ///
    /// ```
    /// // In a process started without KUUID_ISA:
    /// # if std::env::var_os("KUUID_ISA").is_none() {
    /// assert_eq!(kuuid::engine::Isa::from_env(), Ok(None));
    /// # }
    /// ```
    pub fn from_env() -> Result<Option<Isa>, IsaError> {
        match std::env::var("KUUID_ISA") {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(v)) => {
                Err(IsaError::Unknown(v.to_string_lossy().into_owned()))
            }
            Ok(v) if v.trim().is_empty() => Ok(None),
            Ok(v) => {
                let isa: Isa = v.trim().parse()?;
                if isa.is_supported() {
                    Ok(Some(isa))
                } else {
                    Err(IsaError::Unsupported(isa))
                }
            }
        }
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Isa {
    type Err = IsaError;

    fn from_str(s: &str) -> Result<Self, IsaError> {
        match s.to_ascii_lowercase().as_str() {
            "scalar" => Ok(Isa::Scalar),
            "avx2" => Ok(Isa::Avx2),
            "avx512" => Ok(Isa::Avx512),
            "neon" => Ok(Isa::Neon),
            "sse41" | "sse4.1" => Ok(Isa::Sse41),
            _ => Err(IsaError::Unknown(s.to_owned())),
        }
    }
}

/// A path that cannot be used.
///
/// ```
/// use kuuid::engine::{Isa, IsaError};
/// assert!(matches!("mmx".parse::<Isa>(), Err(IsaError::Unknown(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IsaError {
    /// Not one of `scalar`, `sse41`, `avx2`, `avx512`, `neon`.
    Unknown(String),
    /// A path this CPU (or this target) cannot run.
    Unsupported(Isa),
}

impl fmt::Display for IsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IsaError::Unknown(s) => write!(
                f,
                "{s:?} names no engine path (expected scalar, sse41, avx2, avx512 or neon)"
            ),
            IsaError::Unsupported(isa) => write!(
                f,
                "this CPU cannot run the {isa} path (available: {})",
                Isa::available()
                    .iter()
                    .map(|i| i.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl std::error::Error for IsaError {}

/// The path this process uses: `KUUID_ISA` if it names a path this CPU runs,
/// else the best one. A bad `KUUID_ISA` falls back to the best path here; the
/// CLI checks [`Isa::from_env`] first and refuses to run with one.
///
/// ```
/// println!("engine path: {}", kuuid::engine::isa());
/// ```
#[inline]
pub fn isa() -> Isa {
    // Not a `OnceLock`: a fork while another thread runs its initializer
    // would leave the child waiting forever, and the choice reads the
    // environment (which allocates), so an allocator that mints ids would
    // re-enter it. Racing or nested callers each compute the same answer.
    static ACTIVE: AtomicU8 = AtomicU8::new(0);
    match ACTIVE.load(Ordering::Relaxed) {
        0 => {
            let isa = Isa::from_env().ok().flatten().unwrap_or_else(Isa::best);
            ACTIVE.store(isa as u8 + 1, Ordering::Relaxed);
            isa
        }
        n => match n - 1 {
            x if x == Isa::Sse41 as u8 => Isa::Sse41,
            x if x == Isa::Avx2 as u8 => Isa::Avx2,
            x if x == Isa::Avx512 as u8 => Isa::Avx512,
            x if x == Isa::Neon as u8 => Isa::Neon,
            _ => Isa::Scalar,
        },
    }
}
