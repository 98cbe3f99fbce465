//! Jittered keys: the plain key between two bounds, moved up by a random
//! amount inside its gap, so two replicas that insert between the same
//! neighbours while apart do not mint the same key.
//!
//! With `bits` random bits the key is one of exactly `2^bits` keys, all
//! strictly between the bounds and each equally likely: draw `v` uniform
//! below `2^bits`; `v = 0` is the plain key `k`; otherwise `v`'s base62
//! digits at a fixed width (trailing zeros dropped) are appended to `k`,
//! after enough `0`s to stay below the upper bound when `k` is a prefix
//! of it. Distinct `v` give distinct fractions, so two replicas collide
//! with probability exactly `2^-bits`.

use super::between::{between, check};
use super::key::OrderKey;
use super::key_buf::KeyBuf;
use super::many::{MAX_KEYS, n_keys_between_into};
use crate::engine::ALPHABET;
use crate::error::order::OrderError;

/// The most random bits a jittered key takes.
///
/// ```
/// use kuuid::order::{MAX_JITTER_BITS, key_between_jittered};
///
/// assert!(key_between_jittered(Some("a0"), Some("a1"), MAX_JITTER_BITS).is_ok());
/// assert!(key_between_jittered(Some("a0"), Some("a1"), MAX_JITTER_BITS + 1).is_err());
/// ```
pub const MAX_JITTER_BITS: u32 = 64;

/// Like [`key_between`](super::key_between), then moved up by one of
/// `2^bits` equally likely amounts within the gap (`bits` at most 64; 0 is
/// the plain key). The randomness is this thread's secure generator,
/// reseeded in a forked child.
///
/// Two replicas inserting between the same neighbours get the same key
/// with probability `2^-bits`: 1 in 10^6 at 20 bits, 1 in 10^12 at 40.
/// Each bit costs about a sixth of a character (`ceil(bits / 5.95)`
/// digits, sometimes one more `0`).
///
/// ```
/// use kuuid::order::key_between_jittered;
///
/// let k = key_between_jittered(Some("a0"), Some("a1"), 30)?;
/// assert!("a0" < k.as_str() && k.as_str() < "a1");
/// assert!(k.as_str().starts_with("a0V")); // the plain key, then jitter
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn key_between_jittered(
    a: Option<&str>,
    b: Option<&str>,
    bits: u32,
) -> Result<OrderKey, OrderError> {
    let (a, b) = (a.map(str::as_bytes), b.map(str::as_bytes));
    check(a, b)?;
    check_bits(bits)?;
    let mut out = Vec::new();
    between(a, b, &mut out);
    jitter(&mut out, 0, b, draw(bits), bits);
    Ok(OrderKey::from_valid(&out))
}

/// `n` jittered keys in ascending order between `a` and `b`: npm's `n`
/// keys, each moved up within the gap to the next (by the same rule as
/// [`key_between_jittered`]).
///
/// ```
/// let keys = kuuid::order::n_keys_between_jittered(None, None, 3, 20)?;
/// assert!(keys[0] < keys[1] && keys[1] < keys[2]);
/// assert!(keys[2].as_str().starts_with("a2"));
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn n_keys_between_jittered(
    a: Option<&str>,
    b: Option<&str>,
    n: usize,
    bits: u32,
) -> Result<Vec<OrderKey>, OrderError> {
    let mut buf = KeyBuf::new();
    n_keys_between_jittered_into(a, b, n, bits, &mut buf)?;
    Ok(buf.iter().map(OrderKey::from).collect())
}

/// Appends [`n_keys_between_jittered`]'s keys to `buf`.
///
/// ```
/// let mut buf = kuuid::order::KeyBuf::new();
/// kuuid::order::n_keys_between_jittered_into(Some("a0"), Some("a1"), 10, 16, &mut buf)?;
/// assert_eq!(buf.len(), 10);
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn n_keys_between_jittered_into(
    a: Option<&str>,
    b: Option<&str>,
    n: usize,
    bits: u32,
    buf: &mut KeyBuf,
) -> Result<(), OrderError> {
    check_bits(bits)?;
    if n as u64 > MAX_KEYS {
        return Err(OrderError::TooMany { found: n as u64 });
    }
    let mut plain = KeyBuf::with_capacity(n, 0);
    n_keys_between_into(a, b, n, &mut plain)?;
    let upper = b.map(str::as_bytes);
    let mut keys = plain.iter().peekable();
    let mut text = Vec::new();
    while let Some(k) = keys.next() {
        let above = keys.peek().map(|next| next.as_str().as_bytes()).or(upper);
        text.clear();
        text.extend_from_slice(k.as_str().as_bytes());
        jitter(&mut text, 0, above, draw(bits), bits);
        buf.push_valid(&text);
    }
    Ok(())
}

