//! KSUID's 160-bit base62 on AVX2 (and FMA), four ids a register of doubles (one a
//! 64-bit lane), with no long division.
//!
//! The scalar reference divides the five 32-bit words by 62^5 six times:
//! 30 divisions, each waiting on the last. Here the number's ten 16-bit
//! halves `h` are weighed in base `D = 62^5` instead: position `j` of the
//! result gathers `sum h * digit_j(2^16k)` (`WEIGHTS`), ten products below
//! 2^46, a sum below 2^50, all exact in a double; then one carry pass,
//! low position first, takes each position's `div`/`mod D` as
//! `floor(v * (1 / D))`, exact for every value it can meet (the tests of
//! `engine/base62_160.rs` prove why).
//! That is five dependent steps instead of thirty, and no multiply or
//! divide wider than a double's 53 bits. Each position below `D` then
//! becomes five characters through the kuuid group encoder, as in the
//! scalar reference.

use std::arch::x86_64::*;

use crate::engine::base62_160::{CHUNK, WEIGHTS, write_positions};
use crate::engine::bytes::{Bytes, head};

/// Whether this CPU has AVX2 and FMA (every AVX2 CPU made has both; the
/// check costs nothing).
pub(crate) fn is_supported() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// Four lanes of one value each.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn splat(x: f64) -> __m256d {
    _mm256_set1_pd(x)
}

/// The six base-`D` positions of four ids, each an integer in a double.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn positions(ids: [&[u8; 20]; 4]) -> [__m256d; 6] {
    // Half `k` (from the lowest) of each id, bytes 18 - 2k and 19 - 2k.
    let halves: [__m256d; 10] = std::array::from_fn(|k| {
        let half = |id: &[u8; 20]| f64::from(u16::from_be_bytes([id[18 - 2 * k], id[19 - 2 * k]]));
        _mm256_set_pd(half(ids[3]), half(ids[2]), half(ids[1]), half(ids[0]))
    });
    // Two sums a position (even and odd halves) to halve the chain of
    // dependent adds; a weight of zero (2^16k below D^j: half of them) is
    // skipped once the loops unroll. Products below 2^46, sums below 2^50:
    // exact, fused or not.
    let mut acc = [_mm256_setzero_pd(); 6];
    for (j, a) in acc.iter_mut().enumerate() {
        let mut sums = [_mm256_setzero_pd(); 2];
        for (k, h) in halves.iter().enumerate() {
            let w = WEIGHTS[k][j];
            if w != 0 {
                sums[k % 2] = _mm256_fmadd_pd(*h, splat(w as f64), sums[k % 2]);
            }
        }
        *a = _mm256_add_pd(sums[0], sums[1]);
    }
    // Carry low to high: v = q D + r with 0 <= r < D. `v` is an integer
    // below 2^51 and `1 / D` rounds to a double below it by less than
    // 2^-54 of itself, so `floor(v * (1 / D))` is `q` exactly, with no
    // correction step (the tests of `engine/base62_160.rs` prove both
    // bounds); `q D` and the difference are exact too.
    let d = splat(CHUNK as f64);
    let inv = splat(1.0 / CHUNK as f64);
    let mut carry = _mm256_setzero_pd();
    for a in acc.iter_mut().take(5) {
        let v = _mm256_add_pd(*a, carry);
        let q = _mm256_floor_pd(_mm256_mul_pd(v, inv));
        *a = _mm256_sub_pd(v, _mm256_mul_pd(q, d));
        carry = q;
    }
    acc[5] = _mm256_add_pd(acc[5], carry);
    acc
}

/// The 27 characters of each 20-byte value at the start of its slot,
/// four at a time (the last few on the scalar reference).
///
/// # Safety
/// The CPU supports AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn encode20<T: Bytes<20>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 27) };
    let mut fours = src.chunks_exact(4);
    let mut slots = out.chunks_exact_mut(4);
    for (v, o) in (&mut fours).zip(&mut slots) {
        let p = positions([v[0].bytes(), v[1].bytes(), v[2].bytes(), v[3].bytes()]);
        // Each below D < 2^31 (the top one below 62^2): exact as an i32.
        // Loops, not `map` and `from_fn`: those are functions without
        // this one's target features, and where LLVM left them out of line
        // (a build without LTO) the closure, which has them, could not be
        // inlined into them: a call a lane, vectors through memory, slower
        // than scalar.
        let mut lanes = [[0u32; 4]; 6];
        for (l, &x) in lanes.iter_mut().zip(&p) {
            // SAFETY: a store of four 32-bit lanes to the 16 bytes of `l`.
            unsafe { _mm_storeu_si128(l.as_mut_ptr().cast(), _mm256_cvttpd_epi32(x)) };
        }
        for (i, slot) in o.iter_mut().enumerate() {
            let mut id = [0u32; 6];
            for (d, l) in id.iter_mut().zip(&lanes) {
                *d = l[i];
            }
            write_positions(id, head(slot));
        }
    }
    for (v, o) in fours.remainder().iter().zip(slots.into_remainder()) {
        *head(o) = crate::engine::base62_160::encode(v.bytes());
    }
}
