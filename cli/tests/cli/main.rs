//! The `kuuid` command line, run as a user would: one test binary.

#[path = "../../../tests/support/child.rs"]
mod child;
mod common;
#[path = "../../../tests/support/server.rs"]
mod server;

mod args;
mod bench;
mod between;
mod count;
mod inspect;
mod mint;
mod output;
mod prefix;
mod seq;
mod seq_runs;
