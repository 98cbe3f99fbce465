//! SSE4.1 (with SSSE3, which every SSE4.1 CPU has): base62 for x86-64
//! CPUs and virtual machines without AVX2 (older Xeons, Atom and Celeron
//! parts, conservative hypervisor CPU models).
//!
//! The decoder is the AVX2 decoder in 128-bit halves, about 5x the scalar
//! one.
//!
//! The encoder shares each block of ids between the vector and the integer
//! pipes. At 128 bits a vector encoder does half the AVX2 encoder's work an
//! instruction, and alone it only ties the scalar table encoder (3.5 against
//! 3.4 ns an id on an AMD Zen 5; the first version, commit f2286b9, from
//! 1.2x slower to 1.06x faster on an Intel Xeon): both are bound by how many
//! instructions a cycle the core issues. They use different execution
//! units, though, so three quarters of a block go through the vectors and a
//! quarter through the scalar table, one scalar id after each vector pair,
//! and the two run side by side: 3.1 ns an id (docs/performance.md).
//!
//! The vector part per id: one `pmuludq` pair by `ceil(2^55 / 62^4)` gives
//! each word's first base-3844 pair `A` (shifted by 55; the odd words
//! through a shifted copy), `pmulld` the remainder `r < 3844^2`, a second
//! `pmuludq` pair `B = r / 3844` and a `pmulld` `C`; `packusdw` puts `A`
//! and `B` in 16-bit lanes, and two ids' `C` share a register, so the digit
//! step (a multiply-high by 4229, a multiply-add, `pshufb` to ASCII) runs on
//! full registers; two `pshufb` an output half put the digits in text order.

use std::arch::x86_64::*;

use crate::engine::divide::{COMBINE, DIV62, DIV3844, M4, PAIR};
use crate::engine::scalar::four_group_bits;
use crate::engine::{MAX_ID_LEN, PREFIX_LEN, assemble_id};

/// Ids per block of the staged loop: 1 KiB of stack, in L1 between passes.
const BLOCK: usize = 32;

/// Of each block, the ids the scalar table encodes: a quarter (a third and
/// a sixth measured 2-3 % slower on Zen 5, none 15 %).
const fn scalar_share(n: usize) -> usize {
    n / 4
}

/// The constant vectors of the encoder, built once per call.
struct Encoder {
    m4: __m128i,
    pair2: __m128i,
    pair: __m128i,
    div3844: __m128i,
    div62: __m128i,
    combine: __m128i,
    nine: __m128i,
    k35: __m128i,
    low4: __m128i,
    offsets: __m128i,
    /// `pshufb` masks that put a pair of ids' digits, held as
    /// `[A0..A3 B0..B3]` (each id) and `[C0..C3 C0'..C3']` (both), in text
    /// order: `[first id's 16 bytes from AB, from C, its second 16 from AB,
    /// from C]`, then the same for the second id.
    order: [__m128i; 8],
    /// The prefix in bytes 0..8.
    prefix: __m128i,
}

/// Byte `j` of the text's digits (`j < 24`) of an id whose words' pairs
/// are `A`, `B`, `C`: pair `j / 2` is word `j / 6`'s `A`, `B` or `C`.
/// Returns (from C, byte index in its 16-bit-lane register) for the mask
/// tables; `c_base` is 0 for the first id's C lanes and 8 for the second's.
const fn digit_source(j: usize, c_base: usize) -> (bool, i8) {
    let word = j / 6;
    let which = (j % 6) / 2;
    let byte = j % 2;
    match which {
        0 => (false, (2 * word + byte) as i8),
        1 => (false, (8 + 2 * word + byte) as i8),
        _ => (true, (c_base + 2 * word + byte) as i8),
    }
}

