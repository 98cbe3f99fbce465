//! CouchDB algorithms and fork: a child draws its own `sequential` prefix
//! (the word lives in the wipe-on-fork page) and its own randomness, so no
//! id of parent and children repeats. `tests/unguarded/fork_couch_negative.rs` is the
//! control.
#![cfg(target_os = "linux")]

use crate::common;

use std::collections::HashSet;

use common::{Shared, fork_and_wait, raw_clone_and_wait};
use kuuid::couch::{Algorithm, Uuids};

/// The 32-character algorithms (`utc_id` is unique per suffix only).
const ALGORITHMS: [Algorithm; 5] = [
    Algorithm::Random,
    Algorithm::Sequential,
    Algorithm::UtcRandom,
    Algorithm::UuidV4,
    Algorithm::UuidV7,
];

fn mint(a: Algorithm) -> [u8; 32] {
    let id = Uuids::new(a).generate().unwrap();
    id.as_bytes().try_into().unwrap()
}

#[test]
fn children_never_repeat_the_parent() {
    let _one_at_a_time = crate::common::serial();
    const N: usize = 2_000;
    let slots = ALGORITHMS.len();
    let shared = Shared::new(2 * slots, N);
    let parent_prefix = mint(Algorithm::Sequential)[..26].to_vec();
    fork_and_wait(|| {
        for (i, &a) in ALGORITHMS.iter().enumerate() {
            shared.write_raw(i, N, || mint(a));
        }
    });
    raw_clone_and_wait(|| {
        for (i, &a) in ALGORITHMS.iter().enumerate() {
            shared.write_raw(slots + i, N, || mint(a));
        }
    });
    let mut all: HashSet<[u8; 32]> = HashSet::new();
    for (i, &a) in ALGORITHMS.iter().enumerate() {
        for _ in 0..N {
            assert!(all.insert(mint(a)));
        }
        for child in [i, slots + i] {
            let ids = shared.slot_raw::<32>(child);
            if a == Algorithm::Sequential {
                assert_ne!(ids[0][..26], parent_prefix[..], "slot {child}");
            }
            for id in ids {
                assert!(all.insert(id), "{a} repeated in slot {child}");
            }
        }
    }
    assert_eq!(all.len(), 3 * slots * N);
}

/// CouchDB `sequential` on the path for CPUs without a 128-bit
/// compare-and-swap (forced): a fork, and a raw clone, while another
/// thread holds that path's lock (as a thread inside a claim would) leave
/// the copy minting, never waiting for a thread it does not have, and
/// nothing repeats. (portable-atomic's own fallback lock, used before, is
/// a spin lock a copy would spin on for ever.)
#[cfg(feature = "__test-hooks")]
#[test]
fn sequential_without_a_128_bit_cas_survives_a_fork_inside_a_claim() {
    let _one_at_a_time = crate::common::serial();
    const N: usize = 2_000;
    kuuid::__test_hooks::force_locked_couch_sequential(true);
    let before: Vec<[u8; 32]> = (0..N).map(|_| mint(Algorithm::Sequential)).collect();
    let shared = Shared::new(2, N);
    let (held_tx, held_rx) = std::sync::mpsc::channel();
    let (free_tx, free_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let held = kuuid::__test_hooks::hold_couch_sequential_lock();
        held_tx.send(()).unwrap();
        let _ = free_rx.recv();
        drop(held);
    });
    held_rx.recv().unwrap();
    // The copies must not wait for the holder (they are killed, and the
    // test fails, if they do not finish).
    fork_and_wait(|| shared.write_raw(0, N, || mint(Algorithm::Sequential)));
    raw_clone_and_wait(|| shared.write_raw(1, N, || mint(Algorithm::Sequential)));
    free_tx.send(()).unwrap();
    holder.join().unwrap();
    let after: Vec<[u8; 32]> = (0..N).map(|_| mint(Algorithm::Sequential)).collect();
    kuuid::__test_hooks::force_locked_couch_sequential(false);
    let mut all: HashSet<[u8; 32]> = HashSet::new();
    for id in before
        .into_iter()
        .chain(after)
        .chain(shared.slot_raw::<32>(0))
        .chain(shared.slot_raw::<32>(1))
    {
        assert!(all.insert(id), "a sequential id repeated");
    }
    assert_eq!(all.len(), 4 * N);
}
