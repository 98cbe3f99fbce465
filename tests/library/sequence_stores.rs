//! Counter stores under faults and misuse, on memory, a real SQLite file and
//! the PostgreSQL of `KUUID_PG_URL`: a counter read with another layout is
//! refused (never a repeat), shard rows keep out of the plain-name space and
//! each own exactly their range, a panicking source fails one claim and
//! hangs nothing, threads waiting for a lock sleep, tables made otherwise
//! are refused at connect, and a PostgreSQL connection that breaks is
//! replaced.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use kuuid::sequence::{
    BlockSource, Counter, CounterStore, Error, MemoryCounters, Sequence, ShardedCounter, Sharding,
};

/// A unique name for this run (the PostgreSQL table outlives it).
fn fresh(name: &str) -> String {
    format!("{name}-{}", kuuid::id())
}

/// One name, three layouts: whichever comes second is refused with both
/// layouts named, and nothing the first handed out comes again.
fn one_name_one_layout(store: Arc<dyn CounterStore>) {
    let name = fresh("layout");
    let plain = Counter::new(store.clone(), &*name);
    let first: Vec<u64> = (0..3).map(|_| plain.lease(1).unwrap()).collect();
    assert_eq!(first, [1, 2, 3]);
    let sharded = ShardedCounter::new(store.clone(), &*name, 1, 1_000_000).unwrap();
    match sharded.lease(1) {
        Err(Error::Sharding(m)) => {
            assert_eq!(m.stored, "single");
            assert_eq!(
                m.requested,
                Sharding::Sharded {
                    shards: 1,
                    range: 1_000_000
                }
            );
            let text = Error::Sharding(m).to_string();
            assert!(
                text.contains("single") && text.contains("sharded 1x1000000"),
                "{text}"
            );
        }
        other => panic!("a second layout was not refused: {other:?}"),
    }
    // Two sharded layouts of one name: the second range is refused too.
    let name = fresh("ranges");
    let a = ShardedCounter::new(store.clone(), &*name, 2, 1000).unwrap();
    a.lease(10).unwrap();
    let b = ShardedCounter::new(store.clone(), &*name, 2, 5000).unwrap();
    assert!(matches!(b.lease(10), Err(Error::Sharding(_))));
    let c = ShardedCounter::new(store, &*name, 4, 1000).unwrap();
    for _ in 0..20 {
        // Whichever row the lease picks first.
        assert!(matches!(c.lease(10), Err(Error::Sharding(_))));
    }
}

/// A plain counter named like a shard row (`a#0`) and shard 0 of `a` are
/// two counters.
fn shard_rows_are_not_plain_names(store: Arc<dyn CounterStore>) {
    let name = fresh("a");
    let sharded = ShardedCounter::new(store.clone(), &*name, 1, 100).unwrap();
    let plain = Counter::new(store, format!("{name}#0"));
    assert_eq!(sharded.lease(10).unwrap(), 1);
    assert_eq!(plain.lease(10).unwrap(), 1);
    assert_eq!(sharded.lease(10).unwrap(), 11);
    assert_eq!(plain.lease(10).unwrap(), 11);
}

/// Every shard owns exactly `range` values: with blocks that divide the
/// range, all `shards * range` values from 1 are leased, once each, and
/// the next lease is `Exhausted`.
fn every_shard_owns_its_whole_range(store: Arc<dyn CounterStore>) {
    let (shards, range, len) = (3u64, 100u64, 20u64);
    let s = ShardedCounter::new(store, fresh("whole"), shards, range).unwrap();
    let mut values = HashSet::new();
    let err = loop {
        match s.lease(len) {
            Ok(first) => {
                let k = s.shard_of(first).unwrap();
                assert_eq!(
                    s.shard_of(first + len - 1),
                    Some(k),
                    "{first} crosses a range"
                );
                assert!((first..first + len).all(|v| values.insert(v)));
            }
            Err(e) => break e,
        }
    };
    assert!(matches!(err, Error::Exhausted { .. }), "{err}");
    assert_eq!(values, (1..=shards * range).collect());
}

fn all_store_checks(store: Arc<dyn CounterStore>) {
    one_name_one_layout(store.clone());
    shard_rows_are_not_plain_names(store.clone());
    every_shard_owns_its_whole_range(store);
}

#[test]
fn memory_store_checks() {
    all_store_checks(Arc::new(MemoryCounters::new()));
}

#[cfg(feature = "rusqlite")]
fn temp_sqlite(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("kuuid-stores-{name}-{}.db", std::process::id()))
}