/// The `pshufb` masks for output bytes `out_lo..out_lo + 16` (text bytes,
/// 0..8 being the prefix) of an id: one picks from its AB register, the
/// other from the shared C register; -1 (zero) elsewhere.
const fn order_masks(out_lo: usize, c_base: usize) -> ([i8; 16], [i8; 16]) {
    let mut ab = [-1i8; 16];
    let mut c = [-1i8; 16];
    let mut i = 0;
    while i < 16 {
        let at = out_lo + i;
        if at >= PREFIX_LEN {
            let (from_c, idx) = digit_source(at - PREFIX_LEN, c_base);
            if from_c {
                c[i] = idx;
            } else {
                ab[i] = idx;
            }
        }
        i += 1;
    }
    (ab, c)
}

const ORDER: [[i8; 16]; 8] = {
    let (a0, c0) = order_masks(0, 0);
    let (a1, c1) = order_masks(16, 0);
    let (a2, c2) = order_masks(0, 8);
    let (a3, c3) = order_masks(16, 8);
    [a0, c0, a1, c1, a2, c2, a3, c3]
};

impl Encoder {
    #[inline]
    #[target_feature(enable = "sse4.1,ssse3")]
    fn new(prefix: &[u8; PREFIX_LEN]) -> Self {
        #[rustfmt::skip]
        let load = |m: &[i8; 16]| _mm_setr_epi8(
            m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
            m[8], m[9], m[10], m[11], m[12], m[13], m[14], m[15],
        );
        Encoder {
            m4: _mm_set1_epi64x(M4 as i64),
            pair2: _mm_set1_epi32((PAIR * PAIR) as i32),
            pair: _mm_set1_epi32(PAIR as i32),
            div3844: _mm_set1_epi64x(DIV3844 as i64),
            div62: _mm_set1_epi16(DIV62 as i16),
            // d = (y << 8) + hi * (1 - 62 * 256) = lo << 8 | hi, mod 2^16.
            combine: _mm_set1_epi16(COMBINE as i16),
            nine: _mm_set1_epi8(9),
            k35: _mm_set1_epi8(35),
            low4: _mm_set1_epi8(0x0F),
            // Offset to add per class: index 0 -> '0' - 0, 15 -> 'A' - 10, 14 -> 'a' - 36.
            offsets: _mm_setr_epi8(48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 61, 55),
            order: ORDER.map(|m| load(&m)),
            prefix: _mm_set_epi64x(0, u64::from_le_bytes(*prefix) as i64),
        }
    }

    /// Pass 1: one id's 4 words -> its pairs, `[A0..A3 B0..B3]` as 16-bit
    /// lanes and `[C0..C3]` as 32-bit ones, where word `i` is
    /// `A_i * 3844^2 + B_i * 3844 + C_i`.
    #[target_feature(enable = "sse4.1,ssse3")]
    #[inline]
    fn pairs(&self, x: __m128i) -> (__m128i, __m128i) {
        // pmuludq reads the even dwords: the odd words go through a
        // shifted copy, and each result lands where a blend can take it.
        let odd = _mm_srli_epi64(x, 32);
        // A = (x * M4) >> 55 (the scalar reference's first pair, exact for
        // every u32: tests/library/engine_paths.rs).
        let a = _mm_blend_epi16(
            _mm_srli_epi64(_mm_mul_epu32(x, self.m4), 55),
            _mm_srli_epi64(_mm_mul_epu32(odd, self.m4), 23),
            0b1100_1100,
        );
        let r = _mm_sub_epi32(x, _mm_mullo_epi32(a, self.pair2));
        let b = _mm_blend_epi16(
            _mm_srli_epi64(_mm_mul_epu32(r, self.div3844), 34),
            _mm_srli_epi64(_mm_mul_epu32(_mm_srli_epi64(r, 32), self.div3844), 2),
            0b1100_1100,
        );
        let c = _mm_sub_epi32(r, _mm_mullo_epi32(b, self.pair));
        (_mm_packus_epi32(a, b), c)
    }

