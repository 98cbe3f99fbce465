//! The control for `tests/process/fork_monotonic.rs`: with the fork guard off (a
//! test-only switch), a child's monotonic generator continues its parent's
//! walk with the same randomness, so the comparison that test makes fails.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait};
use kuuid::Generator;

#[test]
fn without_the_guard_the_child_repeats_the_parents_walk() {
    crate::common::guard_off();
    let _one_at_a_time = crate::common::serial();
    let shared = Shared::new(2, 10);
    let mut g = Generator::secure().monotonic().at(0u64).unwrap();
    let _ = g.generate();
    fork_and_wait(|| shared.write_with(1, 10, || g.generate()));
    shared.write_with(0, 10, || g.generate());
    let (parent, child) = (shared.slot(0), shared.slot(1));
    assert_eq!(&child[0].random_str()[..6], &parent[0].random_str()[..6]);
    assert_eq!(child, parent);
}
