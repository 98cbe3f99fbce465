//! The crate's own tests' hold on the wall clock (feature `__test-hooks`,
//! never for users): a step back or a frozen instant, seen by every clock
//! read (`clock.rs`) and by every id source, as a real clock step would be.
//! Without the feature, `adjust` is the identity and costs nothing.

#[cfg(feature = "__test-hooks")]
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// Milliseconds added to the real clock (negative: a step back).
#[cfg(feature = "__test-hooks")]
static SHIFT_MS: AtomicI64 = AtomicI64::new(0);
/// The instant the clock is held at, in ms since 1970; 0 if not held.
#[cfg(feature = "__test-hooks")]
static FROZEN_MS: AtomicU64 = AtomicU64::new(0);

/// `real` (in 1/`PER_SEC` s) as the test clock reads it.
#[inline(always)]
pub(crate) fn adjust<const PER_SEC: u64>(real: u64) -> u64 {
    #[cfg(feature = "__test-hooks")]
    {
        let scale = |ms: i128| ms * i128::from(PER_SEC) / 1000;
        let frozen = FROZEN_MS.load(Ordering::Relaxed);
        let t = if frozen != 0 {
            scale(i128::from(frozen))
        } else {
            i128::from(real) + scale(i128::from(SHIFT_MS.load(Ordering::Relaxed)))
        };
        u64::try_from(t.max(0)).unwrap_or(u64::MAX)
    }
    #[cfg(not(feature = "__test-hooks"))]
    real
}

/// Moves the clock by `ms` from the real time (negative: back).
#[cfg(feature = "__test-hooks")]
pub(crate) fn shift(ms: i64) {
    SHIFT_MS.store(ms, Ordering::Relaxed);
}

/// Holds the clock at `ms` since 1970 (`None`: runs again).
#[cfg(feature = "__test-hooks")]
pub(crate) fn freeze(ms: Option<u64>) {
    FROZEN_MS.store(ms.map_or(0, |ms| ms.max(1)), Ordering::Relaxed);
}
