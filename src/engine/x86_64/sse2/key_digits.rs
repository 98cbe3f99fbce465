//! The order keys' digit check (`order/short_key.rs`) on SSE2.

use std::arch::x86_64::*;

/// Whether every byte of two padded order keys (`order/short_key.rs`) is
/// a base62 digit (the head letter is one too). SSE2, which every x86-64
/// has: both words in one register, where the word-wise test costs twice.
#[inline(always)]
pub(crate) fn digits_ok(x: u64, y: u64) -> bool {
    // SAFETY: register arithmetic only, no memory; SSE2 is in every
    // x86-64 CPU (the target's baseline), so the instructions exist.
    unsafe {
        let v = _mm_set_epi64x(x as i64, y as i64);
        let within = |v, lo: u8, hi: u8| {
            // Signed compares: a byte of 0x80 or more is negative, below `lo`.
            _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
            )
        };
        let letters = within(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'a', b'z');
        _mm_movemask_epi8(_mm_or_si128(within(v, b'0', b'9'), letters)) == 0xFFFF
    }
}
