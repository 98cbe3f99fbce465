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
//!
//! Decoding runs it backwards: a `pshufb` of each byte's low nibble in
//! the row of ASCII its high nibble names gives its digit (or marks it
//! outside the alphabet), `pmaddubsw` and `pmaddwd` fold pairs and quads,
//! two 64-bit shifts make each 8 characters 40 bits, and a `pshufb` puts
//! the bytes in order.

use std::arch::x86_64::*;

use crate::engine::base32::{FROM_FOLDED, ROWS, WINDOWS, Windows, text_at};
use crate::engine::bytes::{Bytes, BytesMut, head};

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
#[inline]
#[target_feature(enable = "sse4.1,ssse3")]
fn digits8(x: __m128i, p: usize) -> __m128i {
    let (idx, mul) = &PLANS[p];
    let w = _mm_shuffle_epi8(x, load16(idx));
    // SAFETY: `mul` is 8 u16s, 16 bytes.
    let m = unsafe { _mm_loadu_si128(mul.as_ptr().cast()) };
    _mm_and_si128(shift_lanes(w, m), _mm_set1_epi16(31))
}

/// `pmulhuw` as written: with the multipliers in sight, LLVM turns a
/// `pmulhuw` by powers of two into per-lane shifts, which SSE4.1 spells
/// as 16 shifts and blends (3.4x this kernel's instructions) and AVX2 as
/// widened multiplies (3x its time on Zen 3).
#[inline(always)]
fn shift_lanes(w: __m128i, m: __m128i) -> __m128i {
    let mut w = w;
    // SAFETY: one register-to-register SSE2 multiply (every x86-64 CPU has
    // SSE2); no memory, stack or flags touched.
    unsafe {
        std::arch::asm!(
            "pmulhuw {w}, {m}",
            w = inout(xmm_reg) w,
            m = in(xmm_reg) m,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    w
}

/// Digits (below 32) to characters of `alphabet`.
#[inline]
#[target_feature(enable = "sse4.1,ssse3")]
fn ascii(d: __m128i, alphabet: &[u8; 32]) -> __m128i {
    let lo = _mm_shuffle_epi8(load16(alphabet.first_chunk().expect("32")), d);
    let hi = _mm_shuffle_epi8(load16(alphabet.last_chunk().expect("32")), d);
    _mm_blendv_epi8(lo, hi, _mm_cmpgt_epi8(d, _mm_set1_epi8(15)))
}

/// Characters 0..16 and 10..26 of one value.
#[inline]
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

/// Each byte's digit (below 32), or `0xff` for a byte outside the alphabet
/// (capitals too, when `lower`): the low nibble looked up in the row of
/// `base32::ROWS` the high nibble names, blended by comparisons.
#[inline]
#[target_feature(enable = "sse4.1,ssse3")]
fn digits_of(c: __m128i, lower: bool) -> __m128i {
    let lo = _mm_and_si128(c, _mm_set1_epi8(0x0f));
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(c), _mm_set1_epi8(0x0f));
    let row = |r: usize| _mm_shuffle_epi8(load16(&ROWS[r]), lo);
    let is = |h: i8| _mm_cmpeq_epi8(hi, _mm_set1_epi8(h));
    let (a_o, p_z) = if lower {
        (is(6), is(7))
    } else {
        (_mm_or_si128(is(4), is(6)), _mm_or_si128(is(5), is(7)))
    };
    let v = _mm_blendv_epi8(_mm_blendv_epi8(row(0), row(1), a_o), row(2), p_z);
    let known = _mm_or_si128(is(3), _mm_or_si128(a_o, p_z));
    _mm_or_si128(v, _mm_andnot_si128(known, _mm_set1_epi8(-1)))
}

/// Each 64-bit lane's 8 digits as one 40-bit number.
#[inline]
#[target_feature(enable = "sse4.1,ssse3")]
fn fold(d: __m128i) -> __m128i {
    // Pairs: 32 a + b in 16 bits; quads: 1024 p + q in 32.
    let pairs = _mm_maddubs_epi16(d, _mm_set1_epi16(0x0120));
    let quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x0001_0400));
    let high = _mm_srli_epi64::<12>(_mm_slli_epi64::<32>(quads));
    _mm_or_si128(high, _mm_srli_epi64::<32>(quads))
}

/// The value of one text, and whether it is one: every byte in the
/// alphabet and the first at most `7`.
#[inline]
#[target_feature(enable = "sse4.1,ssse3")]
pub(in crate::engine::x86_64) fn decode_one(t: &[u8; 26], lower: bool) -> (__m128i, bool) {
    let (head, tail) = (t.first_chunk().expect("26"), t.last_chunk().expect("26"));
    let a = digits_of(load16(head), lower);
    let b = digits_of(load16(tail), lower);
    let bad = _mm_movemask_epi8(_mm_or_si128(a, b)) != 0 || _mm_cvtsi128_si32(a) as u8 > 7;
    let x = _mm_shuffle_epi8(fold(_mm_slli_si128::<6>(a)), load16(&FROM_FOLDED[0]));
    let y = _mm_shuffle_epi8(fold(b), load16(&FROM_FOLDED[1]));
    (_mm_or_si128(x, y), !bad)
}

/// Writes a value's 16 bytes.
#[inline(always)]
pub(in crate::engine::x86_64) fn store16(v: __m128i, out: &mut [u8; 16]) {
    // SAFETY: an unaligned store to the 16 bytes `out` refers to.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), v) }
}

/// Decodes the text at `text[i * stride..]` into each `out[i]`; returns
/// how many leading texts were valid.
///
/// # Safety
/// The CPU supports SSE4.1 and SSSE3. (`text` holds `out.len()` texts:
/// checked by the caller, and again by slicing.)
#[target_feature(enable = "sse4.1,ssse3")]
pub(crate) unsafe fn decode16<T: BytesMut<16>>(
    text: &[u8],
    stride: usize,
    out: &mut [T],
    lower: bool,
) -> usize {
    for (i, o) in out.iter_mut().enumerate() {
        let (v, ok) = decode_one(text_at(text, i, stride), lower);
        if !ok {
            return i;
        }
        store16(v, o.bytes_mut());
    }
    out.len()
}
