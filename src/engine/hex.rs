//! Hex text: lowercase on the way out, either case on the way in. The
//! scalar code here is the reference; the batch encoders ([`encode16`],
//! [`encode16_dashed`], [`encode12`]) run on the path [`Isa`] names:
//! AVX-512 and AVX2 in `x86_64/{avx512,avx2}/hex.rs`, NEON in
//! `aarch64/neon/hex.rs`. Single ids ([`hyphenated`], [`simple`],
//! [`hex24`]) take code that needs no dispatch: SSE2 on x86-64 (part of the
//! architecture, `x86_64/sse2/hex.rs`), SWAR in 64-bit registers elsewhere;
//! both write a few wide stores.

use crate::engine::Isa;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
use crate::engine::aarch64::neon;
#[cfg(target_arch = "x86_64")]
use crate::engine::x86_64;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use crate::engine::x86_64::sse2::hex as x86_single;

pub(crate) use crate::engine::bytes::Bytes;
use crate::engine::bytes::head;

/// Lowercase hex digits, in ASCII order.
pub(crate) const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// The two digits of every byte: one lookup and one 2-byte store a byte
/// instead of two of each.
static PAIRS: [[u8; 2]; 256] = {
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [DIGITS[i >> 4], DIGITS[i & 0xf]];
        i += 1;
    }
    t
};

/// Writes `2 * bytes.len()` lowercase hex digits of `bytes` into `out`.
///
/// # Panics
/// If `out` is not twice as long as `bytes` (a bug in this crate).
#[inline]
pub(crate) fn encode_lower(bytes: &[u8], out: &mut [u8]) {
    assert_eq!(out.len(), bytes.len() * 2, "hex output length");
    for (&b, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair.copy_from_slice(&PAIRS[usize::from(b)]);
    }
}

/// Writes the 32 hex digits of each 16-byte value at the start of its
/// `W`-byte slot on path `isa` (scalar when this CPU cannot run it); the
/// rest of each slot is left as it is.
///
/// # Panics
/// If the slices differ in length (a bug in this crate).
#[inline]
pub(crate) fn encode16<T: Bytes<16>, const W: usize>(isa: Isa, src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 32) };
    assert_eq!(src.len(), out.len(), "hex batch length");
    match isa {
        // SAFETY (each arm): the guard checked that this CPU runs the path.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if x86_64::avx512::is_supported() => unsafe {
            x86_64::avx512::hex::encode16(src, out)
        },
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => unsafe {
            x86_64::avx2::hex::encode16(src, out)
        },
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if neon::is_supported() => unsafe { neon::hex::encode16(src, out) },
        _ => {
            for (v, o) in src.iter().zip(out) {
                encode_lower(v.bytes(), &mut o[..2 * v.bytes().len()]);
            }
        }
    }
}

/// Writes the 36-character RFC 9562 text (8-4-4-4-12, lowercase) of each
/// 16-byte value at the start of its `W`-byte slot on path `isa` (scalar
/// when this CPU cannot run it); the rest of each slot is left as it is.
///
/// # Panics
/// If the slices differ in length (a bug in this crate).
#[inline]
pub(crate) fn encode16_dashed<T: Bytes<16>, const W: usize>(
    isa: Isa,
    src: &[T],
    out: &mut [[u8; W]],
) {
    const { assert!(W >= 36) };
    assert_eq!(src.len(), out.len(), "hex batch length");
    match isa {
        // SAFETY (each arm): the guard checked that this CPU runs the path.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if x86_64::avx512::is_supported() => unsafe {
            x86_64::avx512::hex::encode16_dashed(src, out)
        },
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => unsafe {
            x86_64::avx2::hex::encode16_dashed(src, out)
        },
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if neon::is_supported() => unsafe { neon::hex::encode16_dashed(src, out) },
        _ => {
            for (v, o) in src.iter().zip(out) {
                encode_dashed(v.bytes(), head(o));
            }
        }
    }
}

