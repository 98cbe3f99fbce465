//! Random words for the random groups: a CSPRNG by default, xoshiro on request.
//!
//! Both RNGs are seeded once from the OS (`getrandom`), never per id.

mod aes_ctr;
mod chacha;
mod fast;
pub(crate) mod fork;
mod secure;
mod spare;

use std::fmt;

use crate::engine::Isa;

pub(crate) use fast::FastRng;
pub(crate) use secure::SecureRng;

/// The AES-CTR stream for `seed` drawn in requests of `sizes` words (for
/// `crate::__aes_ctr_stream`); `None` without AES instructions.
#[cfg(feature = "internals")]
pub(crate) fn aes_ctr_stream(isa: Isa, seed: &[u8; 32], sizes: &[usize]) -> Option<Vec<u32>> {
    let mut ctr = aes_ctr::Stream::new(seed)?;
    let mut words = Vec::new();
    for &n in sizes {
        let start = words.len();
        words.resize(start + n, 0);
        ctr.fill_words(isa, &mut words[start..]);
    }
    Some(words)
}

/// Which random number generator fills the random groups.
///
/// ```
/// use kuuid::{Generator, RngKind};
/// assert_eq!(Generator::secure().rng_kind(), RngKind::Secure);
/// assert_eq!(Generator::fast().rng_kind(), RngKind::Fast);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RngKind {
    /// A CSPRNG keyed from the OS (AES-128-CTR on CPUs with AES instructions,
    /// ChaCha12 elsewhere): ids cannot be predicted from earlier ones, like
    /// npm kuuid's `crypto.randomBytes`. The default.
    #[default]
    Secure,
    /// Eight interleaved xoshiro256++ streams seeded from the OS: faster, but
    /// their state can be recovered
    /// from a few ids, so later ids are predictable. For test data and bulk
    /// loads, not for ids that must be unguessable.
    Fast,
}

impl fmt::Display for RngKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RngKind::Secure => "secure",
            RngKind::Fast => "fast",
        })
    }
}

/// A seeded generator of either kind.
// Unboxed on purpose: a generator lives long and the hot path should not chase a pointer.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Rng {
    Secure(SecureRng),
    Fast(FastRng),
}

impl Rng {
    /// Seeds a generator of `kind` from the OS.
    pub(crate) fn from_os(kind: RngKind) -> Result<Self, getrandom::Error> {
        Ok(match kind {
            RngKind::Secure => Rng::Secure(SecureRng::from_os()?),
            RngKind::Fast => Rng::Fast(FastRng::from_os()?),
        })
    }

    pub(crate) fn kind(&self) -> RngKind {
        match self {
            Rng::Secure(_) => RngKind::Secure,
            Rng::Fast(_) => RngKind::Fast,
        }
    }

    /// Fills `out` with uniformly random words.
    /// The algorithm behind this generator.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Rng::Secure(r) => r.name(),
            Rng::Fast(_) => "xoshiro256++ x8",
        }
    }

    /// Changes the state by `token` (only when the OS cannot reseed it after a
    /// fork: a different token gives a different stream than the parent's).
    pub(crate) fn perturb(&mut self, token: u64) {
        match self {
            Rng::Secure(r) => r.perturb(token),
            Rng::Fast(r) => r.perturb(token),
        }
    }

    /// Fills `out` with uniformly random words; `isa` (supported here) picks
    /// the fast RNG's vector variant.
    #[inline]
    pub(crate) fn fill_words(&mut self, isa: Isa, out: &mut [u32]) {
        match self {
            Rng::Secure(r) => r.fill_words(isa, out),
            Rng::Fast(r) => r.fill_words(isa, out),
        }
    }
}