#[cfg(feature = "rusqlite")]
fn remove_sqlite(path: &std::path::Path) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

#[cfg(feature = "rusqlite")]
#[test]
fn sqlite_store_checks() {
    let path = temp_sqlite("checks");
    all_store_checks(Arc::new(
        kuuid::sequence::SqliteCounters::open(&path).unwrap(),
    ));
    remove_sqlite(&path);
}

#[cfg(feature = "postgres")]
#[test]
fn postgres_store_checks() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    all_store_checks(Arc::new(
        kuuid::sequence::PostgresCounters::connect(&url).unwrap(),
    ));
}

/// A source that panics on one lease.
struct PanicsOnce {
    counter: Counter<MemoryCounters>,
    leases: AtomicU64,
    panic_on: u64,
}

impl BlockSource for PanicsOnce {
    fn lease(&self, len: u64) -> Result<u64, Error> {
        if self.leases.fetch_add(1, Ordering::Relaxed) + 1 == self.panic_on {
            panic!("lease {} broke", self.panic_on);
        }
        self.counter.lease(len)
    }
}

/// The 2nd lease panics: that claim fails with `Error::Panicked` naming the
/// panic, the other threads go on (nothing hangs), and no value repeats.
#[test]
fn a_panic_in_a_lease_fails_one_claim_and_hangs_nothing() {
    let source = PanicsOnce {
        counter: Counter::new(MemoryCounters::new(), "n"),
        leases: AtomicU64::new(0),
        panic_on: 2,
    };
    let seq = Arc::new(Sequence::new(source, 10).unwrap());
    let handles: Vec<_> = (0..3)
        .map(|_| {
            let seq = seq.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                let mut errors = Vec::new();
                for _ in 0..200 {
                    match seq.next() {
                        Ok(v) => got.push(v),
                        Err(e) => errors.push(e.to_string()),
                    }
                }
                (got, errors)
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !handles.iter().all(|h| h.is_finished()) {
        assert!(
            Instant::now() < deadline,
            "threads hung after a panicking lease"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut all = Vec::new();
    let mut errors = Vec::new();
    for h in handles {
        let (got, e) = h.join().unwrap();
        all.extend(got);
        errors.extend(e);
    }
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("lease 2 broke"), "{errors:?}");
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n, "a value repeated");
    assert_eq!(n, 599);
}

/// CPU time of the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: writes one timespec we own.
    assert_eq!(
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) },
        0
    );
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Threads that wait while another holds the store's connection for a
/// second sleep: together they use a small part of the CPU they would
/// burn spinning (a yield loop took 2.8 s of CPU in 3.8 s of waiting).
#[test]
fn threads_waiting_for_a_lease_sleep() {
    struct Slow(Counter<MemoryCounters>);
    impl BlockSource for Slow {
        fn lease(&self, len: u64) -> Result<u64, Error> {
            std::thread::sleep(Duration::from_millis(1000));
            self.0.lease(len)
        }
    }
    // Blocks of 1: every thread needs the installers' lock, and one holds
    // it for a second.
    let seq = Arc::new(Sequence::new(Slow(Counter::new(MemoryCounters::new(), "n")), 1).unwrap());
    let handles: Vec<_> = (0..3)
        .map(|_| {
            let seq = seq.clone();
            std::thread::spawn(move || {
                let (cpu, wall) = (thread_cpu(), Instant::now());
                seq.next().unwrap();
                (thread_cpu() - cpu, wall.elapsed())
            })
        })
        .collect();
    let times: Vec<(Duration, Duration)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let cpu: Duration = times.iter().map(|t| t.0).sum();
    let wall: Duration = times.iter().map(|t| t.1).sum();
    assert!(wall >= Duration::from_secs(3), "{times:?}");
    assert!(
        cpu * 10 < wall,
        "waiting threads used {cpu:?} of CPU in {wall:?}: {times:?}"
    );
}

/// A `kuuid_counters` table made otherwise (an older layout, or a
/// `numeric` column) is refused at connect with both column lists, not a
/// panic at the first lease.
#[cfg(feature = "rusqlite")]
#[test]
fn a_sqlite_table_made_otherwise_is_refused_at_open() {
    let path = temp_sqlite("schema");
    let db = rusqlite::Connection::open(&path).unwrap();
    db.execute_batch("CREATE TABLE kuuid_counters (name TEXT PRIMARY KEY, next INTEGER NOT NULL)")
        .unwrap();
    drop(db);
    let err = kuuid::sequence::SqliteCounters::open(&path).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("has columns (name TEXT, next INTEGER)"),
        "{text}"
    );
    assert!(text.contains("shard INTEGER"), "{text}");
    remove_sqlite(&path);
}

