//! `kuuid seq`'s runs over time: one-shot runs follow on, waits for a
//! lock are bounded, a huge count leases bounded blocks, and the help's
//! lock-timeout syntax works on PostgreSQL.
#![cfg(feature = "db")]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common;
use crate::seq::{TempDb, numbers};
use common::{kuuid, stderr, stdout};

/// Issue 20, item 8: a one-shot run leases what it prints, so runs follow
/// on; an empty name, --busy-timeout on PostgreSQL and a directory that is
/// not there are refused in one line each; --busy-timeout bounds the wait
/// for another process's write lock.
#[test]
fn one_shot_runs_follow_on_and_waits_are_bounded() {
    let db = TempDb::new("oneshot");
    let url = db.url();
    let mut printed = Vec::new();
    for n in ["1", "1", "3", "1"] {
        let o = kuuid(&["seq", "--db", &url, "--name", "o", "-n", n]);
        assert!(o.status.success(), "{}", stderr(&o));
        printed.extend(numbers(&o));
    }
    assert_eq!(printed, (1..=6).collect::<Vec<u64>>());

    let o = kuuid(&["seq", "--db", &url, "--name", ""]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--name is empty"), "{}", stderr(&o));
    let o = kuuid(&[
        "seq",
        "--db",
        "postgres://127.0.0.1/x",
        "--name",
        "x",
        "--busy-timeout",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("lock_timeout"), "{}", stderr(&o));
    let missing = std::env::temp_dir().join(format!("kuuid-no-such-dir-{}", std::process::id()));
    let url_missing = format!("sqlite:{}/a.db", missing.display());
    let o = kuuid(&["seq", "--db", &url_missing, "--name", "x"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("No such file or directory"), "{err}");
    assert_eq!(err.matches("open").count(), 1, "said once: {err}");

    // Another process holds the write lock: the run gives up after about
    // --busy-timeout seconds (the default would wait 30), exit 1.
    let holder = rusqlite::Connection::open(&db.0).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let start = std::time::Instant::now();
    let o = kuuid(&["seq", "--db", &url, "--name", "o", "--busy-timeout", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // A wide bound: it tells 1 s from 30 s on a loaded machine.
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    // The file, named once, and the wait.
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{url}: database is locked (waited 1 s)")),
        "{err}"
    );
    assert_eq!(err.matches("locked").count(), 1, "said once: {err}");
    // Fractions of a second are read.
    let o = kuuid(&["seq", "--db", &url, "--name", "o", "--busy-timeout", "0.3"]);
    assert!(stderr(&o).contains("(waited 0.3 s)"), "{}", stderr(&o));
    holder.execute_batch("ROLLBACK").unwrap();
    let o = kuuid(&["seq", "--db", &url, "--name", "o"]);
    assert_eq!(numbers(&o), [7]);
}

/// `-n 1000000000000` does not lease 10^12 values: a run interrupted after
/// a few lines burns at most a few default blocks (2^20 each), and the
/// next run goes on from there.
#[test]
fn a_huge_count_leases_bounded_blocks() {
    let db = TempDb::new("huge");
    let url = db.url();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(["seq", "--db", &url, "--name", "h", "-n", "1000000000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert_eq!(first.trim(), "1");
    // The reader goes away: the run ends on its closed pipe.
    drop(out);
    let status = child.wait().unwrap();
    assert!(status.code().is_some(), "ended by a signal: {status:?}");
    let o = kuuid(&["seq", "--db", &url, "--name", "h"]);
    let next = numbers(&o)[0];
    // A generous bound: a few blocks of 2^20, where 10^12 + 1 was before.
    assert!(
        next <= 8 << 20,
        "{next}: the run leased {} values",
        next - 1
    );
}

/// `kuuid seq --help` gives a lock timeout for PostgreSQL in a syntax that
/// works: taken from the help text itself, in both forms, it reaches the
/// server (a lease against a locked table fails with the lock timeout, not
/// the 30 s statement timeout), and a key that is not libpq's is named.
#[test]
fn the_helps_lock_timeout_syntax_works_on_postgres() {
    let help = stdout(&kuuid(&["seq", "--help"]));
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let kv = "options='-c lock_timeout=5s'";
    let url = "?options=-c%20lock_timeout%3D5s";
    assert!(flat.contains(kv) && flat.contains(url), "{help}");
    let Some(base) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let o = kuuid(&[
        "seq",
        "--db",
        &format!("{base} lock_timeout=5s"),
        "--name",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unknown key \"lock_timeout\""),
        "{}",
        stderr(&o)
    );
    // A table of its own, locked by another session: the lease waits
    // for the lock timeout the string gave (here 200 ms).
    let schema = format!("help{}", std::process::id());
    let mut admin = postgres::Client::connect(&base, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .unwrap();
    let db = format!("{base} options='-csearch_path={schema} -c lock_timeout=200ms'");
    let first = kuuid(&["seq", "--db", &db, "--name", "h"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let mut locker = postgres::Client::connect(&base, postgres::NoTls).unwrap();
    let mut tx = locker.transaction().unwrap();
    tx.batch_execute(&format!(
        "LOCK TABLE {schema}.kuuid_counters IN ACCESS EXCLUSIVE MODE"
    ))
    .unwrap();
    let o = kuuid(&["seq", "--db", &db, "--name", "h"]);
    tx.rollback().unwrap();
    admin
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("lock timeout"), "{}", stderr(&o));
}
