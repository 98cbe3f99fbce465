//! The scalar reference: the division-free pair encoder and the strict decoder.
//!
//! Every other path in `engine/` is tested against the functions here, and
//! these are tested against an odometer for every `u32`
//! (`tests/library/exhaustive.rs`). Keep them simple enough to trust.

use super::divide::{M4, PAIR};
use super::{ALPHABET, GROUP_LEN, MAX_GROUP, PREFIX_LEN};

/// The two ASCII digits of every `y < 3844`, so one lookup emits a pair.
static PAIRS: [[u8; 2]; PAIR as usize] = {
    let mut table = [[0u8; 2]; PAIR as usize];
    let mut y = 0;
    while y < PAIR as usize {
        table[y] = [ALPHABET[y / 62], ALPHABET[y % 62]];
        y += 1;
    }
    table
};

/// ASCII byte to digit value; `0xFF` for every byte outside the alphabet
/// (bytes >= 0x80 never index the table: they are rejected before).
pub(crate) static DIGIT: [u8; 128] = {
    let mut table = [0xFFu8; 128];
    let mut d = 0;
    while d < 62 {
        table[ALPHABET[d] as usize] = d as u8;
        d += 1;
    }
    table
};

/// The three base-3844 pairs of `x`, most significant first (`x = A*3844^2 + B*3844 + C`).
///
/// jeaiii's itoa in base 62^2: one 32x32->64 multiply gives `x / 62^4` in 32.32
/// fixed point; each further multiply by 3844 moves one pair above the point.
/// The `+ 1` makes the truncated fraction exact for every `u32` (checked
/// exhaustively in `tests/library/exhaustive.rs`).
#[inline(always)]
pub(crate) fn pairs(x: u32) -> [u32; 3] {
    let p = ((u64::from(x) * M4) >> 23) + 1;
    let a = p >> 32;
    let t2 = (p & 0xFFFF_FFFF) * PAIR;
    let t3 = (t2 & 0xFFFF_FFFF) * PAIR;
    [a as u32, (t2 >> 32) as u32, (t3 >> 32) as u32]
}

/// Writes `x` as 6 zero-padded base62 digits.
#[inline(always)]
pub fn encode_group(x: u32, out: &mut [u8; GROUP_LEN]) {
    let [a, b, c] = pairs(x);
    out[0..2].copy_from_slice(&PAIRS[a as usize]);
    out[2..4].copy_from_slice(&PAIRS[b as usize]);
    out[4..6].copy_from_slice(&PAIRS[c as usize]);
}

/// `x`'s 6 digits as the low 48 bits of a little-endian word (byte `i` is
/// digit `i`): for building a whole id in registers.
#[inline(always)]
pub(crate) fn group_bits(x: u32) -> u64 {
    let [a, b, c] = pairs(x);
    let pair = |y: u32| u64::from(u16::from_le_bytes(PAIRS[y as usize]));
    pair(a) | pair(b) << 16 | pair(c) << 32
}

/// [`group_bits`] of four words. Written out, not `.map(group_bits)`:
/// `array::map` was left out of line in the test profile (a third of the
/// scalar encoder's time).
#[inline(always)]
pub(crate) fn four_group_bits(w: [u32; 4]) -> [u64; 4] {
    [
        group_bits(w[0]),
        group_bits(w[1]),
        group_bits(w[2]),
        group_bits(w[3]),
    ]
}

/// Writes `v < 62^8` as 8 zero-padded base62 digits.
///
/// Runs once per timestamp, not per id, so plain constant division is fine.
#[inline]
pub fn encode_prefix(v: u64, out: &mut [u8; PREFIX_LEN]) {
    debug_assert!(v < super::PREFIX_LIMIT);
    const P2: u64 = PAIR * PAIR;
    let (hi, lo) = (v / P2, v % P2);
    for (i, q) in [hi / PAIR, hi % PAIR, lo / PAIR, lo % PAIR]
        .into_iter()
        .enumerate()
    {
        out[2 * i..2 * i + 2].copy_from_slice(&PAIRS[q as usize]);
    }
}

/// Why a run of base62 text did not decode; indexes are relative to the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DecodeFault {
    /// The byte at this index is not in the alphabet (including bytes >= 0x80).
    Byte(usize),
    /// The group starting at this index is above `4gfFC3` (`u32::MAX`).
    Overflow(usize),
}

/// Decodes `digits.len() <= 10` base62 digits into a number (no range check).
#[inline]
fn decode_digits(digits: &[u8], base_index: usize) -> Result<u64, DecodeFault> {
    let mut v = 0u64;
    for (i, &b) in digits.iter().enumerate() {
        let d = if b < 0x80 { DIGIT[b as usize] } else { 0xFF };
        if d == 0xFF {
            return Err(DecodeFault::Byte(base_index + i));
        }
        v = v * 62 + u64::from(d);
    }
    Ok(v)
}

/// Strictly decodes one 6-digit group; `base_index` locates it in the id for errors.
#[inline]
pub(crate) fn decode_group(group: &[u8; GROUP_LEN], base_index: usize) -> Result<u32, DecodeFault> {
    let v = decode_digits(group, base_index)?;
    if v > MAX_GROUP {
        return Err(DecodeFault::Overflow(base_index));
    }
    Ok(v as u32)
}

/// Decodes the 8-digit prefix into its value (always `< 62^8`).
#[inline]
pub(crate) fn decode_prefix(prefix: &[u8; PREFIX_LEN]) -> Result<u64, DecodeFault> {
    decode_digits(prefix, 0)
}

