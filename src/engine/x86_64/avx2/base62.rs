//! AVX2: one 32-byte id per 256-bit register.
//!
//! Per id: the 4 words widen to 64-bit lanes; one `vpmuludq` by
//! `ceil(2^55 / 62^4)` and two by 3844 peel off the three base-3844 pairs
//! of each word (the scalar reference's arithmetic, lane-wise), the last
//! multiply by `3844 << 16` so each pair lands in its own 16-bit word; a
//! dword blend and a mask gather them; a multiply-high by 4229 splits each
//! pair into two digits; one in-lane `pshufb` and one `vpermd` close the
//! gaps; `pshufb` maps digits to ASCII, and a `vpblendd` drops in the prefix.
//!
//! About 25 vector uops per id. One id's chain is ~45 cycles long, so
//! a loop that runs it whole keeps most of several ids' uops waiting in the
//! schedulers; on Zen 4 that, not the ports, set the pace (11 cycles an id
//! against a port bound of ~6.5). [`encode4`] therefore runs the chain in
//! three passes over blocks of [`BLOCK`] ids through a small stack buffer,
//! so each pass's uops find their inputs ready.

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use crate::engine::PREFIX_LEN;
use crate::engine::divide::{COMBINE, DIV62, M4, PAIR};

/// Ids per block of the staged loop: 1 KiB of stack, in L1 between passes
/// (16 and 64 measured within 1 % of 32 on Zen 4).
const BLOCK: usize = 32;

/// The constant vectors of the encoder, built once per call.
struct Encoder {
    m4: __m256i,
    one: __m256i,
    k3844: __m256i,
    k3844_w3: __m256i,
    word3: __m256i,
    k4229: __m256i,
    kcombine: __m256i,
    compact: __m256i,
    gather: __m256i,
    nine: __m256i,
    k35: __m256i,
    low4: __m256i,
    offsets: __m256i,
    prefix: __m256i,
}

impl Encoder {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(prefix: &[u8; PREFIX_LEN]) -> Self {
        Encoder {
            m4: _mm256_set1_epi64x(M4 as i64),
            one: _mm256_set1_epi64x(1),
            k3844: _mm256_set1_epi64x(PAIR as i64),
            // Multiplying by 3844 << 16 lands the last pair in 16-bit word 3.
            k3844_w3: _mm256_set1_epi64x((PAIR << 16) as i64),
            word3: _mm256_set1_epi64x(0xFFFF_0000_0000_0000u64 as i64),
            k4229: _mm256_set1_epi16(DIV62 as i16),
            // d = (y << 8) + hi * (1 - 62 * 256) = lo << 8 | hi, mod 2^16.
            kcombine: _mm256_set1_epi16(COMBINE as i16),
            // Per lane: bytes 2..8 (the digits) of qword 0 then of qword 1, packed to 12 bytes.
            #[rustfmt::skip]
            compact: _mm256_setr_epi8(
                2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1,
                2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1,
            ),
            // Dwords 2..=4 from lane 0's 12 bytes, 5..=7 from lane 1's; 0..=1 get the prefix.
            // Opaque to the optimiser: knowing the constant, LLVM rewrites this
            // `pshufb` + `vpermd` pair into four shuffles.
            gather: std::hint::black_box(_mm256_setr_epi32(0, 0, 0, 1, 2, 4, 5, 6)),
            nine: _mm256_set1_epi8(9),
            k35: _mm256_set1_epi8(35),
            low4: _mm256_set1_epi8(0x0F),
            // Offset to add per class: index 0 -> '0' - 0, 15 -> 'A' - 10, 14 -> 'a' - 36.
            #[rustfmt::skip]
            offsets: _mm256_setr_epi8(
                48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 61, 55,
                48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 61, 55,
            ),
            prefix: _mm256_set1_epi64x(u64::from_le_bytes(*prefix) as i64),
        }
    }

