//! Counter stores under faults and misuse, on memory and a real SQLite
//! file: a counter read with another layout is refused (never a repeat),
//! shard rows keep out of the plain-name space and each own exactly their
//! range, a panicking source fails one claim and hangs nothing, threads
//! waiting for a lock sleep, a table made otherwise is refused at open.
//! PostgreSQL's store runs the same checks and more in
//! `servers/postgres_stores.rs`.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use kuuid_sequence::{
    BlockSource, Counter, CounterStore, Error, MemoryCounters, Sequence, ShardedCounter, Sharding,
};

/// A unique name for this run (the PostgreSQL table outlives it).
pub(crate) fn fresh(name: &str) -> String {
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

pub(crate) fn all_store_checks(store: Arc<dyn CounterStore>) {
    one_name_one_layout(store.clone());
    shard_rows_are_not_plain_names(store.clone());
    every_shard_owns_its_whole_range(store);
}

#[test]
fn memory_store_checks() {
    all_store_checks(Arc::new(MemoryCounters::new()));
}

#[cfg(feature = "sqlite")]
fn temp_sqlite(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("kuuid-stores-{name}-{}.db", std::process::id()))
}

#[cfg(feature = "sqlite")]
fn remove_sqlite(path: &std::path::Path) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

#[cfg(feature = "sqlite")]
#[test]
fn sqlite_store_checks() {
    let path = temp_sqlite("checks");
    all_store_checks(Arc::new(
        kuuid_sequence::SqliteCounters::open(&path).unwrap(),
    ));
    remove_sqlite(&path);
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
#[cfg(feature = "sqlite")]
#[test]
fn a_sqlite_table_made_otherwise_is_refused_at_open() {
    let path = temp_sqlite("schema");
    let db = rusqlite::Connection::open(&path).unwrap();
    db.execute_batch("CREATE TABLE kuuid_counters (name TEXT PRIMARY KEY, next INTEGER NOT NULL)")
        .unwrap();
    drop(db);
    let err = kuuid_sequence::SqliteCounters::open(&path).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("has columns (name TEXT, next INTEGER)"),
        "{text}"
    );
    assert!(text.contains("shard INTEGER"), "{text}");
    remove_sqlite(&path);
}