/// Writes the 24 hex digits of each 12-byte value at the start of its
/// `W`-byte slot on path `isa` (scalar when this CPU cannot run it); the
/// rest of each slot is left as it is.
///
/// # Panics
/// If the slices differ in length (a bug in this crate).
#[inline]
pub(crate) fn encode12<T: Bytes<12>, const W: usize>(isa: Isa, src: &[T], out: &mut [[u8; W]]) {
    const { assert!(W >= 24) };
    assert_eq!(src.len(), out.len(), "hex batch length");
    match isa {
        // SAFETY (each arm): the guard checked that this CPU runs the path.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if x86_64::avx512::is_supported() => unsafe {
            x86_64::avx512::hex::encode12(src, out)
        },
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => unsafe {
            x86_64::avx2::hex::encode12(src, out)
        },
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if neon::is_supported() => unsafe { neon::hex::encode12(src, out) },
        _ => {
            for (v, o) in src.iter().zip(out) {
                encode_lower(v.bytes(), &mut o[..2 * v.bytes().len()]);
            }
        }
    }
}

/// The 36-character RFC 9562 text of 16 bytes: the scalar reference that
/// the batch paths and [`hyphenated`] are tested against.
#[inline]
pub(crate) fn encode_dashed(b: &[u8; 16], out: &mut [u8; 36]) {
    encode_lower(&b[..4], &mut out[..8]);
    out[8] = b'-';
    encode_lower(&b[4..6], &mut out[9..13]);
    out[13] = b'-';
    encode_lower(&b[6..8], &mut out[14..18]);
    out[18] = b'-';
    encode_lower(&b[8..10], &mut out[19..23]);
    out[23] = b'-';
    encode_lower(&b[10..], &mut out[24..]);
}

/// The eight lowercase hex digits of `x`, top nibble first, as the
/// little-endian bytes of a `u64`. SWAR, for single ids: the nibbles are
/// spread one to a byte, then every byte `n` becomes `b'0' + n`, plus 39
/// (`b'a' - b'0' - 10`) where `n > 9`, all eight at once; no byte carries
/// into the next (the largest, `b'f'`, is 0x66). Eight digits take about
/// 14 ALU operations and one store, where the table takes four loads and
/// four stores.
#[inline]
const fn hex8(x: u32) -> u64 {
    let y = x.swap_bytes() as u64;
    let y = (y | y << 16) & 0x0000_ffff_0000_ffff;
    let y = (y | y << 8) & 0x00ff_00ff_00ff_00ff;
    let nibbles = (y >> 4) & 0x000f_000f_000f_000f | (y & 0x000f_000f_000f_000f) << 8;
    let letters = ((nibbles + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    nibbles + 0x3030_3030_3030_3030 + letters * 0x27
}

/// The 32 lowercase hex digits of a big-endian 128-bit value (one id's):
/// SSE2 on x86-64, else [`hex8`] four times.
#[inline]
pub(crate) fn simple(v: u128) -> [u8; 32] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return x86_single::simple_sse2(v);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    simple_swar(v)
}

/// [`simple`] in general registers, four 8-byte stores.
#[inline]
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
pub(crate) fn simple_swar(v: u128) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, chunk) in out.chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&hex8((v >> (96 - 32 * i)) as u32).to_le_bytes());
    }
    out
}

/// The 24 lowercase hex digits of 12 bytes (an ObjectId's): SSE2 on
/// x86-64, else [`hex8`] three times.
#[inline]
pub(crate) fn hex24(b: &[u8; 12]) -> [u8; 24] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return x86_single::hex24_sse2(b);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    hex24_swar(b)
}

/// [`hex24`] in general registers.
#[inline]
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
pub(crate) fn hex24_swar(b: &[u8; 12]) -> [u8; 24] {
    let mut out = [0u8; 24];
    for (word, chunk) in b.chunks_exact(4).zip(out.chunks_exact_mut(8)) {
        let x = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        chunk.copy_from_slice(&hex8(x).to_le_bytes());
    }
    out
}

/// The 36-character RFC 9562 text (8-4-4-4-12, lowercase) of a big-endian
/// 128-bit value, for single ids: SSE2 on x86-64 (every x86-64 CPU has it,
/// so no dispatch), else [`hyphenated_swar`].
#[inline]
pub(crate) fn hyphenated(v: u128) -> [u8; 36] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return x86_single::hyphenated_sse2(v);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    hyphenated_swar(v)
}

