//! The control for `tests/process/fork_objectid.rs`: with the fork guard off (a
//! test-only switch), the child keeps the parent's process value and
//! counter, so the ids it mints are the ones the parent mints next.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait};
use kuuid::ObjectId;

#[test]
fn without_the_guard_a_child_keeps_the_parents_value() {
    crate::common::guard_off();
    let _one_at_a_time = crate::common::serial();
    const N: usize = 1_000;
    const T: u64 = 1_700_000_000_000;
    let shared = Shared::new(1, N);
    let parent_before = kuuid::object_id_at(T).unwrap();
    fork_and_wait(|| shared.write_raw(0, N, || *kuuid::object_id_at(T).unwrap().as_bytes()));
    let child: Vec<ObjectId> = shared
        .slot_raw(0)
        .into_iter()
        .map(ObjectId::from_bytes)
        .collect();
    assert_eq!(child[0].as_bytes()[4..9], parent_before.as_bytes()[4..9]);
    // At a fixed time the parent now mints the child's ids again.
    let parent: Vec<ObjectId> = (0..N).map(|_| kuuid::object_id_at(T).unwrap()).collect();
    let same = parent.iter().zip(&child).filter(|(a, b)| a == b).count();
    assert_eq!(same, N);
}
