//! Which wall clock the process's millisecond sequences read "now" from:
//! the kernel's coarse clock (the default: a few nanoseconds, up to a
//! tick behind) or the precise one.

/// The clock [`kuuid::v7`](crate::v7), [`kuuid::fill_v7`](crate::fill_v7),
/// [`V7Generator`](crate::V7Generator) and
/// [`kuuid::idms_monotonic`](crate::idms_monotonic) take "now" from.
///
/// `Coarse` (the default) is Linux's `CLOCK_REALTIME_COARSE`, advanced once
/// a kernel tick: measured on 2-vCPU KVM guests (AMD EPYC Zen 1, family 23
/// model 1, and Zen 3, family 25 model 1; both a 4 ms tick), these ids ran
/// 3-7 ms (median 5) behind `CLOCK_REALTIME` read just before the call,
/// so a UUIDv7 of another generator minted just before one of these sorts
/// after it. `Precise` reads `CLOCK_REALTIME` for every claim, as
/// [`kuuid::idms`](crate::idms) always does: the ids' time is the wall
/// clock's, at the price of a full clock read (docs/formats.md has both
/// costs side by side). Elsewhere than Linux both read the precise clock.
///
/// Order within the process holds either way: the sequence never goes
/// back, so switching in either direction at run time keeps every id after
/// the ones before.
///
/// ```
/// use kuuid::clock::{MillisClock, set_millis_clock, millis_clock};
/// assert_eq!(millis_clock(), MillisClock::Coarse);
/// set_millis_clock(MillisClock::Precise);
/// let before = std::time::SystemTime::now()
///     .duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
/// let id = kuuid::v7();
/// // With the precise clock the id's time is not before the clock's.
/// assert!(id.timestamp().as_millis() >= before);
/// set_millis_clock(MillisClock::Coarse);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum MillisClock {
    /// The kernel's coarse clock: cheapest, up to a tick (and, measured,
    /// up to 7 ms) behind.
    #[default]
    Coarse,
    /// The precise wall clock, as `idms()` and `SystemTime::now()` read it.
    Precise,
}

/// Sets the clock for the whole process (and the children it forks later,
/// which copy the setting). Threads minting meanwhile see it within their
/// next claim.
///
/// ```
/// kuuid::clock::set_millis_clock(kuuid::clock::MillisClock::Precise);
/// assert_eq!(kuuid::clock::millis_clock(), kuuid::clock::MillisClock::Precise);
/// kuuid::clock::set_millis_clock(kuuid::clock::MillisClock::Coarse);
/// ```
pub fn set_millis_clock(clock: MillisClock) {
    crate::sys::set_precise_millis(clock == MillisClock::Precise);
}

/// The clock set by [`set_millis_clock`] (`Coarse` until then).
///
/// ```
/// assert_eq!(kuuid::clock::millis_clock(), kuuid::clock::MillisClock::Coarse);
/// ```
pub fn millis_clock() -> MillisClock {
    if crate::sys::precise_millis() {
        MillisClock::Precise
    } else {
        MillisClock::Coarse
    }
}