/// [`hyphenated`] in general registers: [`hex8`] four times, the dashes
/// merged into the words, then four 8-byte stores and one 4-byte store
/// (five where the table takes twenty).
#[inline]
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
pub(crate) fn hyphenated_swar(v: u128) -> [u8; 36] {
    const DASH: u64 = b'-' as u64;
    let [h0, h1, h2, h3] = [96, 64, 32, 0].map(|shift| hex8((v >> shift) as u32));
    // Text bytes 8..16: `-`, digits 0-3 of h1, `-`, digits 4-5 of h1.
    let w1 = DASH | (h1 & 0xffff_ffff) << 8 | DASH << 40 | (h1 >> 32 & 0xffff) << 48;
    // 16..24: digits 6-7 of h1, `-`, digits 0-3 of h2, `-`.
    let w2 = h1 >> 48 | DASH << 16 | (h2 & 0xffff_ffff) << 24 | DASH << 56;
    // 24..32: digits 4-7 of h2, digits 0-3 of h3; 32..36: digits 4-7 of h3.
    let w3 = h2 >> 32 | h3 << 32;
    let mut out = [0u8; 36];
    out[..8].copy_from_slice(&h0.to_le_bytes());
    out[8..16].copy_from_slice(&w1.to_le_bytes());
    out[16..24].copy_from_slice(&w2.to_le_bytes());
    out[24..32].copy_from_slice(&w3.to_le_bytes());
    out[32..].copy_from_slice(&((h3 >> 32) as u32).to_le_bytes());
    out
}

