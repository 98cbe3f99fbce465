//! Base 36 (`0-9a-z`) of a 128-bit value, fixed at 25 characters: CouchDB's
//! `base_36` uuid format (`integer_to_list(Int, 36)`, lowercased, left-padded
//! with `0` to the width of 2^128 - 1, `f5lxx1zz5pnorynqglhzmsp33`).
//!
//! The value is split into three base-36^12 limbs with two `u128`
//! divisions; each limb is then cut into digits in `u64` arithmetic, which
//! is several times cheaper than 25 `u128` divisions.

/// Characters of every encoded value.
pub(crate) const LEN: usize = 25;

/// `0-9a-z`, in ASCII order (so text order is numeric order).
const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// 36^12, the largest power of 36 in a `u64` that leaves room to multiply.
const LIMB: u64 = 36u64.pow(12);

/// Writes the 25 lowercase base-36 digits of `v` into `out`.
pub(crate) fn encode(v: u128, out: &mut [u8; LEN]) {
    let limb = u128::from(LIMB);
    let lo = (v % limb) as u64;
    let rest = v / limb;
    let mid = (rest % limb) as u64;
    // 2^128 / 36^24 < 16: the top limb is one digit.
    let hi = (rest / limb) as u64;
    out[0] = DIGITS[hi as usize];
    encode_limb(mid, &mut out[1..13]);
    encode_limb(lo, &mut out[13..]);
}

/// The 12 digits of a limb below 36^12.
fn encode_limb(mut v: u64, out: &mut [u8]) {
    for c in out.iter_mut().rev() {
        *c = DIGITS[(v % 36) as usize];
        v /= 36;
    }
}

/// The value of one base-36 digit (either case), or `None`.
const fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'z' => Some(c - b'a' + 10),
        b'A'..=b'Z' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Why 25 characters are not a base-36 value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DecodeError {
    /// A byte that is not `0-9a-zA-Z`: its index and value.
    InvalidByte(usize, u8),
    /// Digits whose value is 2^128 or more.
    Overflow,
}

/// The value of 25 base-36 digits (either case).
pub(crate) fn decode(text: &[u8; LEN]) -> Result<u128, DecodeError> {
    let mut v: u128 = 0;
    for (index, &c) in text.iter().enumerate() {
        let d = digit(c).ok_or(DecodeError::InvalidByte(index, c))?;
        v = v
            .checked_mul(36)
            .and_then(|v| v.checked_add(u128::from(d)))
            .ok_or(DecodeError::Overflow)?;
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: one `u128` division a digit.
    fn naive(mut v: u128) -> [u8; LEN] {
        let mut out = [b'0'; LEN];
        for c in out.iter_mut().rev() {
            *c = DIGITS[(v % 36) as usize];
            v /= 36;
        }
        assert_eq!(v, 0);
        out
    }

    #[test]
    fn the_largest_value_is_couchdbs_width() {
        let mut out = [0u8; LEN];
        encode(u128::MAX, &mut out);
        // couch_uuids.erl: 25 == length(integer_to_list(1 bsl 128 - 1, 36)).
        assert_eq!(&out, b"f5lxx1zz5pnorynqglhzmsp33");
        assert_eq!(decode(&out), Ok(u128::MAX));
    }

    #[test]
    fn limbs_agree_with_the_naive_division_at_their_edges() {
        let limb = u128::from(LIMB);
        let edges = [
            0,
            1,
            35,
            36,
            limb - 1,
            limb,
            limb * limb - 1,
            limb * limb,
            u128::MAX - 1,
            u128::MAX,
        ];
        for v in edges {
            let mut out = [0u8; LEN];
            encode(v, &mut out);
            assert_eq!(out, naive(v), "{v}");
            assert_eq!(decode(&out), Ok(v));
        }
    }

    proptest::proptest! {
        #[test]
        fn encode_matches_the_naive_division(v: u128) {
            let mut out = [0u8; LEN];
            encode(v, &mut out);
            proptest::prop_assert_eq!(out, naive(v));
            proptest::prop_assert_eq!(decode(&out), Ok(v));
            let upper = out.map(|c| c.to_ascii_uppercase());
            proptest::prop_assert_eq!(decode(&upper), Ok(v));
        }
    }

    #[test]
    fn bad_digits_and_overflow_are_refused() {
        let mut text = *b"f5lxx1zz5pnorynqglhzmsp34";
        assert_eq!(decode(&text), Err(DecodeError::Overflow));
        text[3] = b'-';
        assert_eq!(decode(&text), Err(DecodeError::InvalidByte(3, b'-')));
        assert_eq!(
            decode(b"zzzzzzzzzzzzzzzzzzzzzzzzz"),
            Err(DecodeError::Overflow)
        );
    }
}
