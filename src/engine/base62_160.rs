//! Base62 of 160 bits (KSUID): 27 characters, zero-padded, the scalar
//! reference. A 160-bit number is five 32-bit words; dividing it by 62^5
//! (below 2^32) six times gives five digits a pass, so the text takes 30
//! word divisions instead of the 135 of a digit-at-a-time long division.

use super::Isa;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
use super::aarch64::neon;
use super::bytes::{Bytes, head};
use super::scalar::{DIGIT, group_bits};
#[cfg(target_arch = "x86_64")]
use super::x86_64;

/// Characters of a 160-bit value.
pub(crate) const LEN: usize = 27;

/// The largest value's text, 2^160 - 1: a text sorts as its value (same
/// width, an alphabet in ASCII order), so a text is in range when it sorts
/// at or below this one.
pub(crate) const MAX_TEXT: &[u8; LEN] = b"aWgEPTl1tmebfsQzFP4bxwgy80V";

/// 62^5.
pub(crate) const CHUNK: u64 = 916_132_832;

/// Base-`D` digits (six, least significant first) of `2^(16 k)` for the
/// ten 16-bit halves, `k = 0` the lowest: what the SIMD kernels weigh
/// the halves by (`x86_64/avx2/base62_160.rs` says how).
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little")
    )),
    allow(dead_code)
)]
pub(crate) const WEIGHTS: [[u64; 6]; 10] = {
    let mut w = [[0u64; 6]; 10];
    let mut digits = [1u64, 0, 0, 0, 0, 0];
    let mut k = 0;
    while k < 10 {
        w[k] = digits;
        // Times 2^16, carrying: each digit below 2^30, so below 2^46 after.
        let mut carry = 0;
        let mut j = 0;
        while j < 6 {
            let v = digits[j] * 65536 + carry;
            digits[j] = v % CHUNK;
            carry = v / CHUNK;
            j += 1;
        }
        k += 1;
    }
    w
};

/// The 27 characters of the 20 big-endian bytes.
pub(crate) fn encode(bytes: &[u8; 20]) -> [u8; LEN] {
    let mut words: [u32; 5] =
        std::array::from_fn(|i| u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()));
    // Five digits a pass, least significant first (27 = 5 * 5 + 2).
    let mut positions = [0u32; 6];
    for p in &mut positions {
        let mut rem = 0u64;
        for w in &mut words {
            let cur = rem << 32 | u64::from(*w);
            *w = (cur / CHUNK) as u32;
            rem = cur % CHUNK;
        }
        *p = rem as u32;
    }
    let mut out = [0u8; LEN];
    write_positions(positions, &mut out);
    out
}

/// Writes a value's six base-62^5 positions (least significant first, the
/// last below 62^2) as its 27 characters: each through the kuuid group
/// encoder (six digits, division-free, checked for every u32), straight
/// into `out`, right to left, each group's leading zero overwritten by the
/// next one's last digit; of the last, its two digits. Not through a
/// buffer copied whole: that copy read 27 bytes just written two at a
/// time, a failed store-to-load forward each id.
#[inline]
pub(crate) fn write_positions(positions: [u32; 6], out: &mut [u8; LEN]) {
    for (k, &p) in positions[..5].iter().enumerate() {
        let at = LEN - 6 - 5 * k;
        out[at..at + 6].copy_from_slice(&group_bits(p).to_le_bytes()[..6]);
    }
    out[..2].copy_from_slice(&group_bits(positions[5]).to_le_bytes()[4..6]);
}

