//! Tickers started and stopped from two threads at once: while a thread holds
//! a handle the second stays published (a stopping ticker must not clear the
//! word a newer one publishes), and once every handle is gone it is cleared.
//!
//! Its own file (its own process): `tests/process/ticker.rs` asserts that no ticker
//! runs when it starts.

use std::time::Duration;

use kuuid::clock::Ticker;

#[test]
fn overlapping_starts_and_stops_keep_the_word_while_a_handle_lives() {
    let _one_at_a_time = crate::common::serial();
    std::thread::scope(|s| {
        for t in 0..2u64 {
            s.spawn(move || {
                for i in 0..20_000u64 {
                    let handle = Ticker::start().expect("a thread");
                    // Let the other thread's stop (if any) finish while this
                    // handle lives, now and then.
                    if (i + t) % 7 == 0 {
                        std::thread::sleep(Duration::from_micros(200));
                    }
                    assert!(Ticker::is_running(), "thread {t}, round {i}");
                    drop(handle);
                }
            });
        }
    });
    assert!(!Ticker::is_running());
}
