//! The `kuuid` command line, run as a user would: one test binary.

mod common;

mod bench;
mod mint;
mod seq;
