//! Crockford's base32 of 128 bits (ULID, TypeID's suffix): 26 characters,
//! the first holding the top 3 bits (`0`-`7`), each next one 5 bits. The
//! alphabet leaves out `I`, `L`, `O` and `U` and is in ASCII order, so the
//! text sorts as the number it spells. This is the scalar reference.

use super::Isa;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
use super::aarch64::neon;
#[cfg(target_arch = "x86_64")]
use super::x86_64;
use crate::engine::bytes::{Bytes, BytesMut, head};

/// Characters of a 128-bit value.
pub(crate) const LEN: usize = 26;

/// The alphabet in capitals (ULID's canonical text).
#[cfg_attr(not(feature = "ulid"), allow(dead_code))]
pub(crate) const UPPER: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// The alphabet in small letters (TypeID's only text).
pub(crate) const LOWER: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// Which letters a text is written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Case {
    #[cfg_attr(not(feature = "ulid"), allow(dead_code))]
    Upper,
    Lower,
}

/// Which letters a decoder accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Accept {
    /// Either case, mixed too (ULID: the spec, npm `ulid` and the `ulid`
    /// crate all read both).
    #[cfg_attr(not(feature = "ulid"), allow(dead_code))]
    AnyCase,
    /// Small letters only (TypeID's spec: capitals are refused).
    #[cfg_attr(not(feature = "typeid"), allow(dead_code))]
    Lower,
}

/// What is wrong with a 26-character text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A byte outside the alphabet (Crockford's aliases `I`, `L`, `O` too):
    /// its index and value.
    Byte(usize, u8),
    /// The first character is above `7`: the value needs 129 or 130 bits.
    Overflow(u8),
}

/// The 26 characters of `v`.
#[inline]
pub(crate) fn encode(v: u128, case: Case) -> [u8; LEN] {
    let alphabet = match case {
        Case::Upper => UPPER,
        Case::Lower => LOWER,
    };
    // In 64-bit halves (128-bit shifts cost two instructions each):
    // characters 0..13 from the high half, 14..26 from the low one, and
    // the 13th across the two.
    let (hi, lo) = ((v >> 64) as u64, v as u64);
    let mut out = [0u8; LEN];
    out[0] = alphabet[(hi >> 61) as usize];
    for i in 1..13 {
        out[i] = alphabet[(hi >> (61 - 5 * i)) as usize & 31];
    }
    out[13] = alphabet[((hi & 1) << 4 | lo >> 60) as usize];
    for i in 14..LEN {
        out[i] = alphabet[(lo >> (125 - 5 * i)) as usize & 31];
    }
    out
}

/// A SIMD kernel's plan for eight characters: where each one's 16-bit
/// window starts (a `pshufb`/`tbl` index per byte, the low byte first; out
/// of range reads 0) and how far right to shift the window.
///
/// Character `i` of 26 holds bits `5i - 2 .. 5i + 3` of the 130-bit text
/// (two zero bits, then the value, first byte first), so it lies in the
/// two bytes from `(5i - 2) / 8`, `11 - (5i - 2) % 8` bits from the right;
/// the first one is the top 3 bits of byte 0, the last the low 5 of byte 15.
#[derive(Clone, Copy)]
pub(crate) struct Windows {
    pub(crate) idx: [u8; 16],
    pub(crate) shift: [u16; 8],
}

/// An index that reads 0 in `pshufb` (bit 7) and `tbl` (past 15).
const ZERO: u8 = 0x80;

const fn windows(first: usize) -> Windows {
    let mut w = Windows {
        idx: [ZERO; 16],
        shift: [0; 8],
    };
    let mut k = 0;
    while k < 8 {
        let i = first + k;
        if i == 0 {
            w.idx[0] = 0;
            w.shift[0] = 5;
        } else {
            let o = 5 * i - 2;
            let b = o / 8;
            w.idx[2 * k] = if b + 1 < 16 { (b + 1) as u8 } else { ZERO };
            w.idx[2 * k + 1] = b as u8;
            w.shift[k] = (11 - o % 8) as u16;
        }
        k += 1;
    }
    w
}

/// Characters 0..8, 8..16, 10..18 and 18..26: two 16-character halves
/// that overlap by six, so that each 16-byte store stays inside the 26.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) const WINDOWS: [Windows; 4] = [windows(0), windows(8), windows(10), windows(18)];

