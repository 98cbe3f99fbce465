//! Copies of the process for the matrix's cells: made by `fork()` or a
//! raw `clone`, each writing what it minted to a file the parent reads.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::Minted;

/// How a copy of the process is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copy {
    /// `fork()` (libc: atfork handlers run).
    Fork,
    /// A raw `clone(SIGCHLD)` system call (no atfork handlers).
    RawClone,
}

/// Runs `f` in a copy of this process made by `how` and returns what it
/// minted. The child writes its ids to a file and `_exit`s; a child that
/// has not finished in 60 s is killed and the cell fails (a hang is a bug
/// too). The copy is started and awaited before this returns.
pub fn in_a_copy(how: Copy, f: impl FnOnce() -> Minted) -> Minted {
    let pid = start_copy(how, f);
    wait_copy(pid)
}

fn out_path(pid: libc::pid_t) -> PathBuf {
    scratch_dir().join(format!("child-{pid}.out"))
}

/// Starts a copy running `f`; see [`in_a_copy`].
pub fn start_copy(how: Copy, f: impl FnOnce() -> Minted) -> libc::pid_t {
    // Named in the parent: the child's own pid would name another one.
    scratch_dir();
    let pid = match how {
        // SAFETY: the child only mints, writes a file and calls _exit.
        Copy::Fork => unsafe { libc::fork() },
        // SAFETY: the child as above.
        Copy::RawClone => unsafe { crate::common::raw_clone() },
    };
    assert!(pid >= 0, "fork/clone failed");
    if pid == 0 {
        let m =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| Minted {
                ids: Vec::new(),
                errors: vec!["the child panicked".into()],
            });
        // SAFETY: getpid has no preconditions (a raw clone leaves libc's
        // cached pid stale, so ask the kernel).
        let me = unsafe { libc::syscall(libc::SYS_getpid) } as libc::pid_t;
        let ok = write_minted(&out_path(me), &m).is_ok();
        // SAFETY: ends the child without the parent's atexit handlers.
        unsafe { libc::_exit(if ok { 0 } else { 3 }) };
    }
    pid
}

/// Waits (at most 60 s) for a copy from [`start_copy`] and reads what it
/// minted.
pub fn wait_copy(pid: libc::pid_t) -> Minted {
    crate::common::wait_ok(pid);
    let path = out_path(pid);
    let m = read_minted(&path);
    let _ = std::fs::remove_file(path);
    m
}

fn write_minted(path: &Path, m: &Minted) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for id in &m.ids {
        for b in id {
            write!(out, "{b:02x}")?;
        }
        writeln!(out)?;
    }
    for e in &m.errors {
        writeln!(out, "error: {}", e.replace('\n', " "))?;
    }
    out.flush()
}

fn read_minted(path: &Path) -> Minted {
    let text = std::fs::read_to_string(path).expect("the child's output");
    let mut m = Minted::default();
    for line in text.lines() {
        if let Some(e) = line.strip_prefix("error: ") {
            m.errors.push(e.to_owned());
        } else {
            let bytes = (0..line.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&line[i..i + 2], 16).unwrap())
                .collect();
            m.ids.push(bytes);
        }
    }
    m
}

/// Where each test process keeps its scratch directory.
const SCRATCH_PREFIX: &str = "kuuid-matrix-";

/// A directory for this test process. A test binary has no teardown, so
/// each run leaves its own behind and removes those of processes that are
/// gone (about 600 KiB each, one per run otherwise).
pub fn scratch_dir() -> &'static Path {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let tmp = std::env::temp_dir();
        remove_stale_scratch(&tmp);
        let d = tmp.join(format!("{SCRATCH_PREFIX}{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    })
}

/// Removes `kuuid-matrix-<pid>` directories in `tmp` whose process is gone.
fn remove_stale_scratch(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(SCRATCH_PREFIX))
            .and_then(|p| p.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        // SAFETY: signal 0 sends nothing; it only asks whether `pid` exists.
        let gone = unsafe { libc::kill(pid, 0) } == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            // Another run may be sweeping too: losing that race is fine.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
