//! Integer keys `m` places apart, in one step: the integers of every head
//! in byte order (`A` + 26 digits up to `Z` + 1 digit, then `a` + 1 digit
//! up to `z` + 26 digits) are one sequence, and npm's increment and
//! decrement walk it one place at a time. So the `m`-th key after (or
//! before) an integer key is that one's place plus (or minus) `m`, carried
//! across heads: what `n` keys from an open end need to start a batch in
//! the middle without making the keys before it.

use crate::engine::ALPHABET;

use super::key::integer_len;

/// The digit's value in `0-9A-Za-z`.
fn value(d: u8) -> u64 {
    match d {
        b'0'..=b'9' => u64::from(d - b'0'),
        b'A'..=b'Z' => u64::from(d - b'A') + 10,
        _ => u64::from(d - b'a') + 36,
    }
}

/// The head before `head` in the sequence (`None` below `A`).
fn prev_head(head: u8) -> Option<u8> {
    match head {
        b'a' => Some(b'Z'),
        b'A' => None,
        h => Some(h - 1),
    }
}

/// The head after `head` (`None` past `z`).
fn next_head(head: u8) -> Option<u8> {
    match head {
        b'Z' => Some(b'a'),
        b'z' => None,
        h => Some(h + 1),
    }
}

/// The value of `digits` if it is below `limit` (at most 62^8), else
/// `None`.
fn small_value(digits: &[u8], limit: u64) -> Option<u64> {
    let cut = digits.len().saturating_sub(8);
    if digits[..cut].iter().any(|&d| d != b'0') {
        return None;
    }
    let v = digits[cut..].iter().fold(0, |v, &d| v * 62 + value(d));
    (v < limit).then_some(v)
}

/// Adds (`UP`) or subtracts `m` (which fits in 8 digits) to the base-62
/// `digits`, which the caller knows stay in range.
fn shift<const UP: bool>(digits: &mut [u8], mut m: u64) {
    for d in digits.iter_mut().rev() {
        if m == 0 {
            break;
        }
        let (v, step) = (value(*d) as i64, (m % 62) as i64);
        m /= 62;
        let mut r = if UP { v + step } else { v - step };
        if r >= 62 {
            r -= 62;
            m += 1;
        } else if r < 0 {
            r += 62;
            m += 1;
        }
        *d = ALPHABET[r as usize];
    }
}

/// The integer key `m` places before (`UP` false) or after the integer key
/// `int`, or `None` where the walk would leave the integers npm steps
/// through: below `A00..01` (npm's decrement reaches the smallest integer,
/// which is no key, and the keys below take fractions) or past `zz..z`.
pub(super) fn jump<const UP: bool>(int: &[u8], m: u64) -> Option<Vec<u8>> {
    let mut head = int[0];
    let mut digits = int[1..].to_vec();
    let mut rem = m;
    loop {
        // Room left in this head, if under `rem`: places to its last
        // integer (up: the digit-wise complement's value) or its first.
        let room = if UP {
            let gap: Vec<u8> = digits
                .iter()
                .map(|&d| ALPHABET[61 - value(d) as usize])
                .collect();
            small_value(&gap, rem)
        } else {
            small_value(&digits, rem)
        };
        match room {
            None => {
                shift::<UP>(&mut digits, rem);
                break;
            }
            Some(room) => {
                // Past this head's end: on into the next head's first
                // (or the previous head's last) integer.
                rem -= room + 1;
                head = if UP {
                    next_head(head)?
                } else {
                    prev_head(head)?
                };
                let len = integer_len(head).expect("a head letter") - 1;
                digits = vec![if UP { b'0' } else { b'z' }; len];
            }
        }
    }
    // Below `A00..01`: npm's walk there is not the integers'.
    if !UP && head == b'A' && small_value(&digits, 1).is_some() {
        return None;
    }
    let mut out = Vec::with_capacity(1 + digits.len());
    out.push(head);
    out.extend_from_slice(&digits);
    Some(out)
}