/// Writes the 26 characters of each 16-byte value at the start of its
/// `W`-byte slot on path `isa` (scalar when this CPU cannot run it): SSE4.1
/// and AVX2 in `x86_64/{sse41,avx2}/base32.rs` (AVX-512 takes AVX2's),
/// NEON in `aarch64/neon/base32.rs`.
///
/// # Panics
/// If the slices differ in length (a bug in this crate).
#[inline]
#[cfg_attr(not(any(feature = "ulid", feature = "internals")), allow(dead_code))]
pub(crate) fn encode_many<T: Bytes<16>, const W: usize>(
    isa: Isa,
    src: &[T],
    out: &mut [[u8; W]],
    case: Case,
) {
    const { assert!(W >= LEN) };
    assert_eq!(src.len(), out.len(), "base32 batch length");
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    let alphabet = match case {
        Case::Upper => UPPER,
        Case::Lower => LOWER,
    };
    match isa {
        // SAFETY (each arm): the guard checked that this CPU runs the path.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => unsafe {
            x86_64::avx2::base32::encode16(src, out, alphabet)
        },
        #[cfg(target_arch = "x86_64")]
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 if x86_64::sse41::is_supported() => unsafe {
            x86_64::sse41::base32::encode16(src, out, alphabet)
        },
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if neon::is_supported() => unsafe { neon::base32::encode16(src, out, alphabet) },
        _ => {
            for (v, o) in src.iter().zip(out) {
                *head::<LEN, W>(o) = encode(u128::from_be_bytes(*v.bytes()), case);
            }
        }
    }
}

/// Not a digit of the alphabet.
const NONE: u8 = 0xff;

/// Each byte's digit value, `NONE` for bytes outside the alphabet; small
/// letters count only where `lower` says.
const fn table(upper: bool, lower: bool) -> [u8; 256] {
    let mut t = [NONE; 256];
    let mut d = 0;
    while d < 32 {
        if upper {
            t[UPPER[d] as usize] = d as u8;
        }
        if lower {
            t[LOWER[d] as usize] = d as u8;
        }
        d += 1;
    }
    t
}

static ANY_CASE: [u8; 256] = table(true, true);
static LOWER_ONLY: [u8; 256] = table(false, true);

/// The value `text` spells, or the first fault in it (an overflow before a
/// bad byte later on).
#[inline]
pub(crate) fn decode(text: &[u8; LEN], accept: Accept) -> Result<u128, Fault> {
    let t = match accept {
        Accept::AnyCase => &ANY_CASE,
        Accept::Lower => &LOWER_ONLY,
    };
    let mut v = 0u128;
    // Digits are below 32, NONE is not: one OR finds any byte outside.
    let mut seen = 0u8;
    for &c in text {
        let d = t[c as usize];
        seen |= d;
        v = v << 5 | u128::from(d & 31);
    }
    if seen > 31 {
        // Rare: find which byte, for the message.
        let i = text
            .iter()
            .position(|&c| t[c as usize] == NONE)
            .unwrap_or(0);
        if i > 0 && t[text[0] as usize] > 7 {
            return Err(Fault::Overflow(text[0]));
        }
        return Err(Fault::Byte(i, text[i]));
    }
    if t[text[0] as usize] > 7 {
        return Err(Fault::Overflow(text[0]));
    }
    Ok(v)
}

/// Crockford base32 on a chosen path (for tests, fuzzing and
/// benchmarks): the 26 characters of each value, capitals or small
/// letters, into `out`; returns how many (the shorter of the two).
///
/// ```
/// use kuuid::engine::{base32_with, Isa};
/// let mut out = [[0u8; 26]; 1];
/// for isa in Isa::available() {
///     assert_eq!(base32_with(isa, &[[0xff; 16]], &mut out, true), 1);
///     assert_eq!(&out[0], b"7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
/// }
/// ```
#[cfg(feature = "internals")]
pub fn base32_with(isa: Isa, src: &[[u8; 16]], out: &mut [[u8; LEN]], upper: bool) -> usize {
    let n = src.len().min(out.len());
    let case = if upper { Case::Upper } else { Case::Lower };
    encode_many(isa, &src[..n], &mut out[..n], case);
    n
}

/// Each byte's digit in the ASCII rows `0x30..0x60` (row `r` starts at
/// `0x30 + 16 r`), `NONE` outside the alphabet: a SIMD decoder looks each
/// byte's low nibble up in the row its high nibble names. Small letters
/// (rows `0x60` and `0x70`) have the capitals' low nibbles and take rows
/// 1 and 2; the alphabet has no byte below `0x30` or above `z`.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) const ROWS: [[u8; 16]; 3] = {
    let t = table(true, false);
    let mut rows = [[NONE; 16]; 3];
    let mut i = 0;
    while i < 48 {
        rows[i / 16][i % 16] = t[0x30 + i];
        i += 1;
    }
    rows
};

