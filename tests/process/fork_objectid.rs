//! ObjectId and fork (the spec's test plan): a child's 5-byte process value
//! differs from its parent's, and no id repeats.
//! `tests/unguarded/fork_objectid_negative.rs` is the control.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait, raw_clone_and_wait};
use kuuid::ObjectId;

#[test]
fn a_child_draws_its_own_process_value() {
    let _one_at_a_time = crate::common::serial();
    const N: usize = 10_000;
    let shared = Shared::new(2, N);
    let parent_before = kuuid::object_id();
    fork_and_wait(|| shared.write_raw(0, N, || *kuuid::object_id().as_bytes()));
    raw_clone_and_wait(|| shared.write_raw(1, N, || *kuuid::object_id().as_bytes()));
    let parent_after: Vec<ObjectId> = (0..N).map(|_| kuuid::object_id()).collect();
    let value = |id: &ObjectId| id.as_bytes()[4..9].to_vec();
    let mut all: Vec<ObjectId> = parent_after.clone();
    for slot in 0..2 {
        let child: Vec<ObjectId> = shared
            .slot_raw(slot)
            .into_iter()
            .map(ObjectId::from_bytes)
            .collect();
        assert_ne!(value(&child[0]), value(&parent_before), "slot {slot}");
        all.extend(child);
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 3 * N);
}
