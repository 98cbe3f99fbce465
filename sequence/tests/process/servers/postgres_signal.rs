//! The probe of issue 54 on PostgreSQL: a signal whose handler forks,
//! raised in a lease just before it sends its `UPDATE`, the child
//! returning into the lease after the parent has leased three more blocks
//! on the same connection (two processes on one socket). The lease is one
//! statement (`UPDATE ... RETURNING`, committed by the server), so there
//! is no commit for the child to finish: it sends its own `UPDATE` on the
//! parent's socket, and the server hands it a block of its own. No block
//! repeats, in the parent or between the two.
#![cfg(all(
    unix,
    feature = "postgres",
    feature = "sqlite",
    feature = "__test-hooks"
))]

use kuuid_sequence::{BlockSource, Counter, PostgresCounters};

use crate::sqlite_fork::{BLOCK, apart, fork_from_a_handler_in_a_lease};

#[test]
fn a_fork_from_a_signal_handler_in_a_postgres_lease_repeats_no_block() {
    let _one_at_a_time = crate::common::serial();
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let name = format!("signal-{}", std::process::id());
    let store = std::sync::Arc::new(PostgresCounters::connect(&url).unwrap());
    let lease = || BlockSource::lease(&Counter::new(store.clone(), name.as_str()), BLOCK);
    let (mut blocks, reply) = fork_from_a_handler_in_a_lease(lease);
    eprintln!("parent {blocks:?}, child {reply:?}");
    assert!(apart(&blocks), "the parent's blocks overlap: {blocks:?}");
    if let [0, child] = reply[..] {
        blocks.push(child);
        assert!(
            apart(&blocks),
            "the child's block is the parent's: {blocks:?}"
        );
    }
}
