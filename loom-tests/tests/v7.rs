//! The UUIDv7 sequence word under every interleaving loom explores: claims
//! on two threads, across a millisecond change and with the clock stepping
//! back, never share a value, each thread's values increase, every value
//! carries at least the millisecond its claim read, and a claim made after
//! the others ended sorts after all of them.
#![cfg(loom)]

use kuuid::__loom::v7_claim;
use loom::sync::Arc;
use loom::sync::atomic::AtomicU64;
use loom::thread;

const COUNTER_BITS: u32 = 22;

/// The values of claims at the given (millisecond, count) pairs, with
/// `start` as every new millisecond's counter start.
fn claims(word: &AtomicU64, plan: &[(u64, u64)], start: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for &(now, count) in plan {
        let first = v7_claim(word, now, || start, count);
        assert!(
            first >> COUNTER_BITS >= now,
            "{first:#x} is before ms {now}"
        );
        out.extend(first..first + count);
    }
    out
}

#[test]
fn two_threads_across_a_new_millisecond() {
    loom::model(|| {
        // The word last minted in millisecond 1.
        let word = Arc::new(AtomicU64::new(1 << COUNTER_BITS | 10));
        let other = {
            let word = word.clone();
            // A block in ms 2, then one id in ms 3.
            thread::spawn(move || claims(&word, &[(2, 2), (3, 1)], 100))
        };
        // One id in ms 3, then one after the clock stepped back to ms 1.
        let mine = claims(&word, &[(3, 1), (1, 1)], 200);
        let theirs = other.join().unwrap();
        for run in [&mine, &theirs] {
            assert!(run.windows(2).all(|w| w[0] < w[1]), "{run:x?}");
        }
        let mut all: Vec<u64> = mine.iter().chain(&theirs).copied().collect();
        all.sort_unstable();
        let n = all.len();
        all.dedup();
        assert_eq!(all.len(), n, "a value twice: {mine:x?} {theirs:x?}");
        // Both threads ended: the next claim is after every value.
        let after = claims(&word, &[(1, 1)], 300)[0];
        assert!(after > all[n - 1], "{after:#x} vs {all:x?}");
    });
}

/// A fresh word (a new process, or a forked child's wiped page) and two
/// threads starting it at once: one start wins and both continue from it.
#[test]
fn a_new_word_starts_once() {
    loom::model(|| {
        let word = Arc::new(AtomicU64::new(0));
        let other = {
            let word = word.clone();
            thread::spawn(move || claims(&word, &[(5, 1)], 100)[0])
        };
        let mine = claims(&word, &[(5, 1)], 200)[0];
        let theirs = other.join().unwrap();
        let (lo, hi) = (mine.min(theirs), mine.max(theirs));
        assert!([5 << COUNTER_BITS | 100, 5 << COUNTER_BITS | 200].contains(&lo));
        assert_eq!(hi, lo + 1, "{mine:#x} {theirs:#x}");
    });
}
