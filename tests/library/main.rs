//! The library's tests, in one binary (one link instead of one per file).
//! Tests that fork, step the clock, start a ticker or turn the fork guard
//! off live in `tests/process` and `tests/unguarded`, which have a process
//! to themselves; `tests/reentrancy.rs` installs a global allocator.

#[path = "../support/child.rs"]
mod child;
#[path = "../support/server.rs"]
mod server;

mod concurrency;
mod couch;
mod couchdb;
mod engine_paths;
mod errors;
mod exhaustive;
mod monotonic;
mod npm_compat;
mod npm_node;
mod objectid;
mod order;
mod order_couchdb;
mod order_npm;
mod postgres;
mod postgres_tls;
mod range;
mod renames;
mod retry;
mod sequence;
mod sequence_faults;
mod sequence_stores;
#[cfg(feature = "serde")]
mod serde;
mod sqlite;
mod sqlx;
mod structure;
mod v7;
