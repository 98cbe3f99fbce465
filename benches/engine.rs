//! Bulk ns/id for every engine path this CPU runs, encode alone and with
//! each RNG engine, for an L2-resident batch (64 Ki ids) and a 1 Mi-id batch.
//!
//! `cargo bench --bench engine` (add `-- encode` etc. to filter).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kuuid::engine::{Isa, encode_with};
use kuuid::{Generator, Kuuid, RngKind};

const SMALL: usize = 64 * 1024;
const LARGE: usize = 1024 * 1024;

fn encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("encode");
    let mut words = vec![0u32; SMALL * 4];
    let mut rng = Generator::fast();
    let mut scratch = vec![Kuuid::default(); SMALL];
    rng.fill(&mut scratch);
    for (w, id) in words.chunks_exact_mut(4).zip(&scratch) {
        w.copy_from_slice(&id.random_words());
    }
    let mut out = vec![0u8; SMALL * 33];
    g.throughput(Throughput::Elements(SMALL as u64));
    for isa in Isa::available() {
        for stride in [32usize, 33] {
            g.bench_function(
                BenchmarkId::new(isa.name(), format!("stride{stride}")),
                |b| {
                    b.iter(|| {
                        encode_with(
                            isa,
                            b"001eVnWK",
                            black_box(&words),
                            4,
                            &mut out,
                            stride,
                            SMALL,
                        )
                        .unwrap();
                        black_box(&out);
                    })
                },
            );
        }
    }
    g.finish();
}

fn bulk(c: &mut Criterion) {
    let mut g = c.benchmark_group("bulk");
    for n in [SMALL, LARGE] {
        let mut ids = vec![Kuuid::default(); n];
        g.throughput(Throughput::Elements(n as u64));
        for isa in Isa::available() {
            for kind in [RngKind::Fast, RngKind::Secure] {
                let mut gen_ = Generator::new(kind).unwrap().with_isa(isa).unwrap();
                let name = format!(
                    "{}/{}",
                    isa.name(),
                    if kind == RngKind::Fast {
                        "fast"
                    } else {
                        "secure"
                    }
                );
                g.bench_function(BenchmarkId::new(name, n), |b| {
                    b.iter(|| {
                        gen_.fill(&mut ids);
                        black_box(&ids);
                    })
                });
            }
        }
    }
    g.finish();
}

fn decode(c: &mut Criterion) {
    // 32 Ki ids: 1 MiB of text, L2-resident here.
    const N: usize = 32 * 1024;
    let mut g = c.benchmark_group("decode");
    let mut ids = vec![Kuuid::default(); N];
    Generator::fast().fill(&mut ids);
    let mut text = Vec::with_capacity(N * 33);
    for id in &ids {
        text.extend_from_slice(id.as_bytes());
        text.push(b'\n');
    }
    let (mut prefixes, mut words) = (vec![0u64; N], vec![0u32; 4 * N]);
    g.throughput(Throughput::Elements(N as u64));
    for isa in Isa::available() {
        g.bench_function(BenchmarkId::new(isa.name(), N), |b| {
            b.iter(|| {
                let n = kuuid::engine::decode_with(
                    isa,
                    black_box(&text),
                    33,
                    &mut prefixes,
                    &mut words,
                )
                .unwrap();
                assert_eq!(n, N);
            })
        });
    }
    let mut back = vec![Kuuid::default(); N];
    g.bench_function(BenchmarkId::new("parse_many", N), |b| {
        b.iter(|| Kuuid::parse_many(black_box(&text), 33, &mut back).unwrap())
    });
    g.finish();
}

