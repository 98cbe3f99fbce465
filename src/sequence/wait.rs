//! Waiting for another thread that holds a lock: spin briefly, then sleep
//! with a doubling interval, so a thread that waits seconds for a locked
//! database file costs almost no CPU.

#[cfg(not(loom))]
use std::time::Duration;

/// The longest sleep between two looks at the lock: the most a waiter
/// can lag behind its release once it has waited a while.
#[cfg(not(loom))]
const MAX_SLEEP: Duration = Duration::from_millis(2);

/// Spins for the first few rounds, yields for a few more, then sleeps
/// from 20 µs, doubling up to [`MAX_SLEEP`].
#[derive(Debug, Default)]
pub(super) struct Backoff {
    round: u32,
}

impl Backoff {
    /// Waits a little longer than the last time.
    pub(super) fn wait(&mut self) {
        #[cfg(loom)]
        loom::thread::yield_now();
        #[cfg(not(loom))]
        match self.round {
            0..6 => (0..1 << self.round).for_each(|_| std::hint::spin_loop()),
            6..10 => std::thread::yield_now(),
            r => {
                let sleep = Duration::from_micros(20 << (r - 10).min(7)).min(MAX_SLEEP);
                std::thread::sleep(sleep);
            }
        }
        self.round = self.round.saturating_add(1);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// A long wait sleeps: 200 rounds cost well over their spin time, and
    /// the CPU time stays a small part of the wall time.
    #[test]
    fn long_waits_sleep() {
        let start = std::time::Instant::now();
        let mut b = Backoff::default();
        for _ in 0..200 {
            b.wait();
        }
        // 190 sleeps, most at the cap.
        assert!(
            start.elapsed() >= Duration::from_millis(200),
            "{:?}",
            start.elapsed()
        );
    }
}
