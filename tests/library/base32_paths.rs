//! Crockford base32 (ULID, TypeID) on every path this CPU runs, against
//! the scalar reference: every value of every pair of neighbouring bytes
//! (each character depends on at most two), in both cases; random batches
//! of every length (pairs and an odd one on AVX2) in slots wider than the
//! text, whose bytes past 26 must stay as they were. Decoding: those
//! texts back on every path, every byte at every position in batches that
//! put the bad text first, second and alone, and random batches with
//! random strides and faults.
#![cfg(feature = "ulid")]

use kuuid::engine::{Isa, base32_decode_with, base32_with};
use proptest::prelude::*;

/// `src` on `isa` and on scalar, in both cases, into slots of 26.
fn same_as_scalar(isa: Isa, src: &[[u8; 16]]) {
    for upper in [true, false] {
        let mut want = vec![[0u8; 26]; src.len()];
        let mut got = vec![[0u8; 26]; src.len()];
        base32_with(Isa::Scalar, src, &mut want, upper);
        assert_eq!(base32_with(isa, src, &mut got, upper), src.len());
        if let Some(i) = (0..src.len()).find(|&i| got[i] != want[i]) {
            panic!(
                "{isa}, upper {upper}: {:02x?} gave {:?}, scalar {:?}",
                src[i],
                String::from_utf8_lossy(&got[i]),
                String::from_utf8_lossy(&want[i])
            );
        }
    }
}

/// The SIMD paths this CPU runs.
fn simd_paths() -> Vec<Isa> {
    Isa::available()
        .into_iter()
        .filter(|&i| i != Isa::Scalar)
        .collect()
}

/// Decodes `text` on `isa` and on scalar: the same count of leading valid
/// texts and the same values for them.
fn decodes_as_scalar(isa: Isa, text: &[u8], stride: usize, count: usize, lower: bool) -> usize {
    let mut want = vec![[0u8; 16]; count];
    let mut got = vec![[0u8; 16]; count];
    let n = base32_decode_with(Isa::Scalar, text, stride, &mut want, lower).unwrap();
    let m = base32_decode_with(isa, text, stride, &mut got, lower).unwrap();
    assert_eq!(
        (m, &got[..n.min(m)]),
        (n, &want[..n]),
        "{isa}, lower {lower}, stride {stride}: {:?}",
        String::from_utf8_lossy(text)
    );
    n
}

#[test]
fn every_byte_at_every_position_decodes_as_scalar() {
    let good_upper = *b"01ARZ3NDEKTSV4RRFFQ69G5FAV";
    let good_lower = good_upper.map(|c| c.to_ascii_lowercase());
    let mut refused = 0;
    for isa in simd_paths() {
        for (good, lower) in [(good_upper, false), (good_lower, false), (good_lower, true)] {
            for i in 0..26 {
                for b in 0..=255u8 {
                    let mut bad = good;
                    bad[i] = b;
                    // The changed text alone, second, third (AVX2's odd
                    // last), and first of a pair.
                    for at in 0..3 {
                        let mut text = good.repeat(at);
                        text.extend_from_slice(&bad);
                        text.extend_from_slice(&good);
                        let n = decodes_as_scalar(isa, &text, 26, at + 2, lower);
                        refused += usize::from(n < at + 2);
                    }
                }
            }
        }
    }
    // Each way of reading refuses most of the 256 bytes at each place.
    let paths = simd_paths().len();
    assert!(
        paths == 0 || refused > paths * 3 * 26 * 150 * 3,
        "{refused}"
    );
}

#[test]
fn every_pair_of_neighbouring_bytes_on_every_path() {
    let paths = simd_paths();
    eprintln!("base32 paths checked: {paths:?}");
    for b in 0..15 {
        // The other bytes: a pattern that differs by position.
        let base: [u8; 16] = std::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        let src: Vec<[u8; 16]> = (0..=u16::MAX)
            .map(|v| {
                let mut x = base;
                x[b] = (v >> 8) as u8;
                x[b + 1] = v as u8;
                x
            })
            .collect();
        let mut text = Vec::with_capacity(src.len() * 27);
        for upper in [true, false] {
            let mut lines = vec![[0u8; 26]; src.len()];
            base32_with(Isa::Scalar, &src, &mut lines, upper);
            text.clear();
            for line in &lines {
                text.extend_from_slice(line);
                text.push(b' ');
            }
            for &isa in &paths {
                let mut back = vec![[0u8; 16]; src.len()];
                let n = base32_decode_with(isa, &text, 27, &mut back, false).unwrap();
                assert_eq!(n, src.len(), "{isa}: text {n} refused");
                assert!(back == src, "{isa}: a value read back differs");
            }
        }
        for &isa in &paths {
            same_as_scalar(isa, &src);
        }
    }
}

/// Ulid::encode_many (the process's path, which `KUUID_ISA` forces)
/// writes what Display writes.
#[test]
fn ulid_encode_many_is_display() {
    let mut ids = vec![kuuid::Ulid::MIN; 1001];
    kuuid::fill_ulid(&mut ids);
    let mut out = vec![[b'\n'; 27]; ids.len()];
    assert_eq!(kuuid::Ulid::encode_many(&ids, &mut out), ids.len());
    for (id, line) in ids.iter().zip(&out) {
        assert_eq!(&line[..26], id.to_string().as_bytes());
        assert_eq!(line[26], b'\n');
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_texts_decode_as_scalar(
        src in prop::collection::vec(any::<[u8; 16]>(), 1..40),
        gap in 0usize..8,
        faults in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        upper in any::<bool>(),
        lower_only in any::<bool>(),
    ) {
        let stride = 26 + gap;
        let mut lines = vec![[b'-'; 26]; src.len()];
        base32_with(Isa::Scalar, &src, &mut lines, upper);
        let mut text: Vec<u8> = lines
            .iter()
            .flat_map(|l| l.iter().copied().chain(std::iter::repeat_n(b'~', gap)))
            .collect();
        text.truncate(text.len() - gap);
        for (at, byte) in &faults {
            let at = at.index(src.len()) * stride + usize::from(*byte) % 26;
            text[at] = *byte;
        }
        for isa in simd_paths() {
            decodes_as_scalar(isa, &text, stride, src.len(), lower_only);
        }
    }

    #[test]
    #[test]
    fn random_batches_match_scalar_and_stay_in_their_slots(
        src in prop::collection::vec(any::<[u8; 16]>(), 0..40),
        upper in any::<bool>(),
    ) {
        for isa in Isa::available() {
            same_as_scalar(isa, &src);
            // Wider slots: the bytes after the text are left alone.
            let mut want = vec![[0u8; 26]; src.len()];
            base32_with(Isa::Scalar, &src, &mut want, upper);
            let ids: Vec<kuuid::Ulid> = src.iter().map(|b| kuuid::Ulid::from_bytes(*b)).collect();
            let mut wide = vec![[0xa5u8; 32]; src.len()];
            kuuid::Ulid::encode_many(&ids, &mut wide);
            for (w, t) in wide.iter().zip(&want) {
                if upper {
                    prop_assert_eq!(&w[..26], &t[..]);
                }
                prop_assert!(w[26..].iter().all(|&b| b == 0xa5));
            }
        }
    }
}
