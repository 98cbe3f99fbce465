//! KSUID's 160-bit base62 on SSE4.1, two ids a register of doubles: the
//! AVX2 kernel's method (`x86_64/avx2/base62_160.rs`) in 128-bit registers,
//! as NEON's is. SSE4.1 brings the floor (`roundpd`); without FMA the
//! products and sums are separate, which changes nothing: every product
//! is below 2^46 and every sum below 2^50, exact in a double either way.

use std::arch::x86_64::*;

use crate::engine::base62_160::{CHUNK, WEIGHTS, write_positions};
use crate::engine::bytes::{Bytes, head};

/// The six base-`D` positions of two ids, each an integer in a double.
#[inline]
#[target_feature(enable = "sse4.1")]
fn positions(ids: [&[u8; 20]; 2]) -> [__m128d; 6] {
    // Half `k` (from the lowest) of each id, bytes 18 - 2k and 19 - 2k.
    let mut halves = [_mm_setzero_pd(); 10];
    for (k, h) in halves.iter_mut().enumerate() {
        let half = |id: &[u8; 20]| f64::from(u16::from_be_bytes([id[18 - 2 * k], id[19 - 2 * k]]));
        *h = _mm_set_pd(half(ids[1]), half(ids[0]));
    }
    // Two sums a position halve the chain of dependent adds; zero weights
    // drop out once the loops unroll.
    let mut acc = [_mm_setzero_pd(); 6];
    for (j, a) in acc.iter_mut().enumerate() {
        let mut sums = [_mm_setzero_pd(); 2];
        for (k, h) in halves.iter().enumerate() {
            let w = WEIGHTS[k][j];
            if w != 0 {
                sums[k % 2] = _mm_add_pd(sums[k % 2], _mm_mul_pd(*h, _mm_set1_pd(w as f64)));
            }
        }
        *a = _mm_add_pd(sums[0], sums[1]);
    }
    // Carry low to high: v = q D + r, q = floor(v * (1 / D)) exactly (the
    // AVX2 kernel says why, the tests of `engine/base62_160.rs` prove it).
    let d = _mm_set1_pd(CHUNK as f64);
    let inv = _mm_set1_pd(1.0 / CHUNK as f64);
    let mut carry = _mm_setzero_pd();
    for a in acc.iter_mut().take(5) {
        let v = _mm_add_pd(*a, carry);
        let q = _mm_floor_pd(_mm_mul_pd(v, inv));
        *a = _mm_sub_pd(v, _mm_mul_pd(q, d));
        carry = q;
    }
    acc[5] = _mm_add_pd(acc[5], carry);
    acc
}

/// The 27 characters of each 20-byte value at the start of its slot, two
/// at a time (an odd last one on the scalar reference).
///
/// # Safety
/// The CPU supports SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn encode20<T: Bytes<20>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 27) };
    let mut pairs = src.chunks_exact(2);
    let mut slots = out.chunks_exact_mut(2);
    for (v, o) in (&mut pairs).zip(&mut slots) {
        let p = positions([v[0].bytes(), v[1].bytes()]);
        // Each below D < 2^31: exact as an i32, the two in the low 64 bits.
        // Loops, not `map`: see the AVX2 kernel.
        let mut lanes = [[0u32; 2]; 6];
        for (l, &x) in lanes.iter_mut().zip(&p) {
            // SAFETY: a store of the low two 32-bit lanes to the 8 bytes of `l`.
            unsafe { _mm_storel_epi64(l.as_mut_ptr().cast(), _mm_cvttpd_epi32(x)) };
        }
        for (i, slot) in o.iter_mut().enumerate() {
            let mut id = [0u32; 6];
            for (d, l) in id.iter_mut().zip(&lanes) {
                *d = l[i];
            }
            write_positions(id, head(slot));
        }
    }
    for (v, o) in pairs.remainder().iter().zip(slots.into_remainder()) {
        *head(o) = crate::engine::base62_160::encode(v.bytes());
    }
}
