//! Sequences: the in-process hand-out (one and two threads) and the
//! database round trip amortized over a block, against the article's
//! single counter (one durable round trip per value). SQLite is a file
//! under `target/` (a disk, so commits sync); PostgreSQL is the server at
//! `KUUID_PG_URL` when set.
//!
//! `cargo bench -p kuuid --bench sequence --features rusqlite,postgres`

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kuuid::sequence::{
    BlockSource, Counter, CounterStore, MemoryCounters, PostgresCounters, Sequence, SqliteCounters,
};

fn in_memory(c: &mut Criterion) {
    let mut g = c.benchmark_group("sequence in memory");
    g.throughput(Throughput::Elements(1));
    let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1000).unwrap();
    g.bench_function("next, block 1000, 1 thread", |b| {
        b.iter(|| black_box(seq.next().unwrap()))
    });
    // Time per value with both threads minting at once: total values over
    // the wall time, so half the one-thread time means a 2x speed-up.
    let shared = Arc::new(Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1000).unwrap());
    g.bench_function("next, block 1000, 2 threads (time per value)", |b| {
        b.iter_custom(|iters| {
            let per_thread = iters.div_ceil(2);
            let start = Instant::now();
            std::thread::scope(|s| {
                for _ in 0..2 {
                    s.spawn(|| {
                        for _ in 0..per_thread {
                            black_box(shared.next().unwrap());
                        }
                    });
                }
            });
            start.elapsed()
        })
    });
    // The floor for scaling: the same loop on a counter each thread owns,
    // with nothing shared. On a machine whose two vCPUs share a core, this
    // shows what two threads can gain at all.
    g.bench_function("own counter, 1 thread", |b| {
        let mut n = 0u64;
        b.iter(|| {
            n += 1;
            black_box(n)
        })
    });
    g.bench_function("own counters, 2 threads (time per value)", |b| {
        b.iter_custom(|iters| {
            let per_thread = iters.div_ceil(2);
            let start = Instant::now();
            std::thread::scope(|s| {
                for _ in 0..2 {
                    s.spawn(move || {
                        let mut n = 0u64;
                        for _ in 0..per_thread {
                            n += 1;
                            black_box(n);
                        }
                    });
                }
            });
            start.elapsed()
        })
    });
    let mut buf = vec![0u64; 4096];
    g.throughput(Throughput::Elements(buf.len() as u64));
    g.bench_function("fill 4096, block 1000", |b| {
        b.iter(|| {
            seq.fill(&mut buf).unwrap();
            black_box(&buf);
        })
    });
    g.finish();
}

/// Blocks of 1000 against a block of 1 (a lease per value) on one store.
fn blocks_against_one(c: &mut Criterion, name: &str, store: Arc<dyn CounterStore>) {
    let mut g = c.benchmark_group(format!("sequence on {name}"));
    g.throughput(Throughput::Elements(1));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    let counter =
        |n: &str| Counter::new(store.clone(), format!("bench-{n}-{}", std::process::id()));
    let blocks = Sequence::new(counter("blocks"), 1000).unwrap();
    g.bench_function("next, block 1000", |b| {
        b.iter(|| black_box(blocks.next().unwrap()))
    });
    let single = counter("single");
    g.bench_function("single counter, a durable lease per value", |b| {
        b.iter(|| black_box(single.lease(1).unwrap()))
    });
    g.finish();
}

fn databases(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-sequence.db");
    blocks_against_one(c, "SQLite", Arc::new(SqliteCounters::open(&path).unwrap()));
    match std::env::var("KUUID_PG_URL") {
        Ok(url) => blocks_against_one(
            c,
            "PostgreSQL",
            Arc::new(PostgresCounters::connect(&url).unwrap()),
        ),
        Err(_) => eprintln!("PostgreSQL skipped: KUUID_PG_URL is not set"),
    }
}

criterion_group!(benches, in_memory, databases);
criterion_main!(benches);
