//! Crockford base32 of 16-byte values with AVX2: the SSE4.1 kernel's
//! steps (`sse41/base32.rs` says how) on two values a 256-bit register,
//! one a 128-bit lane; an odd last value takes the 128-bit kernel.

use std::arch::x86_64::*;

use crate::engine::bytes::{Bytes, head};
use crate::engine::x86_64::sse41::base32::{PLANS, encode_one, store26};

/// The 16 bytes of a value.
#[inline(always)]
fn load16(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: an unaligned load of the 16 bytes `bytes` refers to.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// A 128-bit constant in both lanes.
#[target_feature(enable = "avx2")]
fn both(bytes: &[u8; 16]) -> __m256i {
    _mm256_broadcastsi128_si256(load16(bytes))
}

/// Eight digits of each lane's value for `PLANS[p]`'s characters.
#[target_feature(enable = "avx2")]
fn digits8(x: __m256i, p: usize) -> __m256i {
    let (idx, mul) = &PLANS[p];
    let mul: [u8; 16] = bytemuck::cast(*mul);
    let w = _mm256_shuffle_epi8(x, both(idx));
    _mm256_and_si256(_mm256_mulhi_epu16(w, both(&mul)), _mm256_set1_epi16(31))
}

#[target_feature(enable = "avx2")]
fn ascii(d: __m256i, alphabet: &[u8; 32]) -> __m256i {
    let lo = _mm256_shuffle_epi8(both(alphabet.first_chunk().expect("32")), d);
    let hi = _mm256_shuffle_epi8(both(alphabet.last_chunk().expect("32")), d);
    _mm256_blendv_epi8(lo, hi, _mm256_cmpgt_epi8(d, _mm256_set1_epi8(15)))
}

/// The 26 characters of each value at the start of its slot.
///
/// # Safety
/// The CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode16<T: Bytes<16>, const W: usize>(
    src: &[T],
    out: &mut [[u8; W]],
    alphabet: &[u8; 32],
) {
    const { assert!(W >= 26) };
    let mut pairs = src.chunks_exact(2);
    let mut slots = out.chunks_exact_mut(2);
    for (v, o) in (&mut pairs).zip(&mut slots) {
        let x = _mm256_inserti128_si256::<1>(
            _mm256_castsi128_si256(load16(v[0].bytes())),
            load16(v[1].bytes()),
        );
        let a = ascii(_mm256_packus_epi16(digits8(x, 0), digits8(x, 1)), alphabet);
        let b = ascii(_mm256_packus_epi16(digits8(x, 2), digits8(x, 3)), alphabet);
        let [o0, o1] = o else {
            unreachable!("chunks of 2")
        };
        store26(
            _mm256_castsi256_si128(a),
            _mm256_castsi256_si128(b),
            head(o0),
        );
        store26(
            _mm256_extracti128_si256::<1>(a),
            _mm256_extracti128_si256::<1>(b),
            head(o1),
        );
    }
    if let ([v], [o, ..]) = (pairs.remainder(), slots.into_remainder()) {
        let (a, b) = encode_one(load16(v.bytes()), alphabet);
        store26(a, b, head(o));
    }
}
