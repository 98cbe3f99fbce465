//! UUIDv7 and fork: the process sequence sits in the wipe-on-fork page and
//! the child reseeds, so a child's ids never repeat the parent's, minted now
//! (a plain fork and a raw clone) or at a fixed time.
//! `tests/unguarded/fork_v7_negative.rs` is the control: with the fork guard off, the
//! child repeats the parent.
#![cfg(target_os = "linux")]

use crate::common;

use std::collections::HashSet;

use common::{Shared, fork_and_wait, raw_clone_and_wait};
use kuuid::Uuid7;

const N: usize = 50_000;
const T: u64 = 1_700_000_000_000;

#[test]
fn a_child_never_repeats_its_parents_v7() {
    let _one_at_a_time = crate::common::serial();
    let shared = Shared::new(3, N);
    let before: Vec<Uuid7> = (0..N).map(|_| kuuid::v7()).collect();
    let _warm = kuuid::v7_at(T).unwrap();
    fork_and_wait(|| {
        let mut ids = vec![Uuid7::MIN; N];
        kuuid::fill_v7(&mut ids);
        let mut it = ids.into_iter();
        shared.write_v7(0, N, || it.next().unwrap());
    });
    raw_clone_and_wait(|| shared.write_v7(1, N, kuuid::v7));
    fork_and_wait(|| shared.write_v7(2, N, || kuuid::v7_at(T).unwrap()));
    let after: Vec<Uuid7> = (0..N).map(|_| kuuid::v7()).collect();
    let parent_at: Vec<Uuid7> = (0..N).map(|_| kuuid::v7_at(T).unwrap()).collect();
    for slot in 0..2 {
        assert!(
            shared.slot_v7(slot).windows(2).all(|w| w[0] < w[1]),
            "slot {slot}"
        );
    }
    let mut all: Vec<Uuid7> = before
        .iter()
        .chain(&after)
        .chain(&parent_at)
        .copied()
        .collect();
    for slot in 0..3 {
        all.extend(shared.slot_v7(slot));
    }
    let distinct: HashSet<Uuid7> = all.iter().copied().collect();
    assert_eq!(distinct.len(), all.len());
    // The parent's own sequence is unbroken by its children.
    assert!(before[N - 1] < after[0]);
}

/// A `V7Generator` carried into a child drops the block it claimed in the
/// parent: the child's first (millisecond, counter) value is not the one
/// the parent takes next (the 52 random bits alone would
/// hide a repeat, so the test compares the sequence values). Only the
/// first is compared: the child's fresh random start lands on it with
/// probability 2^-21, while two runs of 200 values overlap by chance about
/// once in 5,000.
#[test]
fn a_generators_block_does_not_cross_a_fork() {
    let _one_at_a_time = crate::common::serial();
    const M: usize = 200;
    let seq = |id: &Uuid7| (id.timestamp().as_millis(), id.counter());
    let mut g = kuuid::V7Generator::new();
    let _ = g.generate();
    let shared = Shared::new(1, M);
    fork_and_wait(|| shared.write_v7(0, M, || g.generate()));
    let parent: Vec<(u64, u64)> = (0..M).map(|_| seq(&g.generate())).collect();
    let child = shared.slot_v7(0);
    assert!(child.windows(2).all(|w| w[0] < w[1]));
    assert_ne!(
        seq(&child[0]),
        parent[0],
        "the child minted from the parent's block"
    );
}
