//! Any part of the `n` keys between two bounds, made without the keys
//! before it: the bisection descends only into the halves that hold some
//! of the part, and from an open end the part's first key is reached by
//! arithmetic on the integers (`jump.rs`).

use std::ops::Range;

use super::between::{between, check};
use super::jump::jump;
use super::key::integer_len;
use super::key_buf::KeyBuf;
use super::many::{MAX_KEYS, bisect_part, n_keys_between_into, open_ended};
use crate::error::order::OrderError;

/// Appends keys `part` (indices into the `n`, ascending) of the `n` keys
/// between `a` and `b`: the same keys as that run of [`n_keys_between`](super::n_keys_between)'s
/// answer, so a caller can write any number of keys in batches of its
/// choosing, holding one batch at a time. Indices at or past `n` are left
/// out.
///
/// Between two keys each batch costs its own keys plus about `log2(n)`
/// keys of the bisection above it. From an open end the keys are
/// consecutive integers (npm steps them one at a time), so a batch starts
/// at its first key's place at once; only within `n` keys of the ends of
/// the integers (`A00..01`, `zz..z`), where npm's keys take fractions, are
/// the keys before the batch made too.
///
/// ```
/// use kuuid::order::{KeyBuf, n_keys_between, n_keys_between_part_into};
///
/// let all = n_keys_between(Some("a0"), Some("a1"), 1000)?;
/// let mut buf = KeyBuf::new();
/// n_keys_between_part_into(Some("a0"), Some("a1"), 1000, 500..503, &mut buf)?;
/// let part: Vec<&str> = buf.iter().map(|k| k.as_str()).collect();
/// assert_eq!(part, [all[500].as_str(), all[501].as_str(), all[502].as_str()]);
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn n_keys_between_part_into(
    a: Option<&str>,
    b: Option<&str>,
    n: usize,
    part: Range<usize>,
    buf: &mut KeyBuf,
) -> Result<(), OrderError> {
    let part = part.start.min(n)..part.end.min(n);
    match (a, b) {
        (Some(lo), Some(hi)) => {
            let (lo, hi) = (lo.as_bytes(), hi.as_bytes());
            check(Some(lo), Some(hi))?;
            if n as u64 > MAX_KEYS {
                return Err(OrderError::TooMany { found: n as u64 });
            }
            bisect_part(lo, hi, n, part, buf);
        }
        _ => {
            check(a.map(str::as_bytes), b.map(str::as_bytes))?;
            if n as u64 > MAX_KEYS {
                return Err(OrderError::TooMany { found: n as u64 });
            }
            if part.is_empty() {
                return Ok(());
            }
            if !open_part(a, b, n, &part, buf) {
                // Near the ends of the integers: every key up to the part.
                let made = if b.is_some() { n } else { part.end };
                let mut all = KeyBuf::new();
                n_keys_between_into(a, b, made, &mut all)?;
                for k in all.iter_bytes().skip(part.start).take(part.len()) {
                    buf.push_valid(k);
                }
            }
        }
    }
    Ok(())
}

/// The part from an open end, started at its first key's place: `false`
/// when the first key npm makes from the bound is not an integer or the
/// part's start lies past the ends of the integers.
fn open_part(
    a: Option<&str>,
    b: Option<&str>,
    n: usize,
    part: &Range<usize>,
    buf: &mut KeyBuf,
) -> bool {
    // The key next to the bound, the first of the walk.
    let mut first = Vec::new();
    between(a.map(str::as_bytes), b.map(str::as_bytes), &mut first);
    if integer_len(first[0]) != Some(first.len()) {
        return false;
    }
    // Ascending from a lower bound (or none) key i is i places after the
    // first; below an upper bound the keys are counted down from it, so
    // ascending key i is n - 1 - i places before it.
    let start = if b.is_none() {
        jump::<true>(&first, part.start as u64)
    } else {
        jump::<false>(&first, (n - 1 - part.start) as u64)
    };
    let Some(start) = start else {
        return false;
    };
    buf.push_valid(&start);
    // Each key after it is the next integer, as npm steps them.
    open_ended::<true>(buf, part.len() - 1);
    true
}
