//! The other process words under every interleaving loom explores: the
//! ObjectId state (a seed installed once, then blocks by `fetch_add`), and
//! CouchDB's `sequential` (a counter stepping under a prefix, and a new
//! prefix at the limit) and `utc_*` (the clock, or one past the last)
//! compare-and-swap loops. Two threads never get the same value, and each
//! thread's values follow the word's order.
#![cfg(loom)]

use kuuid::__loom::{
    Word128, couch_sequential_claim, couch_utc_claim, object_id_claim, object_id_reseed,
};
use loom::sync::atomic::AtomicU64;
use loom::sync::{Arc, Mutex};
use loom::thread;

/// Every value once.
fn assert_unique<T: Ord + Copy + std::fmt::Debug>(a: &[T], b: &[T]) {
    let mut all: Vec<T> = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let n = all.len();
    all.dedup();
    assert_eq!(all.len(), n, "a value twice: {a:x?} {b:x?}");
}

/// A fresh ObjectId word (a new process, a forked child) started by two
/// threads at once with different seeds: one seed wins, and a single
/// state and a block of 3 never overlap.
#[test]
fn object_id_seeds_once_and_claims_apart() {
    loom::model(|| {
        let word = Arc::new(AtomicU64::new(0));
        let other = {
            let word = word.clone();
            thread::spawn(move || {
                let first = object_id_claim(&*word, || 100, 3);
                (first..first + 3).collect::<Vec<u64>>()
            })
        };
        let mine = [object_id_claim(&*word, || 200, 1)];
        let theirs = other.join().unwrap();
        assert_unique(&mine, &theirs);
        let seed = theirs[0].min(mine[0]) - 1;
        assert!(seed == 100 || seed == 200, "{mine:?} {theirs:?}");
        assert!(
            mine.iter()
                .chain(&theirs)
                .all(|&v| v > seed && v <= seed + 4)
        );
    });
}

/// A reseed (a new random value stored) while another thread claims: the
/// claims before and after never share a state with the claimer's.
#[test]
fn object_id_reseed_while_claiming() {
    loom::model(|| {
        let word = Arc::new(AtomicU64::new(1000));
        let other = {
            let word = word.clone();
            thread::spawn(move || {
                let a = object_id_claim(&*word, || unreachable!(), 1);
                let b = object_id_claim(&*word, || unreachable!(), 1);
                vec![a, b]
            })
        };
        object_id_reseed(&*word, 5000);
        let mine = [object_id_claim(&*word, || unreachable!(), 2)];
        let theirs = other.join().unwrap();
        assert_unique(&[mine[0], mine[0] + 1], &theirs);
        assert!(theirs[0] < theirs[1] || theirs[1] > 5000, "{theirs:?}");
    });
}

/// loom has no 128-bit atomic: a mutex whose compare-exchange is as
/// indivisible as the hardware's.
struct Word(Mutex<u128>);

impl Word128 for Word {
    fn load(&self) -> u128 {
        *self.0.lock().unwrap()
    }
    fn compare_exchange(&self, current: u128, new: u128) -> Result<u128, u128> {
        let mut w = self.0.lock().unwrap();
        if *w == current {
            *w = new;
            Ok(current)
        } else {
            Err(*w)
        }
    }
}

const LIMIT: u128 = 0xfff000;

/// Two threads step the `sequential` counter across the limit, each with
/// its own step and its own fresh prefix: no value twice, one prefix
/// installed per rollover, and each thread's values under one prefix
/// increase.
#[test]
fn couch_sequential_rolls_over_once() {
    loom::model(|| {
        let (pa, pb) = (0xAAu128 << 120, 0xBBu128 << 120);
        let word = Arc::new(Word(Mutex::new(pa | (LIMIT - 1))));
        let other = {
            let word = word.clone();
            thread::spawn(move || {
                (0..2)
                    .map(|_| couch_sequential_claim(&*word, || 5, || pb))
                    .collect::<Vec<u128>>()
            })
        };
        let mine: Vec<u128> = (0..2)
            .map(|_| couch_sequential_claim(&*word, || 3, || 0xCCu128 << 120))
            .collect();
        let theirs = other.join().unwrap();
        assert_unique(&mine, &theirs);
        let prefixes: std::collections::HashSet<u128> =
            mine.iter().chain(&theirs).map(|v| v >> 24).collect();
        // The old prefix (one step past the limit) and at most one new one.
        assert!(prefixes.len() <= 2, "{mine:x?} {theirs:x?}");
        for run in [&mine, &theirs] {
            if run[0] >> 24 == run[1] >> 24 {
                assert!(run[0] < run[1], "{run:x?}");
            }
        }
    });
}

/// Two threads claim `utc_*` microseconds, one with a clock behind the
/// word: no value twice, each at or after its clock, each thread's
/// increasing.
#[test]
fn couch_utc_counts_on_past_a_late_clock() {
    loom::model(|| {
        let word = Arc::new(AtomicU64::new(100));
        let other = {
            let word = word.clone();
            thread::spawn(move || vec![couch_utc_claim(&*word, 150), couch_utc_claim(&*word, 150)])
        };
        let mine = vec![couch_utc_claim(&*word, 90), couch_utc_claim(&*word, 151)];
        let theirs = other.join().unwrap();
        assert_unique(&mine, &theirs);
        assert!(theirs.iter().all(|&v| v >= 150) && mine[1] >= 151);
        assert!(mine[0] < mine[1] && theirs[0] < theirs[1]);
    });
}