    /// Pass 1: one id's 4 words -> 16-bit words `[garbage, A, B, C]` per
    /// qword, the three base-3844 pairs of each word.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn pairs(&self, w: __m128i) -> __m256i {
        let x = _mm256_cvtepu32_epi64(w);
        // The scalar reference's three pairs, per 64-bit lane: A in bits
        // 32.. of p, B in bits 32.. of t2, C in bits 48.. of t3.
        let p = _mm256_add_epi64(
            _mm256_srli_epi64(_mm256_mul_epu32(x, self.m4), 23),
            self.one,
        );
        let t2 = _mm256_mul_epu32(p, self.k3844);
        let t3 = _mm256_mul_epu32(t2, self.k3844_w3);
        // A dword blend takes [B, 0] from t2 and a mask takes C from t3:
        // three uops that any vector port runs, where two `vpblendw` would
        // queue on the shuffle ports.
        _mm256_or_si256(
            _mm256_blend_epi32(_mm256_srli_epi64(p, 16), t2, 0b1010_1010),
            _mm256_and_si256(t3, self.word3),
        )
    }

    /// Pass 2: pairs -> the 24 digit values in bytes 8..32.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn digits(&self, q: __m256i) -> __m256i {
        // Each pair y < 3844 -> digits hi = y / 62 (low byte), lo = y % 62 (high byte).
        let hi = _mm256_srli_epi16(_mm256_mulhi_epu16(q, self.k4229), 2);
        let d = _mm256_add_epi16(
            _mm256_slli_epi16(q, 8),
            _mm256_mullo_epi16(hi, self.kcombine),
        );
        // Close the gaps first, so ASCII is computed once on the packed digits.
        _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(d, self.compact), self.gather)
    }

    /// Pass 3: digit values -> ASCII, the prefix in bytes 0..8.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn text(&self, packed: __m256i) -> __m256i {
        let class = _mm256_and_si256(
            _mm256_add_epi8(
                _mm256_cmpgt_epi8(packed, self.nine),
                _mm256_cmpgt_epi8(packed, self.k35),
            ),
            self.low4,
        );
        let ascii = _mm256_add_epi8(packed, _mm256_shuffle_epi8(self.offsets, class));
        _mm256_blend_epi32(ascii, self.prefix, 0b0000_0011)
    }
}

/// Encodes `count` 4-group ids.
///
/// # Safety
/// The CPU supports AVX2; `words` has `4 * count` readable `u32`s; `out` has
/// `(count - 1) * stride + 32` writable bytes; `stride >= 32`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode4(
    prefix: &[u8; PREFIX_LEN],
    words: *const u32,
    out: *mut u8,
    stride: usize,
    count: usize,
) {
    let enc = Encoder::new(prefix);
    // Not zeroed: a zeroed buffer cost a 1 KiB `memset` call per call,
    // which the look-ahead's 32-id encodes paid every time.
    let mut stage = [const { MaybeUninit::<__m256i>::uninit() }; BLOCK];
    let mut start = 0;
    while start < count {
        let n = (count - start).min(BLOCK);
        for (k, v) in stage[..n].iter_mut().enumerate() {
            // SAFETY: start + k < count, so words[4(start+k)..][..4] is
            // readable (caller's contract).
            v.write(enc.pairs(unsafe { _mm_loadu_si128(words.add(4 * (start + k)).cast()) }));
        }
        for v in &mut stage[..n] {
            // SAFETY: the loop above wrote stage[..n] in this block.
            v.write(enc.digits(unsafe { v.assume_init() }));
        }
        for (k, v) in stage[..n].iter().enumerate() {
            // SAFETY: stage[..n] was written in this block; start + k <
            // count, so out[(start+k)*stride..][..32] is writable (caller's
            // contract).
            unsafe {
                _mm256_storeu_si256(
                    out.add((start + k) * stride).cast(),
                    enc.text(v.assume_init()),
                )
            };
        }
        start += n;
    }
}

