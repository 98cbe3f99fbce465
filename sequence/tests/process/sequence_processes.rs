//! Sequences in several processes on one database: 2 processes x 2
//! threads on one SQLite file (on PostgreSQL:
//! `servers/postgres_processes.rs`), a process killed (SIGKILL) while it
//! holds a leased block, and a forked child. No value is ever handed out
//! twice.
//!
//! The other processes are this test binary again, running the `child`
//! test with `KUUID_SEQ_CHILD` set to the database.
#![cfg(all(unix, feature = "sqlite", feature = "postgres"))]

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;

use kuuid_sequence::{Counter, CounterStore, PostgresCounters, Sequence, SqliteCounters};

const CHILD: &str = "KUUID_SEQ_CHILD";
/// Values each child thread mints (`forever`: until killed).
const CHILD_COUNT: &str = "KUUID_SEQ_CHILD_COUNT";
const PER_THREAD: usize = 20_000;

/// The counter "shared" in `db`, leased 100 at a time.
fn sequence(db: &str) -> Sequence<Counter<Arc<dyn CounterStore>>> {
    let store: Arc<dyn CounterStore> = match db.strip_prefix("sqlite:") {
        Some(path) => Arc::new(SqliteCounters::open(path).unwrap()),
        None => Arc::new(PostgresCounters::connect(db).unwrap()),
    };
    Sequence::new(Counter::new(store, "shared"), 100).unwrap()
}

/// In a child process: 2 threads mint and print their values, one per line.
#[test]
fn child() {
    let _one_at_a_time = crate::common::serial();
    let Ok(db) = std::env::var(CHILD) else {
        return;
    };
    let seq = Arc::new(sequence(&db));
    if std::env::var(CHILD_COUNT).as_deref() == Ok("forever") {
        let mut out = std::io::stdout().lock();
        loop {
            writeln!(out, "v={}", seq.next().unwrap()).unwrap();
            out.flush().unwrap();
        }
    }
    let runs: Vec<Vec<u64>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| (0..PER_THREAD).map(|_| seq.next().unwrap()).collect()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut out = std::io::stdout().lock();
    for v in runs.iter().flatten() {
        writeln!(out, "v={v}").unwrap();
    }
}

fn child_command(db: &str) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([
        "--exact",
        &this_test("child"),
        "--nocapture",
        "--test-threads=1",
    ])
    .env(CHILD, db)
    .stdout(Stdio::piped());
    c
}

/// The value a child's line holds: `v=` and the number (the test harness
/// may print before it on the same line).
fn value(line: &str) -> Option<u64> {
    line.split_once("v=")?.1.parse().ok()
}

fn values(text: &str) -> Vec<u64> {
    text.lines().filter_map(value).collect()
}

fn assert_unique(all: &[u64]) {
    let mut seen = HashSet::new();
    for v in all {
        assert!(seen.insert(v), "{v} handed out twice");
    }
}

pub(crate) fn two_processes_two_threads(db: &str) {
    let children: Vec<_> = (0..2).map(|_| child_command(db).spawn().unwrap()).collect();
    let mut all = Vec::new();
    for c in children {
        let out = crate::child::output(c);
        assert!(out.status.success());
        let v = values(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(v.len(), 2 * PER_THREAD);
        all.extend(v);
    }
    assert_unique(&all);
}

fn temp_db(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("kuuid-{name}-{}.db", std::process::id()));
    remove(&path);
    path
}

fn remove(path: &std::path::Path) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

#[test]
fn two_processes_of_two_threads_on_one_sqlite_file() {
    let _one_at_a_time = crate::common::serial();
    let path = temp_db("procs");
    two_processes_two_threads(&format!("sqlite:{}", path.display()));
    remove(&path);
}

#[test]
fn a_process_killed_holding_a_block_burns_it_and_nothing_repeats() {
    let _one_at_a_time = crate::common::serial();
    let path = temp_db("killed");
    let db = format!("sqlite:{}", path.display());
    let mut victim = child_command(&db)
        .env(CHILD_COUNT, "forever")
        .spawn()
        .unwrap();
    let stdout = victim.stdout.take().unwrap();
    let victim = crate::child::Watched::new(victim);
    // 250 values: into its third block of 100, with the fourth perhaps
    // prefetched.
    let mut printed = Vec::new();
    let mut lines = BufReader::new(stdout).lines();
    while printed.len() < 250 {
        if let Some(v) = value(&lines.next().unwrap().unwrap()) {
            printed.push(v);
        }
    }
    victim.kill_and_wait(); // SIGKILL
    // Whatever else it printed before it died counts too.
    printed.extend(lines.map_while(Result::ok).filter_map(|l| value(&l)));
    let out = crate::child::run(&mut child_command(&db)).unwrap();
    assert!(out.status.success());
    let next = values(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(next.len(), 2 * PER_THREAD);
    let mut all = printed.clone();
    all.extend(&next);
    assert_unique(&all);
    // The dead process's blocks are gone: every new value is above them.
    let dead_max = printed.iter().max().unwrap();
    assert!(next.iter().all(|v| v > dead_max));
    remove(&path);
}

#[test]
fn a_forked_child_leases_its_own_blocks() {
    let _one_at_a_time = crate::common::serial();
    let path = temp_db("fork");
    let seq = sequence(&format!("sqlite:{}", path.display()));
    // The parent holds most of a block, and part of a thread's run of 5,
    // when it forks.
    let before: Vec<u64> = (0..12).map(|_| seq.next().unwrap()).collect();
    let mut fds = [0i32; 2];
    // SAFETY: a pipe of two fds we own.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the child mints (opening its own SQLite connection), writes
    // to the pipe and leaves with _exit, running no destructor or test
    // harness code of the parent's.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // 16,000 bytes: within the pipe's 64 KiB buffer, so the child never
        // waits for the parent to read.
        let minted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut bytes = Vec::new();
            for _ in 0..2000 {
                bytes.extend_from_slice(&seq.next().unwrap().to_le_bytes());
            }
            bytes
        }));
        let Ok(bytes) = minted else {
            // SAFETY: ends the child at once, failed.
            unsafe { libc::_exit(1) };
        };
        let mut off = 0;
        while off < bytes.len() {
            // SAFETY: writes bytes we own to our pipe.
            let n = unsafe { libc::write(fds[1], bytes[off..].as_ptr().cast(), bytes.len() - off) };
            if n <= 0 {
                break;
            }
            off += n as usize;
        }
        // SAFETY: ends the child at once.
        unsafe { libc::_exit(0) };
    }
    // SAFETY: closes the write end we do not use.
    unsafe { libc::close(fds[1]) };
    let after: Vec<u64> = (0..2000).map(|_| seq.next().unwrap()).collect();
    // Bounded: a child that hangs is killed and fails the test here,
    // rather than blocking the read below forever.
    crate::common::wait_ok(pid);
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: reads into a buffer we own.
        let n = unsafe { libc::read(fds[0], buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n as usize]);
    }
    // SAFETY: closes our fd.
    unsafe { libc::close(fds[0]) };
    let child: Vec<u64> = bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(child.len(), 2000);
    let mut all = before;
    all.extend(&after);
    all.extend(&child);
    assert_unique(&all);
    drop(seq);
    remove(&path);
}

