//! Fork safety: a two-thread parent forks children (one nested, one through
//! a raw `clone(SIGCHLD)` that skips atfork handlers, one from its second
//! thread); everyone mints into shared memory; no id and no random part may
//! repeat, and each child's first id differs from the parent's next one.
//!
//! One test in its own file (its own process), so no other test's threads
//! are about when it forks. `tests/unguarded/fork_negative.rs` is the control.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, assert_all_unique, fork_and_wait, raw_clone_and_wait};

const K: usize = 2000;

#[test]
fn children_never_repeat_the_parent_or_each_other() {
    let _one_at_a_time = crate::common::serial();
    // Slots: 0 parent main thread, 1 parent's second thread, 2 parent after,
    // 3 child, 4 grandchild, 5 raw-clone child, 6 child of the second thread,
    // 7 a Generator's ids in the parent, 8 the same Generator in a child.
    let shared = Shared::new(9, K);
    // Warm the per-thread buffer so a child would inherit pre-drawn ids.
    shared.mint_into_from(0, 0, K / 2);
    let mut g = kuuid::Generator::secure();
    shared.write_range(7, 0, K / 2, || g.generate());
    std::thread::scope(|s| {
        let second = s.spawn(|| {
            shared.mint_into_from(1, 0, K / 2);
            fork_and_wait(|| shared.mint_into(6, K));
            shared.mint_into_from(1, K / 2, K);
        });
        fork_and_wait(|| {
            shared.mint_into(3, K);
            fork_and_wait(|| shared.mint_into(4, K)); // nested
        });
        raw_clone_and_wait(|| shared.mint_into(5, K));
        fork_and_wait(|| shared.write_with(8, K, || g.generate()));
        shared.mint_into_from(0, K / 2, K);
        shared.write_range(7, K / 2, K, || g.generate());
        second.join().unwrap();
    });
    shared.mint_into(2, K);
    let all = shared.all();
    assert_eq!(all.len(), 9 * K);
    assert_all_unique(&all);
    // The sharpest case spelled out: each child's first id against the id
    // the parent minted next from the same buffer position.
    let parent_next = shared.slot(0)[K / 2];
    for child in [3, 4, 5] {
        let first = shared.slot(child)[0];
        assert_ne!(first.random_str(), parent_next.random_str(), "slot {child}");
    }
    assert_ne!(
        shared.slot(8)[0].random_str(),
        shared.slot(7)[K / 2].random_str()
    );
}