/// Writes the 27 characters of each 20-byte value at the start of its
/// `W`-byte slot on path `isa`: AVX2 with FMA (and AVX-512) four at a
/// time in `x86_64/avx2/base62_160.rs`, SSE4.1 two at a time in
/// `x86_64/sse41/base62_160.rs` (and for an AVX2 CPU without FMA), NEON
/// two at a time in `aarch64/neon/base62_160.rs`, scalar elsewhere.
///
/// # Panics
/// If the slices differ in length (a bug in this crate).
pub(crate) fn encode_many<T: Bytes<20>, const W: usize>(isa: Isa, src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= LEN) };
    assert_eq!(src.len(), out.len(), "base62-160 batch length");
    match isa {
        // SAFETY: the guard checked that this CPU runs AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::base62_160::is_supported() => unsafe {
            x86_64::avx2::base62_160::encode20(src, out)
        },
        // SAFETY: the guard checked that this CPU runs SSE4.1 (and SSSE3).
        #[cfg(target_arch = "x86_64")]
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 if x86_64::sse41::is_supported() => unsafe {
            x86_64::sse41::base62_160::encode20(src, out)
        },
        // SAFETY: the guard checked that this CPU runs NEON.
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if neon::is_supported() => unsafe { neon::base62_160::encode20(src, out) },
        _ => {
            for (v, o) in src.iter().zip(out) {
                *head::<LEN, W>(o) = encode(v.bytes());
            }
        }
    }
}

/// KSUID's base62 on a chosen path (for tests, fuzzing and benchmarks):
/// the 27 characters of each 20-byte value into `out`; returns how many
/// (the shorter of the two).
///
/// ```
/// use kuuid::engine::{base62_160_with, Isa};
/// let mut out = [[0u8; 27]; 5];
/// for isa in Isa::available() {
///     assert_eq!(base62_160_with(isa, &[[0xff; 20]; 5], &mut out), 5);
///     assert_eq!(&out[4], b"aWgEPTl1tmebfsQzFP4bxwgy80V");
/// }
/// ```
#[cfg(feature = "internals")]
pub fn base62_160_with(isa: Isa, src: &[[u8; 20]], out: &mut [[u8; LEN]]) -> usize {
    let n = src.len().min(out.len());
    encode_many(isa, &src[..n], &mut out[..n]);
    n
}

/// What is wrong with a 27-character text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A byte outside `0-9A-Za-z`: its index and value.
    Byte(usize, u8),
    /// The text spells more than 160 bits (it sorts above [`MAX_TEXT`]).
    Overflow,
}

