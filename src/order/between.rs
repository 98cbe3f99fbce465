//! One key between two: the midpoint of two fractions, the integer step,
//! and the rules npm `fractional-indexing` 4.0.0 follows to pick between
//! them (so our keys are byte-identical to its `generateKeyBetween`).
//!
//! Everything here works on bytes already validated: every byte after the
//! head is a base62 digit, fractions do not end in `0`, and `a < b`.

use super::key::{
    INLINE, OrderKey, SMALLEST, cmp_bytes, digit, integer_len, integer_part, middle_digit, validate,
};
use super::out::KeyOut;
use super::short_key;
use crate::engine::ALPHABET;
use crate::error::order::OrderError;

/// Checks both bounds and their order.
pub(crate) fn check(a: Option<&[u8]>, b: Option<&[u8]>) -> Result<(), OrderError> {
    if let Some(a) = a {
        validate(a).map_err(OrderError::Lower)?;
    }
    if let Some(b) = b {
        validate(b).map_err(OrderError::Upper)?;
    }
    match (a, b) {
        (Some(a), Some(b)) if cmp_bytes(a, b).is_ge() => Err(OrderError::NotAscending),
        _ => Ok(()),
    }
}

/// A key strictly between `a` and `b`; `None` is an open end.
///
/// The same key npm `fractional-indexing` 4.0.0's `generateKeyBetween`
/// returns for valid, ascending bounds: short, and in the middle of the
/// gap. Bounds are checked first; npm accepts some invalid ones
/// (`docs/order.md` lists where we differ).
///
/// ```
/// use kuuid::order::key_between;
///
/// let first = key_between(None, None)?;                 // a0
/// let next = key_between(Some(first.as_str()), None)?;   // a1
/// let before = key_between(None, Some(first.as_str()))?; // Zz
/// let mid = key_between(Some("a1"), Some("a2"))?;        // a1V
/// assert_eq!([first.as_str(), next.as_str(), before.as_str(), mid.as_str()], ["a0", "a1", "Zz", "a1V"]);
/// assert!(before < first && first < next);
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
// Inlined into the caller, word path and all: the key then stays in two
// registers, where a call hands the `Result` back through memory and the
// caller's 16-byte load of the key waits on the two 8-byte stores that
// wrote it (docs/performance.md, "Measurements behind the code").
#[inline(always)]
pub fn key_between(a: Option<&str>, b: Option<&str>) -> Result<OrderKey, OrderError> {
    let (a, b) = (a.map(str::as_bytes), b.map(str::as_bytes));
    match short_key::between(a, b) {
        Some((word, len)) => Ok(OrderKey::from_word(word, len)),
        None => key_between_general(a, b),
    }
}

/// [`key_between`] for what the word path leaves: long or invalid bounds
/// and carries. Out of line, so the word path's caller saves no registers
/// for it.
#[cold]
#[inline(never)]
fn key_between_general(a: Option<&[u8]>, b: Option<&[u8]>) -> Result<OrderKey, OrderError> {
    check(a, b)?;
    let longest = a.map_or(0, <[u8]>::len).max(b.map_or(0, <[u8]>::len));
    // The key is at most two bytes longer than the longer bound.
    if longest + 2 <= INLINE {
        Ok(OrderKey::write_inline(|out| between(a, b, out)))
    } else {
        let mut out = Vec::with_capacity(longest + 2);
        between(a, b, &mut out);
        Ok(OrderKey::from_valid(&out))
    }
}

