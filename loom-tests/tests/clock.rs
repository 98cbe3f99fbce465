//! The process clock's shared state under every interleaving loom explores:
//! a thread's readings never decrease, a step back of the wall clock never
//! shows, and no published time is lost.
#![cfg(loom)]

use kuuid::clock::{MonotonicClock, Seen, TimeSource};
use loom::sync::Arc;
use loom::sync::atomic::{AtomicU64, Ordering};
use loom::thread;

/// A wall clock that loom can interleave with (milliseconds).
struct LoomClock(AtomicU64);

impl LoomClock {
    fn set(&self, ms: u64) {
        self.0.store(ms, Ordering::Relaxed);
    }
}

impl TimeSource for LoomClock {
    fn secs(&self) -> u64 {
        self.millis() / 1000
    }
    fn millis(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

fn clock(ms: u64) -> Arc<MonotonicClock<LoomClock>> {
    Arc::new(MonotonicClock::new(LoomClock(AtomicU64::new(ms))))
}

/// One thread reads while another steps the clock back an hour, reads, then
/// forward past the start and reads again.
#[test]
fn seconds_never_go_back_and_nothing_is_lost() {
    loom::model(|| {
        let c = clock(3_600_000 + 100_000);
        let reader = {
            let c = c.clone();
            thread::spawn(move || {
                let mut seen = Seen::default();
                let a = c.secs(&mut seen);
                let b = c.secs(&mut seen);
                assert!(b >= a, "reader went back: {a} then {b}");
                (a, b)
            })
        };
        let stepper = {
            let c = c.clone();
            thread::spawn(move || {
                let mut seen = Seen::default();
                let first = c.secs(&mut seen);
                c.source().set(100_000); // one hour back
                let back = c.secs(&mut seen);
                assert!(back >= first, "a step back showed: {first} then {back}");
                c.source().set(3_600_000 + 101_000);
                let fwd = c.secs(&mut seen);
                assert!(fwd >= back);
                (first, fwd)
            })
        };
        let (a, b) = reader.join().unwrap();
        let (first, last) = stepper.join().unwrap();
        // Every reading is at least the start: the step back never leaked.
        for v in [a, b, first, last] {
            assert!(v >= 3_700, "saw {v}");
        }
        assert_eq!(last, 3_701);
        // No lost update: a newcomer reading a clock set to 0 gets the newest.
        c.source().set(0);
        let mut seen = Seen::default();
        assert_eq!(c.secs(&mut seen), 3_701);
    });
}

/// Two threads publish different milliseconds concurrently; afterwards the
/// shared newest is the larger, and each thread's own readings rose.
#[test]
fn millis_publish_keeps_the_max() {
    loom::model(|| {
        let c = clock(1_000);
        let handles: Vec<_> = [5_000u64, 7_000]
            .into_iter()
            .map(|ms| {
                let c = c.clone();
                thread::spawn(move || {
                    let mut seen = Seen::default();
                    let before = c.millis(&mut seen);
                    c.source().set(ms);
                    let after = c.millis(&mut seen);
                    assert!(after >= before);
                    after
                })
            })
            .collect();
        let afters: Vec<u64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        c.source().set(0);
        let mut seen = Seen::default();
        // The shared newest is exactly the largest time any thread was given:
        // every publish is kept (fetch_max), none is lost to a race.
        let newest = c.millis(&mut seen);
        assert_eq!(newest, *afters.iter().max().unwrap());
        let mut again = Seen::default();
        assert_eq!(c.millis(&mut again), newest, "stable once published");
    });
}
