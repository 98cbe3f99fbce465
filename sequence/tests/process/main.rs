//! kuuid-sequence's tests that copy the process (fork, a raw clone) or
//! raise signals in a lease: one binary whose tests run one at a time
//! (`common::serial`). The uniqueness matrix is kuuid's
//! (`../tests/process/uniqueness.rs`), run here on the counter rows
//! (`support/rows.rs`).

#[path = "../../../tests/support/child.rs"]
mod child;
#[path = "../../../tests/support/clone_alloc.rs"]
mod clone_alloc;
#[path = "../../../tests/support/common.rs"]
mod common;
#[path = "../../../tests/support/matrix.rs"]
mod matrix;
#[path = "../support/reopen.rs"]
mod reopen;
#[path = "../support/rows.rs"]
mod rows;
#[path = "../../../tests/support/server.rs"]
mod server;
#[path = "../../../tests/process/uniqueness.rs"]
mod uniqueness;

mod reopen_cells;
mod sequence_processes;
mod servers;
mod sqlite_fork;
