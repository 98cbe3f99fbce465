//! Hex for one id at a time on x86-64: SSE2, which the architecture
//! includes, so the code needs no run-time dispatch and inlines into
//! `Uuid7`'s and `ObjectId`'s text methods. Values move in and out through
//! general registers, so no pointer is dereferenced here. The batch paths
//! (AVX2, AVX-512) are in `avx2/hex.rs` and `avx512/hex.rs`; `engine::hex`
//! tests all against the scalar reference.

use std::arch::x86_64::*;

use crate::engine::x86_64::avx2::hex::{DASH_HI, DASH_LO};

/// A 16-byte mask that keeps bytes `lo..hi`.
const fn keep(lo: usize, hi: usize) -> [u8; 16] {
    let mut m = [0u8; 16];
    let mut i = lo;
    while i < hi {
        m[i] = 0xff;
        i += 1;
    }
    m
}

/// The 32 hex digits of one big-endian 128-bit value with SSE2, which every
/// x86-64 CPU has: no dispatch, so single ids inline it, and no memory
/// access through pointers (values move in and out through general
/// registers). Digits 0..16 and 16..32, in text order in little-endian
/// memory.
#[inline]
#[target_feature(enable = "sse2")]
fn hex_sse2(v: u128) -> (__m128i, __m128i) {
    // Byte 0 of the register is the value's top byte.
    let x = _mm_set_epi64x(
        (v as u64).swap_bytes() as i64,
        ((v >> 64) as u64).swap_bytes() as i64,
    );
    let nibble = _mm_set1_epi8(0x0f);
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(x), nibble);
    let lo = _mm_and_si128(x, nibble);
    // b'0' + n, plus 39 (b'a' - b'0' - 10) where n > 9.
    let ascii = |n: __m128i| {
        let letters = _mm_and_si128(_mm_cmpgt_epi8(n, _mm_set1_epi8(9)), _mm_set1_epi8(39));
        _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8(b'0' as i8)), letters)
    };
    (
        ascii(_mm_unpacklo_epi8(hi, lo)),
        ascii(_mm_unpackhi_epi8(hi, lo)),
    )
}

/// A register's 16 bytes, in memory order.
#[inline]
#[target_feature(enable = "sse2")]
fn bytes16(x: __m128i) -> [u8; 16] {
    let lo = _mm_cvtsi128_si64(x) as u64;
    let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)) as u64;
    (u128::from(hi) << 64 | u128::from(lo)).to_le_bytes()
}

/// A 16-byte constant as a register.
#[inline]
#[target_feature(enable = "sse2")]
fn constant(b: [u8; 16]) -> __m128i {
    let v = u128::from_le_bytes(b);
    _mm_set_epi64x((v >> 64) as i64, v as i64)
}

/// The 32 hex digits of a big-endian 128-bit value (SSE2, one id).
#[inline]
pub(crate) fn simple_sse2(v: u128) -> [u8; 32] {
    // SAFETY: compiled only where the target enables SSE2 (every x86-64
    // target with std does), so the CPU runs it.
    unsafe { simple_sse2_body(v) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn simple_sse2_body(v: u128) -> [u8; 32] {
    let (a, b) = hex_sse2(v);
    let mut out = [0u8; 32];
    out[..16].copy_from_slice(&bytes16(a));
    out[16..].copy_from_slice(&bytes16(b));
    out
}

/// The 24 hex digits of 12 bytes (SSE2, one ObjectId).
#[inline]
pub(crate) fn hex24_sse2(bytes: &[u8; 12]) -> [u8; 24] {
    // Two loads that each fit inside one store of the caller's (an
    // ObjectId is written as 4 + 8 bytes), so store forwarding serves them.
    let (secs, rest) = bytes.split_at(4);
    let v = u128::from(u32::from_be_bytes(secs.try_into().expect("4 bytes"))) << 96
        | u128::from(u64::from_be_bytes(rest.try_into().expect("8 bytes"))) << 32;
    // SAFETY: compiled only where the target enables SSE2 (every x86-64
    // target with std does), so the CPU runs it.
    let (a, b) = unsafe { hex_sse2(v) };
    let mut out = [0u8; 24];
    // SAFETY: as above.
    unsafe {
        out[..16].copy_from_slice(&bytes16(a));
        out[16..].copy_from_slice(&bytes16(b)[..8]);
    }
    out
}

/// The 36-character RFC 9562 text of a big-endian 128-bit value (SSE2, one
/// id): whole-register byte shifts open the gaps for the dashes (SSE2 has
/// no byte shuffle), masks pick each run of digits, an OR drops the dashes
/// in.
#[inline]
pub(crate) fn hyphenated_sse2(v: u128) -> [u8; 36] {
    // SAFETY: compiled only where the target enables SSE2 (every x86-64
    // target with std does), so the CPU runs it.
    unsafe { hyphenated_sse2_body(v) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn hyphenated_sse2_body(v: u128) -> [u8; 36] {
    let (a, b) = hex_sse2(v);
    let pick = |x: __m128i, m: [u8; 16]| _mm_and_si128(x, constant(m));
    // Text 0..16: digits 0-7, `-`, 8-11, `-`, 12-13.
    let first = _mm_or_si128(
        _mm_or_si128(
            pick(a, keep(0, 8)),
            pick(_mm_slli_si128::<1>(a), keep(9, 13)),
        ),
        _mm_or_si128(
            pick(_mm_slli_si128::<2>(a), keep(14, 16)),
            constant(DASH_LO),
        ),
    );
    // Text 16..32: digits 14-15, `-`, 16-19, `-`, 20-27.
    let second = _mm_or_si128(
        _mm_or_si128(
            _mm_srli_si128::<14>(a),
            pick(_mm_slli_si128::<3>(b), keep(3, 7)),
        ),
        _mm_or_si128(pick(_mm_slli_si128::<4>(b), keep(8, 16)), constant(DASH_HI)),
    );
    // Text 32..36: digits 28-31.
    let tail = _mm_cvtsi128_si32(_mm_srli_si128::<12>(b)) as u32;
    let mut out = [0u8; 36];
    out[..16].copy_from_slice(&bytes16(first));
    out[16..32].copy_from_slice(&bytes16(second));
    out[32..].copy_from_slice(&tail.to_le_bytes());
    out
}