fn check_bits(bits: u32) -> Result<(), OrderError> {
    if bits > MAX_JITTER_BITS {
        return Err(OrderError::JitterBits { found: bits });
    }
    Ok(())
}

/// A uniform draw below `2^bits` from this thread's secure generator.
fn draw(bits: u32) -> u64 {
    if bits == 0 {
        return 0;
    }
    let [lo, hi] = crate::local::words::<2>();
    let v = u64::from(hi) << 32 | u64::from(lo);
    v >> (64 - bits)
}

/// The base62 digits that hold every value below `2^bits`.
pub(crate) fn width(bits: u32) -> usize {
    let mut width = 0;
    let mut room: u128 = 1;
    while room < 1u128 << bits {
        room *= 62;
        width += 1;
    }
    width
}

/// Moves the key `out[start..]` (strictly below `upper`) up by the jitter
/// value `v < 2^bits`, staying strictly below `upper`.
pub(crate) fn jitter(out: &mut Vec<u8>, start: usize, upper: Option<&[u8]>, v: u64, bits: u32) {
    if v == 0 {
        return;
    }
    if let Some(rest) = upper.and_then(|u| u.strip_prefix(&out[start..])) {
        // The key is a prefix of the bound: the bound continues with some
        // zeros and then a non-zero digit (it does not end in `0`); one
        // more zero keeps every extension below it.
        let zeros = rest.iter().take_while(|&&d| d == b'0').count();
        out.resize(out.len() + zeros + 1, b'0');
    }
    let at = out.len();
    let mut v = v;
    for _ in 0..width(bits) {
        out.push(ALPHABET[(v % 62) as usize]);
        v /= 62;
    }
    out[at..].reverse();
    while out.last() == Some(&b'0') {
        out.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::key::validate;

    #[test]
    fn widths_hold_every_value() {
        assert_eq!(width(0), 0);
        assert_eq!(width(5), 1);
        assert_eq!(width(6), 2);
        assert_eq!(width(64), 11);
        for bits in 1..=64u32 {
            let w = width(bits) as u32;
            assert!(62u128.pow(w) >= 1u128 << bits);
            assert!(62u128.pow(w - 1) < 1u128 << bits);
        }
    }

    /// Every value of a small jitter gives a distinct valid key inside the
    /// gap, for gaps where the plain key is and is not a prefix of the
    /// upper bound.
    #[test]
    fn every_value_lands_inside_the_gap_and_apart() {
        let cases: [(Option<&str>, Option<&str>); 6] = [
            (Some("a0"), Some("a1")),
            (Some("a0"), Some("a01")),
            (Some("a0"), Some("a0001")),
            (Some("Zz"), Some("a0001")),
            (None, Some("a0V")),
            (Some("az"), None),
        ];
        let bits = 9;
        for (a, b) in cases {
            let mut plain = Vec::new();
            between(a.map(str::as_bytes), b.map(str::as_bytes), &mut plain);
            let mut seen = std::collections::BTreeSet::new();
            for v in 0..1u64 << bits {
                let mut k = plain.clone();
                jitter(&mut k, 0, b.map(str::as_bytes), v, bits);
                validate(&k).unwrap();
                assert!(a.is_none_or(|a| a.as_bytes() < &k[..]), "{a:?} < {k:?}");
                assert!(b.is_none_or(|b| &k[..] < b.as_bytes()), "{k:?} < {b:?}");
                seen.insert(k);
            }
            assert_eq!(seen.len(), 1 << bits, "{a:?} {b:?}");
        }
    }

    #[test]
    fn bits_are_checked() {
        assert_eq!(
            key_between_jittered(None, None, 65),
            Err(OrderError::JitterBits { found: 65 })
        );
        assert_eq!(key_between_jittered(None, None, 0).unwrap().as_str(), "a0");
    }
}
