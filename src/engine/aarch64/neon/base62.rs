//! NEON: two ids per iteration.
//!
//! NEON has what x86 lacks, a 32-bit multiply-high (`sqdmulh`), so the pairs
//! come from exact division rather than fixed point:
//! `x / 3844 = sqdmulh(x >> 2, 1144132808) >> 9` for every `u32`, and
//! `y / 62 = sqdmulh(y, 16913) >> 5` for every `y < 3844` (both checked
//! exhaustively by `engine::scalar`'s tests). `tbl` over the 64-byte alphabet
//! maps digits to ASCII, and `st3` interleaves the three pairs of each word
//! on the way to memory.
//!
//! Decoding: `ld2` splits an id into its even and odd bytes, two `tbl`
//! lookups over the 128-entry digit table validate and convert them, one
//! widening multiply-add by 62 makes the 16 pairs, a `tbl` gathers each
//! group's three pairs into 32-bit lanes, and widening multiply-adds by 3844
//! give the groups as 64-bit values, checked against `u32::MAX`.

use std::arch::aarch64::*;

use crate::engine::divide::{COMBINE, NEON_DIV62, NEON_DIV3844, PAIR};
use crate::engine::scalar::DIGIT;
use crate::engine::{ALPHABET64, PREFIX_LEN};

/// `x / 3844` for every `u32` lane.
#[inline(always)]
fn div3844(x: uint32x4_t) -> uint32x4_t {
    // SAFETY: pure register arithmetic; NEON is enabled in every caller.
    unsafe {
        let q = vqdmulhq_s32(
            vreinterpretq_s32_u32(vshrq_n_u32(x, 2)),
            vdupq_n_s32(NEON_DIV3844),
        );
        vshrq_n_u32(vreinterpretq_u32_s32(q), 9)
    }
}

/// The three base-3844 pairs of 8 words, as 16-bit lanes (words 0..4 in the
/// low half, 4..8 in the high half).
#[inline(always)]
fn pairs(x0: uint32x4_t, x1: uint32x4_t) -> [uint16x8_t; 3] {
    // SAFETY: pure register arithmetic; NEON is enabled in every caller.
    unsafe {
        let (q0, q1) = (div3844(x0), div3844(x1));
        let (a0, a1) = (div3844(q0), div3844(q1));
        let c0 = vmlsq_n_u32(x0, q0, PAIR as u32);
        let c1 = vmlsq_n_u32(x1, q1, PAIR as u32);
        let b0 = vmlsq_n_u32(q0, a0, PAIR as u32);
        let b1 = vmlsq_n_u32(q1, a1, PAIR as u32);
        [
            vmovn_high_u32(vmovn_u32(a0), a1),
            vmovn_high_u32(vmovn_u32(b0), b1),
            vmovn_high_u32(vmovn_u32(c0), c1),
        ]
    }
}

/// Pairs `y < 3844` to two ASCII digits each (`y / 62` in the low byte).
#[inline(always)]
fn ascii(y: uint16x8_t, table: uint8x16x4_t) -> uint16x8_t {
    // SAFETY: pure register arithmetic; NEON is enabled in every caller.
    unsafe {
        let hi = vshrq_n_u16(
            vreinterpretq_u16_s16(vqdmulhq_s16(
                vreinterpretq_s16_u16(y),
                vdupq_n_s16(NEON_DIV62),
            )),
            5,
        );
        // (y << 8) + hi * (1 - 62 * 256) = (y % 62) << 8 | y / 62, mod 2^16.
        let d = vmlaq_n_u16(vshlq_n_u16(y, 8), hi, COMBINE);
        vreinterpretq_u16_u8(vqtbl4q_u8(table, vreinterpretq_u8_u16(d)))
    }
}

/// Ids per block of the staged loop (even, so that only the last block
/// can end in a lone id): 768 bytes of pairs on the stack.
const BLOCK: usize = 32;

/// Encodes `count` 4-group ids.
///
/// In two passes over blocks of [`BLOCK`] ids, as on AVX2: the division
/// chain (pairs) for the whole block, then digits, ASCII and stores. Run
/// whole, one pair of ids is a chain of ~45 cycles whose waiting uops fill
/// the vector schedulers; staged, each pass's uops find their inputs
/// ready (`docs/performance.md` has the `llvm-mca` figures).
///
/// # Safety
/// The CPU supports NEON; `words` has `4 * count` readable `u32`s; `out`
/// has `(count - 1) * stride + 32` writable bytes; `stride >= 32`.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn encode4(
    prefix: &[u8; PREFIX_LEN],
    words: *const u32,
    out: *mut u8,
    stride: usize,
    count: usize,
) {
    // SAFETY: ALPHABET64 is 64 bytes.
    let table = unsafe { vld1q_u8_x4(ALPHABET64.as_ptr()) };
    let prefix_v = vcreate_u8(u64::from_le_bytes(*prefix));
    let mut stage = [[vdupq_n_u16(0); 3]; BLOCK / 2];
    let mut start = 0;
    while start < count {
        let rounds = (count - start).min(BLOCK).div_ceil(2);
        for (r, pairs_of) in stage[..rounds].iter_mut().enumerate() {
            let i = start + 2 * r;
            // Two ids a round; a lone last id reads its own 4 words twice.
            let second = if i + 1 < count { 4 } else { 0 };
            // SAFETY: words[4i..4i+4] and words[4i+second..+4] are within
            // the caller's 4 * count words (i < count).
            let (x0, x1) = unsafe {
                (
                    vld1q_u32(words.add(4 * i)),
                    vld1q_u32(words.add(4 * i + second)),
                )
            };
            *pairs_of = pairs(x0, x1);
        }
        for (r, &[a, b, c]) in stage[..rounds].iter().enumerate() {
            let i = start + 2 * r;
            let (a, b, c) = (ascii(a, table), ascii(b, table), ascii(c, table));
            // SAFETY: id i occupies out[i*stride..+32], within the caller's
            // buffer (i < count); st3 writes the 24 digit bytes after the 8
            // prefix bytes. The second id is written only if i + 1 < count.
            unsafe {
                let dst = out.add(i * stride);
                vst1_u8(dst, prefix_v);
                vst3_u16(
                    dst.add(PREFIX_LEN).cast(),
                    uint16x4x3_t(vget_low_u16(a), vget_low_u16(b), vget_low_u16(c)),
                );
                if i + 1 < count {
                    let dst = out.add((i + 1) * stride);
                    vst1_u8(dst, prefix_v);
                    vst3_u16(
                        dst.add(PREFIX_LEN).cast(),
                        uint16x4x3_t(vget_high_u16(a), vget_high_u16(b), vget_high_u16(c)),
                    );
                }
            }
        }
        start += 2 * rounds;
    }
}