/// Appends the key between valid, ascending `a` and `b` to `out`.
pub(crate) fn between(a: Option<&[u8]>, b: Option<&[u8]>, out: &mut impl KeyOut) {
    match (a, b) {
        (None, None) => out.extend_from_slice(b"a0"),
        (None, Some(b)) => {
            let ib = integer_part(b);
            if ib == SMALLEST {
                // Nothing sorts below the smallest integer: stay on it and
                // take a fraction below b's.
                out.extend_from_slice(ib);
                midpoint(b"", Some(&b[ib.len()..]), out);
            } else if ib.len() < b.len() {
                // b has a fraction, so its integer part alone is below it.
                out.extend_from_slice(ib);
            } else {
                let start = out.len();
                decrement(ib, out);
                if out[start..] == *SMALLEST {
                    // npm returns the smallest integer itself here, a key
                    // its own validator refuses; take a fraction above it.
                    midpoint(b"", None, out);
                }
            }
        }
        (Some(a), None) => {
            let ia = integer_part(a);
            if !increment(ia, out) {
                // The largest integer: stay on it, go up in the fraction.
                out.extend_from_slice(ia);
                midpoint(&a[ia.len()..], None, out);
            }
        }
        (Some(a), Some(b)) => {
            let (ia, ib) = (integer_part(a), integer_part(b));
            if cmp_bytes(ia, ib).is_eq() {
                out.extend_from_slice(ia);
                midpoint(&a[ia.len()..], Some(&b[ib.len()..]), out);
                return;
            }
            let start = out.len();
            // ib > ia, so ia is not the largest integer.
            let stepped = increment(ia, out);
            debug_assert!(stepped);
            if cmp_bytes(&out[start..], b).is_lt() {
                return;
            }
            out.truncate(start);
            out.extend_from_slice(ia);
            midpoint(&a[ia.len()..], None, out);
        }
    }
}

/// Appends a fraction strictly between fractions `a` and `b` (`None`: 1),
/// `a < b`, neither ending in `0`: after their common prefix (`a` padded
/// with zeros), the middle digit of the gap when there is one; otherwise
/// `b`'s first digit alone when that is still below `b`, or `a`'s first
/// digit and a fraction above the rest of `a`.
fn midpoint(mut a: &[u8], mut b: Option<&[u8]>, out: &mut impl KeyOut) {
    loop {
        if let Some(bb) = b {
            let n = bb
                .iter()
                .enumerate()
                .take_while(|&(i, &d)| a.get(i).copied().unwrap_or(b'0') == d)
                .count();
            if n > 0 {
                out.extend_from_slice(&bb[..n]);
                a = a.get(n..).unwrap_or(b"");
                b = Some(&bb[n..]);
                continue;
            }
        }
        let da = a.first().map_or(0, |&d| digit(d));
        let db = b.map_or(62, |bb| digit(bb[0]));
        if db - da > 1 {
            out.push(middle_digit(da, db));
            return;
        }
        match b {
            Some(bb) if bb.len() > 1 => {
                out.push(bb[0]);
                return;
            }
            _ => {
                out.push(ALPHABET[da]);
                a = a.get(1..).unwrap_or(b"");
                b = None;
            }
        }
    }
}

/// Appends the integer after `x` and returns true, or returns false (and
/// appends nothing) when `x` is the largest, `z` and 26 `z` digits.
fn increment(x: &[u8], out: &mut impl KeyOut) -> bool {
    let start = out.len();
    out.extend_from_slice(x);
    let stepped = step::<true>(out, start);
    if !stepped {
        out.truncate(start);
    }
    stepped
}

/// Appends the integer before `x`, which is not the smallest.
fn decrement(x: &[u8], out: &mut impl KeyOut) {
    let start = out.len();
    out.extend_from_slice(x);
    let stepped = step::<false>(out, start);
    debug_assert!(stepped, "the smallest integer has no predecessor");
}

/// Turns the integer `v[start..]` into the next one (`UP`) or the one
/// before and returns true, or returns false (leaving it) at the largest
/// or smallest integer. Past the last number of a head comes the first of
/// the next head, one digit longer above `a` and one shorter below.
pub(crate) fn step<const UP: bool>(v: &mut impl KeyOut, start: usize) -> bool {
    if step_digits::<UP>(&mut v[start..]) {
        return true;
    }
    let (head, fill) = match (UP, v[start]) {
        (true, b'z') | (false, b'A') => return false,
        (true, b'Z') => (b'a', b'0'),
        (false, b'a') => (b'Z', b'z'),
        (true, h) => (h + 1, b'0'),
        (false, h) => (h - 1, b'z'),
    };
    let len = integer_len(head).expect("a letter");
    v.truncate(start);
    v.push(head);
    v.resize(start + len, fill);
    true
}

