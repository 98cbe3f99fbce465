//! The opt-in ticker: ids minted while it runs carry the wall clock's second
//! as it moves; a forked child (by `fork` or a raw `clone`) does not see the
//! parent's frozen second, can drop the handle it inherited, and can start
//! its own ticker.
//!
//! One test in its own file (its own process): it forks, and it is the only
//! thing here that starts or stops a ticker.
#![cfg(target_os = "linux")]

use crate::common;

use std::cell::Cell;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{fork_and_wait, raw_clone_and_wait};
use kuuid::Layout;
use kuuid::clock::Ticker;

fn wall_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

/// How far behind the wall clock a ticked id may be: the ticker thread's
/// wake-up lag after a boundary, which a loaded machine stretches. Two
/// seconds, generous; a ticker that stopped publishing still fails the
/// "the second moved" check below.
const LAG_SECS: u64 = 2;

/// Mints an id every few ms for `span`: each carries a second between the
/// wall clock's before the call (less [`LAG_SECS`]) and after it; returns
/// the distinct seconds seen.
fn sample_ids(span: Duration) -> Vec<u64> {
    let mut seen = Vec::new();
    let start = Instant::now();
    while start.elapsed() < span {
        let before = wall_secs();
        let secs = kuuid::id().timestamp(Layout::SECONDS).as_secs();
        let after = wall_secs();
        assert!(
            secs + LAG_SECS >= before && secs <= after,
            "id second {secs} outside [{before} - {LAG_SECS}, {after}]"
        );
        if seen.last() != Some(&secs) {
            seen.push(secs);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    seen
}

#[test]
fn ticked_ids_follow_the_wall_clock_and_children_do_not_inherit_it() {
    let _one_at_a_time = crate::common::serial();
    assert!(!Ticker::is_running());
    // Two handles, one thread. In Cells so the child can drop both.
    let first = Cell::new(Some(Ticker::start().expect("a thread")));
    assert!(Ticker::is_running());
    let second = Cell::new(Some(Ticker::start().expect("joins the first")));

    std::thread::scope(|s| {
        // The parent: ids follow the clock across at least two boundaries,
        // so a ticker that stopped publishing would fail the bounds.
        let parent = s.spawn(|| sample_ids(Duration::from_millis(2300)));

        fork_and_wait(|| {
            // The parent's published second is wiped: this child reads
            // time() until it starts its own ticker.
            assert!(!Ticker::is_running());
            std::thread::sleep(Duration::from_millis(2100));
            let secs = kuuid::id().timestamp(Layout::SECONDS).as_secs();
            assert!(secs + 1 >= wall_secs(), "child minted a stale second");
            // Dropping the last inherited handle must neither join nor
            // detach the parent's thread (it would hang or crash here).
            drop(first.take());
            drop(second.take());
            assert!(!Ticker::is_running());
            let own = Ticker::start().expect("a thread in the child");
            assert!(Ticker::is_running());
            sample_ids(Duration::from_millis(50));
            drop(own);
            assert!(!Ticker::is_running());
        });
        raw_clone_and_wait(|| assert!(!Ticker::is_running()));

        let seconds = parent.join().expect("sampler");
        assert!(seconds.len() >= 2, "the second never moved: {seconds:?}");
    });

    // The thread runs until the last handle goes.
    drop(second.take());
    assert!(Ticker::is_running());
    drop(first.take());
    assert!(!Ticker::is_running());
    sample_ids(Duration::from_millis(20));
}