    /// Pass 2: eight pairs (16-bit lanes) -> their 16 ASCII digits, each
    /// pair's high digit first.
    #[target_feature(enable = "sse4.1,ssse3")]
    #[inline]
    fn ascii(&self, q: __m128i) -> __m128i {
        // Each pair y < 3844 -> digits hi = y / 62 (low byte), lo = y % 62 (high byte).
        let hi = _mm_srli_epi16(_mm_mulhi_epu16(q, self.div62), 2);
        let d = _mm_add_epi16(_mm_slli_epi16(q, 8), _mm_mullo_epi16(hi, self.combine));
        let class = _mm_and_si128(
            _mm_add_epi8(_mm_cmpgt_epi8(d, self.nine), _mm_cmpgt_epi8(d, self.k35)),
            self.low4,
        );
        _mm_add_epi8(d, _mm_shuffle_epi8(self.offsets, class))
    }

    /// Writes an id's text at `at`: the prefix, then its digits from its
    /// AB digits and the C digits it shares; `id` is 0 or 1 within the
    /// pair of ids.
    ///
    /// # Safety
    /// `at` has 32 writable bytes.
    #[target_feature(enable = "sse4.1,ssse3")]
    #[inline]
    unsafe fn store(&self, at: *mut u8, ab: __m128i, c: __m128i, id: usize) {
        let half = |h: usize| {
            let k = 4 * id + 2 * h;
            _mm_or_si128(
                _mm_shuffle_epi8(ab, self.order[k]),
                _mm_shuffle_epi8(c, self.order[k + 1]),
            )
        };
        // SAFETY: the caller's contract.
        unsafe {
            _mm_storeu_si128(at.cast(), _mm_or_si128(self.prefix, half(0)));
            _mm_storeu_si128(at.add(16).cast(), half(1));
        }
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
        let vector = n - scalar_share(n);
        for (k, v) in stage[..vector].iter_mut().enumerate() {
            // SAFETY: start + k < count, so words[4(start+k)..][..4] is
            // readable (caller's contract).
            let w = unsafe { _mm_loadu_si128(words.add(4 * (start + k)).cast()) };
            let (ab, c) = enc.pairs(w);
            *v = [ab, c];
        }
        // Two vector ids at a time (their C pairs share one register), and
        // one scalar id beside each two while any are left.
        let mut scalar = start + vector;
        let mut k = 0;
        while k < vector {
            let [ab0, c0] = stage[k];
            let [ab1, c1] = if k + 1 < vector {
                stage[k + 1]
            } else {
                [zero; 2]
            };
            let c = enc.ascii(_mm_packus_epi32(c0, c1));
            // SAFETY: start + k < count, so out[(start+k)*stride..][..32] is
            // writable (caller's contract).
            unsafe { enc.store(out.add((start + k) * stride), enc.ascii(ab0), c, 0) };
            if k + 1 < vector {
                // SAFETY: start + k + 1 < count: as above.
                unsafe { enc.store(out.add((start + k + 1) * stride), enc.ascii(ab1), c, 1) };
            }
            if scalar < start + n {
                // SAFETY: scalar < count: id `scalar`'s words and its 32
                // output bytes are in bounds (caller's contract).
                unsafe { scalar_id(prefix, words.add(4 * scalar), out.add(scalar * stride)) };
                scalar += 1;
            }
            k += 2;
        }
        for i in scalar..start + n {
            // SAFETY: i < count: as above.
            unsafe { scalar_id(prefix, words.add(4 * i), out.add(i * stride)) };
        }
        start += n;
    }
}

/// One id by the scalar table ([`assemble_id`]'s registers), stored at
/// `out`.
///
/// # Safety
/// `words` has 4 readable `u32`s and `out` 32 writable bytes.
#[inline(always)]
unsafe fn scalar_id(prefix: &[u8; PREFIX_LEN], words: *const u32, out: *mut u8) {
    // SAFETY: the caller's contract, both.
    unsafe {
        let w = words.cast::<[u32; 4]>().read_unaligned();
        let id = assemble_id(prefix, four_group_bits(w));
        out.cast::<[u8; MAX_ID_LEN]>().write_unaligned(id);
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