/// Decodes `count` 4-group ids, stopping at the first invalid one; returns
/// how many were valid.
///
/// Validation is two nibble lookups (`pshufb`): a byte is base62 iff its
/// high-nibble class bit is set in its low nibble's mask (bytes >= 0x80 have
/// no class). A third lookup on the high nibble gives the digit offset.
/// `vpermd` + `pshufb` spread each group's 6 digits over a qword; `pmaddubsw`
/// by 62 and `pmaddwd` by 3844 fold them into pairs and pair-pairs, and one
/// `vpmuludq` finishes `A*3844^2 + B*3844 + C`, compared against `u32::MAX`.
///
/// # Safety
/// The CPU supports AVX2; `text` has `(count - 1) * stride + 32` readable
/// bytes; `prefixes` has `count` writable `u64`s and `words` `4 * count`
/// writable `u32`s.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decode4(
    text: *const u8,
    stride: usize,
    count: usize,
    prefixes: *mut u64,
    words: *mut u32,
) -> usize {
    let nibble = _mm256_set1_epi8(0x0F);
    // Low nibble -> the high-nibble classes it is valid in: bit 0 digits
    // (0x30..=0x39), bit 1 0x41..=0x4F and 0x61..=0x6F, bit 2 0x50..=0x5A and 0x70..=0x7A.
    #[rustfmt::skip]
    let lo_lut = _mm256_setr_epi8(
        5, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 2, 2, 2, 2, 2,
        5, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 2, 2, 2, 2, 2,
    );
    #[rustfmt::skip]
    let hi_lut = _mm256_setr_epi8(
        0, 0, 0, 1, 2, 4, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 1, 2, 4, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0,
    );
    #[rustfmt::skip]
    let offsets = _mm256_setr_epi8(
        0, 0, 0, 48, 55, 55, 61, 61, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 48, 55, 55, 61, 61, 0, 0, 0, 0, 0, 0, 0, 0,
    );
    // Bytes 8..20 to lane 0, 20..32 to lane 1 ...
    let gather = _mm256_setr_epi32(2, 3, 4, 0, 5, 6, 7, 0);
    // ... then each group's 6 digits to its own qword.
    #[rustfmt::skip]
    let spread = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, -1, -1, 6, 7, 8, 9, 10, 11, -1, -1,
        0, 1, 2, 3, 4, 5, -1, -1, 6, 7, 8, 9, 10, 11, -1, -1,
    );
    #[rustfmt::skip]
    let by62 = _mm256_setr_epi8(
        62, 1, 62, 1, 62, 1, 0, 0, 62, 1, 62, 1, 62, 1, 0, 0,
        62, 1, 62, 1, 62, 1, 0, 0, 62, 1, 62, 1, 62, 1, 0, 0,
    );
    let by3844 = _mm256_setr_epi16(3844, 1, 1, 0, 3844, 1, 1, 0, 3844, 1, 1, 0, 3844, 1, 1, 0);
    #[rustfmt::skip]
    let prefix62 = _mm256_setr_epi8(
        62, 1, 62, 1, 62, 1, 62, 1, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    );
    let prefix3844 = _mm256_setr_epi16(3844, 1, 3844, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    let k3844 = _mm256_set1_epi64x(3844);
    let max = _mm256_set1_epi64x(0xFFFF_FFFF);
    let low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    let zero = _mm256_setzero_si256();

    for i in 0..count {
        // SAFETY: id i's 32 bytes are readable (caller's contract).
        let v = unsafe { _mm256_loadu_si256(text.add(i * stride).cast()) };
        let hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
        let lo = _mm256_and_si256(v, nibble);
        let class = _mm256_and_si256(
            _mm256_shuffle_epi8(lo_lut, lo),
            _mm256_shuffle_epi8(hi_lut, hi),
        );
        if _mm256_movemask_epi8(_mm256_cmpeq_epi8(class, zero)) != 0 {
            return i;
        }
        let d = _mm256_sub_epi8(v, _mm256_shuffle_epi8(offsets, hi));
        let g = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(d, gather), spread);
        let abc = _mm256_madd_epi16(_mm256_maddubs_epi16(g, by62), by3844);
        let value = _mm256_add_epi64(_mm256_mul_epu32(abc, k3844), _mm256_srli_epi64(abc, 32));
        if _mm256_movemask_epi8(_mm256_cmpgt_epi64(value, max)) != 0 {
            return i;
        }
        let w = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(value, low_dwords));
        let pp = _mm256_madd_epi16(_mm256_maddubs_epi16(d, prefix62), prefix3844);
        let pp = _mm_cvtsi128_si64(_mm256_castsi256_si128(pp)) as u64;
        // SAFETY: slots i and 4i..4i+4 are writable (caller's contract).
        unsafe {
            _mm_storeu_si128(words.add(4 * i).cast(), w);
            *prefixes.add(i) = (pp & 0xFFFF_FFFF) * 3844 * 3844 + (pp >> 32);
        }
    }
    count
}
