//! `idms_monotonic()`'s word under every interleaving loom explores: two
//! threads claim (one across a new millisecond, one after the clock stepped
//! back), and the (millisecond, first group) pairs the ids are written from
//! never repeat, increase on each thread, and a claim made after both
//! ended sorts after all of them. The word's code is UUIDv7's claim; what
//! is modelled here is that code on this word together with the mapping
//! from its values to the id's parts.
#![cfg(loom)]

use kuuid::__loom::{kuuid_ordered_parts, v7_claim};
use loom::sync::Arc;
use loom::sync::atomic::AtomicU64;
use loom::thread;

const COUNTER_BITS: u32 = 22;

/// The id parts of claims at the given (millisecond, count) pairs.
fn claims(word: &AtomicU64, plan: &[(u64, u64)], start: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    for &(now, count) in plan {
        let first = v7_claim(word, now, || start, count);
        for v in first..first + count {
            let parts = kuuid_ordered_parts(u128::from(v));
            assert!(parts.0 >= now, "{parts:?} is before ms {now}");
            out.push(parts);
        }
    }
    out
}

#[test]
fn two_threads_never_share_an_id_and_stay_in_order() {
    loom::model(|| {
        // The word last minted in millisecond 7, near the counter's end.
        let word = Arc::new(AtomicU64::new(
            7 << COUNTER_BITS | ((1 << COUNTER_BITS) - 2),
        ));
        let other = {
            let word = word.clone();
            thread::spawn(move || claims(&word, &[(7, 2), (8, 1)], 100))
        };
        let mine = claims(&word, &[(8, 1), (6, 1)], 200);
        let theirs = other.join().unwrap();
        for run in [&mine, &theirs] {
            assert!(run.windows(2).all(|w| w[0] < w[1]), "{run:?}");
        }
        let mut all: Vec<(u64, u32)> = mine.iter().chain(&theirs).copied().collect();
        all.sort_unstable();
        let n = all.len();
        all.dedup();
        assert_eq!(all.len(), n, "an id twice: {mine:?} {theirs:?}");
        let after = claims(&word, &[(6, 1)], 300)[0];
        assert!(after > all[n - 1], "{after:?} vs {all:?}");
    });
}
