//! The negative controls of kuuid-sequence's matrix rows: kuuid's
//! (`../tests/unguarded/uniqueness_unguarded.rs`) with the fork guard off
//! (a test-only switch thrown before the process's first id), where
//! copies must repeat values, and restored clones that call `reseed()`
//! must not. It needs the test hooks (feature `__test-hooks`).
#![cfg(feature = "__test-hooks")]

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
#[path = "../../../tests/unguarded/uniqueness_unguarded.rs"]
mod uniqueness_unguarded;

mod reopen_controls;
