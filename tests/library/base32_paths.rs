//! Crockford base32 (ULID, TypeID) on every path this CPU runs, against
//! the scalar reference: every value of every pair of neighbouring bytes
//! (each character depends on at most two), in both cases; random batches
//! of every length (pairs and an odd one on AVX2) in slots wider than the
//! text, whose bytes past 26 must stay as they were.
#![cfg(feature = "ulid")]

use kuuid::engine::{Isa, base32_with};
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

#[test]
fn every_pair_of_neighbouring_bytes_on_every_path() {
    let paths: Vec<Isa> = Isa::available()
        .into_iter()
        .filter(|&i| i != Isa::Scalar)
        .collect();
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
