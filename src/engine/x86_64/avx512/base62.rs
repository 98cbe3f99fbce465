//! AVX-512 (F + BW + VBMI): two 32-byte ids per 512-bit register.
//!
//! The arithmetic is the AVX2 path's on 8 lanes; then one `vpermb` against
//! the 64-byte alphabet turns digits into ASCII, and one merge-masked
//! `vpermb` places the 24 digits of each id after the prefix, which the
//! masked-off bytes keep (`vpermt2b`, two-source, did the same at twice the
//! cost on an Emerald Rapids Xeon: 2 cycles a register, `vpermb` 1).

use std::arch::x86_64::*;

use crate::engine::divide::{COMBINE, DIV62, M4, PAIR};

use crate::engine::{ALPHABET64, PREFIX_LEN};

/// Whether this CPU runs these kernels: the AVX-512 tier
/// ([`super::is_supported`]) with VBMI (Ice Lake, Zen 4 and later).
pub(crate) fn is_supported() -> bool {
    super::is_supported() && std::is_x86_feature_detected!("avx512vbmi")
}

/// `vpermb` indexes: output byte `j` of id `h = j / 32`, past the 8 prefix
/// bytes ([`DIGIT_BYTES`] masks those off), takes digit `r` of word `k`, at
/// byte `2 + r` of qword `4h + k`.
const PLACE: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        let (h, pos) = (j / 32, j % 32);
        idx[j] = if pos < PREFIX_LEN {
            0
        } else {
            let (k, r) = ((pos - PREFIX_LEN) / 6, (pos - PREFIX_LEN) % 6);
            ((h * 4 + k) * 8 + 2 + r) as u8
        };
        j += 1;
    }
    idx
};

/// The bytes of two ids that [`PLACE`] fills with digits (the rest keep the
/// prefix): 8..32 of each 32-byte half.
const DIGIT_BYTES: u64 = 0xFFFF_FF00_FFFF_FF00;

/// Encodes `count` 4-group ids.
///
/// # Safety
/// The CPU supports AVX-512 F, BW, VBMI and AVX2; `words` has `4 * count`
/// readable `u32`s; `out` has `(count - 1) * stride + 32` writable bytes;
/// `stride >= 32`.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn encode4(
    prefix: &[u8; PREFIX_LEN],
    words: *const u32,
    out: *mut u8,
    stride: usize,
    count: usize,
) {
    // SAFETY: forwarded; the contiguous case gets one 64-byte store per pair.
    unsafe {
        if stride == 32 {
            encode_pairs::<true>(prefix, words, out, stride, count)
        } else {
            encode_pairs::<false>(prefix, words, out, stride, count)
        }
    }
}

/// # Safety
/// As [`encode4`].
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
unsafe fn encode_pairs<const CONTIGUOUS: bool>(
    prefix: &[u8; PREFIX_LEN],
    words: *const u32,
    out: *mut u8,
    stride: usize,
    count: usize,
) {
    let m4 = _mm512_set1_epi64(M4 as i64);
    let one = _mm512_set1_epi64(1);
    let k3844 = _mm512_set1_epi64(PAIR as i64);
    let k3844_w3 = _mm512_set1_epi64((PAIR << 16) as i64);
    let k4229 = _mm512_set1_epi16(DIV62 as i16);
    let kcombine = _mm512_set1_epi16(COMBINE as i16);
    // SAFETY: both are 64-byte arrays; unaligned loads.
    let (table, place) = unsafe {
        (
            _mm512_loadu_si512(ALPHABET64.as_ptr().cast()),
            _mm512_loadu_si512(PLACE.as_ptr().cast()),
        )
    };
    let prefix_v = _mm512_set1_epi64(u64::from_le_bytes(*prefix) as i64);

    let pairs = count / 2;
    for i in 0..pairs {
        // SAFETY: 2i + 1 < count, so words[8i..8i+8] is readable.
        let w = unsafe { _mm256_loadu_si256(words.add(8 * i).cast()) };
        let x = _mm512_cvtepu32_epi64(w);
        let p = _mm512_add_epi64(_mm512_srli_epi64(_mm512_mul_epu32(x, m4), 23), one);
        let t2 = _mm512_mul_epu32(p, k3844);
        let t3 = _mm512_mul_epu32(t2, k3844_w3);
        // 16-bit words of each qword: [garbage, A, B, C] (see the AVX2 path).
        let q = _mm512_mask_blend_epi16(
            0x8888_8888,
            _mm512_mask_blend_epi16(0x4444_4444, _mm512_srli_epi64(p, 16), t2),
            t3,
        );
        let hi = _mm512_srli_epi16(_mm512_mulhi_epu16(q, k4229), 2);
        let d = _mm512_add_epi16(_mm512_slli_epi16(q, 8), _mm512_mullo_epi16(hi, kcombine));
        let ascii = _mm512_permutexvar_epi8(d, table);
        let ids = _mm512_mask_permutexvar_epi8(prefix_v, DIGIT_BYTES, place, ascii);
        let dst = out.wrapping_add(2 * i * stride);
        if CONTIGUOUS {
            // SAFETY: ids 2i and 2i+1 occupy out[64i..64i+64] (stride 32).
            unsafe { _mm512_storeu_si512(dst.cast(), ids) };
        } else {
            // SAFETY: out[2i*stride..+32] and out[(2i+1)*stride..+32] are
            // writable (caller's contract).
            unsafe {
                _mm256_storeu_si256(dst.cast(), _mm512_castsi512_si256(ids));
                _mm256_storeu_si256(dst.add(stride).cast(), _mm512_extracti64x4_epi64(ids, 1));
            }
        }
    }
    if count % 2 == 1 {
        let last = count - 1;
        // SAFETY: one id at index `last`, within the caller's contract; the
        // CPU has AVX2 (checked with the rest of this path's features).
        unsafe {
            crate::engine::x86_64::avx2::encode4(
                prefix,
                words.add(4 * last),
                out.add(last * stride),
                stride,
                1,
            )
        };
    }
}