/// Steps the digits of the integer `x` (its head kept) up (`UP`) or down
/// by one and returns true, or returns false (leaving them) when they are
/// all `z` (up) or all `0` (down) and only a new head would do.
#[inline]
pub(crate) fn step_digits<const UP: bool>(x: &mut [u8]) -> bool {
    let (last, first) = if UP { (b'z', b'0') } else { (b'0', b'z') };
    let Some(i) = x[1..].iter().rposition(|&d| d != last) else {
        return false;
    };
    let i = i + 1;
    let d = digit(x[i]);
    x[i] = ALPHABET[if UP { d + 1 } else { d - 1 }];
    x[i + 1..].fill(first);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::OrderKeyError;

    fn between_str(a: Option<&str>, b: Option<&str>) -> String {
        key_between(a, b).unwrap().into_string()
    }

    #[test]
    fn npm_readme_examples() {
        assert_eq!(between_str(None, None), "a0");
        assert_eq!(between_str(Some("a0"), None), "a1");
        assert_eq!(between_str(None, Some("a0")), "Zz");
        assert_eq!(between_str(Some("a0"), Some("a1")), "a0V");
        assert_eq!(between_str(Some("a1"), Some("a2")), "a1V");
        assert_eq!(between_str(Some("a0V"), Some("a1")), "a0l");
        assert_eq!(between_str(Some("Zz"), Some("a0")), "ZzV");
        assert_eq!(between_str(Some("Zz"), Some("a01")), "a0");
        assert_eq!(between_str(None, Some("a0V")), "a0");
        assert_eq!(between_str(Some("b125"), Some("b129")), "b127");
        assert_eq!(between_str(Some("a0"), Some("a0V")), "a0G");
        assert_eq!(between_str(Some("a0"), Some("a0G")), "a08");
        assert_eq!(between_str(Some("b125"), Some("b1259")), "b1255");
        assert_eq!(between_str(Some("a0"), Some("a01")), "a00V");
    }

    #[test]
    fn integers_carry_across_heads() {
        assert_eq!(between_str(Some("az"), None), "b00");
        assert_eq!(between_str(Some("Zz"), None), "a0");
        assert_eq!(between_str(Some("Yzz"), None), "Z0");
        assert_eq!(between_str(None, Some("b00")), "az");
        assert_eq!(between_str(None, Some("Z0")), "Yzz");
        let largest = format!("z{}", "z".repeat(26));
        assert_eq!(between_str(Some(&largest), None), format!("{largest}V"));
        // Below the integer after the smallest: not the smallest integer
        // (npm's answer, which is not a key) but a fraction above it.
        let one = format!("A{}1", "0".repeat(25));
        let smallest = std::str::from_utf8(SMALLEST).unwrap();
        assert_eq!(between_str(None, Some(&one)), format!("{smallest}V"));
        let keys = crate::order::n_keys_between(None, Some(&format!("{one}a")), 3).unwrap();
        let keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            keys,
            [format!("{smallest}G"), format!("{smallest}V"), one.clone()]
        );
        let above_smallest = format!("{}1", std::str::from_utf8(SMALLEST).unwrap());
        assert_eq!(
            between_str(None, Some(&above_smallest)),
            format!("{}0V", std::str::from_utf8(SMALLEST).unwrap())
        );
    }

    #[test]
    fn bounds_are_checked() {
        assert_eq!(
            key_between(Some("a1"), Some("a1")),
            Err(OrderError::NotAscending)
        );
        assert_eq!(
            key_between(None, Some("b1")),
            Err(OrderError::Upper(OrderKeyError::Short {
                head: 'b',
                needed: 3,
                found: 2
            }))
        );
        assert_eq!(
            key_between(Some("0a"), None),
            Err(OrderError::Lower(OrderKeyError::Head { byte: b'0' }))
        );
        assert_eq!(
            key_between(Some(""), None),
            Err(OrderError::Lower(OrderKeyError::Empty))
        );
        assert_eq!(
            key_between(Some("a10"), None),
            Err(OrderError::Lower(OrderKeyError::TrailingZero { index: 2 }))
        );
        let smallest = std::str::from_utf8(SMALLEST).unwrap();
        assert_eq!(
            key_between(None, Some(smallest)),
            Err(OrderError::Upper(OrderKeyError::Smallest))
        );
        assert_eq!(
            key_between(Some("a\u{e9}"), None),
            Err(OrderError::Lower(OrderKeyError::InvalidByte {
                index: 1,
                byte: 0xC3
            }))
        );
    }
}
