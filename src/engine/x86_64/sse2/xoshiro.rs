//! The fast RNG's eight xoshiro256++ lanes stepped on SSE2, for the
//! `sse41` path (`rng/fast.rs` holds the state, the other variants, and the
//! tests that hold this one to them).

use std::arch::x86_64::*;

use crate::engine::x86_64::avx2::xoshiro::LANES;

/// Words one step yields: 8 lanes x 2 words.
const STEP_WORDS: usize = 2 * LANES;
/// Lanes stepped at once: four, two to a register, so their state (eight
/// registers) and temporaries fit SSE's sixteen; all eight at once spilled.
const GROUP: usize = 4;

/// `rng/fast.rs`'s `steps_lanes` written out for SSE2: lanes 0-3 through
/// every step, then lanes 4-7; each rotate is two shifts and an OR. Against
/// the plain variant (one lane at a time in general registers), the four
/// lanes' steps run side by side in the vector pipes.
pub(crate) fn steps_sse2(s: &mut [[u64; LANES]; 4], out: &mut [u32]) {
    // SAFETY: SSE2 is part of x86-64: every CPU this runs on has it.
    unsafe { steps(s, out) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn steps(s: &mut [[u64; LANES]; 4], out: &mut [u32]) {
    #[inline]
    #[target_feature(enable = "sse2")]
    fn rotl<const L: i32, const R: i32>(x: __m128i) -> __m128i {
        _mm_or_si128(_mm_slli_epi64::<L>(x), _mm_srli_epi64::<R>(x))
    }
    for group in 0..LANES / GROUP {
        // SAFETY (the loads): each row of `s` is 8 u64s; lanes
        // 4 * group + 2 * pair.. + 2 are in it (group < 2, pair < 2).
        let load = |row: &[u64; LANES], pair: usize| unsafe {
            _mm_loadu_si128(row.as_ptr().add(GROUP * group + 2 * pair).cast())
        };
        let mut st = [[_mm_setzero_si128(); 2]; 4];
        for (k, row) in s.iter().enumerate() {
            st[k] = [load(row, 0), load(row, 1)];
        }
        for chunk in out.chunks_exact_mut(STEP_WORDS) {
            let dst = &mut chunk[2 * GROUP * group..2 * GROUP * (group + 1)];
            for (pair, dst) in dst.chunks_exact_mut(4).enumerate() {
                let [s0, s1, s2, s3] = [st[0][pair], st[1][pair], st[2][pair], st[3][pair]];
                let r = _mm_add_epi64(rotl::<23, 41>(_mm_add_epi64(s0, s3)), s0);
                let t = _mm_slli_epi64::<17>(s1);
                let s2 = _mm_xor_si128(s2, s0);
                let s3 = _mm_xor_si128(s3, s1);
                let s1 = _mm_xor_si128(s1, s2);
                let s0 = _mm_xor_si128(s0, s3);
                let s2 = _mm_xor_si128(s2, t);
                let s3 = rotl::<45, 19>(s3);
                [st[0][pair], st[1][pair], st[2][pair], st[3][pair]] = [s0, s1, s2, s3];
                // Lanes as u64s, little-endian: word 2l the low half of
                // lane l, 2l + 1 the high, as `steps_lanes` writes them.
                // SAFETY: `dst` is 4 u32s, 16 writable bytes.
                unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), r) };
            }
        }
        for (row, regs) in s.iter_mut().zip(st) {
            for (pair, reg) in regs.into_iter().enumerate() {
                // SAFETY: as the loads, writing.
                unsafe {
                    _mm_storeu_si128(row.as_mut_ptr().add(GROUP * group + 2 * pair).cast(), reg)
                };
            }
        }
    }
}