/// The harness's name of test `f` of this module (its path less the
/// binary's name), to run it alone in a child process.
fn this_test(f: &str) -> String {
    let path = module_path!();
    let module = path.split_once("::").map_or(path, |(_, rest)| rest);
    format!("{module}::{f}")
}

/// Forks `forks` times while another thread runs `hammer` without a
/// pause; each child runs `child` (true: it did its work) and leaves with
/// `_exit`. Returns how many children hung (killed after 10 s; the forks
/// stop at the first) and how many failed.
fn forks_beside(
    forks: usize,
    hammer: impl FnMut() + Send + 'static,
    child: impl Fn() -> bool,
) -> (usize, usize) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let hammer = {
        let (stop, mut hammer) = (stop.clone(), hammer);
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                hammer();
            }
        })
    };
    let (mut hung, mut failed) = (0, 0);
    for _ in 0..forks {
        // SAFETY: the child runs `child`, which the callers keep to what is
        // safe after a fork, then leaves with _exit, running no destructor
        // or harness code of the parent.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let ok =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(&child)).unwrap_or(false);
            // SAFETY: ends the child at once.
            unsafe { libc::_exit(if ok { 0 } else { 3 }) };
        }
        match crate::common::wait_within(pid, std::time::Duration::from_secs(10)) {
            None => {
                // One hang fails the test: no need to wait out more.
                hung += 1;
                break;
            }
            Some(status) if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) => {
                failed += 1
            }
            Some(_) => {}
        }
    }
    stop.store(true, Ordering::Relaxed);
    hammer.join().unwrap();
    (hung, failed)
}

/// Forks while another thread leases from SQLite without a pause: each
/// child then uses SQLite itself (its own store, on another file) and must
/// finish. A fork that copied SQLite's global mutexes locked (the leasing
/// thread inside `sqlite3Malloc`, say) would leave the child waiting
/// forever; the store makes a fork wait for its SQLite calls in flight.
#[test]
fn forks_while_another_thread_leases_from_sqlite_never_hang_the_child() {
    use kuuid_sequence::BlockSource;
    let _one_at_a_time = crate::common::serial();
    let path = temp_db("hammered");
    let other = temp_db("hammered-child");
    let store: Arc<dyn CounterStore> = Arc::new(SqliteCounters::open(&path).unwrap());
    let counter = Counter::new(store, "hammer");
    const FORKS: usize = 60;
    let (hung, failed) = forks_beside(
        FORKS,
        move || {
            counter.lease(1).unwrap();
        },
        || {
            SqliteCounters::open(&other)
                .and_then(|s| Counter::new(s, "child").lease(1))
                .is_ok()
        },
    );
    remove(&path);
    remove(&other);
    assert_eq!(
        (hung, failed),
        (0, 0),
        "of {FORKS} children: {hung} hung in SQLite, {failed} failed"
    );
}

/// Forks while another thread leases from `MemoryCounters` without a
/// pause, so the map's lock is often held at the fork: each child reads
/// and leases the copied counters, and must be refused at once (`get`
/// `None`, the lease `CopiedCountersError`), never wait on the lock.
#[test]
fn forks_while_another_thread_leases_from_memory_never_hang_the_child() {
    use kuuid_sequence::{BlockSource, CopiedCountersError, MemoryCounters};
    let _one_at_a_time = crate::common::serial();
    let store = Arc::new(MemoryCounters::new());
    let counter = Counter::new(store.clone(), "hammer");
    const FORKS: usize = 200;
    let (hung, failed) = forks_beside(
        FORKS,
        move || {
            counter.lease(1).unwrap();
        },
        || {
            let copied = Counter::new(store.clone(), "hammer").lease(1);
            let refused = matches!(&copied, Err(kuuid_sequence::Error::Store(e))
                if e.is::<CopiedCountersError>());
            store.get("hammer").is_none() && refused
        },
    );
    assert_eq!(
        (hung, failed),
        (0, 0),
        "of {FORKS} children: {hung} hung on the counters' lock, {failed} failed"
    );
}
