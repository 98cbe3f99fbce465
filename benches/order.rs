//! Order keys: `key_between` on typical keys (under 8 characters) against
//! `lexicon_fractional_index` and against npm `fractional-indexing` under
//! node (timed inside node, after a warm-up, in the same run: set
//! `KUUID_NPM_DIR` to a folder whose `node_modules` holds it, as `.ci/run`
//! does); `n_keys_between_into` and `rebalance_into` for 10^6 keys into a
//! reused buffer.
//!
//! `cargo bench -p kuuid --bench order`

use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kuuid::order::{KeyBuf, key_between, key_between_into, n_keys_between_into, rebalance_into};

#[path = "shared/order_pairs.rs"]
mod order_pairs;
use order_pairs::typical_pairs;

fn between(c: &mut Criterion) {
    let pairs = typical_pairs();
    let differ = pairs
        .iter()
        .filter(|(a, b)| {
            let ours = key_between(a.as_deref(), b.as_deref()).unwrap();
            let theirs = lexicon_fractional_index::key_between(a.as_deref(), b.as_deref());
            theirs.as_deref() != Ok(ours.as_str())
        })
        .count();
    eprintln!(
        "order: {} typical pairs; lexicon_fractional_index differs from us (and npm) on {differ}",
        pairs.len()
    );
    let mut g = c.benchmark_group("order key_between");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("kuuid", |b| {
        b.iter(|| {
            for (a, bb) in &pairs {
                black_box(key_between(a.as_deref(), bb.as_deref()).unwrap());
            }
        })
    });
    let mut buf = KeyBuf::with_capacity(pairs.len(), 8 * pairs.len());
    g.bench_function("kuuid into a buffer", |b| {
        b.iter(|| {
            buf.clear();
            for (a, bb) in &pairs {
                key_between_into(a.as_deref(), bb.as_deref(), &mut buf).unwrap();
            }
            black_box(buf.len());
        })
    });
    g.bench_function("lexicon_fractional_index", |b| {
        b.iter(|| {
            for (a, bb) in &pairs {
                black_box(
                    lexicon_fractional_index::key_between(a.as_deref(), bb.as_deref()).unwrap(),
                );
            }
        })
    });
    if let Some(module) = npm_module() {
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(10));
        g.bench_function("npm fractional-indexing (node)", |b| {
            b.iter_custom(|iters| node_time(&module, &pairs, iters))
        });
    }
    g.finish();
}

/// npm's module, where `KUUID_NPM_DIR` and node are there.
fn npm_module() -> Option<PathBuf> {
    let dir = std::env::var_os("KUUID_NPM_DIR")?;
    let module = PathBuf::from(dir).join("node_modules/fractional-indexing/src/index.js");
    let node = Command::new("node").arg("--version").output().is_ok();
    if module.exists() && node {
        Some(module)
    } else {
        eprintln!("order: no node or npm fractional-indexing under KUUID_NPM_DIR; npm not timed");
        None
    }
}

/// `iters` rounds over `pairs` in node, timed by node after a warm-up of
/// its own (so neither start-up nor JIT compilation is counted).
fn node_time(module: &Path, pairs: &[(Option<String>, Option<String>)], iters: u64) -> Duration {
    let script = r#"
        import(process.argv[1]).then(m => {
            let input = '';
            process.stdin.on('data', d => input += d);
            process.stdin.on('end', () => {
                const pairs = input.trim().split('\n').map(l => l.split(' ').map(s => s === '-' ? null : s));
                const iters = Number(process.argv[2]);
                let sink = 0;
                const round = () => { for (const [a, b] of pairs) sink += m.generateKeyBetween(a, b).length; };
                for (let i = 0; i < 200; i++) round();
                const t0 = process.hrtime.bigint();
                for (let i = 0; i < iters; i++) round();
                const ns = process.hrtime.bigint() - t0;
                console.log(String(ns) + ' ' + sink);
            });
        });
    "#;
    let mut child = Command::new("node")
        .args(["-e", script, module.to_str().unwrap(), &iters.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs");
    let input: String = pairs
        .iter()
        .map(|(a, b)| {
            format!(
                "{} {}\n",
                a.as_deref().unwrap_or("-"),
                b.as_deref().unwrap_or("-")
            )
        })
        .collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let ns: u64 = text
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .expect("node's timing");
    Duration::from_nanos(ns)
}

fn many(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut g = c.benchmark_group("order 10^6 keys into a buffer");
    g.throughput(Throughput::Elements(N as u64));
    let mut buf = KeyBuf::with_capacity(N, 5 * N);
    g.bench_function("n_keys_between_into(None, None)", |b| {
        b.iter(|| {
            buf.clear();
            n_keys_between_into(None, None, N, &mut buf).unwrap();
            black_box(buf.len());
        })
    });
    g.bench_function("n_keys_between_into(a0, a1)", |b| {
        b.iter(|| {
            buf.clear();
            n_keys_between_into(Some("a0"), Some("a1"), N, &mut buf).unwrap();
            black_box(buf.len());
        })
    });
    g.bench_function("rebalance_into", |b| {
        b.iter(|| {
            buf.clear();
            rebalance_into(N, &mut buf).unwrap();
            black_box(buf.len());
        })
    });
    g.finish();
}

criterion_group!(benches, between, many);
criterion_main!(benches);
