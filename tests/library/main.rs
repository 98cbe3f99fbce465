//! The library's tests, in one binary (one link instead of one per file).
//! Tests that fork, step the clock, start a ticker or turn the fork guard
//! off live in `tests/process` and `tests/unguarded`, which have a process
//! to themselves; `tests/reentrancy.rs` installs a global allocator.
//! Tests that need a tool the machine may lack (node and npm packages)
//! live in `servers/`, named for it: `-- servers::` runs them, `-- --skip
//! servers::` runs the rest, which need nothing. The integrations' tests
//! against real SQLite, PostgreSQL and CouchDB are in `integration-tests/`.

#[path = "../support/child.rs"]
mod child;
#[path = "../support/report.rs"]
mod report;
#[path = "../support/server.rs"]
mod server;

mod base32_paths;
mod concurrency;
mod couch;
mod engine_paths;
mod errors;
mod exhaustive;
mod ksuid;
mod ksuid_paths;
mod monotonic;
mod npm_compat;
mod objectid;
mod order;
mod range;
#[cfg(feature = "serde")]
mod serde;
mod servers;
mod structure;
mod time_errors;
mod typeid;
mod ulid;
mod v7;
