//! Crockford base32 of 16-byte values with AVX2: the SSE4.1 kernel's
//! steps (`sse41/base32.rs` says how) on two values a 256-bit register,
//! one a 128-bit lane; an odd last value takes the 128-bit kernel. Its
//! decoder runs the SSE4.1 decoder's steps the same way.

use std::arch::x86_64::*;

use crate::engine::base32::{FROM_FOLDED, ROWS, text_at};
use crate::engine::bytes::{Bytes, BytesMut, head};
use crate::engine::x86_64::sse41::base32::{PLANS, decode_one, encode_one, store16, store26};

/// The 16 bytes of a value.
#[inline(always)]
fn load16(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: an unaligned load of the 16 bytes `bytes` refers to.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// A 128-bit constant in both lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn both(bytes: &[u8; 16]) -> __m256i {
    _mm256_broadcastsi128_si256(load16(bytes))
}

/// Eight digits of each lane's value for `PLANS[p]`'s characters.
#[inline]
#[target_feature(enable = "avx2")]
fn digits8(x: __m256i, p: usize) -> __m256i {
    let (idx, mul) = &PLANS[p];
    let mul: [u8; 16] = bytemuck::cast(*mul);
    let w = _mm256_shuffle_epi8(x, both(idx));
    _mm256_and_si256(shift_lanes(w, both(&mul)), _mm256_set1_epi16(31))
}

/// `vpmulhuw` as written (`sse41::base32::shift_lanes` says why).
#[inline]
#[target_feature(enable = "avx2")]
fn shift_lanes(w: __m256i, m: __m256i) -> __m256i {
    let out: __m256i;
    // SAFETY: one register-to-register AVX2 multiply (this function
    // enables AVX2); no memory, stack or flags touched.
    unsafe {
        std::arch::asm!(
            "vpmulhuw {out}, {w}, {m}",
            out = lateout(ymm_reg) out,
            w = in(ymm_reg) w,
            m = in(ymm_reg) m,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    out
}

#[inline]
#[target_feature(enable = "avx2")]
fn ascii(d: __m256i, alphabet: &[u8; 32]) -> __m256i {
    let lo = _mm256_shuffle_epi8(both(alphabet.first_chunk().expect("32")), d);
    let hi = _mm256_shuffle_epi8(both(alphabet.last_chunk().expect("32")), d);
    _mm256_blendv_epi8(lo, hi, _mm256_cmpgt_epi8(d, _mm256_set1_epi8(15)))
}

/// The 26 characters of each value at the start of its slot.
///
/// # Safety
/// The CPU supports AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode16<T: Bytes<16>, const W: usize>(
    src: &[T],
    out: &mut [[u8; W]],
    alphabet: &[u8; 32],
) {
    const { assert!(W >= 26) };
    let mut pairs = src.chunks_exact(2);
    let mut slots = out.chunks_exact_mut(2);
    for (v, o) in (&mut pairs).zip(&mut slots) {
        let x = _mm256_inserti128_si256::<1>(
            _mm256_castsi128_si256(load16(v[0].bytes())),
            load16(v[1].bytes()),
        );
        let a = ascii(_mm256_packus_epi16(digits8(x, 0), digits8(x, 1)), alphabet);
        let b = ascii(_mm256_packus_epi16(digits8(x, 2), digits8(x, 3)), alphabet);
        let [o0, o1] = o else {
            unreachable!("chunks of 2")
        };
        store26(
            _mm256_castsi256_si128(a),
            _mm256_castsi256_si128(b),
            head(o0),
        );
        store26(
            _mm256_extracti128_si256::<1>(a),
            _mm256_extracti128_si256::<1>(b),
            head(o1),
        );
    }
    if let ([v], [o, ..]) = (pairs.remainder(), slots.into_remainder()) {
        let (a, b) = encode_one(load16(v.bytes()), alphabet);
        store26(a, b, head(o));
    }
}

/// `sse41`'s `digits_of` on two texts' 16-byte pieces, one a lane.
#[inline]
#[target_feature(enable = "avx2")]
fn digits_of(c: __m256i, lower: bool) -> __m256i {
    let lo = _mm256_and_si256(c, _mm256_set1_epi8(0x0f));
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(c), _mm256_set1_epi8(0x0f));
    let row = |r: usize| _mm256_shuffle_epi8(both(&ROWS[r]), lo);
    let is = |h: i8| _mm256_cmpeq_epi8(hi, _mm256_set1_epi8(h));
    let (a_o, p_z) = if lower {
        (is(6), is(7))
    } else {
        (_mm256_or_si256(is(4), is(6)), _mm256_or_si256(is(5), is(7)))
    };
    let v = _mm256_blendv_epi8(_mm256_blendv_epi8(row(0), row(1), a_o), row(2), p_z);
    let known = _mm256_or_si256(is(3), _mm256_or_si256(a_o, p_z));
    _mm256_or_si256(v, _mm256_andnot_si256(known, _mm256_set1_epi8(-1)))
}

