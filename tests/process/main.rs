//! Tests that copy the process (fork, a raw clone), step its wall clock or
//! start its ticker: one binary whose tests run one at a time
//! (`common::serial`), apart from the library's tests, whose threads a fork
//! could catch holding a lock and whose clock reads a step would upset.

#[path = "../support/child.rs"]
mod child;
#[path = "../support/clone_alloc.rs"]
mod clone_alloc;
#[path = "../support/common.rs"]
mod common;
#[path = "../support/matrix.rs"]
mod matrix;
#[path = "../support/id_rows.rs"]
mod rows;
#[path = "../support/server.rs"]
mod server;

mod fork;
mod fork_couch;
mod fork_monotonic;
mod fork_objectid;
mod fork_v7;
mod ticker;
mod ticker_race;
mod uniqueness;
mod wraps;
