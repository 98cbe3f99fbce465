//! The negative control for `tests/process/fork.rs`: with the fork guard switched
//! off (a test-only switch), a child does repeat its parent's ids, so the
//! fork test can fail.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait, raw_clone_and_wait, repeated_random_parts};

const K: usize = 100;

#[test]
fn without_the_guard_children_repeat_the_parent() {
    crate::common::guard_off();
    let _one_at_a_time = crate::common::serial();
    let shared = Shared::new(3, K);
    let _warm = kuuid::id();
    fork_and_wait(|| shared.mint_into(1, K));
    raw_clone_and_wait(|| shared.mint_into(2, K));
    shared.mint_into(0, K);
    let parent = shared.slot(0);
    for child in [1, 2] {
        let ids = shared.slot(child);
        // The child continues the parent's buffer: the same random parts.
        assert_eq!(ids[0].random_str(), parent[0].random_str(), "slot {child}");
        let both: Vec<_> = parent.iter().chain(&ids).copied().collect();
        assert_eq!(repeated_random_parts(&both), K, "slot {child}");
    }
}
