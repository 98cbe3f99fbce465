//! SSE4.1: one 32-byte id in two 128-bit registers, for x86-64 CPUs and
//! virtual machines without AVX2 (older Xeons, Atom and Celeron parts,
//! conservative hypervisor CPU models).
//!
//! The AVX2 path's arithmetic in 128-bit halves: each half widens two of
//! the id's words to 64-bit lanes; one `pmuludq` by `ceil(2^55 / 62^4)`
//! and two by 3844 peel off each word's three base-3844 pairs, a
//! `pshufb`s pack two ids' 24 pairs into three registers (the halves
//! leave a 16-bit word in four unused), a multiply-high by 4229 splits
//! the pairs into digits, `pshufb` maps digits to ASCII, and 64-bit
//! unpacks and `palignr` put the prefixes between the two ids' digits. SSE4.1 brings `pmovzxdq`, `pblendw` and `ptest`; `pshufb` and
//! `pmaddubsw` are SSSE3, which every SSE4.1 CPU has.
//!
//! Like the AVX2 path, [`encode4`] runs in passes over blocks of ids so the
//! long per-id chain does not fill the schedulers.

use std::arch::x86_64::*;

use crate::engine::PREFIX_LEN;

pub(crate) fn is_supported() -> bool {
    std::is_x86_feature_detected!("sse4.1") && std::is_x86_feature_detected!("ssse3")
}

/// Ids per block of the staged loop: 1 KiB of stack, in L1 between passes.
const BLOCK: usize = 32;

/// The constant vectors of the encoder, built once per call.
struct Encoder {
    m4: __m128i,
    one: __m128i,
    k3844: __m128i,
    k3844_w3: __m128i,
    word3: __m128i,
    k4229: __m128i,
    kcombine: __m128i,
    nine: __m128i,
    k35: __m128i,
    low4: __m128i,
    offsets: __m128i,
    /// `pshufb` masks that pack two ids' four pair registers (six pairs
    /// each, in 16-bit words 1-3 and 5-7) into three full ones.
    pack: [__m128i; 6],
    /// The prefix in both qwords.
    prefix: __m128i,
}

impl Encoder {
    #[target_feature(enable = "sse4.1,ssse3")]
    fn new(prefix: &[u8; PREFIX_LEN]) -> Self {
        Encoder {
            m4: _mm_set1_epi64x(2_438_276_784),
            one: _mm_set1_epi64x(1),
            k3844: _mm_set1_epi64x(3844),
            // Multiplying by 3844 << 16 lands the last pair in 16-bit word 3.
            k3844_w3: _mm_set1_epi64x(3844 << 16),
            word3: _mm_set1_epi64x(0xFFFF_0000_0000_0000u64 as i64),
            k4229: _mm_set1_epi16(4229),
            // d = (y << 8) + hi * (1 - 62 * 256) = lo << 8 | hi, mod 2^16.
            kcombine: _mm_set1_epi16(1 - 62 * 256),
            nine: _mm_set1_epi8(9),
            k35: _mm_set1_epi8(35),
            low4: _mm_set1_epi8(0x0F),
            // Offset to add per class: index 0 -> '0' - 0, 15 -> 'A' - 10, 14 -> 'a' - 36.
            offsets: _mm_setr_epi8(48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 61, 55),
            // Source words 1-3, 5-7 of one register, then the next's.
            #[rustfmt::skip]
            pack: [
                _mm_setr_epi8(2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1),
                _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 4, 5),
                _mm_setr_epi8(6, 7, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1),
                _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 4, 5, 6, 7, 10, 11),
                _mm_setr_epi8(12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
                _mm_setr_epi8(-1, -1, -1, -1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15),
            ],
            prefix: _mm_set1_epi64x(u64::from_le_bytes(*prefix) as i64),
        }
    }

    /// Two words (64-bit lanes) -> 16-bit words `[garbage, A, B, C]` per
    /// lane, the three base-3844 pairs of each word.
    #[target_feature(enable = "sse4.1,ssse3")]
    #[inline]
    fn pairs(&self, x: __m128i) -> __m128i {
        // The scalar reference's three pairs, per 64-bit lane: A in bits
        // 32.. of p, B in bits 32.. of t2, C in bits 48.. of t3.
        let p = _mm_add_epi64(_mm_srli_epi64(_mm_mul_epu32(x, self.m4), 23), self.one);
        let t2 = _mm_mul_epu32(p, self.k3844);
        let t3 = _mm_mul_epu32(t2, self.k3844_w3);
        _mm_or_si128(
            _mm_blend_epi16(_mm_srli_epi64(p, 16), t2, 0b1100_1100),
            _mm_and_si128(t3, self.word3),
        )
    }

    /// Eight packed pairs -> their 16 ASCII digits.
    #[target_feature(enable = "sse4.1,ssse3")]
    #[inline]
    fn ascii(&self, q: __m128i) -> __m128i {
        // Each pair y < 3844 -> digits hi = y / 62 (low byte), lo = y % 62 (high byte).
        let hi = _mm_srli_epi16(_mm_mulhi_epu16(q, self.k4229), 2);
        let d = _mm_add_epi16(_mm_slli_epi16(q, 8), _mm_mullo_epi16(hi, self.kcombine));
        let class = _mm_and_si128(
            _mm_add_epi8(_mm_cmpgt_epi8(d, self.nine), _mm_cmpgt_epi8(d, self.k35)),
            self.low4,
        );
        _mm_add_epi8(d, _mm_shuffle_epi8(self.offsets, class))
    }
}

