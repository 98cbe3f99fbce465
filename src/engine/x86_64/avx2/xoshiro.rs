//! The fast RNG's eight xoshiro256++ lanes stepped on AVX2 (`rng/fast.rs`
//! holds the state, the plain and the AVX-512 variants, and the tests that
//! hold this one to them).

use std::arch::x86_64::*;

/// Lanes stepped side by side (`rng/fast.rs`'s `LANES`).
pub(crate) const LANES: usize = 8;
/// Words one step yields: 8 lanes x 2 words.
const STEP_WORDS: usize = 2 * LANES;

/// `rng/fast.rs`'s `steps_lanes` written out for AVX2: eight lanes as two
/// 4-lane halves, each state word in two registers for the whole call.
/// Compiled from `steps_lanes`, LLVM moved every lane of the
/// `rotate_left(45)` to a general register and back (AVX2 has no 64-bit
/// rotate), about 30 instructions a step; here both rotates are two shifts
/// and an OR.
///
/// # Safety
/// The CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn steps_avx2(s: &mut [[u64; LANES]; 4], out: &mut [u32]) {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
        _mm256_or_si256(_mm256_slli_epi64::<L>(x), _mm256_srli_epi64::<R>(x))
    }
    // SAFETY (the loads): each row of `s` is 8 u64s, two unaligned
    // 32-byte loads; `half` is 0 or 1.
    let load = |row: &[u64; LANES], half: usize| unsafe {
        _mm256_loadu_si256(row.as_ptr().add(4 * half).cast())
    };
    let mut st = [[_mm256_setzero_si256(); 2]; 4];
    for (k, row) in s.iter().enumerate() {
        st[k] = [load(row, 0), load(row, 1)];
    }
    for chunk in out.chunks_exact_mut(STEP_WORDS) {
        for (half, dst) in chunk.chunks_exact_mut(STEP_WORDS / 2).enumerate() {
            let [s0, s1, s2, s3] = [st[0][half], st[1][half], st[2][half], st[3][half]];
            let r = _mm256_add_epi64(rotl::<23, 41>(_mm256_add_epi64(s0, s3)), s0);
            let t = _mm256_slli_epi64::<17>(s1);
            let s2 = _mm256_xor_si256(s2, s0);
            let s3 = _mm256_xor_si256(s3, s1);
            let s1 = _mm256_xor_si256(s1, s2);
            let s0 = _mm256_xor_si256(s0, s3);
            let s2 = _mm256_xor_si256(s2, t);
            let s3 = rotl::<45, 19>(s3);
            [st[0][half], st[1][half], st[2][half], st[3][half]] = [s0, s1, s2, s3];
            // Lanes as u64s, little-endian: word 2l the low half of lane l,
            // 2l + 1 the high, as `steps_lanes` writes them.
            // SAFETY: `dst` is 8 u32s, 32 writable bytes.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), r) };
        }
    }
    for (row, regs) in s.iter_mut().zip(st) {
        for (half, reg) in regs.into_iter().enumerate() {
            // SAFETY: as the loads, writing.
            unsafe { _mm256_storeu_si256(row.as_mut_ptr().add(4 * half).cast(), reg) };
        }
    }
}
