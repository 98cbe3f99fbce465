//! KSUID's 160-bit base62 on every path this CPU runs (AVX2 four ids at a
//! time, NEON two, with their carries in doubles; under qemu in CI's
//! aarch64-neon step) against the scalar reference (long
//! division by 62^5): values where a base-62^5 position is exactly a
//! multiple of 62^5 or one off it (where a floor of `v / D` computed in
//! doubles is wrong by one and must be corrected), every single bit and
//! every 16-bit half at its extremes, a million random values, and random
//! batches of every length (the last few take the scalar tail) in slots
//! wider than the text.
#![cfg(feature = "ksuid")]

use kuuid::engine::{Isa, base62_160_with};
use proptest::prelude::*;

const D: u32 = 916_132_832;

/// `a * m + c` in 160 bits (big-endian), or `None` past 2^160.
fn mul_add(a: &[u8; 20], m: u32, c: u32) -> Option<[u8; 20]> {
    let mut out = [0u8; 20];
    let mut carry = u64::from(c);
    for i in (0..20).rev() {
        let v = u64::from(a[i]) * u64::from(m) + carry;
        out[i] = v as u8;
        carry = v >> 8;
    }
    (carry == 0).then_some(out)
}

/// `a - 1` (wrapping).
fn minus_one(a: &[u8; 20]) -> [u8; 20] {
    let mut out = *a;
    for b in out.iter_mut().rev() {
        let (v, borrow) = b.overflowing_sub(1);
        *b = v;
        if !borrow {
            break;
        }
    }
    out
}

/// Edge values: `k * D^j` and one either side, for several `k`; single
/// bits; each 16-bit half all ones among zeros and zero among ones.
fn edge_values() -> Vec<[u8; 20]> {
    let mut v = vec![[0u8; 20], [0xff; 20]];
    let mut power = {
        let mut one = [0u8; 20];
        one[19] = 1;
        one
    };
    for _ in 0..6 {
        for k in [1, 2, 3, 61, 62, 63, 1000, D / 2, D - 1, u32::MAX] {
            if let Some(x) = mul_add(&power, k, 0) {
                let up = mul_add(&x, 1, 1).unwrap_or(x);
                v.extend([minus_one(&x), x, up]);
            }
        }
        match mul_add(&power, D, 0) {
            Some(p) => power = p,
            None => break,
        }
    }
    for bit in 0..160 {
        let mut b = [0u8; 20];
        b[19 - bit / 8] = 1 << (bit % 8);
        v.push(b);
    }
    for half in 0..10 {
        let mut ones = [0u8; 20];
        ones[2 * half] = 0xff;
        ones[2 * half + 1] = 0xff;
        v.push(ones);
        v.push(ones.map(|b| !b));
    }
    v
}

/// `src` on `isa` and on scalar: the same texts.
fn same_as_scalar(isa: Isa, src: &[[u8; 20]]) {
    let mut want = vec![[0u8; 27]; src.len()];
    let mut got = vec![[0u8; 27]; src.len()];
    base62_160_with(Isa::Scalar, src, &mut want);
    assert_eq!(base62_160_with(isa, src, &mut got), src.len());
    if let Some(i) = (0..src.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{isa}: {:02x?} gave {:?}, scalar {:?}",
            src[i],
            String::from_utf8_lossy(&got[i]),
            String::from_utf8_lossy(&want[i])
        );
    }
}

fn paths() -> Vec<Isa> {
    Isa::available()
        .into_iter()
        .filter(|&i| i != Isa::Scalar)
        .collect()
}

#[test]
fn edge_values_on_every_path() {
    let values = edge_values();
    assert!(values.len() > 300, "{}", values.len());
    for isa in paths() {
        // In every lane: the values, then shifted by one, two and three.
        for shift in 0..4 {
            same_as_scalar(isa, &values[shift..]);
        }
    }
}

#[test]
fn a_million_random_values_on_every_path() {
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    let values: Vec<[u8; 20]> = (0..1_000_000)
        .map(|_| {
            std::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
        })
        .collect();
    for isa in paths() {
        same_as_scalar(isa, &values);
    }
}

/// Ksuid::encode_many (the process's path, which `KUUID_ISA` forces)
/// writes what Display writes, and leaves the rest of a wider slot.
#[test]
fn ksuid_encode_many_is_display() {
    let mut ids = vec![kuuid::Ksuid::MIN; 1003];
    kuuid::fill_ksuid(&mut ids);
    let mut out = vec![[b'\n'; 28]; ids.len()];
    assert_eq!(kuuid::Ksuid::encode_many(&ids, &mut out), ids.len());
    for (id, line) in ids.iter().zip(&out) {
        assert_eq!(&line[..27], id.to_string().as_bytes());
        assert_eq!(line[27], b'\n');
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_batches_match_scalar(src in prop::collection::vec(any::<[u8; 20]>(), 0..40)) {
        for isa in paths() {
            same_as_scalar(isa, &src);
        }
    }
}
