//! The monotonic clock: a source of wall time, and the process-wide rule
//! (two shared atomics, a memo per caller) that the time it gives never
//! goes backwards.

use crossbeam_utils::CachePadded;

#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicU64, Ordering};

/// A wall clock: whole seconds and milliseconds since 1970.
///
/// ```
/// use kuuid::clock::{ManualClock, TimeSource};
/// let c = ManualClock::new(1_514_764_800_123);
/// assert_eq!(c.secs(), 1_514_764_800);
/// assert_eq!(c.millis(), 1_514_764_800_123);
/// ```
pub trait TimeSource: Send + Sync {
    /// Whole seconds since 1970 (the cheapest read the source has).
    fn secs(&self) -> u64;
    /// Milliseconds since 1970, exact to the millisecond.
    fn millis(&self) -> u64;
}

/// The system's wall clock: for seconds, a running [`Ticker`](super::Ticker)'s second or
/// else `time(2)` (vDSO, ~2 ns); the precise `CLOCK_REALTIME` for
/// milliseconds.
///
/// ```
/// use kuuid::clock::{SystemClock, TimeSource};
/// assert!(SystemClock.secs() > 1_700_000_000);
/// assert!(SystemClock.millis() / 1000 >= SystemClock.secs() - 1);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl TimeSource for SystemClock {
    #[inline]
    fn secs(&self) -> u64 {
        crate::sys::unix_secs()
    }

    #[inline]
    fn millis(&self) -> u64 {
        crate::sys::unix_millis()
    }
}

#[cfg_attr(not(feature = "internals"), allow(dead_code))]
/// A clock that reads what it was last set to: for tests of clock steps.
///
/// ```
/// use kuuid::clock::{ManualClock, TimeSource};
/// let c = ManualClock::new(5_000);
/// c.set(2_000); // one step back
/// assert_eq!(c.secs(), 2);
/// ```
#[derive(Debug, Default)]
pub struct ManualClock {
    ms: std::sync::atomic::AtomicU64,
}

#[cfg_attr(not(feature = "internals"), allow(dead_code))]
impl ManualClock {
    /// A clock reading `ms` milliseconds since 1970.
    pub fn new(ms: u64) -> Self {
        ManualClock {
            ms: std::sync::atomic::AtomicU64::new(ms),
        }
    }

    /// Sets the time (forward or back).
    pub fn set(&self, ms: u64) {
        self.ms.store(ms, std::sync::atomic::Ordering::Relaxed);
    }
}

impl TimeSource for ManualClock {
    fn secs(&self) -> u64 {
        self.millis() / 1000
    }

    fn millis(&self) -> u64 {
        self.ms.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// What one caller has seen of a [`MonotonicClock`]: the raw reading and the
/// time it was given for it, per unit. Start from `Seen::default()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    raw_secs: u64,
    secs: u64,
    raw_millis: u64,
    millis: u64,
}

/// A time source made monotonic across every thread that shares it.
///
/// ```
/// use kuuid::clock::{ManualClock, MonotonicClock, Seen};
/// let clock = MonotonicClock::new(ManualClock::new(10_000));
/// let mut seen = Seen::default();
/// assert_eq!(clock.secs(&mut seen), 10);
/// clock.source().set(5_000); // the wall clock steps back
/// assert_eq!(clock.secs(&mut seen), 10); // the newest second holds
/// let mut other = Seen::default(); // another thread
/// assert_eq!(clock.secs(&mut other), 10);
/// ```
#[derive(Debug)]
pub struct MonotonicClock<S> {
    source: S,
    newest_secs: CachePadded<AtomicU64>,
    newest_millis: CachePadded<AtomicU64>,
}

impl<S> MonotonicClock<S> {
    /// Wraps `source`; nothing has been seen yet.
    #[cfg(not(loom))]
    pub const fn new(source: S) -> Self {
        MonotonicClock {
            source,
            newest_secs: CachePadded::new(AtomicU64::new(0)),
            newest_millis: CachePadded::new(AtomicU64::new(0)),
        }
    }

    /// Wraps `source`; nothing has been seen yet.
    #[cfg(loom)]
    pub fn new(source: S) -> Self {
        MonotonicClock {
            source,
            newest_secs: CachePadded::new(AtomicU64::new(0)),
            newest_millis: CachePadded::new(AtomicU64::new(0)),
        }
    }

    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    /// The wrapped source.
    pub fn source(&self) -> &S {
        &self.source
    }
}

impl<S: TimeSource> MonotonicClock<S> {
    /// Seconds since 1970: the source's, or the newest any sharer has seen
    /// if that is later. Never less than what `seen` was given before.
    #[inline]
    pub fn secs(&self, seen: &mut Seen) -> u64 {
        read(
            self.source.secs(),
            &self.newest_secs,
            &mut seen.raw_secs,
            &mut seen.secs,
        )
    }

    /// Milliseconds since 1970, with the same guarantee as [`Self::secs`].
    #[inline]
    pub fn millis(&self, seen: &mut Seen) -> u64 {
        read(
            self.source.millis(),
            &self.newest_millis,
            &mut seen.raw_millis,
            &mut seen.millis,
        )
    }
}

/// The time for a `raw` reading: the memo's while neither the reading nor the
/// shared newest moved, else the newest after publishing `raw`.
#[inline]
fn read(raw: u64, newest: &AtomicU64, seen_raw: &mut u64, seen: &mut u64) -> u64 {
    if raw == *seen_raw && newest.load(Ordering::Relaxed) == *seen {
        return *seen;
    }
    let t = publish(newest, raw);
    *seen_raw = raw;
    *seen = t;
    t
}

/// Publishes `raw` and returns the newest time: `raw` or a later one
/// another sharer published.
#[cold]
fn publish(newest: &AtomicU64, raw: u64) -> u64 {
    newest.fetch_max(raw, Ordering::AcqRel).max(raw)
}

/// The process-wide clock behind every id minted "now".
#[cfg(not(loom))]
#[inline]
pub(crate) fn system() -> &'static MonotonicClock<SystemClock> {
    static CLOCK: MonotonicClock<SystemClock> = MonotonicClock::new(SystemClock);
    &CLOCK
}

/// The process-wide clock (loom's atomics cannot be built in a `static`).
#[cfg(loom)]
pub(crate) fn system() -> &'static MonotonicClock<SystemClock> {
    static CLOCK: std::sync::OnceLock<MonotonicClock<SystemClock>> = std::sync::OnceLock::new();
    CLOCK.get_or_init(|| MonotonicClock::new(SystemClock))
}
