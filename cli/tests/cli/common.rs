//! Running the `kuuid` binary as a user would, for every CLI test file.
#![allow(dead_code)]

use std::process::{Command, Output};

use crate::child::BoundedOutput;

/// `kuuid ARGS...`, run to the end.
pub fn kuuid(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(args)
        .bounded_output()
        .unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