/// ASCII -> digit for all 128 ASCII bytes (0xFF where invalid), as the two
/// 64-byte halves `vpermi2b` takes.
const DIGITS: [u8; 128] = crate::engine::scalar::DIGIT;

/// `vpermw` indexes gathering each group's three pairs into a qword
/// `[A, B, C, -]` (the 4th word is zeroed by the mask): id `h`'s pairs sit at
/// 16-bit words `16h + 4 + 3k ..`.
const GROUP_PAIRS: [u16; 32] = {
    let mut idx = [0u16; 32];
    let mut q = 0;
    while q < 8 {
        let (h, k) = (q / 4, q % 4);
        let base = (16 * h + 4 + 3 * k) as u16;
        idx[4 * q] = base;
        idx[4 * q + 1] = base + 1;
        idx[4 * q + 2] = base + 2;
        q += 1;
    }
    idx
};

/// Decodes `count` 4-group ids, two per iteration, stopping at the first
/// invalid one; returns how many were valid.
///
/// One `vpermi2b` against the 128-entry digit table validates and converts
/// all 64 bytes (bytes >= 0x80 are caught by their sign bit); `pmaddubsw` by
/// 62 makes pairs, `vpermw` gathers each group's pairs into a qword,
/// `pmaddwd` and one `vpmuludq` finish the value, compared to `u32::MAX`.
///
/// # Safety
/// The CPU supports AVX-512 F, BW, VBMI and AVX2; `text` has
/// `(count - 1) * stride + 32` readable bytes; `prefixes` has `count`
/// writable `u64`s and `words` `4 * count` writable `u32`s.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn decode4(
    text: *const u8,
    stride: usize,
    count: usize,
    prefixes: *mut u64,
    words: *mut u32,
) -> usize {
    // SAFETY: DIGITS is 128 bytes, GROUP_PAIRS 64 bytes; unaligned loads.
    let (tlo, thi, gather) = unsafe {
        (
            _mm512_loadu_si512(DIGITS.as_ptr().cast()),
            _mm512_loadu_si512(DIGITS.as_ptr().add(64).cast()),
            _mm512_loadu_si512(GROUP_PAIRS.as_ptr().cast()),
        )
    };
    let by62 = _mm512_set1_epi16(0x013E); // bytes [62, 1]
    let by3844 = _mm512_set1_epi64(0x0000_0001_0001_0F04); // words [3844, 1, 1, 0]
    // Prefix pairs: words 0..4 of each id: [3844, 1, 3844, 1].
    let prefix3844 = _mm512_setr_epi64(
        0x0001_0F04_0001_0F04,
        0,
        0,
        0,
        0x0001_0F04_0001_0F04,
        0,
        0,
        0,
    );
    let k3844 = _mm512_set1_epi64(PAIR as i64);
    let max = _mm512_set1_epi64(0xFFFF_FFFF);

    let pairs = count / 2;
    for i in 0..pairs {
        // SAFETY: ids 2i and 2i+1 are readable (caller's contract).
        let v = unsafe {
            _mm512_inserti64x4(
                _mm512_castsi256_si512(_mm256_loadu_si256(text.add(2 * i * stride).cast())),
                _mm256_loadu_si256(text.add((2 * i + 1) * stride).cast()),
                1,
            )
        };
        let d = _mm512_permutex2var_epi8(tlo, v, thi);
        let bad = _mm512_movepi8_mask(v) | _mm512_movepi8_mask(d);
        let p = _mm512_maddubs_epi16(d, by62);
        let g = _mm512_maskz_permutexvar_epi16(0x7777_7777, gather, p);
        let abc = _mm512_madd_epi16(g, by3844);
        let value = _mm512_add_epi64(_mm512_mul_epu32(abc, k3844), _mm512_srli_epi64(abc, 32));
        if bad != 0 || _mm512_cmpgt_epu64_mask(value, max) != 0 {
            // Let the reference find which id failed (and decode the one before it).
            // SAFETY: ids 2i.. are within the caller's contract.
            return 2 * i
                + unsafe {
                    crate::engine::scalar::decode4_raw(
                        text.add(2 * i * stride),
                        stride,
                        count - 2 * i,
                        prefixes.add(2 * i),
                        words.add(8 * i),
                    )
                };
        }
        let pp = _mm512_madd_epi16(p, prefix3844);
        let p0 = _mm_cvtsi128_si64(_mm512_castsi512_si128(pp)) as u64;
        let p1 = _mm_cvtsi128_si64(_mm512_extracti32x4_epi32(pp, 2)) as u64;
        // SAFETY: slots 2i, 2i+1 and words 8i..8i+8 are writable.
        unsafe {
            _mm256_storeu_si256(words.add(8 * i).cast(), _mm512_cvtepi64_epi32(value));
            *prefixes.add(2 * i) = (p0 & 0xFFFF_FFFF) * PAIR * PAIR + (p0 >> 32);
            *prefixes.add(2 * i + 1) = (p1 & 0xFFFF_FFFF) * PAIR * PAIR + (p1 >> 32);
        }
    }
    if count % 2 == 1 {
        let last = count - 1;
        // SAFETY: one id at `last`, within the contract; AVX2 is enabled here.
        return last
            + unsafe {
                crate::engine::x86_64::avx2::decode4(
                    text.add(last * stride),
                    stride,
                    1,
                    prefixes.add(last),
                    words.add(4 * last),
                )
            };
    }
    count
}
