//! The probe of issue 54 on PostgreSQL: a signal whose handler forks,
//! raised in a lease just before it sends its `UPDATE`, the child
//! returning into the lease after the parent has leased three more blocks
//! on the same connection. The child finds the connection opened by
//! another process, sends nothing on it, and leases on a connection of its
//! own. And once the reply is in, still inside the store's call (issue 63,
//! item 4): the child's copy of that reply is the parent's block, so the
//! child drops it and leases again on its own connection. No block
//! repeats, in the parent or between the two.
#![cfg(all(
    unix,
    feature = "postgres",
    feature = "sqlite",
    feature = "__test-hooks"
))]

use kuuid_sequence::{BlockSource, Counter, PostgresCounters};

use crate::sqlite_fork::{BLOCK, apart, fork_from_a_handler_at};

/// A fork from a signal handler raised where `arm` says, in a lease of a
/// counter of its own (`tag`): no block repeats in the parent, and the
/// child gets a block, its own.
fn the_child_leases_its_own_block(arm: fn(i32), tag: &str) {
    let _one_at_a_time = crate::common::serial();
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let name = format!("signal-{tag}-{}", std::process::id());
    let store = std::sync::Arc::new(PostgresCounters::connect(&url).unwrap());
    let lease = || BlockSource::lease(&Counter::new(store.clone(), name.as_str()), BLOCK);
    let (mut blocks, reply) = fork_from_a_handler_at(arm, lease);
    eprintln!("parent {blocks:?}, child {reply:?}");
    assert!(apart(&blocks), "the parent's blocks overlap: {blocks:?}");
    let [0, child] = reply[..] else {
        panic!("the child got no block: {reply:?}");
    };
    blocks.push(child);
    assert!(
        apart(&blocks),
        "the child's block is the parent's: {blocks:?}"
    );
    // And none is burned: a copy sends nothing on its parent's socket (it
    // would lease a block there and then drop it as the parent's reply).
    blocks.sort_unstable();
    let first = blocks[0];
    let want: Vec<u64> = (0..blocks.len() as u64)
        .map(|i| first + i * BLOCK)
        .collect();
    assert_eq!(blocks, want, "a block was burned");
}

/// Before the `UPDATE` is sent: the child sends nothing on the parent's
/// socket and leases on a connection of its own.
#[test]
fn a_fork_from_a_signal_handler_in_a_postgres_lease_repeats_no_block() {
    the_child_leases_its_own_block(kuuid_sequence::__test_hooks::raise_in_lease, "before");
}

/// The signal raised after the `UPDATE`'s reply has arrived, still inside
/// the store's call (issue 63, item 4): before the store checked the
/// process id there, the child returned the parent's block
/// (`[1, 11, ..., 91, 11]`).
#[test]
fn a_fork_from_a_signal_handler_after_the_reply_repeats_no_block() {
    the_child_leases_its_own_block(
        kuuid_sequence::__test_hooks::raise_after_lease_reply,
        "after",
    );
}
