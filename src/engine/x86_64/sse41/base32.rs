//! Crockford base32 of 16-byte values with SSSE3 and SSE4.1, one value a
//! 128-bit register (the AVX2 kernel runs the same steps on two).
//!
//! Every character lies in one 16-bit window of two neighbouring bytes
//! (`engine::base32::WINDOWS` says where). One `pshufb` gathers
//! eight windows into eight 16-bit lanes (big-endian pairs swapped into
//! place), one `pmulhuw` by `2^(16 - s)` shifts each lane right by its own
//! `s`, a mask keeps 5 bits; two `packuswb` make characters 0..16 and
//! 10..26 (two registers overlapping by six, so that each store stays
//! inside the 26 bytes), and a two-table `pshufb` with a blend turns
//! digits into the alphabet.

use std::arch::x86_64::*;

use crate::engine::base32::{WINDOWS, Windows};
use crate::engine::bytes::{Bytes, head};

/// `WINDOWS` with each shift as the `pmulhuw` multiplier `2^(16 - s)`.
const fn plan(w: Windows) -> ([u8; 16], [u16; 8]) {
    let mut mul = [0u16; 8];
    let mut k = 0;
    while k < 8 {
        mul[k] = 1 << (16 - w.shift[k]);
        k += 1;
    }
    (w.idx, mul)
}

pub(in crate::engine::x86_64) const PLANS: [([u8; 16], [u16; 8]); 4] = [
    plan(WINDOWS[0]),
    plan(WINDOWS[1]),
    plan(WINDOWS[2]),
    plan(WINDOWS[3]),
];

/// The 16 bytes of a value.
#[inline(always)]
fn load16(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: an unaligned load of the 16 bytes `bytes` refers to.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// Eight digits (one a 16-bit lane) of the characters `PLANS[p]` covers.
#[target_feature(enable = "sse4.1,ssse3")]
fn digits8(x: __m128i, p: usize) -> __m128i {
    let (idx, mul) = &PLANS[p];
    let w = _mm_shuffle_epi8(x, load16(idx));
    // SAFETY: `mul` is 8 u16s, 16 bytes.
    let m = unsafe { _mm_loadu_si128(mul.as_ptr().cast()) };
    _mm_and_si128(_mm_mulhi_epu16(w, m), _mm_set1_epi16(31))
}

/// Digits (below 32) to characters of `alphabet`.
#[target_feature(enable = "sse4.1,ssse3")]
fn ascii(d: __m128i, alphabet: &[u8; 32]) -> __m128i {
    let lo = _mm_shuffle_epi8(load16(alphabet.first_chunk().expect("32")), d);
    let hi = _mm_shuffle_epi8(load16(alphabet.last_chunk().expect("32")), d);
    _mm_blendv_epi8(lo, hi, _mm_cmpgt_epi8(d, _mm_set1_epi8(15)))
}

/// Characters 0..16 and 10..26 of one value.
#[target_feature(enable = "sse4.1,ssse3")]
pub(in crate::engine::x86_64) fn encode_one(x: __m128i, alphabet: &[u8; 32]) -> (__m128i, __m128i) {
    let a = _mm_packus_epi16(digits8(x, 0), digits8(x, 1));
    let b = _mm_packus_epi16(digits8(x, 2), digits8(x, 3));
    (ascii(a, alphabet), ascii(b, alphabet))
}

/// Writes characters 0..16 and 10..26 (the same six twice) into a text.
#[inline(always)]
pub(in crate::engine::x86_64) fn store26(a: __m128i, b: __m128i, out: &mut [u8; 26]) {
    // SAFETY: 16-byte stores at 0 and at 10 of the 26 bytes `out` refers to.
    unsafe {
        _mm_storeu_si128(out.as_mut_ptr().cast(), a);
        _mm_storeu_si128(out.as_mut_ptr().add(10).cast(), b);
    }
}

/// The 26 characters of each value at the start of its slot.
///
/// # Safety
/// The CPU supports SSE4.1 and SSSE3.
#[target_feature(enable = "sse4.1,ssse3")]
pub(crate) unsafe fn encode16<T: Bytes<16>, const W: usize>(
    src: &[T],
    out: &mut [[u8; W]],
    alphabet: &[u8; 32],
) {
    const { assert!(W >= 26) };
    for (v, o) in src.iter().zip(out) {
        let (a, b) = encode_one(load16(v.bytes()), alphabet);
        store26(a, b, head(o));
    }
}
