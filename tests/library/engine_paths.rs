//! Every engine path this CPU runs against the scalar reference: boundary
//! words, odd batch lengths and strides, bad bytes. Every `u32` on every
//! path is in `exhaustive.rs`.

use kuuid::Kuuid;
use kuuid::engine::{Isa, decode_with, encode_with};
use proptest::prelude::*;

/// Encodes with `isa` and with scalar and compares byte for byte.
fn same_as_scalar(isa: Isa, prefix: &[u8; 8], words: &[u32], groups: usize, stride: usize) {
    let count = words.len() / groups;
    let len = count * stride + 8;
    let mut a = vec![b'\n'; len];
    let mut b = vec![b'\n'; len];
    encode_with(isa, prefix, words, groups, &mut a, stride, count).unwrap();
    encode_with(Isa::Scalar, prefix, words, groups, &mut b, stride, count).unwrap();
    if a != b {
        let i = a.iter().zip(&b).position(|(x, y)| x != y).unwrap();
        let id = i / stride;
        panic!(
            "{isa} differs from scalar at byte {i} (id {id}, words {:?}): {:?} vs {:?}",
            &words[id * groups..id * groups + groups],
            String::from_utf8_lossy(&a[id * stride..id * stride + 8 + 6 * groups]),
            String::from_utf8_lossy(&b[id * stride..id * stride + 8 + 6 * groups]),
        );
    }
}

#[test]
fn boundary_words_and_prefixes() {
    let special = [
        0,
        1,
        61,
        62,
        3843,
        3844,
        14_776_335,
        14_776_336,
        916_132_831,
        916_132_832,
        u32::MAX - 1,
        u32::MAX,
        0x8000_0000,
        0x7FFF_FFFF,
    ];
    let mut words = Vec::new();
    for &a in &special {
        for &b in &special {
            words.extend_from_slice(&[a, b, b, a]);
        }
    }
    for isa in Isa::available() {
        for prefix in [b"00000000", b"zzzzzzzz", b"001eVnWK"] {
            for stride in [32, 33, 40, 64] {
                same_as_scalar(isa, prefix, &words, 4, stride);
            }
        }
    }
}

#[test]
fn refuses_bad_shapes_and_missing_paths() {
    let words = [0u32; 8];
    let mut out = [0u8; 64];
    assert!(encode_with(Isa::Scalar, b"00000000", &words, 4, &mut out, 31, 2).is_err());
    assert!(encode_with(Isa::Scalar, b"00000000", &words, 4, &mut out, 33, 2).is_err());
    assert!(encode_with(Isa::Scalar, b"00000000", &words, 5, &mut out, 32, 1).is_err());
    assert!(encode_with(Isa::Scalar, b"00000000", &words[..7], 4, &mut out, 32, 2).is_err());
    assert!(encode_with(Isa::Scalar, b"00000000", &words, 4, &mut out, 32, 2).is_ok());
    for isa in [Isa::Sse41, Isa::Avx2, Isa::Avx512, Isa::Neon] {
        if !isa.is_supported() {
            assert!(encode_with(isa, b"00000000", &words, 4, &mut out, 32, 2).is_err());
            let mut ids = [Kuuid::default(); 1];
            assert_eq!(
                Kuuid::parse_many_with(isa, &[b'0'; 32], 32, &mut ids),
                Err(kuuid::Error::Isa(kuuid::engine::IsaError::Unsupported(isa)))
            );
        }
    }
}

proptest! {
    /// Random batches of any length (odd tails included), any group count and stride.
    #[test]
    fn random_batches_match_scalar(
        words in proptest::collection::vec(any::<u32>(), 0..200),
        groups in 1usize..=4,
        pad in 0usize..8,
        prefix in "[0-9A-Za-z]{8}",
    ) {
        let prefix: [u8; 8] = prefix.as_bytes().try_into().unwrap();
        let n = words.len() / groups * groups;
        for isa in Isa::available() {
            same_as_scalar(isa, &prefix, &words[..n], groups, 8 + 6 * groups + pad);
        }
    }
}

