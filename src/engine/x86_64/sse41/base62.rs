//! SSE4.1 (with SSSE3, which every SSE4.1 CPU has): the decoder for
//! x86-64 CPUs and virtual machines without AVX2 (older Xeons, Atom and
//! Celeron parts, conservative hypervisor CPU models). It runs 3-4x the
//! scalar decoder.
//!
//! There is no SSE4.1 encoder: one was written (the AVX2 encoder's
//! arithmetic in 128-bit halves, two ids' 24 base-3844 pairs packed into
//! three registers; commit f2286b9) and measured from 1.2x slower to 1.06x
//! faster than the scalar table encoder on the same CPU, 1.7x the AVX2
//! encoder (docs/performance.md). The `sse41` path encodes with the
//! scalar code.

use std::arch::x86_64::*;

use crate::engine::divide::PAIR;

/// Decodes `count` 4-group ids, stopping at the first invalid one; returns
/// how many were valid.
///
/// The AVX2 decoder in halves: two nibble lookups validate each byte, a
/// third gives its digit offset; `palignr` and `pshufb` spread each group's
/// 6 digits over a qword; `pmaddubsw` by 62 and `pmaddwd` by 3844 fold them
/// into pairs and pair-pairs, one `pmuludq` finishes
/// `A*3844^2 + B*3844 + C`, and `ptest` finds any value above `u32::MAX`.
///
/// # Safety
/// The CPU supports SSE4.1 and SSSE3; `text` has `(count - 1) * stride + 32`
/// readable bytes; `prefixes` has `count` writable `u64`s and `words`
/// `4 * count` writable `u32`s.
#[target_feature(enable = "sse4.1,ssse3")]
pub(crate) unsafe fn decode4(
    text: *const u8,
    stride: usize,
    count: usize,
    prefixes: *mut u64,
    words: *mut u32,
) -> usize {
    let nibble = _mm_set1_epi8(0x0F);
    // Low nibble -> the high-nibble classes it is valid in: bit 0 digits
    // (0x30..=0x39), bit 1 0x41..=0x4F and 0x61..=0x6F, bit 2 0x50..=0x5A and 0x70..=0x7A.
    let lo_lut = _mm_setr_epi8(5, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 2, 2, 2, 2, 2);
    let hi_lut = _mm_setr_epi8(0, 0, 0, 1, 2, 4, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0);
    let offsets = _mm_setr_epi8(0, 0, 0, 48, 55, 55, 61, 61, 0, 0, 0, 0, 0, 0, 0, 0);
    // Groups 0 and 1 (bytes 8..20, at 0..12 after `palignr`), groups 2 and
    // 3 (bytes 20..32, at 4..16 of the second half): 6 digits to each qword.
    let spread01 = _mm_setr_epi8(0, 1, 2, 3, 4, 5, -1, -1, 6, 7, 8, 9, 10, 11, -1, -1);
    let spread23 = _mm_setr_epi8(4, 5, 6, 7, 8, 9, -1, -1, 10, 11, 12, 13, 14, 15, -1, -1);
    let by62 = _mm_setr_epi8(62, 1, 62, 1, 62, 1, 0, 0, 62, 1, 62, 1, 62, 1, 0, 0);
    let by3844 = _mm_setr_epi16(3844, 1, 1, 0, 3844, 1, 1, 0);
    let prefix62 = _mm_setr_epi8(62, 1, 62, 1, 62, 1, 62, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    let prefix3844 = _mm_setr_epi16(3844, 1, 3844, 1, 0, 0, 0, 0);
    let k3844 = _mm_set1_epi64x(PAIR as i64);
    let high = _mm_set1_epi64x(0xFFFF_FFFF_0000_0000u64 as i64);
    let zero = _mm_setzero_si128();

    let digits = |v: __m128i| -> Option<__m128i> {
        let hi = _mm_and_si128(_mm_srli_epi16(v, 4), nibble);
        let class = _mm_and_si128(
            _mm_shuffle_epi8(lo_lut, _mm_and_si128(v, nibble)),
            _mm_shuffle_epi8(hi_lut, hi),
        );
        if _mm_movemask_epi8(_mm_cmpeq_epi8(class, zero)) != 0 {
            return None;
        }
        Some(_mm_sub_epi8(v, _mm_shuffle_epi8(offsets, hi)))
    };
    let value = |g: __m128i| -> __m128i {
        let abc = _mm_madd_epi16(_mm_maddubs_epi16(g, by62), by3844);
        _mm_add_epi64(_mm_mul_epu32(abc, k3844), _mm_srli_epi64(abc, 32))
    };

    for i in 0..count {
        // SAFETY: id i's 32 bytes are readable (caller's contract).
        let (v0, v1) = unsafe {
            let at = text.add(i * stride);
            (
                _mm_loadu_si128(at.cast()),
                _mm_loadu_si128(at.add(16).cast()),
            )
        };
        let (Some(d0), Some(d1)) = (digits(v0), digits(v1)) else {
            return i;
        };
        let a = value(_mm_shuffle_epi8(_mm_alignr_epi8(d1, d0, 8), spread01));
        let b = value(_mm_shuffle_epi8(d1, spread23));
        if _mm_testz_si128(_mm_or_si128(a, b), high) == 0 {
            return i;
        }
        // The low dwords of a's and b's qwords, in order.
        let w = _mm_unpacklo_epi64(_mm_shuffle_epi32(a, 0b1000), _mm_shuffle_epi32(b, 0b1000));
        let pp = _mm_madd_epi16(_mm_maddubs_epi16(d0, prefix62), prefix3844);
        let pp = _mm_cvtsi128_si64(pp) as u64;
        // SAFETY: slots i and 4i..4i+4 are writable (caller's contract).
        unsafe {
            _mm_storeu_si128(words.add(4 * i).cast(), w);
            *prefixes.add(i) = (pp & 0xFFFF_FFFF) * PAIR * PAIR + (pp >> 32);
        }
    }
    count
}