/// Digit values of 16 ASCII bytes: 0xFF for every byte outside the alphabet
/// (bytes >= 0x80 included, which no table lookup reaches).
#[inline(always)]
fn digits(v: uint8x16_t, lo: uint8x16x4_t, hi: uint8x16x4_t) -> uint8x16_t {
    // SAFETY: pure register arithmetic; NEON is enabled in every caller.
    unsafe {
        // Bytes 0..64 from the low table (0 above), 64..128 from the high one.
        let d = vqtbx4q_u8(vqtbl4q_u8(lo, v), hi, vsubq_u8(v, vdupq_n_u8(64)));
        vorrq_u8(d, vcgeq_u8(v, vdupq_n_u8(0x80)))
    }
}

/// `tbl` indexes gathering pair `first + 3j` (bytes `2(first + 3j)`, `+1`)
/// into 32-bit lane `j`, zero-extended (index 0xFF reads 0).
const fn gather(first: usize) -> [u8; 16] {
    let mut idx = [0xFF; 16];
    let mut j = 0;
    while j < 4 {
        idx[4 * j] = (2 * (first + 3 * j)) as u8;
        idx[4 * j + 1] = (2 * (first + 3 * j) + 1) as u8;
        j += 1;
    }
    idx
}
const GATHER_A: [u8; 16] = gather(4);
const GATHER_B: [u8; 16] = gather(5);
const GATHER_C: [u8; 16] = gather(6);

/// Decodes `count` 4-group ids; returns how many leading ids were valid.
///
/// # Safety
/// The CPU supports NEON; `text` has `(count - 1) * stride + 32` readable
/// bytes; `prefixes` has `count` writable `u64`s and `words` `4 * count`
/// writable `u32`s.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn decode4(
    text: *const u8,
    stride: usize,
    count: usize,
    prefixes: *mut u64,
    words: *mut u32,
) -> usize {
    // SAFETY: DIGIT has 128 bytes; the gather tables 16 each.
    let (lo, hi, ga, gb, gc) = unsafe {
        (
            vld1q_u8_x4(DIGIT.as_ptr()),
            vld1q_u8_x4(DIGIT.as_ptr().add(64)),
            vld1q_u8(GATHER_A.as_ptr()),
            vld1q_u8(GATHER_B.as_ptr()),
            vld1q_u8(GATHER_C.as_ptr()),
        )
    };
    let k62 = vdupq_n_u8(62);
    for i in 0..count {
        // SAFETY: id i's 32 bytes are readable (caller's contract).
        let v = unsafe { vld2q_u8(text.add(i * stride)) };
        let (even, odd) = (digits(v.0, lo, hi), digits(v.1, lo, hi));
        if vmaxvq_u8(vorrq_u8(even, odd)) == 0xFF {
            return i;
        }
        // Pair k = digit 2k * 62 + digit 2k+1: pairs 0..4 the prefix, then
        // three per group.
        let p_lo = vmlal_u8(
            vmovl_u8(vget_low_u8(odd)),
            vget_low_u8(even),
            vget_low_u8(k62),
        );
        let p_hi = vmlal_high_u8(vmovl_high_u8(odd), even, k62);
        let table = uint8x16x2_t(vreinterpretq_u8_u16(p_lo), vreinterpretq_u8_u16(p_hi));
        let lane = |g| vreinterpretq_u32_u8(vqtbl2q_u8(table, g));
        let (a, b, c) = (lane(ga), lane(gb), lane(gc));
        // A * 3844^2 + B * 3844 + C as (A * 3844 + B) * 3844 + C in 64 bits.
        let ab = vmlaq_n_u32(b, a, PAIR as u32);
        let v0 = vmlal_n_u32(vmovl_u32(vget_low_u32(c)), vget_low_u32(ab), PAIR as u32);
        let v1 = vmlal_high_n_u32(vmovl_high_u32(c), ab, PAIR as u32);
        let over = vorr_u32(vshrn_n_u64(v0, 32), vshrn_n_u64(v1, 32));
        if vmaxv_u32(over) != 0 {
            return i;
        }
        let w = vmovn_high_u64(vmovn_u64(v0), v1);
        let prefix = ((u64::from(vgetq_lane_u16::<0>(p_lo)) * PAIR
            + u64::from(vgetq_lane_u16::<1>(p_lo)))
            * PAIR
            + u64::from(vgetq_lane_u16::<2>(p_lo)))
            * PAIR
            + u64::from(vgetq_lane_u16::<3>(p_lo));
        // SAFETY: slots i and 4i..4i+4 are writable (caller's contract).
        unsafe {
            vst1q_u32(words.add(4 * i), w);
            *prefixes.add(i) = prefix;
        }
    }
    count
}