/// `sse41`'s `fold`, a lane at a time.
#[inline]
#[target_feature(enable = "avx2")]
fn fold(d: __m256i) -> __m256i {
    let pairs = _mm256_maddubs_epi16(d, _mm256_set1_epi16(0x0120));
    let quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0001_0400));
    let high = _mm256_srli_epi64::<12>(_mm256_slli_epi64::<32>(quads));
    _mm256_or_si256(high, _mm256_srli_epi64::<32>(quads))
}

/// Two 16-byte pieces, one a lane.
#[inline]
#[target_feature(enable = "avx2")]
fn load_pair(a: &[u8; 16], b: &[u8; 16]) -> __m256i {
    _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load16(a)), load16(b))
}

/// Decodes the text at `text[i * stride..]` into each `out[i]`, two texts
/// a register (the first 16 bytes of each in one, the last 16 in
/// another); an odd last text takes the 128-bit kernel. Returns how many
/// leading texts were valid.
///
/// # Safety
/// The CPU supports AVX2. (`text` holds `out.len()` texts: checked by the
/// caller, and again by slicing.)
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decode16<T: BytesMut<16>>(
    text: &[u8],
    stride: usize,
    out: &mut [T],
    lower: bool,
) -> usize {
    let mut done = 0;
    let mut pairs = out.chunks_exact_mut(2);
    for o in &mut pairs {
        let (t0, t1) = (text_at(text, done, stride), text_at(text, done + 1, stride));
        let head = |t: &[u8; 26]| *t.first_chunk::<16>().expect("26");
        let tail = |t: &[u8; 26]| *t.last_chunk::<16>().expect("26");
        let a = digits_of(load_pair(&head(t0), &head(t1)), lower);
        let b = digits_of(load_pair(&tail(t0), &tail(t1)), lower);
        // A byte outside the alphabet, or a first digit above 7.
        let over = _mm256_cmpgt_epi8(a, _mm256_set1_epi8(7));
        let bad = _mm256_movemask_epi8(_mm256_or_si256(a, b)) as u32
            | _mm256_movemask_epi8(over) as u32 & 0x0001_0001;
        let x = _mm256_shuffle_epi8(fold(_mm256_slli_si256::<6>(a)), both(&FROM_FOLDED[0]));
        let y = _mm256_shuffle_epi8(fold(b), both(&FROM_FOLDED[1]));
        let v = _mm256_or_si256(x, y);
        let [o0, o1] = o else {
            unreachable!("chunks of 2")
        };
        if bad & 0xffff != 0 {
            return done;
        }
        store16(_mm256_castsi256_si128(v), o0.bytes_mut());
        if bad != 0 {
            return done + 1;
        }
        store16(_mm256_extracti128_si256::<1>(v), o1.bytes_mut());
        done += 2;
    }
    if let [o] = pairs.into_remainder() {
        let (v, ok) = decode_one(text_at(text, done, stride), lower);
        if !ok {
            return done;
        }
        store16(v, o.bytes_mut());
        done += 1;
    }
    done
}
