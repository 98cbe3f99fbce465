//! A monotonic generator after `fork()` and after `kuuid::reseed()`: the
//! child (or the reseeded generator) must not step from the parent's last
//! id. Before the fix their next ids shared the prefix and the first random
//! groups (steps of at most 2^32 touch only the last group); now the child
//! starts a fresh walk one unit on. `tests/unguarded/fork_monotonic_negative.rs` is
//! the control: with the fork guard off, the same comparison fails.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait, raw_clone_and_wait};
use kuuid::{Generator, Kuuid};

#[test]
fn a_forked_child_does_not_continue_its_parents_walk() {
    let _one_at_a_time = crate::common::serial();
    let shared = Shared::new(3, 100);
    let mut g = Generator::secure().monotonic().at(0u64).unwrap();
    let before = g.generate();
    fork_and_wait(|| shared.write_with(1, 100, || g.generate()));
    raw_clone_and_wait(|| shared.write_with(2, 100, || g.generate()));
    shared.write_with(0, 100, || g.generate());
    let parent = shared.slot(0);
    for child in [1, 2] {
        let ids = shared.slot(child);
        assert_ne!(
            &ids[0].random_str()[..6],
            &parent[0].random_str()[..6],
            "slot {child}: the child stepped from the parent's point"
        );
        // Order still holds in the child: after the last id before the fork.
        assert!(ids[0] > before, "slot {child}");
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "slot {child}");
        let mut all: Vec<Kuuid> = parent.iter().chain(&ids).copied().collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 200, "slot {child}");
    }
}

#[test]
fn reseed_starts_a_fresh_walk_in_order() {
    let _one_at_a_time = crate::common::serial();
    let mut g = Generator::fast().monotonic().at(0u64).unwrap();
    let last = g.generate();
    kuuid::reseed();
    let next = g.generate();
    assert!(next > last);
    assert_ne!(&next.random_str()[..6], &last.random_str()[..6]);
    assert!(next.prefix() > last.prefix(), "a fresh walk one unit on");
}
