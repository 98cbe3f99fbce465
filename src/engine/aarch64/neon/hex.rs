//! Hex on aarch64 NEON: one 16-byte value per iteration.
//!
//! `ushr` and `and` split each byte into its nibbles, `zip1`/`zip2`
//! interleave them in text order, and `tbl` over `0123456789abcdef` turns
//! them into ASCII. RFC 9562's dashes: a `tbl` per 16 output bytes (with
//! `ext` across the halves) opens the gaps, where out-of-range indexes read
//! 0, and an OR drops the dashes in. Every store stays inside its slot: the
//! first 32, 36 or 24 bytes of a slot of `W` bytes.

use std::arch::aarch64::*;

use crate::engine::bytes::{Bytes, head};

const DIGITS: [u8; 16] = *b"0123456789abcdef";

/// `tbl` index that reads 0 (for the OR that puts a dash there).
const Z: u8 = 0xff;
const DASH_LO_IDX: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, Z, 8, 9, 10, 11, Z, 12, 13];
const DASH_LO: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, b'-', 0, 0, 0, 0, b'-', 0, 0];
const DASH_HI_IDX: [u8; 16] = [0, 1, Z, 2, 3, 4, 5, Z, 6, 7, 8, 9, 10, 11, 12, 13];
const DASH_HI: [u8; 16] = [0, 0, b'-', 0, 0, 0, 0, b'-', 0, 0, 0, 0, 0, 0, 0, 0];

#[inline(always)]
fn load16(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: a load of the 16 bytes `bytes` refers to (NEON is enabled in
    // every caller).
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// 12 bytes, zero-extended (no read past them).
#[inline(always)]
fn load12(bytes: &[u8; 12]) -> uint8x16_t {
    let mut b = [0u8; 16];
    b[..12].copy_from_slice(bytes);
    load16(&b)
}

/// The 32 hex digits of 16 bytes, as digits 0..16 and 16..32.
#[inline]
#[target_feature(enable = "neon")]
fn hex32(x: uint8x16_t) -> (uint8x16_t, uint8x16_t) {
    let digits = load16(&DIGITS);
    let hi = vshrq_n_u8::<4>(x);
    let lo = vandq_u8(x, vdupq_n_u8(0x0f));
    (
        vqtbl1q_u8(digits, vzip1q_u8(hi, lo)),
        vqtbl1q_u8(digits, vzip2q_u8(hi, lo)),
    )
}

/// 16 bytes -> 32 hex digits.
///
/// # Safety
/// The CPU supports NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn encode16<T: Bytes<16>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 32) };
    for (v, o) in src.iter().zip(out) {
        let o = head::<32, W>(o);
        let (a, b) = hex32(load16(v.bytes()));
        // SAFETY: two 16-byte stores into the 32 bytes `o` refers to.
        unsafe {
            vst1q_u8(o.as_mut_ptr(), a);
            vst1q_u8(o.as_mut_ptr().add(16), b);
        }
    }
}

/// 16 bytes -> 36 characters (8-4-4-4-12).
///
/// # Safety
/// The CPU supports NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn encode16_dashed<T: Bytes<16>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 36) };
    let (lo_idx, lo_dash) = (load16(&DASH_LO_IDX), load16(&DASH_LO));
    let (hi_idx, hi_dash) = (load16(&DASH_HI_IDX), load16(&DASH_HI));
    for (v, o) in src.iter().zip(out) {
        let o = head::<36, W>(o);
        let (lo, hi) = hex32(load16(v.bytes()));
        let a = vorrq_u8(vqtbl1q_u8(lo, lo_idx), lo_dash);
        let b = vorrq_u8(vqtbl1q_u8(vextq_u8::<14>(lo, hi), hi_idx), hi_dash);
        let tail = vgetq_lane_u32::<3>(vreinterpretq_u32_u8(hi));
        // SAFETY: 16-byte stores at 0 and 16 and a 4-byte store at 32 of
        // the 36 bytes `o` refers to.
        unsafe {
            vst1q_u8(o.as_mut_ptr(), a);
            vst1q_u8(o.as_mut_ptr().add(16), b);
            o.as_mut_ptr().add(32).cast::<u32>().write_unaligned(tail);
        }
    }
}

/// 12 bytes -> 24 hex digits.
///
/// # Safety
/// The CPU supports NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn encode12<T: Bytes<12>, const W: usize>(src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 24) };
    for (v, o) in src.iter().zip(out) {
        let o = head::<24, W>(o);
        let (a, b) = hex32(load12(v.bytes()));
        // SAFETY: a 16-byte store at 0 and an 8-byte store at 16 of the 24
        // bytes `o` refers to.
        unsafe {
            vst1q_u8(o.as_mut_ptr(), a);
            vst1_u8(o.as_mut_ptr().add(16), vget_low_u8(b));
        }
    }
}
