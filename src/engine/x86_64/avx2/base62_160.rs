//! KSUID's 160-bit base62 on AVX2 (and FMA), four ids a register of doubles (one a
//! 64-bit lane), with no long division.
//!
//! The scalar reference divides the five 32-bit words by 62^5 six times:
//! 30 divisions, each waiting on the last. Here the number's ten 16-bit
//! halves `h` are weighed in base `D = 62^5` instead: position `j` of the
//! result gathers `sum h * digit_j(2^16k)` (`WEIGHTS`), ten products below
//! 2^46, a sum below 2^50, all exact in a double; then one carry pass,
//! low position first, takes each position's `div`/`mod D` as
//! `floor(v * (1 / D))`, exact for every value it can meet (the tests
//! prove why).
//! That is five dependent steps instead of thirty, and no multiply or
//! divide wider than a double's 53 bits. Each position below `D` then
//! becomes five characters through the kuuid group encoder, as in the
//! scalar reference.

use std::arch::x86_64::*;

use crate::engine::base62_160::{CHUNK, write_positions};
use crate::engine::bytes::{Bytes, head};

/// Whether this CPU has AVX2 and FMA (every AVX2 CPU made has both; the
/// check costs nothing).
pub(crate) fn is_supported() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// Base-`D` digits (six, least significant first) of `2^(16 k)` for the
/// ten 16-bit halves, `k = 0` the lowest.
const WEIGHTS: [[u64; 6]; 10] = {
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
    // correction step (the tests below prove both bounds); `q D` and the
    // difference are exact too.
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

#[cfg(test)]
mod tests {
    use super::*;

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
