//! The sequence's block handover (tickets, a ring of seqlock slots, here
//! of two so that it wraps within a model, the installers' lock) under every interleaving loom explores: no value is
//! handed out twice, each thread's values increase, a prefetch racing the
//! claims changes neither, and after a "fork" (a new token) no value of a
//! block leased under the old one comes back.
#![cfg(loom)]

use kuuid_sequence::Blocks;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicU64, Ordering};
use loom::thread;

/// The database: a counter that hands out `len` values per lease.
#[derive(Default)]
struct Db(AtomicU64);

impl Db {
    fn lease(&self, len: u64) -> Result<u64, ()> {
        Ok(self.0.fetch_add(len, Ordering::Relaxed))
    }
}

const TOKEN: u64 = 1;
fn pid() -> u32 {
    1
}

fn claims(blocks: &Blocks<2>, db: &Db, n: usize, token: u64) -> Vec<u64> {
    (0..n)
        .map(|_| {
            blocks
                .claim(1, token, &pid, |_| db.lease(blocks.block_len()))
                .unwrap()
                .first
        })
        .collect()
}

fn check(runs: &[Vec<u64>]) {
    let mut all: Vec<u64> = runs.iter().flatten().copied().collect();
    for run in runs {
        assert!(
            run.windows(2).all(|w| w[0] < w[1]),
            "a thread went down: {run:?}"
        );
    }
    all.sort();
    let n = all.len();
    all.dedup();
    assert_eq!(all.len(), n, "a value twice: {runs:?}");
}

/// A thread claims across block switches (blocks of 1 value: every claim
/// needs a new block) while another installs ahead, as the prefetch
/// thread does. (The installers' lock spins, so a run takes more steps
/// than loom's default allows.)
#[test]
fn claims_and_a_prefetch_never_share_a_value() {
    let mut model = loom::model::Builder::new();
    model.max_branches = 100_000;
    model.check(|| {
        let blocks = Arc::new(Blocks::<2>::new(1));
        let db = Arc::new(Db::default());
        let claimer = {
            let (blocks, db) = (blocks.clone(), db.clone());
            thread::spawn(move || claims(&blocks, &db, 3, TOKEN))
        };
        let prefetch = {
            let (blocks, db) = (blocks.clone(), db.clone());
            thread::spawn(move || {
                let _ = blocks.install_through(1, TOKEN, &pid, |_| db.lease(1));
            })
        };
        let run = claimer.join().unwrap();
        prefetch.join().unwrap();
        check(&[run]);
    });
}

/// Blocks of two values, two threads taking one at a time: claims inside
/// a block and across the switch.
#[test]
fn claims_within_and_across_blocks() {
    loom::model(|| {
        let blocks = Arc::new(Blocks::<2>::new(2));
        let db = Arc::new(Db::default());
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let (blocks, db) = (blocks.clone(), db.clone());
                thread::spawn(move || claims(&blocks, &db, 2, TOKEN))
            })
            .collect();
        let runs: Vec<Vec<u64>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        check(&runs);
    });
}

/// A "forked child" (a new token) with two threads: none of its values
/// comes from the blocks leased under the parent's token.
#[test]
fn a_new_token_never_reuses_an_old_block() {
    loom::model(|| {
        let blocks = Arc::new(Blocks::<2>::new(2));
        let db = Arc::new(Db::default());
        let parent = claims(&blocks, &db, 1, TOKEN);
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let (blocks, db) = (blocks.clone(), db.clone());
                thread::spawn(move || claims(&blocks, &db, 1, TOKEN + 1))
            })
            .collect();
        let mut runs: Vec<Vec<u64>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        runs.push(parent);
        check(&runs);
    });
}
