//! Running the `kuuid` binary as a user would, for every CLI test file.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

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

pub fn kuuid_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Written from a thread while the output is read: a filter answers as
    // it reads, so writing all the input first would fill the output pipe
    // and wait forever.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = crate::child::output(child);
    // A child that stops reading (an error) closes the pipe: not ours to
    // report.
    let _ = writer.join();
    out
}
