//! Instruction counts (gungraun, on Callgrind): repeatable on a shared,
//! noisy machine where wall-clock figures move by 25 %. Valgrind has no
//! AVX-512, so the scalar and AVX2 paths are measured.
//!
//! `cargo install gungraun-runner --version 0.20.0` once, then
//! `cargo bench --bench instructions`.

use std::hint::black_box;

use gungraun::{library_benchmark, library_benchmark_group, main};
use kuuid::engine::{
    Isa, base32_decode_with, base32_with, base62_160_with, decode_with, encode_with,
};
use kuuid::order::{KeyBuf, key_between, key_between_into};
use kuuid::{Generator, Kuuid, RngKind};

#[path = "shared/order_pairs.rs"]
mod order_pairs;
use order_pairs::typical_pairs;

const N: usize = 4096;

/// Inputs built outside the measured function: the path, words and an
/// output buffer.
fn encode_input(isa: Isa) -> (Isa, Vec<u32>, Vec<u8>) {
    let words = (0..4 * N as u32)
        .map(|i| i.wrapping_mul(0x9E37_79B9))
        .collect();
    (isa, words, vec![0u8; N * 33])
}

/// The path, 4096 ids of text, and output buffers.
fn decode_input(isa: Isa) -> (Isa, Vec<u8>, Vec<u64>, Vec<u32>) {
    let (_, words, mut text) = encode_input(isa);
    text.fill(b'\n');
    encode_with(Isa::Scalar, b"001eVnWK", &words, 4, &mut text, 33, N).unwrap();
    (isa, text, vec![0u64; N], vec![0u32; 4 * N])
}

#[library_benchmark]
#[bench::scalar(args = (Isa::Scalar), setup = encode_input)]
#[bench::sse41(args = (Isa::Sse41), setup = encode_input)]
#[bench::avx2(args = (Isa::Avx2), setup = encode_input)]
fn encode_4096((isa, words, mut out): (Isa, Vec<u32>, Vec<u8>)) -> Vec<u8> {
    if isa.is_supported() {
        encode_with(isa, b"001eVnWK", black_box(&words), 4, &mut out, 33, N).unwrap();
    }
    out
}

#[library_benchmark]
#[bench::scalar(args = (Isa::Scalar), setup = decode_input)]
#[bench::sse41(args = (Isa::Sse41), setup = decode_input)]
#[bench::avx2(args = (Isa::Avx2), setup = decode_input)]
fn decode_4096((isa, text, mut p, mut w): (Isa, Vec<u8>, Vec<u64>, Vec<u32>)) -> usize {
    if !isa.is_supported() {
        return 0;
    }
    decode_with(isa, black_box(&text), 33, &mut p, &mut w).unwrap()
}

/// The path, 4096 16-byte values, and room for their base32 text.
fn base32_input(isa: Isa) -> (Isa, Vec<[u8; 16]>, Vec<[u8; 26]>) {
    let (_, words, _) = encode_input(isa);
    let values = words
        .chunks_exact(4)
        .map(|w| std::array::from_fn(|i| w[i / 4].to_le_bytes()[i % 4]))
        .collect();
    (isa, values, vec![[0u8; 26]; N])
}

// Crockford base32 (ULID, TypeID), 4096 values each way.
#[library_benchmark]
#[bench::scalar(args = (Isa::Scalar), setup = base32_input)]
#[bench::sse41(args = (Isa::Sse41), setup = base32_input)]
#[bench::avx2(args = (Isa::Avx2), setup = base32_input)]
fn base32_4096((isa, values, mut out): (Isa, Vec<[u8; 16]>, Vec<[u8; 26]>)) -> Vec<[u8; 26]> {
    if isa.is_supported() {
        base32_with(isa, black_box(&values), &mut out, true);
    }
    out
}