/// ULIDs' Crockford base32 per path, both ways; `Ulid::parse_many` and,
/// for scale, `Ulid::parse_bytes` one line after another.
fn base32(c: &mut Criterion) {
    const N: usize = 32 * 1024;
    let mut g = c.benchmark_group("base32");
    let mut ids = vec![kuuid::Ulid::MIN; N];
    kuuid::fill_ulid(&mut ids);
    let text: Vec<u8> = ids
        .iter()
        .flat_map(|id| format!("{id}\n").into_bytes())
        .collect();
    let values: Vec<[u8; 16]> = ids.iter().map(|id| *id.as_bytes()).collect();
    let mut lines = vec![[0u8; 26]; N];
    let mut out = vec![[0u8; 16]; N];
    g.throughput(Throughput::Elements(N as u64));
    for isa in Isa::available() {
        g.bench_function(BenchmarkId::new(format!("encode/{}", isa.name()), N), |b| {
            b.iter(|| kuuid::engine::base32_with(isa, black_box(&values), &mut lines, true))
        });
    }
    for isa in Isa::available() {
        g.bench_function(BenchmarkId::new(format!("decode/{}", isa.name()), N), |b| {
            b.iter(|| {
                let n =
                    kuuid::engine::base32_decode_with(isa, black_box(&text), 27, &mut out, false);
                assert_eq!(n, Ok(N));
            })
        });
    }
    let mut back = vec![kuuid::Ulid::MIN; N];
    g.bench_function(BenchmarkId::new("parse_many", N), |b| {
        b.iter(|| kuuid::Ulid::parse_many(black_box(&text), 27, &mut back).unwrap())
    });
    g.bench_function(BenchmarkId::new("parse_bytes", N), |b| {
        b.iter(|| {
            for (line, id) in black_box(&text).chunks_exact(27).zip(&mut back) {
                *id = kuuid::Ulid::parse_bytes(&line[..26]).unwrap();
            }
        })
    });
    g.finish();
}

/// KSUIDs' 160-bit base62 per path (AVX2 four ids at a time, SSE4.1 and NEON two).
fn base62_160(c: &mut Criterion) {
    const N: usize = 32 * 1024;
    let mut g = c.benchmark_group("base62_160");
    let mut ids = vec![kuuid::Ksuid::MIN; N];
    kuuid::fill_ksuid(&mut ids);
    let values: Vec<[u8; 20]> = ids.iter().map(|id| *id.as_bytes()).collect();
    let mut out = vec![[0u8; 27]; N];
    g.throughput(Throughput::Elements(N as u64));
    for isa in Isa::available() {
        g.bench_function(BenchmarkId::new(format!("encode/{}", isa.name()), N), |b| {
            b.iter(|| kuuid::engine::base62_160_with(isa, black_box(&values), &mut out))
        });
    }
    g.finish();
}

/// The candidates for the secure RNG (and xoshiro for scale), 4 KiB per
/// call as the generator draws them: the measurement behind `rng/secure.rs`.
fn rng(c: &mut Criterion) {
    use aes::cipher::{BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher};
    use rand_core::{RngCore, SeedableRng};
    const BYTES: usize = 4096;
    let mut g = c.benchmark_group("rng");
    g.throughput(Throughput::Bytes(BYTES as u64));
    let mut buf = vec![0u8; BYTES];
    let cipher = aes::Aes128::new(&[7u8; 16].into());
    let mut counter = 0u64;
    g.bench_function("aes128-counter-blocks", |b| {
        b.iter(|| {
            for blk in buf.chunks_exact_mut(16) {
                blk[..8].copy_from_slice(&counter.to_le_bytes());
                blk[8..].copy_from_slice(&0x0123_4567_89ab_cdefu64.to_le_bytes());
                counter += 1;
            }
            let (blocks, _) = aes::cipher::array::Array::slice_as_chunks_mut(&mut buf);
            cipher.encrypt_blocks(blocks);
            black_box(&buf);
        })
    });
    let mut c64 = ctr::Ctr64LE::<aes::Aes128>::new(&[7u8; 16].into(), &[0u8; 16].into());
    g.bench_function("aes128-ctr64le", |b| {
        b.iter(|| {
            buf.fill(0);
            c64.apply_keystream(&mut buf);
            black_box(&buf);
        })
    });
    let mut c128 = ctr::Ctr128BE::<aes::Aes128>::new(&[7u8; 16].into(), &[0u8; 16].into());
    g.bench_function("aes128-ctr128be", |b| {
        b.iter(|| {
            buf.fill(0);
            c128.apply_keystream(&mut buf);
            black_box(&buf);
        })
    });
    let mut c8 = rand_chacha::ChaCha8Rng::from_seed([1; 32]);
    g.bench_function("chacha8", |b| b.iter(|| c8.fill_bytes(black_box(&mut buf))));
    let mut c12 = rand_chacha::ChaCha12Rng::from_seed([1; 32]);
    g.bench_function("chacha12", |b| {
        b.iter(|| c12.fill_bytes(black_box(&mut buf)))
    });
    let mut x = rand_xoshiro::Xoshiro256PlusPlus::from_seed([1; 32]);
    g.bench_function("xoshiro256pp-scalar", |b| {
        b.iter(|| {
            for c in buf.chunks_exact_mut(8) {
                c.copy_from_slice(&x.next_u64().to_le_bytes());
            }
            black_box(&buf);
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! { name = benches; config = config(); targets = encode, bulk, decode, base32, base62_160, rng }
criterion_main!(benches);
