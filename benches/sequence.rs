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
use kuuid_sequence::{
    BlockSource, Counter, CounterStore, MemoryCounters, PostgresCounters, Sequence, SqliteCounters,
};

/// Wall time per value of `iters` values minted by `threads` threads at
/// once, each in the same loop: 1 and 2 threads run through the same
/// harness, so their ratio is the scaling.
fn on_threads(threads: u64, iters: u64, mint: impl Fn() + Sync) -> Duration {
    let per_thread = iters.div_ceil(threads);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                for _ in 0..per_thread {
                    mint();
                }
            });
        }
    });
    start.elapsed()
}

fn in_memory(c: &mut Criterion) {
    let mut g = c.benchmark_group("sequence in memory");
    g.throughput(Throughput::Elements(1));
    for threads in [1, 2] {
        let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1000).unwrap();
        g.bench_function(format!("next, block 1000, {threads} thread(s)"), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, || {
                    black_box(seq.next().unwrap());
                })
            })
        });
    }
    // The floor for scaling: a counter each thread owns, nothing shared.
    for threads in [1, 2] {
        g.bench_function(format!("own counter, {threads} thread(s)"), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, || {
                    thread_local!(static N: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
                    N.with(|n| n.set(black_box(n.get() + 1)));
                })
            })
        });
    }
    let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1000).unwrap();
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