#[cfg(feature = "postgres")]
fn admin(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap()
}

/// In a schema of its own with a `numeric` column: refused with the
/// column lists (it panicked reading `next` before).
#[cfg(feature = "postgres")]
#[test]
fn a_postgres_table_made_otherwise_is_refused_at_connect() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let schema = format!("s{}", std::process::id());
    let mut a = admin(&url);
    a.batch_execute(&format!(
        "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema};
         CREATE TABLE {schema}.kuuid_counters (name text, shard bigint, next numeric, layout text, PRIMARY KEY (name, shard))"
    ))
    .unwrap();
    let scoped = with_option(&url, "options", &format!("-csearch_path={schema}"));
    let err = kuuid::sequence::PostgresCounters::connect(&scoped).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("next numeric") && text.contains("next bigint"),
        "{text}"
    );
    a.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
}

/// Processes that connect at once to a database without the table all
/// get a store: creating the table is serialized, so none sees another's
/// half-made catalog rows (seen: `type "kuuid_counters" already exists`,
/// a child of the fault test that never started). 6 threads at once, on a
/// fresh schema each round.
#[cfg(feature = "postgres")]
#[test]
fn postgres_stores_that_create_the_table_at_once_all_connect() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let mut a = admin(&url);
    for round in 0..8 {
        let schema = format!("race{}_{round}", std::process::id());
        a.batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .unwrap();
        let scoped = with_option(&url, "options", &format!("-csearch_path={schema}"));
        let start = std::sync::Barrier::new(6);
        let failures: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..6)
                .map(|_| {
                    s.spawn(|| {
                        start.wait();
                        kuuid::sequence::PostgresCounters::connect(&scoped).err()
                    })
                })
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().unwrap().map(|e| e.to_string()))
                .collect()
        });
        a.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
            .unwrap();
        assert!(failures.is_empty(), "round {round}: {failures:?}");
    }
}

/// `url` with one more libpq option (key=value strings and URLs).
#[cfg(feature = "postgres")]
fn with_option(url: &str, key: &str, value: &str) -> String {
    if url.contains("://") {
        let sep = if url.contains('?') { '&' } else { '?' };
        let value: String = value
            .bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                    (b as char).to_string()
                }
                b => format!("%{b:02X}"),
            })
            .collect();
        format!("{url}{sep}{key}={value}")
    } else {
        format!("{url} {key}='{value}'")
    }
}

/// The backend is terminated between leases: the next lease reconnects
/// and goes on above every value before (the unknown block, if any, is
/// burned).
#[cfg(feature = "postgres")]
#[test]
fn a_terminated_postgres_backend_is_replaced_on_the_next_lease() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let app = format!("kuuid-reconnect-{}", std::process::id());
    let store =
        kuuid::sequence::PostgresCounters::connect(&with_option(&url, "application_name", &app))
            .unwrap();
    let counter = Counter::new(store, fresh("reconnect"));
    let before = counter.lease(10).unwrap();
    let mut a = admin(&url);
    let killed: i64 = a
        .query_one(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1) t",
            &[&app],
        )
        .unwrap()
        .get(0);
    assert_eq!(killed, 1);
    let after = counter
        .lease(10)
        .expect("the lease after a terminated backend");
    assert!(after >= before + 10, "{after} after {before}");
}

/// A role with only `SELECT, INSERT, UPDATE` on an existing table (no
/// CREATE on the schema, as PostgreSQL 15 gives every role) leases.
#[cfg(feature = "postgres")]
#[test]
fn a_role_with_only_dml_rights_leases() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    // The table exists (made by the admin role).
    drop(kuuid::sequence::PostgresCounters::connect(&url).unwrap());
    let role = format!("dml{}", std::process::id());
    let mut a = admin(&url);
    a.batch_execute(&format!(
        "DROP ROLE IF EXISTS {role}; CREATE ROLE {role} LOGIN;
         REVOKE CREATE ON SCHEMA public FROM PUBLIC;
         GRANT SELECT, INSERT, UPDATE ON kuuid_counters TO {role}"
    ))
    .unwrap();
    let as_role = with_option(&url, "user", &role);
    let result = kuuid::sequence::PostgresCounters::connect(&as_role)
        .and_then(|store| Counter::new(store, fresh("dml")).lease(5));
    a.batch_execute(&format!(
        "REVOKE ALL ON kuuid_counters FROM {role}; DROP ROLE {role}"
    ))
    .unwrap();
    assert_eq!(result.unwrap(), 1);
}

