//! Hex text, the scalar reference: lowercase on the way out, either case on
//! the way in. (The batch paths of the SIMD engines are issue 9's item 4.)

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
