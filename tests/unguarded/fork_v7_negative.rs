//! The control for `tests/process/fork_v7.rs`: with the fork guard off (a test-only
//! switch), the child draws the parent's next random words and mints, at a
//! fixed time (no clock in it), the very UUIDv7s the parent mints next.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait};
use kuuid::Uuid7;

#[test]
fn without_the_guard_a_child_repeats_its_parents_v7() {
    crate::common::guard_off();
    let _one_at_a_time = crate::common::serial();
    const N: usize = 1_000;
    const T: u64 = 1_700_000_000_000;
    let shared = Shared::new(1, N);
    let _warm = kuuid::v7_at(T).unwrap();
    fork_and_wait(|| shared.write_v7(0, N, || kuuid::v7_at(T).unwrap()));
    let parent: Vec<Uuid7> = (0..N).map(|_| kuuid::v7_at(T).unwrap()).collect();
    let child = shared.slot_v7(0);
    let same = parent.iter().zip(&child).filter(|(a, b)| a == b).count();
    assert_eq!(same, N);
}
