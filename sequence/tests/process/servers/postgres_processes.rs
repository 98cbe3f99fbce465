//! Sequences in several processes on the PostgreSQL at `KUUID_PG_URL`
//! (skipped, saying why, without it): 2 processes x 2 threads on one
//! database, by the harness of `sequence_processes.rs`. No value is ever
//! handed out twice.
#![cfg(all(unix, feature = "sqlite", feature = "postgres"))]

use crate::sequence_processes::two_processes_two_threads;

#[test]
fn two_processes_of_two_threads_on_one_postgres_database() {
    let _one_at_a_time = crate::common::serial();
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    two_processes_two_threads(&url);
}