/// The path, 4096 texts of base32 (one after another), and room for
/// their values.
fn base32_text_input(isa: Isa) -> (Isa, Vec<u8>, Vec<[u8; 16]>) {
    let (_, values, mut text) = base32_input(isa);
    base32_with(Isa::Scalar, &values, &mut text, true);
    (isa, text.concat(), values)
}

#[library_benchmark]
#[bench::scalar(args = (Isa::Scalar), setup = base32_text_input)]
#[bench::sse41(args = (Isa::Sse41), setup = base32_text_input)]
#[bench::avx2(args = (Isa::Avx2), setup = base32_text_input)]
fn decode_base32_4096((isa, text, mut out): (Isa, Vec<u8>, Vec<[u8; 16]>)) -> usize {
    if !isa.is_supported() {
        return 0;
    }
    base32_decode_with(isa, black_box(&text), 26, &mut out, false).unwrap()
}

/// The path, 4096 KSUIDs' 20 bytes, and room for their text.
fn ksuid_input(isa: Isa) -> (Isa, Vec<[u8; 20]>, Vec<[u8; 27]>) {
    let (_, words, _) = encode_input(isa);
    let values = words
        .chunks_exact(5)
        .map(|w| std::array::from_fn(|i| w[i / 4].to_le_bytes()[i % 4]))
        .collect();
    (isa, values, vec![[0u8; 27]; N])
}

// KSUID's 160-bit base62 (about 3276 values: the words five at a time).
#[library_benchmark]
#[bench::scalar(args = (Isa::Scalar), setup = ksuid_input)]
#[bench::sse41(args = (Isa::Sse41), setup = ksuid_input)]
#[bench::avx2(args = (Isa::Avx2), setup = ksuid_input)]
fn base62_160_3276((isa, values, mut out): (Isa, Vec<[u8; 20]>, Vec<[u8; 27]>)) -> Vec<[u8; 27]> {
    if isa.is_supported() {
        base62_160_with(isa, black_box(&values), &mut out);
    }
    out
}

#[library_benchmark]
#[bench::scalar_fast(Isa::Scalar, RngKind::Fast)]
#[bench::scalar_secure(Isa::Scalar, RngKind::Secure)]
#[bench::sse41_fast(Isa::Sse41, RngKind::Fast)]
#[bench::avx2_fast(Isa::Avx2, RngKind::Fast)]
#[bench::avx2_secure(Isa::Avx2, RngKind::Secure)]
fn fill_4096(isa: Isa, kind: RngKind) -> Vec<Kuuid> {
    let mut ids = vec![Kuuid::default(); N];
    if let Ok(mut g) = Generator::new(kind).unwrap().with_isa(isa) {
        g.fill(black_box(&mut ids));
    }
    ids
}

// The first id of a thread (each benchmark runs in a process of its own):
// the per-thread state made, keyed from the OS, and the first slice
// drawn and encoded. What a thread-per-connection server pays per
// connection (benches/server.rs times it).
#[library_benchmark]
#[bench::id(0)]
#[bench::v7(1)]
#[bench::object_id(2)]
fn first(which: u8) -> u8 {
    match which {
        0 => black_box(kuuid::id()).as_bytes()[31],
        1 => black_box(kuuid::v7()).hyphenated_bytes()[35],
        _ => black_box(kuuid::object_id()).hex_bytes()[23],
    }
}

// 1000 single ids after the thread's buffer is warm: the hot path.
#[library_benchmark]
fn id_1000() -> u8 {
    let _warm = kuuid::id();
    let mut acc = 0u8;
    for _ in 0..1000 {
        acc ^= black_box(kuuid::id()).as_bytes()[31];
    }
    acc
}

// 1000 ObjectIds as text, after the thread's block is claimed: one
// `fetch_add` per 256 and the fork token check per id.
#[library_benchmark]
fn object_id_1000() -> u8 {
    let _warm = kuuid::object_id();
    let mut acc = 0u8;
    for _ in 0..1000 {
        acc ^= black_box(kuuid::object_id()).hex_bytes()[23];
    }
    acc
}

