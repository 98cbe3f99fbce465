//! The explicit fast RNG: eight interleaved xoshiro256++ streams, each
//! seeded from the OS. Not a CSPRNG: a few ids reveal the state.
//!
//! The eight streams are stepped together (structure of arrays), which
//! compilers turn into 4- or 8-lane vector code under AVX2 and AVX-512; the
//! plain variant steps one lane at a time instead. Every variant yields the
//! same words (tested); the engine path (`KUUID_ISA`) picks one.

use super::spare::Spare;
use crate::engine::Isa;
#[cfg(target_arch = "x86_64")]
use crate::engine::x86_64::{self, avx2::xoshiro::steps_avx2};

const LANES: usize = 8;
#[cfg(target_arch = "x86_64")]
const _: () = assert!(LANES == crate::engine::x86_64::avx2::xoshiro::LANES);
/// Words one step yields: 8 lanes x 2 words (4 ids).
const STEP_WORDS: usize = 2 * LANES;

/// Eight xoshiro256++ states, lane `l` in `s[k][l]`.
#[derive(Clone)]
pub(crate) struct FastRng {
    s: [[u64; LANES]; 4],
    spare: Spare<STEP_WORDS>,
}

impl FastRng {
    pub(crate) fn from_os() -> Result<Self, getrandom::Error> {
        let mut seed = [0u8; 4 * LANES * 8];
        loop {
            getrandom::fill(&mut seed)?;
            let mut s = [[0u64; LANES]; 4];
            for (i, chunk) in seed.chunks_exact(8).enumerate() {
                s[i % 4][i / 4] = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            }
            // An all-zero xoshiro state is a fixed point; 2^-256 odds, but cheap to exclude.
            if (0..LANES).all(|l| (0..4).any(|k| s[k][l] != 0)) {
                return Ok(FastRng {
                    s,
                    spare: Spare::empty(),
                });
            }
        }
    }

    pub(crate) fn perturb(&mut self, token: u64) {
        for (l, s0) in self.s[0].iter_mut().enumerate() {
            *s0 ^= token.rotate_left(8 * l as u32) | 1;
        }
        self.spare.clear();
    }

    #[inline]
    pub(crate) fn fill_words(&mut self, isa: Isa, out: &mut [u32]) {
        let s = &mut self.s;
        self.spare.fill(out, |steps| Self::steps(s, isa, steps));
    }

    /// Fills `out` (a multiple of 16 words) with the variant for `isa`.
    fn steps(s: &mut [[u64; LANES]; 4], isa: Isa, out: &mut [u32]) {
        match isa {
            // SAFETY (each arm): the guard checked that this CPU has what the
            // kernel enables (the AVX-512 tier: AVX-512F and AVX2).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 if x86_64::avx512::is_supported() => unsafe { steps_avx512(s, out) },
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => unsafe {
                steps_avx2(s, out)
            },
            // SSE2 is every x86-64 CPU's; the `sse41` path (no AVX2) runs
            // the eight lanes four at a time in vector registers.
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => x86_64::sse2::xoshiro::steps_sse2(s, out),
            _ => steps_scalar(s, out),
        }
    }
}

/// The plain-register variant: one lane at a time through every step, so a
/// lane's state stays in four registers (the lane-parallel form spills 32
/// words of state on x86-64 without vectors). Same words, same order.
fn steps_scalar(s: &mut [[u64; LANES]; 4], out: &mut [u32]) {
    for l in 0..LANES {
        let (mut s0, mut s1, mut s2, mut s3) = (s[0][l], s[1][l], s[2][l], s[3][l]);
        for chunk in out.chunks_exact_mut(STEP_WORDS) {
            let r = s0.wrapping_add(s3).rotate_left(23).wrapping_add(s0);
            let t = s1 << 17;
            s2 ^= s0;
            s3 ^= s1;
            s1 ^= s2;
            s0 ^= s3;
            s2 ^= t;
            s3 = s3.rotate_left(45);
            chunk[2 * l] = r as u32;
            chunk[2 * l + 1] = (r >> 32) as u32;
        }
        (s[0][l], s[1][l], s[2][l], s[3][l]) = (s0, s1, s2, s3);
    }
}

