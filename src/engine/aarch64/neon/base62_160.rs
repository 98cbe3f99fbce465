//! KSUID's 160-bit base62 on NEON, two ids a register of doubles: the AVX2
//! kernel's method (`x86_64/avx2/base62_160.rs`), in 128-bit registers.
//! The ten 16-bit halves weighed in base `D = 62^5` (`WEIGHTS`), one carry
//! pass of `floor(v * (1 / D))` (`frintm`), exact for every value it meets
//! (the tests of `engine/base62_160.rs` prove it), so no long division.

use std::arch::aarch64::*;

use crate::engine::base62_160::{CHUNK, WEIGHTS, write_positions};
use crate::engine::bytes::{Bytes, head};

/// The six base-`D` positions of two ids, each an integer in a double.
#[inline]
#[target_feature(enable = "neon")]
fn positions(ids: [&[u8; 20]; 2]) -> [float64x2_t; 6] {
    // Half `k` (from the lowest) of each id, bytes 18 - 2k and 19 - 2k.
    let mut halves = [vdupq_n_f64(0.0); 10];
    for (k, h) in halves.iter_mut().enumerate() {
        let half = |id: &[u8; 20]| f64::from(u16::from_be_bytes([id[18 - 2 * k], id[19 - 2 * k]]));
        let lanes = [half(ids[0]), half(ids[1])];
        // SAFETY: a load of the two doubles of `lanes`.
        *h = unsafe { vld1q_f64(lanes.as_ptr()) };
    }
    // Products below 2^46, sums below 2^50: exact, fused or not. Two sums
    // a position halve the chain of dependent adds.
    let mut acc = [vdupq_n_f64(0.0); 6];
    for (j, a) in acc.iter_mut().enumerate() {
        let mut sums = [vdupq_n_f64(0.0); 2];
        for (k, h) in halves.iter().enumerate() {
            let w = WEIGHTS[k][j];
            if w != 0 {
                sums[k % 2] = vfmaq_f64(sums[k % 2], *h, vdupq_n_f64(w as f64));
            }
        }
        *a = vaddq_f64(sums[0], sums[1]);
    }
    // Carry low to high: v = q D + r, q = floor(v * (1 / D)) exactly.
    let d = vdupq_n_f64(CHUNK as f64);
    let inv = vdupq_n_f64(1.0 / CHUNK as f64);
    let mut carry = vdupq_n_f64(0.0);
    for a in acc.iter_mut().take(5) {
        let v = vaddq_f64(*a, carry);
        let q = vrndmq_f64(vmulq_f64(v, inv));
        *a = vsubq_f64(v, vmulq_f64(q, d));
        carry = q;
    }
    acc[5] = vaddq_f64(acc[5], carry);
    acc
}

/// The 27 characters of each 20-byte value at the start of its slot, two
/// at a time (an odd last one on the scalar reference).
///
/// # Safety
/// The CPU supports NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn encode20<T: Bytes<20>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 27) };
    let mut pairs = src.chunks_exact(2);
    let mut slots = out.chunks_exact_mut(2);
    for (v, o) in (&mut pairs).zip(&mut slots) {
        let p = positions([v[0].bytes(), v[1].bytes()]);
        // Each below D < 2^31 (the top one below 62^2): exact as an integer.
        // Loops, not `map`: see the AVX2 kernel.
        let mut lanes = [[0u64; 2]; 6];
        for (l, &x) in lanes.iter_mut().zip(&p) {
            // SAFETY: a store of two 64-bit lanes to the 16 bytes of `l`.
            unsafe { vst1q_u64(l.as_mut_ptr(), vcvtq_u64_f64(x)) };
        }
        for (i, slot) in o.iter_mut().enumerate() {
            let mut id = [0u32; 6];
            for (d, l) in id.iter_mut().zip(&lanes) {
                *d = l[i] as u32;
            }
            write_positions(id, head(slot));
        }
    }
    for (v, o) in pairs.remainder().iter().zip(slots.into_remainder()) {
        *head(o) = crate::engine::base62_160::encode(v.bytes());
    }
}
