//! Random batches of values (odd tails included), every hex shape: every
//! path, and the single-id SWAR code, writes exactly what scalar writes,
//! and nothing past the texts.
#![no_main]

use kuuid::engine::{HexShape, Isa, hex_one_by_one, hex_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Vec<u8>, u8)| {
    let (bytes, which) = input;
    let shape =
        [HexShape::Simple, HexShape::Hyphenated, HexShape::ObjectId][usize::from(which % 3)];
    let (size, len) = shape.sizes();
    let src = &bytes[..bytes.len() / size * size];
    let count = src.len() / size;
    // A sentinel tail shows stray writes.
    let mut want = vec![0xA5u8; count * len + 64];
    hex_with(Isa::Scalar, shape, src, &mut want).unwrap();
    assert!(want[count * len..].iter().all(|&b| b == 0xA5));
    for isa in Isa::available() {
        let mut got = vec![0xA5u8; count * len + 64];
        hex_with(isa, shape, src, &mut got).unwrap();
        assert!(got == want, "{isa} differs from scalar on {shape:?}");
    }
    let mut got = vec![0xA5u8; count * len + 64];
    hex_one_by_one(shape, src, &mut got).unwrap();
    assert!(
        got == want,
        "the single-id path differs from scalar on {shape:?}"
    );
});
