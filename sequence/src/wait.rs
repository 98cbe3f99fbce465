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

    /// The thread's CPU time so far.
    #[cfg(unix)]
    fn thread_cpu() -> Duration {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec, which we own.
        assert_eq!(
            unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) },
            0
        );
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    }

    /// A long wait sleeps: 200 rounds (190 of them sleeps, most at the
    /// cap) cost the thread far less CPU than they take. CPU time, not wall
    /// time, so a loaded machine (which stretches the wall time) cannot
    /// fail it; a backoff that spun would use about all of its wall time.
    #[cfg(unix)]
    #[test]
    fn long_waits_sleep() {
        let (wall, cpu) = (std::time::Instant::now(), thread_cpu());
        let mut b = Backoff::default();
        for _ in 0..200 {
            b.wait();
        }
        let (wall, cpu) = (wall.elapsed(), thread_cpu() - cpu);
        assert!(cpu * 4 < wall, "{cpu:?} of CPU in {wall:?}");
    }
}