/// A SIMD decoder's last step: where each of the 16 bytes comes from in
/// the two folded registers, `[0]` from characters 0..10 after six zero
/// digits, `[1]` from characters 10..26. Each 64-bit lane holds 8
/// characters' 40 bits, least significant byte first; the first lane of
/// `[0]` has only its low byte (the value's top 2 bits above 128 are
/// zero).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) const FROM_FOLDED: [[u8; 16]; 2] = {
    const Z: u8 = ZERO;
    [
        [0, 12, 11, 10, 9, 8, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z],
        [Z, Z, Z, Z, Z, Z, 4, 3, 2, 1, 0, 12, 11, 10, 9, 8],
    ]
};

/// Decodes the 26-character texts at `text[i * stride..]` into `out[i]` on
/// path `isa` (scalar where this CPU cannot run it): SSE4.1 and AVX2 in
/// `x86_64/{sse41,avx2}/base32.rs`, NEON in `aarch64/neon/base32.rs`.
/// Returns how many leading texts were valid (`out.len()` when all were,
/// else the index of the first bad one); `out` from there on holds
/// unspecified values.
///
/// # Panics
/// If `stride < 26` or `text` is too short for `out.len()` texts (a bug in
/// this crate: every caller sizes its batch).
#[inline]
#[cfg_attr(not(any(feature = "ulid", feature = "internals")), allow(dead_code))]
pub(crate) fn decode_many<T: BytesMut<16>>(
    isa: Isa,
    text: &[u8],
    stride: usize,
    out: &mut [T],
    accept: Accept,
) -> usize {
    if out.is_empty() {
        return 0;
    }
    assert!(
        stride >= LEN && super::batch_fits(out.len(), stride, LEN, text.len()),
        "base32 decode batch shape"
    );
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    let lower = accept == Accept::Lower;
    match isa {
        // SAFETY (each arm): the guard checked that this CPU runs the path;
        // the assertion above, the kernel's shape.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => unsafe {
            x86_64::avx2::base32::decode16(text, stride, out, lower)
        },
        #[cfg(target_arch = "x86_64")]
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 if x86_64::sse41::is_supported() => unsafe {
            x86_64::sse41::base32::decode16(text, stride, out, lower)
        },
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if neon::is_supported() => unsafe {
            neon::base32::decode16(text, stride, out, lower)
        },
        _ => {
            for (i, o) in out.iter_mut().enumerate() {
                match decode(text_at(text, i, stride), accept) {
                    Ok(v) => *o.bytes_mut() = v.to_be_bytes(),
                    Err(_) => return i,
                }
            }
            out.len()
        }
    }
}

/// The 26 bytes of text `i` of a batch.
#[inline(always)]
pub(crate) fn text_at(text: &[u8], i: usize, stride: usize) -> &[u8; LEN] {
    text[i * stride..]
        .first_chunk()
        .expect("the batch's shape was checked")
}

