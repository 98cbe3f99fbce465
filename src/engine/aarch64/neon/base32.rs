//! Crockford base32 of 16-byte values on NEON, one value an iteration:
//! the x86 kernels' steps (`x86_64/sse41/base32.rs`) with `tbl` to gather
//! each character's 16-bit window, `ushl` by a negative per-lane count to
//! shift it, `uzp1` to narrow, and one two-register `tbl` over the
//! 32-character alphabet. Decoding: `tbx` over the alphabet's ASCII rows,
//! shift-adds to fold digits into 40-bit lanes, a `tbl` to put the bytes
//! in order (the plan `x86_64/sse41/base32.rs` describes).

use std::arch::aarch64::*;

use crate::engine::base32::{FROM_FOLDED, ROWS, WINDOWS, text_at};
use crate::engine::bytes::{Bytes, BytesMut, head};

#[inline(always)]
fn load16(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: a load of the 16 bytes `bytes` refers to (NEON is enabled in
    // every caller).
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// Eight digits (one a 16-bit lane) of `WINDOWS[p]`'s characters.
#[inline]
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

/// Digits of bytes `0x30..0x70` and of `0x70..0x80` (`NONE` outside the
/// alphabet): `base32::ROWS`, the small letters' rows after the capitals'
/// or, when `lower`, in place of them.
const fn tables(lower: bool) -> ([u8; 64], [u8; 16]) {
    let mut t = [0xff; 64];
    let mut i = 0;
    while i < 16 {
        t[i] = ROWS[0][i];
        if !lower {
            t[16 + i] = ROWS[1][i];
            t[32 + i] = ROWS[2][i];
        }
        t[48 + i] = ROWS[1][i];
        i += 1;
    }
    (t, ROWS[2])
}

const ANY_CASE: ([u8; 64], [u8; 16]) = tables(false);
const LOWER_ONLY: ([u8; 64], [u8; 16]) = tables(true);

/// Each byte's digit (below 32), or `0xff` outside the alphabet: a
/// four-register `tbx` over `0x30..0x70`, one more over `0x70..0x80`;
/// every other byte keeps the `0xff` it started from.
#[inline]
#[target_feature(enable = "neon")]
fn digits_of(c: uint8x16_t, (low, high): &([u8; 64], [u8; 16])) -> uint8x16_t {
    let chunk = |k: usize| load16(low[16 * k..][..16].try_into().expect("16"));
    let low = uint8x16x4_t(chunk(0), chunk(1), chunk(2), chunk(3));
    let idx = vsubq_u8(c, vdupq_n_u8(0x30));
    let d = vqtbx4q_u8(vdupq_n_u8(0xff), low, idx);
    vqtbx1q_u8(d, load16(high), vsubq_u8(idx, vdupq_n_u8(64)))
}

/// Each 64-bit lane's 8 digits as one 40-bit number (pairs `32 a + b`,
/// quads `1024 p + q`, then `2^20 h + l`, each a shift and a shift-add).
#[inline]
#[target_feature(enable = "neon")]
fn fold(d: uint8x16_t) -> uint8x16_t {
    let x = vreinterpretq_u16_u8(d);
    let pairs = vsraq_n_u16::<3>(vshrq_n_u16::<8>(x), vshlq_n_u16::<8>(x));
    let x = vreinterpretq_u32_u16(pairs);
    let quads = vsraq_n_u32::<6>(vshrq_n_u32::<16>(x), vshlq_n_u32::<16>(x));
    let x = vreinterpretq_u64_u32(quads);
    vreinterpretq_u8_u64(vsraq_n_u64::<12>(
        vshrq_n_u64::<32>(x),
        vshlq_n_u64::<32>(x),
    ))
}

/// Decodes the text at `text[i * stride..]` into each `out[i]`; returns
/// how many leading texts were valid.
///
/// # Safety
/// The CPU supports NEON. (`text` holds `out.len()` texts: checked by the
/// caller, and again by slicing.)
#[target_feature(enable = "neon")]
pub(crate) unsafe fn decode16<T: BytesMut<16>>(
    text: &[u8],
    stride: usize,
    out: &mut [T],
    lower: bool,
) -> usize {
    let tables = if lower { &LOWER_ONLY } else { &ANY_CASE };
    for (i, o) in out.iter_mut().enumerate() {
        let t = text_at(text, i, stride);
        let a = digits_of(load16(t.first_chunk().expect("26")), tables);
        let b = digits_of(load16(t.last_chunk().expect("26")), tables);
        if vmaxvq_u8(vorrq_u8(a, b)) > 31 || vgetq_lane_u8::<0>(a) > 7 {
            return i;
        }
        // Six zero digits before characters 0..10.
        let a = vextq_u8::<10>(vdupq_n_u8(0), a);
        let v = vorrq_u8(
            vqtbl1q_u8(fold(a), load16(&FROM_FOLDED[0])),
            vqtbl1q_u8(fold(b), load16(&FROM_FOLDED[1])),
        );
        // SAFETY: a store to the 16 bytes `o` refers to.
        unsafe { vst1q_u8(o.bytes_mut().as_mut_ptr(), v) };
    }
    out.len()
}
