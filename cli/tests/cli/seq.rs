//! `kuuid seq`, run as a user would: numbers from a counter in a real
//! SQLite file (and the PostgreSQL at `KUUID_PG_URL` when set): two
//! processes at once never print the same number, a process killed with
//! SIGKILL burns its block and the next one goes on above it, the
//! renderings read back, and bad arguments and overflows are one line.
#![cfg(feature = "db")]

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use kuuid_sequence::render::{decode_base62, decode_decimal};

use crate::child::BoundedOutput;
use crate::common;
use common::{kuuid, stderr, stdout};

pub(crate) fn lines(o: &Output) -> Vec<String> {
    stdout(o).lines().map(str::to_owned).collect()
}

/// A fresh SQLite path, removed (with its WAL files) when dropped.
pub(crate) struct TempDb(pub(crate) PathBuf);

impl TempDb {
    pub(crate) fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("kuuid-cli-{name}-{}.db", std::process::id()));
        let db = TempDb(path);
        db.remove();
        db
    }

    pub(crate) fn url(&self) -> String {
        format!("sqlite:{}", self.0.display())
    }

    fn remove(&self) {
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", self.0.display()));
        }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.remove();
    }
}

pub(crate) fn numbers(o: &Output) -> Vec<u64> {
    lines(o).iter().map(|l| l.parse().unwrap()).collect()
}

