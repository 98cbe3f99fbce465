//! The negative controls: the fork tests with the fork guard off (a
//! test-only switch that must be thrown before the process's first id, so
//! they have a binary of their own, whose every test throws it first), where
//! copies must repeat ids, and restored clones that call `reseed()` must not.
//! It needs the test hooks (feature `__test-hooks`; the test command has
//! every feature).
#![cfg(feature = "__test-hooks")]

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

mod fork_couch_negative;
mod fork_monotonic_negative;
mod fork_negative;
mod fork_objectid_negative;
mod fork_v7_negative;
mod uniqueness_unguarded;
