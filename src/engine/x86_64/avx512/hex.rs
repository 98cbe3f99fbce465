//! Hex on AVX-512 F+BW: two 16-byte values per 512-bit register, by the
//! AVX2 kernels' method (`avx2/hex.rs`) on twice the width; the odd value
//! out goes through the AVX2 kernel.

use std::arch::x86_64::*;

use crate::engine::bytes::{Bytes, head};
use crate::engine::x86_64::avx2::hex::{
    self as avx2, DIGITS, load12, load16, store_dashed, store24,
};

/// The hex digits of two 16-byte values, 32 each, in the low and high
/// 256-bit halves.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn hex64(a: __m128i, b: __m128i) -> __m512i {
    let w = _mm512_cvtepu8_epi16(_mm256_set_m128i(b, a));
    let hi = _mm512_srli_epi16::<4>(w);
    let lo = _mm512_slli_epi16::<8>(_mm512_and_si512(w, _mm512_set1_epi16(0x0f)));
    let digits = _mm512_broadcast_i32x4(load16(&DIGITS));
    _mm512_shuffle_epi8(digits, _mm512_or_si512(hi, lo))
}

/// 16 bytes -> 32 hex digits, two values a register.
///
/// # Safety
/// The CPU supports AVX-512 F and BW (and so AVX2).
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) unsafe fn encode16<T: Bytes<16>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 32) };
    let mut pairs = out.chunks_exact_mut(2);
    let mut values = src.chunks_exact(2);
    for (v, o) in (&mut values).zip(&mut pairs) {
        let h = hex64(load16(v[0].bytes()), load16(v[1].bytes()));
        if W == 32 {
            // SAFETY: a 64-byte store to the two adjacent 32-byte slots of `o`.
            unsafe { _mm512_storeu_si512(o.as_mut_ptr().cast(), h) };
        } else {
            let [o0, o1] = o else {
                unreachable!("chunks of two")
            };
            // SAFETY: a 32-byte store to the first 32 bytes of each slot.
            unsafe {
                _mm256_storeu_si256(
                    head::<32, W>(o0).as_mut_ptr().cast(),
                    _mm512_castsi512_si256(h),
                );
                _mm256_storeu_si256(
                    head::<32, W>(o1).as_mut_ptr().cast(),
                    _mm512_extracti64x4_epi64::<1>(h),
                );
            }
        }
    }
    // SAFETY: AVX-512 implies AVX2.
    unsafe { avx2::encode16(values.remainder(), pairs.into_remainder()) };
}

/// 16 bytes -> 36 characters, two values a register.
///
/// # Safety
/// The CPU supports AVX-512 F and BW (and so AVX2).
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) unsafe fn encode16_dashed<T: Bytes<16>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 36) };
    let mut pairs = out.chunks_exact_mut(2);
    let mut values = src.chunks_exact(2);
    for (v, o) in (&mut values).zip(&mut pairs) {
        let h = hex64(load16(v[0].bytes()), load16(v[1].bytes()));
        let [o0, o1] = o else {
            unreachable!("chunks of two")
        };
        store_dashed(_mm512_castsi512_si256(h), head(o0));
        store_dashed(_mm512_extracti64x4_epi64::<1>(h), head(o1));
    }
    // SAFETY: AVX-512 implies AVX2.
    unsafe { avx2::encode16_dashed(values.remainder(), pairs.into_remainder()) };
}

/// 12 bytes -> 24 hex digits, two values a register.
///
/// # Safety
/// The CPU supports AVX-512 F and BW (and so AVX2).
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) unsafe fn encode12<T: Bytes<12>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 24) };
    let mut pairs = out.chunks_exact_mut(2);
    let mut values = src.chunks_exact(2);
    for (v, o) in (&mut values).zip(&mut pairs) {
        let h = hex64(load12(v[0].bytes()), load12(v[1].bytes()));
        let [o0, o1] = o else {
            unreachable!("chunks of two")
        };
        store24(_mm512_castsi512_si256(h), head(o0));
        store24(_mm512_extracti64x4_epi64::<1>(h), head(o1));
    }
    // SAFETY: AVX-512 implies AVX2.
    unsafe { avx2::encode12(values.remainder(), pairs.into_remainder()) };
}
