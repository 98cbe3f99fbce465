//! Crockford base32 of 16-byte values on NEON, one value an iteration:
//! the x86 kernels' steps (`x86_64/sse41/base32.rs`) with `tbl` to gather
//! each character's 16-bit window, `ushl` by a negative per-lane count to
//! shift it, `uzp1` to narrow, and one two-register `tbl` over the
//! 32-character alphabet.

use std::arch::aarch64::*;

use crate::engine::base32::WINDOWS;
use crate::engine::bytes::{Bytes, head};

#[inline(always)]
fn load16(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: a load of the 16 bytes `bytes` refers to (NEON is enabled in
    // every caller).
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// Eight digits (one a 16-bit lane) of `WINDOWS[p]`'s characters.
#[target_feature(enable = "neon")]
fn digits8(x: uint8x16_t, p: usize) -> uint16x8_t {
    let w = &WINDOWS[p];
    let lanes = vreinterpretq_u16_u8(vqtbl1q_u8(x, load16(&w.idx)));
    let right: [i16; 8] = std::array::from_fn(|k| -(w.shift[k] as i16));
    // SAFETY: a load of the 8 i16s of `right`.
    let right = unsafe { vld1q_s16(right.as_ptr()) };
    vandq_u16(vshlq_u16(lanes, right), vdupq_n_u16(31))
}

/// The 26 characters of each value at the start of its slot.
///
/// # Safety
/// The CPU supports NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn encode16<T: Bytes<16>, const W: usize>(
    src: &[T],
    out: &mut [[u8; W]],
    alphabet: &[u8; 32],
) {
    const { assert!(W >= 26) };
    let table = uint8x16x2_t(
        load16(alphabet.first_chunk().expect("32")),
        load16(alphabet.last_chunk().expect("32")),
    );
    for (v, o) in src.iter().zip(out) {
        let x = load16(v.bytes());
        let narrow = |a: uint16x8_t, b: uint16x8_t| {
            vuzp1q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b))
        };
        let a = vqtbl2q_u8(table, narrow(digits8(x, 0), digits8(x, 1)));
        let b = vqtbl2q_u8(table, narrow(digits8(x, 2), digits8(x, 3)));
        let o: &mut [u8; 26] = head(o);
        // SAFETY: 16-byte stores at 0 and at 10 of the 26 bytes `o` refers to.
        unsafe {
            vst1q_u8(o.as_mut_ptr(), a);
            vst1q_u8(o.as_mut_ptr().add(10), b);
        }
    }
}