/// Crockford base32 decoding on a chosen path (for tests, fuzzing and
/// benchmarks): the texts at `text[i * stride..]` (capitals or small
/// letters, or small letters only when `lower_only`) into `out[i]`;
/// returns how many leading texts were valid (the batch behind
/// `Ulid::parse_many`).
///
/// ```
/// use kuuid::engine::{base32_decode_with, Isa};
/// let text = b"7ZZZZZZZZZZZZZZZZZZZZZZZZZ 0000000000000000000000000L";
/// for isa in Isa::available() {
///     let mut out = [[0u8; 16]; 2];
///     assert_eq!(base32_decode_with(isa, text, 27, &mut out, false)?, 1);
///     assert_eq!(out[0], [0xff; 16]);
/// }
/// # Ok::<(), kuuid::engine::EngineError>(())
/// ```
#[cfg(feature = "internals")]
pub fn base32_decode_with(
    isa: Isa,
    text: &[u8],
    stride: usize,
    out: &mut [[u8; 16]],
    lower_only: bool,
) -> Result<usize, super::EngineError> {
    use super::{EngineError, IsaError};
    if !isa.is_supported() {
        return Err(EngineError::Isa(IsaError::Unsupported(isa)));
    }
    if out.is_empty() {
        return Ok(0);
    }
    if stride < LEN {
        return Err(EngineError::Shape("stride is shorter than an id"));
    }
    if !super::batch_fits(out.len(), stride, LEN, text.len()) {
        return Err(EngineError::Shape("text too short for count ids"));
    }
    let accept = if lower_only {
        Accept::Lower
    } else {
        Accept::AnyCase
    };
    Ok(decode_many(isa, text, stride, out, accept))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The alphabet's order is ASCII order, and every digit reads back.
    #[test]
    fn the_alphabet_sorts_and_reads_back() {
        assert!(UPPER.windows(2).all(|w| w[0] < w[1]));
        assert!(LOWER.windows(2).all(|w| w[0] < w[1]));
        for d in 0..32u8 {
            assert_eq!(ANY_CASE[UPPER[d as usize] as usize], d);
            assert_eq!(ANY_CASE[LOWER[d as usize] as usize], d);
            assert_eq!(LOWER_ONLY[LOWER[d as usize] as usize], d);
        }
        let digits = (0..=255u8).filter(|&b| ANY_CASE[b as usize] != NONE);
        assert_eq!(digits.count(), 54, "10 digits and 22 letters in two cases");
        for alias in *b"ILOUilou" {
            assert_eq!(ANY_CASE[alias as usize], NONE, "{}", alias as char);
        }
    }

    /// Values at the edges of every 5-bit digit round-trip in both cases,
    /// and text order is value order.
    #[test]
    fn values_round_trip_and_sort() {
        let mut values = vec![0u128, 1, u128::MAX, u128::MAX - 1, 1 << 127];
        values.extend((0..128).map(|b| 1u128 << b));
        values.extend((0..128).map(|b| (1u128 << b) - 1));
        let mut x = 0x9E37_79B9_7F4A_7C15_u128;
        for _ in 0..1000 {
            x = x
                .wrapping_mul(0x2545_F491_4F6C_DD1D_0000_0001)
                .wrapping_add(0xB5);
            values.push(x);
        }
        for &v in &values {
            let up = encode(v, Case::Upper);
            let low = encode(v, Case::Lower);
            assert_eq!(low, up.map(|c| c.to_ascii_lowercase()));
            assert_eq!(decode(&up, Accept::AnyCase), Ok(v));
            assert_eq!(decode(&low, Accept::AnyCase), Ok(v));
            assert_eq!(decode(&low, Accept::Lower), Ok(v));
            // The first character holds 3 bits.
            assert!(up[0] <= b'7');
        }
        let mut sorted = values.clone();
        sorted.sort();
        let texts: Vec<_> = sorted.iter().map(|&v| encode(v, Case::Upper)).collect();
        assert!(texts.windows(2).all(|w| w[0] <= w[1]));
    }

    /// Every byte at every position: the alphabet reads, anything else is a
    /// fault at that index; a first character above `7` is an overflow.
    #[test]
    fn every_byte_at_every_position() {
        let v = 0x0123_4567_89AB_CDEF_0123_4567_89AB_CDEF;
        let (upper, lower) = (encode(v, Case::Upper), encode(v, Case::Lower));
        for i in 0..LEN {
            for b in 0..=255u8 {
                let (mut t, mut l) = (upper, lower);
                t[i] = b;
                l[i] = b;
                let any = decode(&t, Accept::AnyCase);
                let low = decode(&l, Accept::Lower);
                match ANY_CASE[b as usize] {
                    NONE => {
                        assert_eq!(any, Err(Fault::Byte(i, b)));
                        assert_eq!(low, Err(Fault::Byte(i, b)));
                    }
                    d if i == 0 && d > 7 => {
                        assert_eq!(any, Err(Fault::Overflow(b)));
                    }
                    d => {
                        let got = any.unwrap();
                        assert_eq!((got >> (125 - 5 * i)) as u8 & 31, d);
                        if b.is_ascii_uppercase() {
                            assert_eq!(low, Err(Fault::Byte(i, b)));
                        } else {
                            assert_eq!(low, Ok(got));
                        }
                    }
                }
            }
        }
    }

    /// The spec's largest ULID, and one past it.
    #[test]
    fn the_largest_value_is_7zzz() {
        assert_eq!(
            &encode(u128::MAX, Case::Upper),
            b"7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
        );
        assert_eq!(
            decode(b"80000000000000000000000000", Accept::AnyCase),
            Err(Fault::Overflow(b'8'))
        );
    }
}