/// The 20 big-endian bytes `text` spells, or the first fault.
pub(crate) fn decode(text: &[u8; LEN]) -> Result<[u8; 20], Fault> {
    if let Some(i) = text
        .iter()
        .position(|&b| b >= 0x80 || DIGIT[b as usize] == 0xff)
    {
        return Err(Fault::Byte(i, text[i]));
    }
    if text > MAX_TEXT {
        return Err(Fault::Overflow);
    }
    let mut words = [0u32; 5];
    // Two digits, then five at a time: words = words * 62^k + chunk.
    let mut start = 0;
    for len in [2, 5, 5, 5, 5, 5] {
        let (mut chunk, mut scale) = (0u64, 1u64);
        for &b in &text[start..start + len] {
            chunk = chunk * 62 + u64::from(DIGIT[b as usize]);
            scale *= 62;
        }
        start += len;
        let mut carry = chunk;
        for w in words.iter_mut().rev() {
            let cur = u64::from(*w) * scale + carry;
            *w = cur as u32;
            carry = cur >> 32;
        }
    }
    let mut out = [0u8; 20];
    for (i, w) in words.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value as a `u128` pair, by long division digit by digit (the
    /// slow way, as a second reference).
    fn slow(bytes: &[u8; 20]) -> [u8; LEN] {
        use crate::engine::ALPHABET;
        let mut n: Vec<u32> = bytes.iter().copied().map(u32::from).collect();
        let mut out = [b'0'; LEN];
        for slot in out.iter_mut().rev() {
            let mut rem = 0u32;
            for d in &mut n {
                let cur = rem * 256 + *d;
                *d = cur / 62;
                rem = cur % 62;
            }
            *slot = ALPHABET[rem as usize];
        }
        out
    }

    fn values() -> Vec<[u8; 20]> {
        let mut v = vec![[0u8; 20], [0xff; 20]];
        for bit in 0..160 {
            let mut b = [0u8; 20];
            b[19 - bit / 8] = 1 << (bit % 8);
            v.push(b);
        }
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..3000 {
            let mut b = [0u8; 20];
            for byte in &mut b {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *byte = x as u8;
            }
            v.push(b);
        }
        v
    }

    #[test]
    fn encode_matches_long_division_and_decode_reverses_it() {
        for b in values() {
            let text = encode(&b);
            assert_eq!(text, slow(&b));
            assert_eq!(decode(&text), Ok(b));
        }
        assert_eq!(&encode(&[0xff; 20]), MAX_TEXT);
    }

    #[test]
    fn texts_above_the_largest_and_bad_bytes_are_refused() {
        let mut above = *MAX_TEXT;
        above[26] = b'W';
        assert_eq!(decode(&above), Err(Fault::Overflow));
        assert_eq!(decode(&[b'z'; LEN]), Err(Fault::Overflow));
        let mut bad = [b'0'; LEN];
        bad[13] = b'-';
        assert_eq!(decode(&bad), Err(Fault::Byte(13, b'-')));
        bad[13] = 0xc3;
        assert_eq!(decode(&bad), Err(Fault::Byte(13, 0xc3)));
    }

    /// The bounds `positions` leans on: every position's value (with its
    /// carry) is an integer below 2^51, and `1 / D` as a double is below
    /// `1 / D` by less than 2^-54 of it. Then for `v = q D + r`, `q < 2^22`:
    /// with `r = 0` the product `q (1 - e)` is within half an ulp of `q`
    /// and rounds to it; with `r >= 1` it lies in `(q, q + 1 - 1/D)`, and
    /// an ulp there (below 2^-30) cannot reach `q + 1`. So the floor is `q`.
    #[test]
    fn the_quotient_from_a_reciprocal_is_exact() {
        // 1/D's double as m * 2^-k exactly.
        let inv = 1.0 / CHUNK as f64;
        let bits = inv.to_bits();
        let m = u128::from(bits & ((1 << 52) - 1) | 1 << 52);
        let k = 1075 - ((bits >> 52) & 0x7ff) as u32;
        let (dm, one) = (u128::from(CHUNK) * m, 1u128 << k);
        assert!(dm < one, "1/D rounds up: the floor could overshoot");
        assert!((one - dm) << 54 < one, "1/D is too far below 1/D");
        // The largest value a position can hold, with its carry.
        let most: u64 = (0..6)
            .map(|j| WEIGHTS.iter().map(|w| 65535 * w[j]).sum::<u64>())
            .max()
            .unwrap();
        let carry = most / CHUNK + 1;
        assert!(most + carry < 1 << 51, "{most}");
        // And by example, at the top of the range and around multiples.
        let top = (1u64 << 51) / CHUNK;
        for q in (top - 5000..top).chain(0..5000) {
            for r in [0, 1, CHUNK / 2, CHUNK - 1] {
                let v = (q * CHUNK + r) as f64;
                assert_eq!((v * inv).floor(), q as f64, "{q} {r}");
            }
        }
    }

    /// The weights are the base-`D` digits of `2^(16 k)`.
    #[test]
    fn weights_spell_powers_of_two() {
        for (k, w) in WEIGHTS.iter().enumerate() {
            // sum w_j D^j mod 2^64 against 2^(16 k) mod 2^64.
            let v = w
                .iter()
                .rev()
                .fold(0u64, |acc, &d| acc.wrapping_mul(CHUNK).wrapping_add(d));
            assert_eq!(v, 1u64.checked_shl(16 * k as u32).unwrap_or(0), "{k}");
            assert!(w.iter().all(|&d| d < CHUNK));
        }
    }
}
