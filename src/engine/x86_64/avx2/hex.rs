//! Hex on AVX2: one 16-byte value per 256-bit register (the AVX-512
//! kernels in `avx512/hex.rs` build on these helpers).
//!
//! Each byte widens to a 16-bit lane (`vpmovzxbw`); a shift and a mask put
//! its high nibble in the lane's low byte and its low nibble in the high
//! byte, which is text order in little-endian memory; one `pshufb` over
//! `0123456789abcdef` turns nibbles into ASCII. RFC 9562's dashes: two
//! in-lane `pshufb`s (with `palignr` across the halves) open the gaps and an
//! OR drops the dashes in. Every store stays inside its output slot: the
//! first 32, 36 or 24 bytes of a slot of `W` bytes (the rest, a caller's
//! newline say, is left alone).

use std::arch::x86_64::*;

use crate::engine::bytes::{Bytes, head};

/// Nibbles to ASCII, in each 128-bit lane.
pub(in crate::engine::x86_64) const DIGITS: [u8; 16] = *b"0123456789abcdef";

/// `pshufb` index that zeroes its byte (for the OR that puts a dash there).
const Z: u8 = 0x80;
/// Bytes 0..16 of the dashed text from the first 16 hex digits: `-` at 8
/// and 13.
const DASH_LO_IDX: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, Z, 8, 9, 10, 11, Z, 12, 13];
pub(in crate::engine::x86_64) const DASH_LO: [u8; 16] =
    [0, 0, 0, 0, 0, 0, 0, 0, b'-', 0, 0, 0, 0, b'-', 0, 0];
/// Bytes 16..32 of the dashed text from digits 14..30: `-` at 18 and 23.
const DASH_HI_IDX: [u8; 16] = [0, 1, Z, 2, 3, 4, 5, Z, 6, 7, 8, 9, 10, 11, 12, 13];
pub(in crate::engine::x86_64) const DASH_HI: [u8; 16] =
    [0, 0, b'-', 0, 0, 0, 0, b'-', 0, 0, 0, 0, 0, 0, 0, 0];

/// The 32 hex digits of 16 bytes: digits 0..16 in the low lane.
#[inline]
#[target_feature(enable = "avx2")]
fn hex32(x: __m128i) -> __m256i {
    let w = _mm256_cvtepu8_epi16(x);
    let hi = _mm256_srli_epi16::<4>(w);
    let lo = _mm256_slli_epi16::<8>(_mm256_and_si256(w, _mm256_set1_epi16(0x0f)));
    let digits = _mm256_broadcastsi128_si256(load16(&DIGITS));
    _mm256_shuffle_epi8(digits, _mm256_or_si256(hi, lo))
}

/// 16 bytes from a reference.
#[inline(always)]
pub(in crate::engine::x86_64) fn load16(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: an unaligned load of the 16 bytes `bytes` refers to.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// 12 bytes from a reference, zero-extended (no read past them).
#[inline(always)]
pub(in crate::engine::x86_64) fn load12(bytes: &[u8; 12]) -> __m128i {
    let mut b = [0u8; 16];
    b[..12].copy_from_slice(bytes);
    load16(&b)
}

/// Writes the 36-character dashed text of 32 hex digits.
#[inline]
#[target_feature(enable = "avx2")]
pub(in crate::engine::x86_64) fn store_dashed(h: __m256i, out: &mut [u8; 36]) {
    let lo = _mm256_castsi256_si128(h);
    let hi = _mm256_extracti128_si256::<1>(h);
    let a = _mm_or_si128(_mm_shuffle_epi8(lo, load16(&DASH_LO_IDX)), load16(&DASH_LO));
    let b = _mm_or_si128(
        _mm_shuffle_epi8(_mm_alignr_epi8::<14>(hi, lo), load16(&DASH_HI_IDX)),
        load16(&DASH_HI),
    );
    let tail = _mm_cvtsi128_si32(_mm_srli_si128::<12>(hi));
    // SAFETY: two 16-byte stores at 0 and 16 and one 4-byte store at 32 of
    // the 36 bytes `out` refers to.
    unsafe {
        _mm_storeu_si128(out.as_mut_ptr().cast(), a);
        _mm_storeu_si128(out.as_mut_ptr().add(16).cast(), b);
        out.as_mut_ptr().add(32).cast::<i32>().write_unaligned(tail);
    }
}

/// Writes the 24 hex digits of 12 bytes (the low 24 of `h`).
#[inline]
#[target_feature(enable = "avx2")]
pub(in crate::engine::x86_64) fn store24(h: __m256i, out: &mut [u8; 24]) {
    // SAFETY: a 16-byte store at 0 and an 8-byte store at 16 of the 24
    // bytes `out` refers to.
    unsafe {
        _mm_storeu_si128(out.as_mut_ptr().cast(), _mm256_castsi256_si128(h));
        _mm_storel_epi64(
            out.as_mut_ptr().add(16).cast(),
            _mm256_extracti128_si256::<1>(h),
        );
    }
}

/// 16 bytes -> 32 hex digits, one value a register.
///
/// # Safety
/// The CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode16<T: Bytes<16>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 32) };
    for (v, o) in src.iter().zip(out) {
        let h = hex32(load16(v.bytes()));
        // SAFETY: a 32-byte store to the first 32 bytes of the slot `o`.
        unsafe { _mm256_storeu_si256(head::<32, W>(o).as_mut_ptr().cast(), h) };
    }
}

/// 16 bytes -> 36 characters (8-4-4-4-12).
///
/// # Safety
/// The CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode16_dashed<T: Bytes<16>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 36) };
    for (v, o) in src.iter().zip(out) {
        store_dashed(hex32(load16(v.bytes())), head(o));
    }
}

/// 12 bytes -> 24 hex digits.
///
/// # Safety
/// The CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode12<T: Bytes<12>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 24) };
    for (v, o) in src.iter().zip(out) {
        store24(hex32(load12(v.bytes())), head(o));
    }
}
