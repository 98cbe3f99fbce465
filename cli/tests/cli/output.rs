//! Output errors (cli/src/output.rs): a closed pipe ends quietly, a full
//! disk or a closed stdout is one line and exit 1.

use std::process::{Command, Output, Stdio};

use crate::child::BoundedOutput;
use crate::common::stderr;

#[test]
fn closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(["-n", "100000000", "--fast"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 4096];
    std::io::Read::read_exact(&mut out, &mut buf).unwrap();
    drop(out);
    let o = crate::child::output(child);
    assert!(o.status.success());
    assert!(o.stderr.is_empty());
}

/// Runs `kuuid args` with stdout on `/dev/full` (Linux has one).
#[cfg(target_os = "linux")]
fn kuuid_to_full(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(args)
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    crate::child::output(child)
}

/// Every command that prints reports a full disk in one line and exits 1
/// (before the fix: a panic, exit 101, and a backtrace).
#[test]
#[cfg(target_os = "linux")]
fn a_full_disk_is_one_line_and_exit_1() {
    for args in [
        &["prefix"][..],
        &["range", "--from", "0ms", "--to", "1000ms"],
        &["--help"],
        &["--version"],
        &["-n", "10"],
        &["inspect", "00000000000000"],
        &["between", "-n", "10"],
        &["--format", "v7", "-n", "10"],
        &["--format", "objectid", "-n", "10000"],
        &["--format", "v7s", "-n", "10", "--json"],
    ] {
        let o = kuuid_to_full(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("No space left"), "{args:?}: {err}");
    }
}

/// Started with stdout closed, a command says so and exits 1 instead of
/// writing into nothing and reporting success.
#[test]
#[cfg(target_os = "linux")]
fn closed_stdout_is_an_error() {
    let o = Command::new("sh")
        .args(["-c", &format!("'{}' -n 5 >&-", env!("CARGO_BIN_EXE_kuuid"))])
        .bounded_output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("standard output is closed"));
    // /dev/null opened by the shell, write-only or read-write (as Python's
    // subprocess.DEVNULL and daemon(3) open it), is not "closed".
    for redirect in [">/dev/null", "1<>/dev/null"] {
        let o = Command::new("sh")
            .args([
                "-c",
                &format!("'{}' -n 5 {redirect}", env!("CARGO_BIN_EXE_kuuid")),
            ])
            .bounded_output()
            .unwrap();
        assert!(o.status.success(), "{redirect}: {}", stderr(&o));
    }
    // And from a Rust parent: Stdio::null() opens /dev/null read-write.
    let child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(["-n", "5"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = crate::child::output(child);
    assert!(o.status.success(), "Stdio::null(): {}", stderr(&o));
}