/// Decodes with `isa` and with scalar; both must agree on how many ids are
/// valid and on every decoded value.
fn decode_agrees(isa: Isa, text: &[u8], stride: usize, count: usize) {
    let (mut pa, mut wa) = (vec![0u64; count], vec![0u32; 4 * count]);
    let (mut pb, mut wb) = (vec![0u64; count], vec![0u32; 4 * count]);
    let na = decode_with(isa, text, stride, &mut pa, &mut wa).unwrap();
    let nb = decode_with(Isa::Scalar, text, stride, &mut pb, &mut wb).unwrap();
    assert_eq!(na, nb, "{isa}: valid prefix length");
    assert_eq!(pa[..na], pb[..nb], "{isa}: prefixes");
    assert_eq!(wa[..4 * na], wb[..4 * nb], "{isa}: words");
    // The public entry on a chosen path: the same ids, the same error.
    if stride >= 32 {
        let (mut a, mut b) = (vec![Kuuid::default(); count], vec![Kuuid::default(); count]);
        let ra = Kuuid::parse_many_with(isa, text, stride, &mut a);
        let rb = Kuuid::parse_many_with(Isa::Scalar, text, stride, &mut b);
        assert_eq!(ra, rb, "{isa}: parse_many_with's result");
        assert_eq!(a[..na], b[..nb], "{isa}: parse_many_with's ids");
    }
}

#[test]
fn every_single_byte_mutation_is_judged_like_scalar() {
    let good = b"001eVnWK4gfFC3000000zzzzz0100000";
    let mut ids = Vec::new();
    for pos in 0..32 {
        for byte in 0..=255u8 {
            let mut id = *good;
            id[pos] = byte;
            ids.extend_from_slice(&id);
            ids.push(b'\n');
        }
    }
    let count = ids.len() / 33;
    for isa in Isa::available() {
        // Each id alone (so every mutation is judged, not just the first bad one)...
        for i in 0..count {
            decode_agrees(isa, &ids[i * 33..i * 33 + 32], 33, 1);
        }
        // ... and in pairs, so the two-id paths see a bad id in either slot.
        for i in 0..count - 1 {
            decode_agrees(isa, &ids[i * 33..i * 33 + 65], 33, 2);
        }
    }
}

#[test]
fn decode_boundary_groups() {
    for isa in Isa::available() {
        for (group, ok) in [
            ("000000", true),
            ("4gfFC3", true),
            ("4gfFC4", false),
            ("4zzzzz", false),
            ("500000", false),
            ("zzzzzz", false),
            ("4gfFB9", true),
            ("4gfEzz", true),
        ] {
            for slot in 0..4 {
                let mut id = *b"zzzzzzzz000000000000000000000000";
                id[8 + 6 * slot..14 + 6 * slot].copy_from_slice(group.as_bytes());
                let (mut p, mut w) = ([0u64; 1], [0u32; 4]);
                let n = decode_with(isa, &id, 32, &mut p, &mut w).unwrap();
                assert_eq!(n == 1, ok, "{isa} {group} in slot {slot}");
                decode_agrees(isa, &id, 32, 1);
            }
        }
    }
}

proptest! {
    /// Random valid batches with a few random byte changes: every path finds
    /// the same first bad id and the same values before it.
    #[test]
    fn random_batches_decode_like_scalar(
        words in proptest::collection::vec(any::<u32>(), 4..160),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..3),
        stride in 32usize..40,
    ) {
        let count = words.len() / 4;
        let mut text = vec![b'\n'; count * stride];
        encode_with(Isa::Scalar, b"0QfQsjKa", &words, 4, &mut text, stride, count).unwrap();
        for (at, byte) in edits {
            let i = at % count;
            let pos = (at / count) % 32;
            text[i * stride + pos] = byte;
        }
        for isa in Isa::available() {
            decode_agrees(isa, &text, stride, count);
        }
    }
}