// 1000 UUIDv7s as text from the process sequence (`v7()`: one
// `fetch_add` an id) and from a `V7Generator` (a block per 256).
#[library_benchmark]
fn v7_1000() -> u8 {
    let _warm = kuuid::v7();
    let mut acc = 0u8;
    for _ in 0..1000 {
        acc ^= black_box(kuuid::v7()).hyphenated_bytes()[35];
    }
    acc
}

// 1000 `idms_monotonic()`s (text already): one `fetch_add` an id, as
// `v7()`, and the thread's encoded-ahead batch, as `id()`.
#[library_benchmark]
fn idms_monotonic_1000() -> u8 {
    let _warm = kuuid::idms_monotonic();
    let mut acc = 0u8;
    for _ in 0..1000 {
        acc ^= black_box(kuuid::idms_monotonic()).as_bytes()[31];
    }
    acc
}

// 1000 ULIDs as text from the process's ULID sequence (one `fetch_add`
// an id, as `v7()`) and Crockford base32's scalar encoder.
#[library_benchmark]
fn ulid_1000() -> u8 {
    let _warm = kuuid::ulid();
    let mut acc = 0u8;
    for _ in 0..1000 {
        acc ^= black_box(kuuid::ulid()).text_bytes()[25];
    }
    acc
}

#[library_benchmark]
fn v7_generator_1000() -> u8 {
    let mut g = kuuid::V7Generator::new();
    let _warm = g.generate();
    let mut acc = 0u8;
    for _ in 0..1000 {
        acc ^= black_box(g.generate()).hyphenated_bytes()[35];
    }
    acc
}

// 1000 ids from a caller's own `Generator` (the encoded-ahead batch, as
// `id()`), and from a monotonic one (a step and the scalar encoder an id).
#[library_benchmark]
#[bench::plain(false)]
#[bench::monotonic(true)]
fn generator_1000(monotonic: bool) -> u8 {
    let mut g = Generator::new(RngKind::Secure).unwrap();
    if monotonic {
        g = g.monotonic();
    }
    let _warm = g.generate();
    let mut acc = 0u8;
    for _ in 0..1000 {
        acc ^= black_box(g.generate()).as_bytes()[31];
    }
    acc
}

type Pairs = Vec<(Option<String>, Option<String>)>;

/// The order bench's 501 typical bounds and a buffer large enough for
/// their keys (built outside the measured function).
fn order_input() -> (Pairs, KeyBuf) {
    let pairs = typical_pairs();
    let buf = KeyBuf::with_capacity(pairs.len(), 16 * pairs.len());
    (pairs, buf)
}

// The key between each of 501 typical bounds: owned keys (`key_between`)
// and appended to a caller's buffer (`key_between_into`). The inputs are
// handed back, so freeing them is not counted.
#[library_benchmark]
#[bench::owned(setup = order_input)]
fn key_between_501((pairs, buf): (Pairs, KeyBuf)) -> (Pairs, KeyBuf, usize) {
    let mut acc = 0;
    for (a, b) in &pairs {
        let key = black_box(key_between(a.as_deref(), b.as_deref()).unwrap());
        acc += usize::from(key.as_bytes()[1]);
    }
    (pairs, buf, acc)
}

#[library_benchmark]
#[bench::buffer(setup = order_input)]
fn key_between_into_501((pairs, mut buf): (Pairs, KeyBuf)) -> (Pairs, KeyBuf, usize) {
    for (a, b) in &pairs {
        key_between_into(a.as_deref(), b.as_deref(), &mut buf).unwrap();
    }
    (pairs, buf, 0)
}

library_benchmark_group!(
    name = engine;
    benchmarks = encode_4096, decode_4096, base32_4096, decode_base32_4096, base62_160_3276, fill_4096, first, id_1000, object_id_1000, v7_1000, idms_monotonic_1000, ulid_1000, v7_generator_1000, generator_1000,
        key_between_501, key_between_into_501
);

main!(library_benchmark_groups = engine);
