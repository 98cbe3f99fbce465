//! Random batches of any length (odd tails included), any group count and
//! stride: every path writes exactly what scalar writes, and nothing else.
//! The same for Crockford base32 (ULID, TypeID): the words as 16-byte
//! values, both cases; and KSUID's 160-bit base62 (the words as 20-byte
//! values).
#![no_main]

use kuuid::engine::{Isa, base32_with, base62_160_with, encode_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Vec<u32>, u8, u8, [u8; 8])| {
    let (words, groups, pad, prefix) = input;
    let groups = usize::from(groups % 4) + 1;
    let stride = 8 + 6 * groups + usize::from(pad % 16);
    let prefix = prefix.map(|b| kuuid::engine::ALPHABET[usize::from(b) % 62]);
    let count = words.len() / groups;
    // Fill with a sentinel so stray writes between ids show up.
    let mut want = vec![0xA5u8; count * stride + 64];
    encode_with(
        Isa::Scalar,
        &prefix,
        &words,
        groups,
        &mut want,
        stride,
        count,
    )
    .unwrap();
    for isa in Isa::available() {
        let mut got = vec![0xA5u8; count * stride + 64];
        encode_with(isa, &prefix, &words, groups, &mut got, stride, count).unwrap();
        assert!(got == want, "{isa} differs from scalar");
    }
    let values: Vec<[u8; 16]> = words.chunks_exact(4).map(to_bytes).collect();
    for upper in [true, false] {
        let mut want = vec![[0u8; 26]; values.len()];
        base32_with(Isa::Scalar, &values, &mut want, upper);
        for isa in Isa::available() {
            let mut got = vec![[0u8; 26]; values.len()];
            base32_with(isa, &values, &mut got, upper);
            assert!(got == want, "base32 on {isa} differs from scalar");
        }
    }
    // KSUID's 160-bit base62: the words five at a time as 20 bytes.
    let ksuids: Vec<[u8; 20]> = words
        .chunks_exact(5)
        .map(|w| std::array::from_fn(|i| w[i / 4].to_le_bytes()[i % 4]))
        .collect();
    let mut want = vec![[0u8; 27]; ksuids.len()];
    base62_160_with(Isa::Scalar, &ksuids, &mut want);
    for isa in Isa::available() {
        let mut got = vec![[0u8; 27]; ksuids.len()];
        base62_160_with(isa, &ksuids, &mut got);
        assert!(got == want, "base62-160 on {isa} differs from scalar");
    }
});

/// Four words as 16 bytes.
fn to_bytes(w: &[u32]) -> [u8; 16] {
    std::array::from_fn(|i| w[i / 4].to_le_bytes()[i % 4])
}
