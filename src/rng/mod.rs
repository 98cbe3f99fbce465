//! Random words for the random groups: a CSPRNG by default, xoshiro on request.
//!
//! Both engines are seeded once from the OS (`getrandom`), never per id.

mod fast;
mod secure;

use std::fmt;

pub(crate) use fast::FastRng;
pub(crate) use secure::SecureRng;

/// Which random number generator fills the random groups.
///
/// ```
/// use kuuid::{Generator, RngKind};
/// assert_eq!(Generator::secure().rng_kind(), RngKind::Secure);
/// assert_eq!(Generator::fast().rng_kind(), RngKind::Fast);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RngKind {
    /// ChaCha12 keyed from the OS: ids cannot be predicted from earlier ones,
    /// like npm kuuid's `crypto.randomBytes`. The default.
    #[default]
    Secure,
    /// xoshiro256++ seeded from the OS: faster, but its state can be recovered
    /// from a few ids, so later ids are predictable. For test data and bulk
    /// loads, not for ids that must be unguessable.
    Fast,
}

impl fmt::Display for RngKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RngKind::Secure => "secure (ChaCha12)",
            RngKind::Fast => "fast (xoshiro256++)",
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
    #[inline]
    pub(crate) fn fill_words(&mut self, out: &mut [u32]) {
        match self {
            Rng::Secure(r) => r.fill_words(out),
            Rng::Fast(r) => r.fill_words(out),
        }
    }
}