/// A statement that gets no answer (here: the table is locked by another
/// session) fails the lease within the statement timeout, naming the
/// server; once the lock is gone the next lease reconnects and goes on
/// above every value before.
#[cfg(feature = "postgres")]
#[test]
fn a_postgres_lease_that_gets_no_answer_times_out() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let (schema, scoped) = own_schema(&url, "timeout", "");
    let store =
        kuuid::sequence::PostgresCounters::connect_with_timeout(&scoped, Duration::from_secs(1))
            .unwrap();
    let counter = Counter::new(store, fresh("timeout"));
    let before = counter.lease(10).unwrap();
    let mut locker = admin(&url);
    let mut tx = locker.transaction().unwrap();
    tx.batch_execute(&format!(
        "LOCK TABLE {schema}.kuuid_counters IN ACCESS EXCLUSIVE MODE"
    ))
    .unwrap();
    let t = Instant::now();
    let err = counter.lease(10).unwrap_err().to_string();
    let waited = t.elapsed();
    assert!(
        err.contains("statement timeout") && err.contains("PostgreSQL at"),
        "{err}"
    );
    // The server ends it at the timeout, a second (the connection stays
    // sound, so no retry); bounded generously for a loaded machine.
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    tx.rollback().unwrap();
    let after = counter.lease(10).unwrap();
    admin(&url)
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
    assert!(after >= before + 10, "{after} after {before}");
}

/// A fresh schema for a test that locks the counters' table (so that it
/// blocks no other test, and none blocks it), and `url` scoped to it with
/// `more` libpq options besides.
#[cfg(feature = "postgres")]
fn own_schema(url: &str, tag: &str, more: &str) -> (String, String) {
    let schema = format!("{tag}{}", std::process::id());
    admin(url)
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .unwrap();
    let options = format!("-csearch_path={schema} {more}");
    (schema.clone(), with_option(url, "options", options.trim()))
}

/// Backends of `app` still running a statement (waiting on a lock).
#[cfg(feature = "postgres")]
fn running(a: &mut postgres::Client, app: &str) -> i64 {
    a.query_one(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'",
        &[&app],
    )
    .unwrap()
    .get(0)
}

/// Leases that time out against a table another session keeps locked
/// leave no backend of ours waiting on the server: four leases, and then
/// none running. `server_timeout`: whether the server's own
/// `statement_timeout` may end them (the store sets it), or the string
/// turns it off (`options=-c statement_timeout=0`) so that only the
/// client's cancel request can (two leases then, each tried twice: the
/// client waits out its grace second on each try).
#[cfg(feature = "postgres")]
fn timed_out_leases_leave_nothing_running(server_timeout: bool) {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let app = format!("kuuid-left-{}-{server_timeout}", std::process::id());
    let more = if server_timeout {
        ""
    } else {
        "-c statement_timeout=0"
    };
    let (schema, scoped) = own_schema(&url, &format!("left{server_timeout}"), more);
    let scoped = with_option(&scoped, "application_name", &app);
    let store = kuuid::sequence::PostgresCounters::connect_with_timeout(
        &scoped,
        Duration::from_millis(500),
    )
    .unwrap();
    let counter = Counter::new(store, fresh("left"));
    counter.lease(10).unwrap();
    let mut a = admin(&url);
    let mut locker = admin(&url);
    let mut tx = locker.transaction().unwrap();
    tx.batch_execute(&format!(
        "LOCK TABLE {schema}.kuuid_counters IN ACCESS EXCLUSIVE MODE"
    ))
    .unwrap();
    for _ in 0..if server_timeout { 4 } else { 2 } {
        assert!(counter.lease(10).is_err(), "a lease got past the lock");
    }
    // The server ends a cancelled statement a moment after the request:
    // wait for it, bounded generously (the lock is held until the end, so
    // a statement left running would still be there).
    let start = Instant::now();
    let mut left = running(&mut a, &app);
    while left != 0 && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
        left = running(&mut a, &app);
    }
    tx.rollback().unwrap();
    a.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
    assert_eq!(
        left, 0,
        "{left} statements of ours still running after the leases failed"
    );
    assert_eq!(
        left, 0,
        "{left} statements of ours still running after the leases failed"
    );
}

#[cfg(feature = "postgres")]
#[test]
fn timed_out_postgres_leases_leave_nothing_running() {
    timed_out_leases_leave_nothing_running(true);
}

#[cfg(feature = "postgres")]
#[test]
fn timed_out_postgres_leases_are_cancelled_without_a_server_timeout() {
    timed_out_leases_leave_nothing_running(false);
}