/// Validates a whole id (prefix then groups) and writes its random words.
///
/// `text.len()` must be `8 + 6 * words.len()`. Reports the first fault in
/// byte order, so errors are the same whichever path found them.
pub(crate) fn decode_id(text: &[u8], words: &mut [u32]) -> Result<u64, DecodeFault> {
    debug_assert_eq!(text.len(), PREFIX_LEN + GROUP_LEN * words.len());
    let (prefix, groups) = text.split_at(PREFIX_LEN);
    let value = decode_prefix(prefix.try_into().expect("8-byte prefix"))?;
    for (i, (group, w)) in groups.chunks_exact(GROUP_LEN).zip(words).enumerate() {
        *w = decode_group(
            group.try_into().expect("6-byte group"),
            PREFIX_LEN + i * GROUP_LEN,
        )?;
    }
    Ok(value)
}

/// Encodes `count` ids into `out`, id `i` at `out[i * stride..]`: the prefix,
/// then `groups` groups from consecutive words.
///
/// `words.len()` must be at least `count * groups` and `out` must hold
/// `(count - 1) * stride + 8 + 6 * groups` bytes; bytes between ids (such as
/// newlines) are left alone.
pub(crate) fn encode_ids(
    prefix: &[u8; PREFIX_LEN],
    words: &[u32],
    groups: usize,
    out: &mut [u8],
    stride: usize,
    count: usize,
) {
    let len = PREFIX_LEN + GROUP_LEN * groups;
    for (i, w) in words.chunks_exact(groups).take(count).enumerate() {
        let id = &mut out[i * stride..i * stride + len];
        id[..PREFIX_LEN].copy_from_slice(prefix);
        for (g, &x) in id[PREFIX_LEN..].chunks_exact_mut(GROUP_LEN).zip(w) {
            encode_group(x, g.try_into().expect("6-byte group"));
        }
    }
}

/// [`encode_ids`] for 4 groups behind the raw-pointer signature the
/// dispatcher stores, so scalar is one of the dispatch targets.
///
/// # Safety
/// `words` has `4 * count` readable `u32`s; `out` has
/// `(count - 1) * stride + 32` writable bytes; `count >= 1`; `stride >= 32`.
pub(crate) unsafe fn encode4_raw(
    prefix: &[u8; PREFIX_LEN],
    words: *const u32,
    out: *mut u8,
    stride: usize,
    count: usize,
) {
    // SAFETY: the lengths are the caller's contract, and the two regions do
    // not overlap (one is a `&[u32]`, the other a `&mut [u8]` in the caller).
    let (words, out) = unsafe {
        (
            std::slice::from_raw_parts(words, 4 * count),
            std::slice::from_raw_parts_mut(out, (count - 1) * stride + PREFIX_LEN + 4 * GROUP_LEN),
        )
    };
    encode_ids(prefix, words, 4, out, stride, count);
}

/// Decodes `count` 4-group ids at `text[i * stride..]` into prefix values and
/// words, stopping at the first invalid id; returns how many were valid.
pub(crate) fn decode_ids(
    text: &[u8],
    stride: usize,
    prefixes: &mut [u64],
    words: &mut [u32],
) -> usize {
    for (i, (p, w)) in prefixes
        .iter_mut()
        .zip(words.chunks_exact_mut(4))
        .enumerate()
    {
        match decode_id(
            &text[i * stride..i * stride + PREFIX_LEN + 4 * GROUP_LEN],
            w,
        ) {
            Ok(v) => *p = v,
            Err(_) => return i,
        }
    }
    prefixes.len()
}

/// [`decode_ids`] behind the raw-pointer signature the dispatcher stores.
///
/// # Safety
/// `text` has `(count - 1) * stride + 32` readable bytes, `prefixes` `count`
/// writable `u64`s, `words` `4 * count` writable `u32`s; `count >= 1`.
pub(crate) unsafe fn decode4_raw(
    text: *const u8,
    stride: usize,
    count: usize,
    prefixes: *mut u64,
    words: *mut u32,
) -> usize {
    // SAFETY: lengths from the caller's contract; the three regions come from
    // distinct borrows in the caller, so they do not overlap.
    let (text, prefixes, words) = unsafe {
        (
            std::slice::from_raw_parts(text, (count - 1) * stride + PREFIX_LEN + 4 * GROUP_LEN),
            std::slice::from_raw_parts_mut(prefixes, count),
            std::slice::from_raw_parts_mut(words, 4 * count),
        )
    };
    decode_ids(text, stride, prefixes, words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed digits are the written ones, and an id assembled from them
    /// is the concatenation: every 4099th u32 and both ends (the packing does
    /// not depend on the value, so a spread sample covers it).
    #[test]
    fn packed_groups_and_assembled_ids_match_the_writer() {
        let xs = (0..=u32::MAX).step_by(4099).chain([u32::MAX, 1, 61, 62]);
        let mut last = [0u64; 4];
        for (i, x) in xs.enumerate() {
            let mut written = [0u8; GROUP_LEN];
            encode_group(x, &mut written);
            let bits = group_bits(x);
            assert_eq!(bits >> 48, 0, "x = {x}");
            assert_eq!(bits.to_le_bytes()[..GROUP_LEN], written, "x = {x}");
            last[i % 4] = bits;
            let id = super::super::assemble_id(b"0123abcd", last);
            assert_eq!(&id[..PREFIX_LEN], b"0123abcd");
            for (g, bits) in id[PREFIX_LEN..].chunks_exact(GROUP_LEN).zip(last) {
                assert_eq!(g, &bits.to_le_bytes()[..GROUP_LEN]);
            }
        }
    }
}
