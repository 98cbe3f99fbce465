//! How a figure is timed: one warm-up, then timed rounds reduced to min,
//! median and max; for the thread rows, threads started together and timed
//! by themselves.

use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Seconds per round of `f`: min, median, max of `rounds` timed runs after
/// one warm-up run.
pub(super) fn stats(rounds: u64, mut f: impl FnMut()) -> [f64; 3] {
    f();
    spread(
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

/// Min, median and max of the rounds' figures.
fn spread(mut t: Vec<f64>) -> [f64; 3] {
    t.sort_by(f64::total_cmp);
    [t[0], t[t.len() / 2], t[t.len() - 1]]
}

/// Seconds per item with `threads` threads at once, each running `unit`
/// (which returns the items it made) on state from `init` (made before the
/// clock starts) until `span` has passed. A round's time is from the first
/// thread's start to the last one's end, read by the threads themselves (a
/// timing thread of its own could be descheduled while they work), and it
/// lasts long enough that a vCPU the host is slow to wake costs little.
pub(super) fn stats_threaded<S>(
    threads: usize,
    rounds: u64,
    span: Duration,
    init: impl Fn() -> S + Sync,
    unit: impl Fn(&mut S) -> u64 + Sync,
) -> [f64; 3] {
    let round = || {
        let barrier = Barrier::new(threads);
        let runs: Vec<(Instant, Instant, u64)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut state = init();
                        barrier.wait();
                        let start = Instant::now();
                        let mut items = 0;
                        while start.elapsed() < span {
                            items += unit(&mut state);
                        }
                        (start, Instant::now(), items)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a bench thread does not panic"))
                .collect()
        });
        let first = runs.iter().map(|r| r.0).min().expect("one thread or more");
        let last = runs.iter().map(|r| r.1).max().expect("one thread or more");
        let items: u64 = runs.iter().map(|r| r.2).sum();
        (last - first).as_secs_f64() / items as f64
    };
    round();
    spread((0..rounds).map(|_| round()).collect())
}
