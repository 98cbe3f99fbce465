//! kuuid as a server feels it, beside uuid and ulid in the same run: the
//! first id on a new thread (thread-per-connection servers pay it on every
//! connection), the memory a thread keeps after one id (thread pools of
//! hundreds), the tail of one call's latency, and the mean.
//!
//! `cargo bench --bench server` (`-- --quick`: fewer threads and calls;
//! `-- 'kuuid::id' new_v4`: only the sources whose names hold one of those
//! words, and the timer).
//!
//! - first id: a new thread times its first call (state set up, seeded from
//!   the OS, first batch); median and 90th percentile over many threads,
//!   started one after another.
//! - KiB a thread: a child process starts 1000 threads that each mint one
//!   id and wait at a barrier; its resident set then, less that of a child
//!   whose threads mint nothing, over 1000 (Linux: `/proc/self/statm`).
//! - p50 / p99 / p99.9 / max: each of 2x10^6 calls (after 10^4 to warm up)
//!   timed alone with `Instant`, on one thread; the `timer` row is the
//!   clock reads alone, the floor of every other row.
//! - mean: 10^7 calls in a loop, no clock reads between them.
//!
//! Every source renders its text into a stack buffer, as a server putting
//! the id into a document would.

use std::cell::RefCell;
use std::hint::black_box;
use std::process::Command;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

/// One id source: mints one id and returns its text's first 36 bytes.
struct Source {
    name: &'static str,
    mint: fn() -> [u8; 36],
}

thread_local! {
    /// A server's own generator, one per thread.
    static GENERATOR: RefCell<kuuid::Generator> = RefCell::new(kuuid::Generator::secure());
}

fn pad<const N: usize>(text: [u8; N]) -> [u8; 36] {
    let mut out = [0u8; 36];
    out[..N].copy_from_slice(&text);
    out
}

const SOURCES: [Source; 8] = [
    Source {
        name: "timer (floor)",
        mint: || [0; 36],
    },
    Source {
        name: "kuuid::id (32)",
        mint: || pad(*kuuid::id().as_bytes()),
    },
    Source {
        name: "kuuid::v7 (36)",
        mint: || kuuid::v7().hyphenated_bytes(),
    },
    Source {
        name: "kuuid::object_id (24)",
        mint: || pad(kuuid::object_id().hex_bytes()),
    },
    Source {
        name: "kuuid Generator, per thread (32)",
        mint: || GENERATOR.with(|g| pad(*g.borrow_mut().generate().as_bytes())),
    },
    Source {
        name: "uuid new_v4, fast-rng (36)",
        mint: || {
            let mut buf = [0u8; 36];
            uuid::Uuid::new_v4().hyphenated().encode_lower(&mut buf);
            buf
        },
    },
    Source {
        name: "uuid now_v7 (36)",
        mint: || {
            let mut buf = [0u8; 36];
            uuid::Uuid::now_v7().hyphenated().encode_lower(&mut buf);
            buf
        },
    },
    Source {
        name: "ulid Ulid::generate (26)",
        mint: || {
            let mut buf = [0u8; 26];
            ulid::Ulid::generate().array_to_str(&mut buf);
            pad(buf)
        },
    },
];

/// The child process of the memory row.
const CHILD: &str = "KUUID_SERVER_BENCH_CHILD";
const MEMORY_THREADS: usize = 1000;

fn main() {
    if let Ok(which) = std::env::var(CHILD) {
        memory_child(&which);
        return;
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let (threads, calls, loop_calls) = if quick {
        (200, 200_000, 1_000_000)
    } else {
        (2000, 2_000_000, 10_000_000)
    };
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8} {:>7}",
        "source", "first us", "(p90)", "KiB/thr", "p50 ns", "p99", "p99.9", "max", "mean ns"
    );
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for (i, s) in SOURCES.iter().enumerate() {
        if i > 0 && !only.is_empty() && !only.iter().any(|w| s.name.contains(w.as_str())) {
            continue;
        }
        let (first, first90) = first_id(s.mint, threads);
        let kib = memory(i);
        let lat = latency(s.mint, calls);
        let mean = mean_ns(s.mint, loop_calls);
        println!(
            "{:<34} {:>9.2} {:>9.2} {:>9} {:>7.0} {:>7.0} {:>8.0} {:>8.0} {:>7.2}",
            s.name,
            first.0,
            first90.0,
            kib.map_or("-".to_owned(), |k| format!("{k:.1}")),
            lat[0],
            lat[1],
            lat[2],
            lat[3],
            mean
        );
    }
}

/// Microseconds, for the table.
struct Micros(f64);

/// The median and 90th percentile of a new thread's first call.
fn first_id(mint: fn() -> [u8; 36], threads: usize) -> (Micros, Micros) {
    let mut t: Vec<Duration> = (0..threads)
        .map(|_| {
            std::thread::spawn(move || {
                let start = Instant::now();
                black_box(mint());
                start.elapsed()
            })
            .join()
            .expect("a minting thread")
        })
        .collect();
    t.sort();
    let at = |q: f64| Micros(t[((t.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e6);
    (at(0.5), at(0.9))
}

/// p50, p99, p99.9 and max of one call, in ns.
fn latency(mint: fn() -> [u8; 36], calls: usize) -> [f64; 4] {
    for _ in 0..10_000 {
        black_box(mint());
    }
    let mut t: Vec<u32> = Vec::with_capacity(calls);
    for _ in 0..calls {
        let start = Instant::now();
        black_box(mint());
        t.push(start.elapsed().as_nanos().min(u128::from(u32::MAX)) as u32);
    }
    t.sort_unstable();
    let at = |q: f64| f64::from(t[((t.len() - 1) as f64 * q) as usize]);
    [at(0.5), at(0.99), at(0.999), at(1.0)]
}

fn mean_ns(mint: fn() -> [u8; 36], calls: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..calls {
        black_box(mint());
    }
    start.elapsed().as_secs_f64() * 1e9 / calls as f64
}

/// KiB a thread keeps after one id: a child of this binary for source `i`
/// and one for the timer row (threads that mint nothing).
fn memory(i: usize) -> Option<f64> {
    if !cfg!(target_os = "linux") || i == 0 {
        return None;
    }
    let rss = |which: usize| -> Option<f64> {
        let out = Command::new(std::env::current_exe().ok()?)
            .env(CHILD, which.to_string())
            .output()
            .ok()?;
        String::from_utf8(out.stdout).ok()?.trim().parse().ok()
    };
    let (base, with) = (rss(0)?, rss(i)?);
    Some((with - base) / MEMORY_THREADS as f64)
}

/// Starts the threads, each minting once with source `which`, and prints
/// the resident set in KiB while they all wait.
fn memory_child(which: &str) {
    let mint = SOURCES[which.parse::<usize>().expect("a source index")].mint;
    let ready = Arc::new(Barrier::new(MEMORY_THREADS + 1));
    let done = Arc::new(Barrier::new(MEMORY_THREADS + 1));
    let threads: Vec<_> = (0..MEMORY_THREADS)
        .map(|_| {
            let (ready, done) = (ready.clone(), done.clone());
            std::thread::spawn(move || {
                black_box(mint());
                ready.wait();
                done.wait();
            })
        })
        .collect();
    ready.wait();
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .expect("resident pages");
    println!("{}", pages * 4.0);
    done.wait();
    for t in threads {
        t.join().expect("a minting thread");
    }
}