/// Encodes `count` 4-group ids.
///
/// # Safety
/// The CPU supports SSE4.1 and SSSE3; `words` has `4 * count` readable
/// `u32`s; `out` has `(count - 1) * stride + 32` writable bytes; `stride >= 32`.
#[target_feature(enable = "sse4.1,ssse3")]
pub(crate) unsafe fn encode4(
    prefix: &[u8; PREFIX_LEN],
    words: *const u32,
    out: *mut u8,
    stride: usize,
    count: usize,
) {
    let enc = Encoder::new(prefix);
    let zero = _mm_setzero_si128();
    let mut stage = [[zero; 2]; BLOCK];
    let mut start = 0;
    while start < count {
        let n = (count - start).min(BLOCK);
        for (k, v) in stage[..n].iter_mut().enumerate() {
            // SAFETY: start + k < count, so words[4(start+k)..][..4] is
            // readable (caller's contract).
            let w = unsafe { _mm_loadu_si128(words.add(4 * (start + k)).cast()) };
            *v = [
                enc.pairs(_mm_cvtepu32_epi64(w)),
                enc.pairs(_mm_unpackhi_epi32(w, zero)),
            ];
        }
        // Two ids at a time: their 24 pairs fill three registers, so each
        // digit step runs on 48 digits with no lanes to spare.
        let mut k = 0;
        while k < n {
            let [q0, q1] = stage[k];
            let [q2, q3] = if k + 1 < n { stage[k + 1] } else { [zero; 2] };
            let pick = |q: __m128i, i: usize| _mm_shuffle_epi8(q, enc.pack[i]);
            let r0 = enc.ascii(_mm_or_si128(pick(q0, 0), pick(q1, 1)));
            let r1 = enc.ascii(_mm_or_si128(pick(q1, 2), pick(q2, 3)));
            // SAFETY: start + k < count, so out[(start+k)*stride..][..32] is
            // writable (caller's contract).
            unsafe {
                let at = out.add((start + k) * stride);
                _mm_storeu_si128(at.cast(), _mm_unpacklo_epi64(enc.prefix, r0));
                _mm_storeu_si128(at.add(16).cast(), _mm_alignr_epi8(r1, r0, 8));
            }
            if k + 1 < n {
                let r2 = enc.ascii(_mm_or_si128(pick(q2, 4), pick(q3, 5)));
                // SAFETY: start + k + 1 < count: as above.
                unsafe {
                    let at = out.add((start + k + 1) * stride);
                    _mm_storeu_si128(at.cast(), _mm_unpackhi_epi64(enc.prefix, r1));
                    _mm_storeu_si128(at.add(16).cast(), r2);
                }
            }
            k += 2;
        }
        start += n;
    }
}

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
    let k3844 = _mm_set1_epi64x(3844);
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
            *prefixes.add(i) = (pp & 0xFFFF_FFFF) * 3844 * 3844 + (pp >> 32);
        }
    }
    count
}
