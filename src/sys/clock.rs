//! The cheap clocks: whole seconds, milliseconds and microseconds since
//! 1970, read as cheaply as the OS allows, each through the test clock.

use std::sync::atomic::Ordering;
use std::time::Duration;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::time::{SystemTime, UNIX_EPOCH};

use super::process_words::process_words;
use super::test_clock;

/// Whole seconds since 1970: what a running [`crate::clock::Ticker`] last
/// published (one relaxed load), else `time(2)`: a vDSO read of the kernel's
/// coarse clock on Linux (~2 ns, against ~25 ns for a full `clock_gettime`),
/// which can lag the precise clock by up to one tick (1-4 ms) at a second
/// boundary. 0 if the clock reads before 1970.
#[inline]
pub(crate) fn unix_secs() -> u64 {
    match process_words().ticked_secs.load(Ordering::Relaxed) {
        0 => test_clock::adjust::<1>(coarse_secs()),
        // The ticker publishes what `unix_millis` read, already adjusted.
        t => t,
    }
}

/// `time(2)`, or the precise clock where there is no such call.
#[inline]
fn coarse_secs() -> u64 {
    #[cfg(unix)]
    {
        // SAFETY: time(2) with a null pointer only returns the time.
        let t = unsafe { libc::time(std::ptr::null_mut()) };
        u64::try_from(t).unwrap_or(0)
    }
    #[cfg(not(unix))]
    {
        unix_millis() / 1000
    }
}

/// Milliseconds since 1970 from the precise wall clock
/// (`clock_gettime(CLOCK_REALTIME)` on Linux). 0 if it reads before 1970.
#[inline]
pub(crate) fn unix_millis() -> u64 {
    #[cfg(unix)]
    if let Some(ms) = clock_units::<1000>(libc::CLOCK_REALTIME) {
        return test_clock::adjust::<1000>(ms);
    }
    test_clock::adjust::<1000>(u64::try_from(since_1970().as_millis()).unwrap_or(u64::MAX))
}

/// Microseconds since 1970 from the precise wall clock (CouchDB's
/// `utc_random` reads `os:system_time(microsecond)`). 0 before 1970.
#[cfg(feature = "couch")]
#[inline]
pub(crate) fn unix_micros() -> u64 {
    #[cfg(unix)]
    if let Some(us) = clock_units::<1_000_000>(libc::CLOCK_REALTIME) {
        return test_clock::adjust::<1_000_000>(us);
    }
    test_clock::adjust::<1_000_000>(u64::try_from(since_1970().as_micros()).unwrap_or(u64::MAX))
}

/// The wall clock where there is no `clock_gettime`: std's, or on
/// wasm32-unknown-unknown (which has no clock of its own) JavaScript's
/// `Date.now()` (feature `js`). Zero before 1970.
fn since_1970() -> Duration {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        Duration::from_secs_f64(js_sys::Date::now().max(0.0) / 1000.0)
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
    }
}

/// `clock_gettime(clock)` in `1/PER_SEC` seconds (0 before 1970), or
/// `None` if the call fails.
#[cfg(unix)]
#[inline]
fn clock_units<const PER_SEC: u64>(clock: libc::clockid_t) -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which we own.
    if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 {
        return None;
    }
    // u64 arithmetic: SystemTime's u128 `as_millis` costs more than the read.
    Some(match u64::try_from(ts.tv_sec) {
        Ok(s) => s.saturating_mul(PER_SEC) + ts.tv_nsec as u64 / (1_000_000_000 / PER_SEC),
        Err(_) => 0,
    })
}

/// Whether [`coarse_millis`] reads the precise clock instead
/// (`kuuid::clock::set_millis_clock`).
static PRECISE_MILLIS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`coarse_millis`] read the precise clock (`true`) or the coarse one.
pub(crate) fn set_precise_millis(on: bool) {
    PRECISE_MILLIS.store(on, Ordering::Relaxed);
}

/// What [`set_precise_millis`] last set.
pub(crate) fn precise_millis() -> bool {
    PRECISE_MILLIS.load(Ordering::Relaxed)
}

/// Milliseconds since 1970 from the kernel's coarse clock
/// (`CLOCK_REALTIME_COARSE`, a vDSO read without the hardware counter): it
/// advances once per kernel tick (1-4 ms), so it lags the precise clock
/// (measured: 3-7 ms on 2-vCPU KVM guests with a 4 ms tick). Elsewhere, or when the process chose the precise clock, the
/// precise clock. 0 if before 1970.
#[inline]
pub(crate) fn coarse_millis() -> u64 {
    if precise_millis() {
        return unix_millis();
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Some(ms) = clock_units::<1000>(libc::CLOCK_REALTIME_COARSE) {
        return test_clock::adjust::<1000>(ms);
    }
    unix_millis()
}