/// The value of one hex digit (`0-9`, `a-f`, `A-F`), or `None`.
#[inline]
pub(crate) const fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decodes hex `text` (either case) into `out`, with a `-` required at
/// each index in `dashes` and nowhere else; `text` must hold exactly
/// `2 * out.len() + dashes.len()` bytes (callers check the length first).
/// The error is the first bad byte: its index and value.
pub(crate) fn decode(text: &[u8], dashes: &[usize], out: &mut [u8]) -> Result<(), (usize, u8)> {
    debug_assert_eq!(text.len(), 2 * out.len() + dashes.len());
    out.fill(0);
    let mut digit = 0;
    for (index, &c) in text.iter().enumerate() {
        if dashes.contains(&index) {
            if c != b'-' {
                return Err((index, c));
            }
            continue;
        }
        let n = nibble(c).ok_or((index, c))?;
        out[digit / 2] |= n << (4 * (1 - digit % 2));
        digit += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs where every byte value sits at every position: hex is a map
    /// of each byte on its own, so these cover its whole domain.
    fn every_byte_everywhere<const N: usize>() -> Vec<[u8; N]> {
        (0..=255u8)
            .map(|v| std::array::from_fn(|p| v.wrapping_add((p * 37) as u8)))
            .collect()
    }

    #[test]
    fn every_path_writes_what_scalar_writes() {
        let src16 = every_byte_everywhere::<16>();
        let src12 = every_byte_everywhere::<12>();
        let mut want16 = vec![[0u8; 32]; 256];
        let mut want36 = vec![[0u8; 36]; 256];
        let mut want24 = vec![[0u8; 24]; 256];
        encode16(Isa::Scalar, &src16, &mut want16);
        encode16_dashed(Isa::Scalar, &src16, &mut want36);
        encode12(Isa::Scalar, &src12, &mut want24);
        // The reference against std's formatting.
        for (v, (h, d)) in src16.iter().zip(want16.iter().zip(&want36)) {
            let u = u128::from_be_bytes(*v);
            assert_eq!(h, format!("{u:032x}").as_bytes());
            let t = format!("{u:032x}");
            let dashed = format!(
                "{}-{}-{}-{}-{}",
                &t[..8],
                &t[8..12],
                &t[12..16],
                &t[16..20],
                &t[20..]
            );
            assert_eq!(d, dashed.as_bytes());
        }
        // The single-id SWAR path.
        for (v, (h, d)) in src16.iter().zip(want16.iter().zip(&want36)) {
            let u = u128::from_be_bytes(*v);
            assert_eq!((&simple(u), &hyphenated(u)), (h, d), "{u:032x}");
            assert_eq!((&simple_swar(u), &hyphenated_swar(u)), (h, d), "{u:032x}");
        }
        for (v, w) in src12.iter().zip(&want24) {
            assert_eq!((&hex24(v), &hex24_swar(v)), (w, w));
        }
        for isa in Isa::available() {
            // Every length up to 9, so the two-at-a-time paths' tails run.
            for n in [0, 1, 2, 3, 8, 9, 255, 256] {
                let mut got16 = vec![[0u8; 32]; n];
                let mut got36 = vec![[0u8; 36]; n];
                let mut got24 = vec![[0u8; 24]; n];
                encode16(isa, &src16[..n], &mut got16);
                encode16_dashed(isa, &src16[..n], &mut got36);
                encode12(isa, &src12[..n], &mut got24);
                assert_eq!(got16, want16[..n], "{isa} 16 -> 32, {n}");
                assert_eq!(got36, want36[..n], "{isa} 16 -> 36, {n}");
                assert_eq!(got24, want24[..n], "{isa} 12 -> 24, {n}");
                // Wider slots: the text at the start, the rest untouched.
                let mut lines16 = vec![[b'\n'; 33]; n];
                let mut lines36 = vec![[b','; 40]; n];
                let mut lines24 = vec![[b'\n'; 25]; n];
                encode16(isa, &src16[..n], &mut lines16);
                encode16_dashed(isa, &src16[..n], &mut lines36);
                encode12(isa, &src12[..n], &mut lines24);
                for i in 0..n {
                    assert_eq!(lines16[i][..32], want16[i], "{isa} 16 -> 33, {i} of {n}");
                    assert_eq!(lines36[i][..36], want36[i], "{isa} 16 -> 40, {i} of {n}");
                    assert_eq!(lines24[i][..24], want24[i], "{isa} 12 -> 25, {i} of {n}");
                    assert_eq!(lines16[i][32], b'\n', "{isa} slot tail, {i} of {n}");
                    assert_eq!(lines36[i][36..], *b",,,,", "{isa} slot tail, {i} of {n}");
                    assert_eq!(lines24[i][24], b'\n', "{isa} slot tail, {i} of {n}");
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn paths_agree_on_random_batches(
            src16 in proptest::collection::vec(proptest::prelude::any::<[u8; 16]>(), 0..40),
            src12 in proptest::collection::vec(proptest::prelude::any::<[u8; 12]>(), 0..40),
        ) {
            let mut w32 = vec![[0u8; 32]; src16.len()];
            let mut w36 = vec![[0u8; 36]; src16.len()];
            let mut w24 = vec![[0u8; 24]; src12.len()];
            encode16(Isa::Scalar, &src16, &mut w32);
            encode16_dashed(Isa::Scalar, &src16, &mut w36);
            encode12(Isa::Scalar, &src12, &mut w24);
            for isa in Isa::available() {
                let mut g32 = vec![[0u8; 32]; src16.len()];
                let mut g36 = vec![[0u8; 36]; src16.len()];
                let mut g24 = vec![[0u8; 24]; src12.len()];
                encode16(isa, &src16, &mut g32);
                encode16_dashed(isa, &src16, &mut g36);
                encode12(isa, &src12, &mut g24);
                proptest::prop_assert_eq!(&g32, &w32);
                proptest::prop_assert_eq!(&g36, &w36);
                proptest::prop_assert_eq!(&g24, &w24);
            }
            for (v, (h, d)) in src16.iter().zip(w32.iter().zip(&w36)) {
                let u = u128::from_be_bytes(*v);
                proptest::prop_assert_eq!((&simple(u), &hyphenated(u)), (h, d));
                proptest::prop_assert_eq!((&simple_swar(u), &hyphenated_swar(u)), (h, d));
            }
            for (v, w) in src12.iter().zip(&w24) {
                proptest::prop_assert_eq!((&hex24(v), &hex24_swar(v)), (w, w));
            }
        }
    }

    /// Every byte value encodes to its two digits and back.
    #[test]
    fn every_byte_round_trips() {
        for b in 0..=255u8 {
            let mut out = [0u8; 2];
            encode_lower(&[b], &mut out);
            assert_eq!(out, *format!("{b:02x}").as_bytes());
            let back = nibble(out[0]).unwrap() << 4 | nibble(out[1]).unwrap();
            assert_eq!(back, b);
            let upper = format!("{b:02X}");
            let up = upper.as_bytes();
            assert_eq!(nibble(up[0]).unwrap() << 4 | nibble(up[1]).unwrap(), b);
        }
        let bad = (0..=255u8).filter(|&c| nibble(c).is_none()).count();
        assert_eq!(bad, 256 - 22);
    }
}
