//! Random batches of any length (odd tails included), any group count and
//! stride: every path writes exactly what scalar writes, and nothing else.
#![no_main]

use kuuid::engine::{Isa, encode_with};
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
});
