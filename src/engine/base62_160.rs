//! Base62 of 160 bits (KSUID): 27 characters, zero-padded, the scalar
//! reference. A 160-bit number is five 32-bit words; dividing it by 62^5
//! (below 2^32) six times gives five digits a pass, so the text takes 30
//! word divisions instead of the 135 of a digit-at-a-time long division.

use super::scalar::{DIGIT, encode_group};

/// Characters of a 160-bit value.
pub(crate) const LEN: usize = 27;

/// The largest value's text, 2^160 - 1: a text sorts as its value (same
/// width, an alphabet in ASCII order), so a text is in range when it sorts
/// at or below this one.
pub(crate) const MAX_TEXT: &[u8; LEN] = b"aWgEPTl1tmebfsQzFP4bxwgy80V";

/// 62^5.
const CHUNK: u64 = 916_132_832;

/// The 27 characters of the 20 big-endian bytes.
pub(crate) fn encode(bytes: &[u8; 20]) -> [u8; LEN] {
    let mut words: [u32; 5] =
        std::array::from_fn(|i| u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()));
    // Five digits a pass, least significant first (27 = 5 * 5 + 2), each
    // remainder (below 62^5) written as six digits by the kuuid group
    // encoder (division-free, checked for every u32): its leading zero
    // lands where the next pass writes, the last pass's four in the slack.
    let mut buf = [b'0'; LEN + 4];
    let mut end = buf.len();
    for _ in 0..6 {
        let mut rem = 0u64;
        for w in &mut words {
            let cur = rem << 32 | u64::from(*w);
            *w = (cur / CHUNK) as u32;
            rem = cur % CHUNK;
        }
        let group: &mut [u8; 6] = (&mut buf[end - 6..end]).try_into().expect("6 bytes");
        encode_group(rem as u32, group);
        end -= 5;
    }
    *buf.last_chunk().expect("27 bytes")
}

/// What is wrong with a 27-character text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A byte outside `0-9A-Za-z`: its index and value.
    Byte(usize, u8),
    /// The text spells more than 160 bits (it sorts above [`MAX_TEXT`]).
    Overflow,
}

/// The 20 big-endian bytes `text` spells, or the first fault.
pub(crate) fn decode(text: &[u8; LEN]) -> Result<[u8; 20], Fault> {
    if let Some(i) = text
        .iter()
        .position(|&b| b >= 0x80 || DIGIT[b as usize] == 0xff)
    {
        return Err(Fault::Byte(i, text[i]));
    }
    if text > MAX_TEXT {
        return Err(Fault::Overflow);
    }
    let mut words = [0u32; 5];
    // Two digits, then five at a time: words = words * 62^k + chunk.
    let mut start = 0;
    for len in [2, 5, 5, 5, 5, 5] {
        let (mut chunk, mut scale) = (0u64, 1u64);
        for &b in &text[start..start + len] {
            chunk = chunk * 62 + u64::from(DIGIT[b as usize]);
            scale *= 62;
        }
        start += len;
        let mut carry = chunk;
        for w in words.iter_mut().rev() {
            let cur = u64::from(*w) * scale + carry;
            *w = cur as u32;
            carry = cur >> 32;
        }
    }
    let mut out = [0u8; 20];
    for (i, w) in words.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value as a `u128` pair, by long division digit by digit (the
    /// slow way, as a second reference).
    fn slow(bytes: &[u8; 20]) -> [u8; LEN] {
        use crate::engine::ALPHABET;
        let mut n: Vec<u32> = bytes.iter().copied().map(u32::from).collect();
        let mut out = [b'0'; LEN];
        for slot in out.iter_mut().rev() {
            let mut rem = 0u32;
            for d in &mut n {
                let cur = rem * 256 + *d;
                *d = cur / 62;
                rem = cur % 62;
            }
            *slot = ALPHABET[rem as usize];
        }
        out
    }

    fn values() -> Vec<[u8; 20]> {
        let mut v = vec![[0u8; 20], [0xff; 20]];
        for bit in 0..160 {
            let mut b = [0u8; 20];
            b[19 - bit / 8] = 1 << (bit % 8);
            v.push(b);
        }
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..3000 {
            let mut b = [0u8; 20];
            for byte in &mut b {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *byte = x as u8;
            }
            v.push(b);
        }
        v
    }

    #[test]
    fn encode_matches_long_division_and_decode_reverses_it() {
        for b in values() {
            let text = encode(&b);
            assert_eq!(text, slow(&b));
            assert_eq!(decode(&text), Ok(b));
        }
        assert_eq!(&encode(&[0xff; 20]), MAX_TEXT);
    }

    #[test]
    fn texts_above_the_largest_and_bad_bytes_are_refused() {
        let mut above = *MAX_TEXT;
        above[26] = b'W';
        assert_eq!(decode(&above), Err(Fault::Overflow));
        assert_eq!(decode(&[b'z'; LEN]), Err(Fault::Overflow));
        let mut bad = [b'0'; LEN];
        bad[13] = b'-';
        assert_eq!(decode(&bad), Err(Fault::Byte(13, b'-')));
        bad[13] = 0xc3;
        assert_eq!(decode(&bad), Err(Fault::Byte(13, 0xc3)));
    }
}