/// One xoshiro256++ step on every lane, writing each lane's u64 as two
/// words (low, high) split by shifts, so word order is the same on any
/// endianness. The form the vector variants compile (8 lanes side by side).
#[cfg(any(target_arch = "x86_64", test))]
#[inline(always)]
fn steps_lanes(s: &mut [[u64; LANES]; 4], out: &mut [u32]) {
    for chunk in out.chunks_exact_mut(STEP_WORDS) {
        let mut r = [0u64; LANES];
        for l in 0..LANES {
            r[l] = s[0][l]
                .wrapping_add(s[3][l])
                .rotate_left(23)
                .wrapping_add(s[0][l]);
            let t = s[1][l] << 17;
            s[2][l] ^= s[0][l];
            s[3][l] ^= s[1][l];
            s[1][l] ^= s[2][l];
            s[0][l] ^= s[3][l];
            s[2][l] ^= t;
            s[3][l] = s[3][l].rotate_left(45);
        }
        for l in 0..LANES {
            chunk[2 * l] = r[l] as u32;
            chunk[2 * l + 1] = (r[l] >> 32) as u32;
        }
    }
}

/// # Safety
/// The CPU supports AVX-512F (and so AVX2).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f")]
unsafe fn steps_avx512(s: &mut [[u64; LANES]; 4], out: &mut [u32]) {
    steps_lanes(s, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};

    /// Each lane is exactly rand_xoshiro's Xoshiro256PlusPlus from its state.
    #[test]
    fn lanes_are_reference_xoshiro256plusplus() {
        let mut rng = FastRng::from_os().unwrap();
        let mut refs: Vec<_> = (0..LANES)
            .map(|l| {
                let mut seed = [0u8; 32];
                for k in 0..4 {
                    seed[8 * k..8 * k + 8].copy_from_slice(&rng.s[k][l].to_le_bytes());
                }
                rand_xoshiro::Xoshiro256PlusPlus::from_seed(seed)
            })
            .collect();
        // Odd sizes exercise the spare-word path.
        let mut got = Vec::new();
        for n in [1usize, 15, 16, 17, 100, 3, 256] {
            let mut buf = vec![0u32; n];
            rng.fill_words(crate::engine::isa(), &mut buf);
            got.extend(buf);
        }
        let mut want = Vec::new();
        while want.len() < got.len() {
            for r in refs.iter_mut() {
                let v = r.next_u64();
                want.push(v as u32);
                want.push((v >> 32) as u32);
            }
        }
        assert_eq!(got, want[..got.len()]);
    }

    /// 1024 words in two calls from `state`: the second continues from the
    /// state the first stored back (the SSE2 variant stores lanes 0-3 and
    /// 4-7 in turn; the AVX2 and AVX-512 variants all eight at once).
    #[cfg(target_arch = "x86_64")]
    fn in_two_calls(
        mut state: [[u64; LANES]; 4],
        steps: impl Fn(&mut [[u64; LANES]; 4], &mut [u32]),
    ) -> Vec<u32> {
        let mut got = vec![0u32; 1024];
        let (first, second) = got.split_at_mut(512);
        steps(&mut state, first);
        steps(&mut state, second);
        got
    }

    /// The vector variants are the same function.
    #[test]
    fn every_variant_yields_the_same_words() {
        let rng = FastRng::from_os().unwrap();
        let mut want = vec![0u32; 1024];
        steps_scalar(&mut rng.s.clone(), &mut want);
        let mut lanes = vec![0u32; 1024];
        steps_lanes(&mut rng.s.clone(), &mut lanes);
        assert_eq!(lanes, want);
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(in_two_calls(rng.s, x86_64::sse2::xoshiro::steps_sse2), want);
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 checked above.
                let got = in_two_calls(rng.s, |s, out| unsafe { steps_avx2(s, out) });
                assert_eq!(got, want);
            }
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: AVX-512F checked above.
                let got = in_two_calls(rng.s, |s, out| unsafe { steps_avx512(s, out) });
                assert_eq!(got, want);
            }
        }
    }
}
