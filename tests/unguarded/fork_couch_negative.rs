//! The control for `tests/process/fork_couch.rs`: with the fork guard off (a
//! test-only switch), a child keeps the parent's `sequential` prefix,
//! counter and randomness, so it mints exactly the ids the parent mints
//! next.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait};
use kuuid::couch::{Algorithm, Uuids};

#[test]
fn without_the_guard_a_child_repeats_the_parents_sequence() {
    crate::common::guard_off();
    let _one_at_a_time = crate::common::serial();
    const N: usize = 1_000;
    let ids = Uuids::new(Algorithm::Sequential);
    let mint = || -> [u8; 32] { ids.generate().unwrap().as_bytes().try_into().unwrap() };
    let shared = Shared::new(1, N);
    let before = mint();
    fork_and_wait(|| shared.write_raw(0, N, mint));
    let child = shared.slot_raw::<32>(0);
    assert_eq!(child[0][..26], before[..26]);
    let parent: Vec<[u8; 32]> = (0..N).map(|_| mint()).collect();
    assert_eq!(parent, child);
}
