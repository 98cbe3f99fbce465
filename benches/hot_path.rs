//! The single-id path against its peers and its parts, and its scaling to
//! two threads. `cargo bench --bench hot_path`.

use std::hint::black_box;
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn single(c: &mut Criterion) {
    let mut g = c.benchmark_group("single");
    g.throughput(Throughput::Elements(1));
    // Every contender writes its text to a stack buffer that black_box sees,
    // so each pays for the same thing: an id in memory.
    g.bench_function("kuuid::id, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 32];
            buf.copy_from_slice(kuuid::id().as_bytes());
            black_box(&buf);
        })
    });
    // The same id read as `&str`: the UTF-8 check `as_str` runs each call.
    g.bench_function("kuuid::id as_str, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 32];
            buf.copy_from_slice(kuuid::id().as_str().as_bytes());
            black_box(&buf);
        })
    });
    let ticker = kuuid::clock::Ticker::start().expect("a thread");
    g.bench_function("kuuid::id + clock::Ticker, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 32];
            buf.copy_from_slice(kuuid::id().as_bytes());
            black_box(&buf);
        })
    });
    drop(ticker);
    g.bench_function("kuuid::idms, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 32];
            buf.copy_from_slice(kuuid::idms().as_bytes());
            black_box(&buf);
        })
    });
    // Ordered across the process: one fetch_add on a shared word an id.
    g.bench_function("kuuid::idms_monotonic, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 32];
            buf.copy_from_slice(kuuid::idms_monotonic().as_bytes());
            black_box(&buf);
        })
    });
    // Its peer in order: UUIDv7's bytes (no text).
    g.bench_function("kuuid::v7, bytes to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 16];
            buf.copy_from_slice(kuuid::v7().as_bytes());
            black_box(&buf);
        })
    });
    g.bench_function("kuuid::ids, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 20];
            buf.copy_from_slice(kuuid::ids().as_bytes());
            black_box(&buf);
        })
    });
    let mut gen_ = kuuid::Generator::secure();
    g.bench_function("Generator::generate", |b| {
        b.iter(|| black_box(gen_.generate()))
    });
    let mut mono = kuuid::Generator::secure().monotonic();
    g.bench_function("Generator::generate monotonic", |b| {
        b.iter(|| black_box(mono.generate()))
    });
    g.bench_function("uuid v4 fast-rng, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 36];
            uuid::Uuid::new_v4().hyphenated().encode_lower(&mut buf);
            black_box(&buf);
        })
    });
    g.bench_function("kuuid::v7, hyphenated to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 36];
            kuuid::v7().encode_hyphenated(&mut buf);
            black_box(&buf);
        })
    });
    g.bench_function("kuuid::object_id, hex to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 24];
            kuuid::object_id().encode_hex(&mut buf);
            black_box(&buf);
        })
    });
    g.bench_function("kuuid::v7, hyphenated_bytes", |b| {
        b.iter(|| black_box(kuuid::v7().hyphenated_bytes()))
    });
    g.bench_function("kuuid::object_id, hex_bytes", |b| {
        b.iter(|| black_box(kuuid::object_id().hex_bytes()))
    });
    g.bench_function("bson ObjectId::new().to_hex()", |b| {
        b.iter(|| black_box(bson::oid::ObjectId::new().to_hex()))
    });
    g.bench_function("kuuid::object_id().to_string()", |b| {
        b.iter(|| black_box(kuuid::object_id().to_string()))
    });
    g.bench_function("uuid now_v7, to stack", |b| {
        b.iter(|| {
            let mut buf = [0u8; 36];
            uuid::Uuid::now_v7().hyphenated().encode_lower(&mut buf);
            black_box(&buf);
        })
    });
    // The parts: what the seconds and milliseconds paths pay for the clock.
    g.bench_function("SystemTime::now (clock_gettime)", |b| {
        b.iter(|| black_box(SystemTime::now()))
    });
    g.finish();
}

/// Ids per second from `threads` threads each minting `per_thread` ids with
/// `f`: total wall time for all of them.
fn run_threads(threads: usize, per_thread: u64, f: fn()) -> Duration {
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(move || {
                for _ in 0..per_thread {
                    f();
                }
            });
        }
    });
    start.elapsed()
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("threads");
    for threads in [1usize, 2] {
        // Throughput counts every thread's ids, so 2 threads at 2x means linear.
        g.throughput(Throughput::Elements(threads as u64));
        g.bench_function(format!("id x{threads}"), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, || {
                    black_box(kuuid::id());
                })
            })
        });
        // The process-wide v7 sequence: one 64-bit word both threads add to.
        g.bench_function(format!("v7 x{threads}"), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, || {
                    black_box(kuuid::v7());
                })
            })
        });
        g.bench_function(format!("idms_monotonic x{threads}"), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, || {
                    black_box(kuuid::idms_monotonic());
                })
            })
        });
        // Per-thread blocks: the shared word once per 256 ids.
        g.bench_function(format!("V7Generator x{threads}"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                std::thread::scope(|s| {
                    for _ in 0..threads {
                        s.spawn(move || {
                            let mut v7 = kuuid::V7Generator::new();
                            for _ in 0..iters {
                                black_box(v7.generate());
                            }
                        });
                    }
                });
                start.elapsed()
            })
        });
        g.throughput(Throughput::Elements(threads as u64 * 4096));
        g.bench_function(format!("fill 4096 x{threads}"), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, || {
                    let mut ids = [kuuid::Kuuid::default(); 4096];
                    kuuid::fill(&mut ids);
                    black_box(&ids);
                })
            })
        });
    }
    g.finish();
}

/// Bulk text, per id: the kuuid fill (its text is the value) against v7s
/// and ObjectIds filled and then encoded by the SIMD hex path.
fn bulk(c: &mut Criterion) {
    const N: usize = 4096;
    let mut g = c.benchmark_group("bulk");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("kuuid::fill 4096", |b| {
        let mut ids = vec![kuuid::Kuuid::default(); N];
        b.iter(|| {
            kuuid::fill(&mut ids);
            black_box(&ids);
        })
    });
    g.bench_function("fill_v7 + encode_simple_many 4096", |b| {
        let mut ids = vec![kuuid::Uuid7::MIN; N];
        let mut text = vec![[0u8; 32]; N];
        b.iter(|| {
            kuuid::fill_v7(&mut ids);
            kuuid::Uuid7::encode_simple_many(&ids, &mut text);
            black_box(&text);
        })
    });
    g.bench_function("fill_v7 + encode_hyphenated_many 4096", |b| {
        let mut ids = vec![kuuid::Uuid7::MIN; N];
        let mut text = vec![[0u8; 36]; N];
        b.iter(|| {
            kuuid::fill_v7(&mut ids);
            kuuid::Uuid7::encode_hyphenated_many(&ids, &mut text);
            black_box(&text);
        })
    });
    g.bench_function("fill_object_id + encode_hex_many 4096", |b| {
        let mut ids = vec![kuuid::ObjectId::default(); N];
        let mut text = vec![[0u8; 24]; N];
        b.iter(|| {
            kuuid::fill_object_id(&mut ids);
            kuuid::ObjectId::encode_hex_many(&ids, &mut text);
            black_box(&text);
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! { name = benches; config = config(); targets = single, bulk, scaling }
criterion_main!(benches);
