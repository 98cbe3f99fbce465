//! `Sequence` under faults, on a real SQLite file (PostgreSQL's in
//! `servers/postgres_faults.rs`, on this harness): 2 processes x 2 threads
//! mint and print while a driver SIGKILLs one (and starts another in its
//! place) and locks the table. Afterwards no printed value repeats, every
//! process that was not killed exited 0, and each one printed values after
//! the faults (it continued; its errors are one line each on stderr).
//!
//! The processes are this test binary again, running the `fault_child`
//! test with `KUUID_FAULT_CHILD` set to the database.
#![cfg(all(unix, feature = "sqlite", feature = "postgres"))]

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kuuid_sequence::{Counter, CounterStore, PostgresCounters, Sequence, SqliteCounters};

const CHILD: &str = "KUUID_FAULT_CHILD";
const NAME: &str = "KUUID_FAULT_NAME";
const STOP: &str = "KUUID_FAULT_STOP";

/// In a child: 2 threads mint until the stop file appears (or 60 s pass),
/// printing `v=N` per value and `err=...` per failed `next()`, and keep
/// going after errors.
#[test]
fn fault_child() {
    let (Ok(db), Ok(name), Ok(stop)) = (
        std::env::var(CHILD),
        std::env::var(NAME),
        std::env::var(STOP),
    ) else {
        return;
    };
    let store: Arc<dyn CounterStore> = match db.strip_prefix("sqlite:") {
        Some(path) => Arc::new(SqliteCounters::open(path).unwrap()),
        None => {
            Arc::new(PostgresCounters::connect_with_timeout(&db, Duration::from_secs(5)).unwrap())
        }
    };
    let seq = Sequence::new(Counter::new(store, name), 50).unwrap();
    let stop = Path::new(&stop);
    // Until told to stop, or the test that started it is gone (it kills
    // its children when it fails, but not when it is killed itself). Not a
    // deadline: a loaded machine stretched the faults past the 60 s one
    // there was, and the children stopped minting mid-test.
    // SAFETY: getppid has no preconditions.
    let parent = unsafe { libc::getppid() };
    // SAFETY: as above.
    let orphaned = || unsafe { libc::getppid() } != parent;
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while !stop.exists() && !orphaned() {
                    match seq.next() {
                        Ok(v) => {
                            let mut out = std::io::stdout().lock();
                            writeln!(out, "v={v}").unwrap();
                            out.flush().unwrap();
                        }
                        Err(e) => {
                            let line = e.to_string().replace('\n', " ");
                            eprintln!("err={line}");
                            std::thread::sleep(Duration::from_millis(50));
                        }
                    }
                    // Slow enough that faults land mid-stream.
                    std::thread::sleep(Duration::from_micros(200));
                }
            });
        }
    });
}

struct Run {
    db: String,
    name: String,
    stop: PathBuf,
    dir: PathBuf,
    /// Every child started, killed on drop if the test fails (a failed
    /// check otherwise left them minting for up to 60 s).
    kids: Vec<Child>,
}

impl Drop for Run {
    fn drop(&mut self) {
        if std::thread::panicking() {
            for kid in &mut self.kids {
                let _ = kid.kill();
                let _ = kid.wait();
            }
        }
    }
}

impl Run {
    fn new(db: &str, tag: &str) -> Run {
        let dir = std::env::temp_dir().join(format!("kuuid-faults-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stop = dir.join("stop");
        let _ = std::fs::remove_file(&stop);
        Run {
            db: db.to_owned(),
            name: format!("faults-{}", kuuid::id()),
            stop,
            dir,
            kids: Vec::new(),
        }
    }

    /// A child whose stdout and stderr go to files of its own: its index
    /// in `kids`, and the two paths.
    fn spawn(&mut self) -> (usize, PathBuf, PathBuf) {
        let i = self.kids.len();
        let out = self.dir.join(format!("out-{}", i + 1));
        let err = self.dir.join(format!("err-{}", i + 1));
        let child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                &this_test("fault_child"),
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, &self.db)
            .env(NAME, &self.name)
            .env(STOP, &self.stop)
            .env("PGAPPNAME", "kuuid-fault-child")
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap();
        self.kids.push(child);
        (i, out, err)
    }
}

fn printed(path: &Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once("v=")?.1.parse().ok())
        .collect()
}

/// Lines of a child's output so far.
fn count(path: &Path) -> usize {
    printed(path).len()
}

/// Waits until every `paths` has printed at least `more` values beyond
/// `from` (at most 30 s).
fn progress(paths: &[&Path], more: usize) {
    let from: Vec<usize> = paths.iter().map(|p| count(p)).collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    while paths.iter().zip(&from).any(|(p, &f)| count(p) < f + more) {
        assert!(
            Instant::now() < deadline,
            "a child stopped minting: {paths:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The faults, in order, between checks that both live children go on.
pub(crate) fn with_faults(db: &str, tag: &str, faults: &[&dyn Fn()]) {
    let mut run = Run::new(db, tag);
    let (victim, victim_out, _) = run.spawn();
    let (b, b_out, b_err) = run.spawn();
    progress(&[&victim_out, &b_out], 200);
    run.kids[victim].kill().unwrap();
    run.kids[victim].wait().unwrap();
    let (c, c_out, c_err) = run.spawn();
    progress(&[&b_out, &c_out], 200);
    for fault in faults {
        fault();
        progress(&[&b_out, &c_out], 200);
    }
    std::fs::write(&run.stop, b"").unwrap();
    let mut ends = HashMap::new();
    for (name, child, err) in [("b", b, b_err), ("c", c, c_err)] {
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(s) = run.kids[child].try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                panic!("child {name} did not stop");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let errors = std::fs::read_to_string(&err).unwrap();
        assert!(status.success(), "child {name}: {status}\n{errors}");
        // Each error is one line of its own.
        assert!(
            errors
                .lines()
                .filter(|l| !l.trim().is_empty())
                .all(|l| l.starts_with("err=") || !l.contains("counter store")),
            "{errors}"
        );
        ends.insert(
            name,
            errors.lines().filter(|l| l.starts_with("err=")).count(),
        );
    }
    let mut all = Vec::new();
    for path in [&victim_out, &b_out, &c_out] {
        all.extend(printed(path));
    }
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(
        all.len(),
        n,
        "a value was printed twice ({} repeats)",
        n - all.len()
    );
    eprintln!("{tag}: {n} values, errors per child {ends:?}");
    let _ = std::fs::remove_dir_all(&run.dir);
}

#[test]
fn sqlite_under_kill_and_lock() {
    let dir = std::env::temp_dir().join(format!("kuuid-faults-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("counters.db");
    let db = format!("sqlite:{}", path.display());
    let lock = || {
        // Another process's write lock for 1.5 s: leases wait (the busy
        // timeout), then go on.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        conn.execute_batch("COMMIT").unwrap();
    };
    with_faults(&db, "sqlite", &[&lock]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The harness's name of test `f` of this module (its path less the
/// binary's name), to run it alone in a child process.
fn this_test(f: &str) -> String {
    let path = module_path!();
    let module = path.split_once("::").map_or(path, |(_, rest)| rest);
    format!("{module}::{f}")
}
