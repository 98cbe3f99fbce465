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
    let id = Uuids::new(a).mint().unwrap();
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