/// Two `kuuid seq` processes started together on one database.
fn two_at_once(db: &str) {
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_kuuid"))
            .args([
                "seq", "--db", db, "--name", "both", "-n", "50000", "--block", "100",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let mut seen = HashSet::new();
    for child in [a, b] {
        let out = crate::child::output(child);
        assert!(out.status.success(), "{}", stderr(&out));
        let values = numbers(&out);
        assert_eq!(values.len(), 50_000);
        // One process's values increase.
        assert!(values.windows(2).all(|w| w[0] < w[1]));
        for v in values {
            assert!(seen.insert(v), "{v} printed twice");
        }
    }
}

#[test]
fn two_processes_on_one_sqlite_file_never_print_the_same_number() {
    let db = TempDb::new("two");
    two_at_once(&db.url());
}

#[test]
fn two_processes_on_one_postgres_database_never_print_the_same_number() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    two_at_once(&url);
}

#[test]
fn a_killed_process_burns_its_block_and_the_next_goes_on_above() {
    let db = TempDb::new("killed");
    let mut victim = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args([
            "seq",
            "--db",
            &db.url(),
            "--name",
            "c",
            "-n",
            "1000000000",
            "--block",
            "1000",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(victim.stdout.take().unwrap()).lines();
    let victim = crate::child::Watched::new(victim);
    let mut printed: Vec<u64> = (0..20_000)
        .map(|_| out.next().unwrap().unwrap().parse().unwrap())
        .collect();
    victim.kill_and_wait(); // SIGKILL: no destructor, no flush
    // Whatever reached the pipe before it died, whole lines only.
    printed.extend(
        out.map_while(Result::ok)
            .filter_map(|l| l.parse::<u64>().ok()),
    );
    let next = numbers(&kuuid(&[
        "seq",
        "--db",
        &db.url(),
        "--name",
        "c",
        "-n",
        "5000",
    ]));
    assert_eq!(next.len(), 5000);
    let dead_max = *printed.iter().max().unwrap();
    assert!(next[0] > dead_max, "{} after {dead_max}", next[0]);
    let all: HashSet<u64> = printed.iter().chain(&next).copied().collect();
    assert_eq!(all.len(), printed.len() + next.len());
}

#[test]
fn renderings_read_back_and_sort_as_the_numbers() {
    let db = TempDb::new("render");
    let url = db.url();
    let plain = numbers(&kuuid(&["seq", "--db", &url, "--name", "r", "-n", "3"]));
    let o = kuuid(&[
        "seq", "--db", &url, "--name", "r", "-n", "3", "--digits", "12",
    ]);
    let digits: Vec<u64> = lines(&o)
        .iter()
        .map(|l| decode_decimal(l, 12).unwrap())
        .collect();
    let o = kuuid(&["seq", "--db", &url, "--name", "r", "-n", "3", "--base62"]);
    let text = lines(&o);
    let base62: Vec<u64> = text.iter().map(|l| decode_base62(l).unwrap()).collect();
    let all: Vec<u64> = plain
        .iter()
        .chain(&digits)
        .chain(&base62)
        .copied()
        .collect();
    assert!(all.windows(2).all(|w| w[0] < w[1]), "{all:?}");
    assert!(text.windows(2).all(|w| w[0] < w[1]));
    // Sharded: the values fall in the rows' ranges.
    let o = kuuid(&[
        "seq",
        "--db",
        &url,
        "--name",
        "s",
        "-n",
        "10",
        "--shards",
        "4",
        "--shard-size",
        "1000000",
    ]);
    assert!(numbers(&o).iter().all(|v| *v < 4_000_000));
}

#[test]
fn overflows_and_bad_arguments_are_one_line() {
    let db = TempDb::new("bad");
    let url = db.url();
    // 12 numbers into 1 digit: the 10th does not fit.
    let o = kuuid(&[
        "seq", "--db", &url, "--name", "d", "-n", "12", "--digits", "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        lines(&o),
        (1..=9).map(|v| v.to_string()).collect::<Vec<_>>()
    );
    assert!(
        stderr(&o).contains("10 does not fit in 1 decimal digit\n"),
        "{}",
        stderr(&o)
    );
    for (args, what) in [
        (vec!["--block", "0"], "--block"),
        (
            vec!["--shards", "2", "--shard-size", "10", "--block", "20"],
            "--block 20 is larger than --shard-size 10",
        ),
        (vec!["--busy-timeout", "x"], "--busy-timeout"),
        (vec!["--digits", "21"], "--digits"),
        (vec!["--digits", "3", "--base62"], "--base62"),
        (vec!["--shards", "4"], "--shard-size"),
    ] {
        let mut all = vec!["seq", "--db", &url, "--name", "x"];
        all.extend(args);
        let o = kuuid(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        let err = stderr(&o);
        assert!(
            err.contains(what) && err.lines().count() == 1,
            "{all:?}: {err}"
        );
    }
    let o = kuuid(&["seq", "--db", "mysql://localhost/x", "--name", "x"]);
    assert_eq!(o.status.code(), Some(2));
    // A file that is not a database: exit 1, the file and SQLite's words.
    let not_db = TempDb::new("notdb");
    std::fs::write(&not_db.0, b"not a database, not at all, no").unwrap();
    let o = kuuid(&["seq", "--db", &not_db.url(), "--name", "x"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}: file is not a database", not_db.url())),
        "{err}"
    );
    assert_eq!(err.matches("not a database").count(), 1, "said once: {err}");
}

/// One `--name` with another shard layout is refused with one line naming
/// both layouts, and no number is printed twice (plain `1 2 3` then a
/// shard layout printed `1 2 3` again; two shard ranges printed hundreds
/// of duplicates).
fn layouts_are_not_mixed(url: &str, name: &str) {
    let run = |extra: &[&str]| {
        let mut args = vec!["seq", "--db", url, "--name", name, "-n", "3"];
        args.extend_from_slice(extra);
        kuuid(&args)
    };
    let plain = run(&[]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert_eq!(numbers(&plain), [1, 2, 3]);
    let sharded = run(&["--shards", "1", "--shard-size", "1000000"]);
    assert_eq!(sharded.status.code(), Some(2), "{}", stderr(&sharded));
    assert!(stdout(&sharded).is_empty());
    let err = stderr(&sharded);
    assert!(
        err.contains("single") && err.contains("sharded 1x1000000") && err.lines().count() == 1,
        "{err}"
    );
    let other = format!("{name}-s");
    let first = kuuid(&[
        "seq",
        "--db",
        url,
        "--name",
        &other,
        "-n",
        "1500",
        "--shards",
        "2",
        "--shard-size",
        "1000",
        "--block",
        "10",
    ]);
    assert!(first.status.success(), "{}", stderr(&first));
    let second = kuuid(&[
        "seq",
        "--db",
        url,
        "--name",
        &other,
        "-n",
        "10",
        "--shards",
        "2",
        "--shard-size",
        "5000",
        "--block",
        "10",
    ]);
    assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
    let values = numbers(&first);
    let unique: HashSet<u64> = values.iter().copied().collect();
    assert_eq!(unique.len(), values.len());
}

#[test]
fn one_name_keeps_one_layout_on_sqlite() {
    let db = TempDb::new("layout");
    layouts_are_not_mixed(&db.url(), "a");
}

#[test]
fn one_name_keeps_one_layout_on_postgres() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    layouts_are_not_mixed(&url, &format!("layout-{}", kuuid::id()));
}

/// A database that lives for one run would print the same numbers every
/// run: refused, with the way out named.
#[test]
fn in_memory_and_temporary_sqlite_databases_are_refused() {
    for db in [
        "sqlite:",
        "sqlite::memory:",
        "sqlite:file:x?mode=memory",
        "sqlite://",
    ] {
        let o = kuuid(&["seq", "--db", db, "--name", "n"]);
        assert_eq!(o.status.code(), Some(2), "{db}");
        assert!(stdout(&o).is_empty(), "{db}");
        assert!(
            stderr(&o).contains("give a file path"),
            "{db}: {}",
            stderr(&o)
        );
    }
    // `sqlite://PATH` is PATH.
    let db = TempDb::new("slashes");
    let o = kuuid(&[
        "seq",
        "--db",
        &format!("sqlite://{}", db.0.display()),
        "--name",
        "n",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(db.0.exists());
}

/// Asked for more than a counter holds: the numbers leased before the end
/// are printed, then the error (they were printed nowhere before).
#[test]
fn a_used_up_counter_prints_what_it_leased_then_the_error() {
    let db = TempDb::new("used-up");
    let url = db.url();
    let o = kuuid(&[
        "seq",
        "--db",
        &url,
        "--name",
        "u",
        "-n",
        "250",
        "--block",
        "20",
        "--shards",
        "2",
        "--shard-size",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let mut got = numbers(&o);
    got.sort_unstable();
    assert_eq!(got, (1..=200).collect::<Vec<_>>());
    assert!(stderr(&o).contains("used up"), "{}", stderr(&o));
}

/// libpq's environment fills what `--db` leaves out: no `user=` in the
/// string, `PGUSER` gives it (it failed with "user missing" before).
#[test]
fn pguser_fills_a_connection_string_without_user() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let Some(user) = url
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("user="))
    else {
        eprintln!("skipped: KUUID_PG_URL has no user= to move into PGUSER");
        return;
    };
    let without: Vec<&str> = url
        .split_whitespace()
        .filter(|kv| !kv.starts_with("user="))
        .collect();
    let name = format!("env-{}", kuuid::id());
    let o = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args([
            "seq",
            "--db",
            &without.join(" "),
            "--name",
            &name,
            "-n",
            "2",
        ])
        .env("PGUSER", user)
        .bounded_output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(numbers(&o), [1, 2]);
}
