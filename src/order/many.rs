//! Many keys at once: `n` keys between two bounds (npm's
//! `generateNKeysBetween`) and the shortest evenly spaced `n` keys
//! (`rebalance`), written into a [`KeyBuf`] (`key_buf.rs`).

use std::ops::Range;

use super::between::{between, check, step, step_digits};
use super::key::{OrderKey, SMALLEST, integer_len, integer_part};
use super::key_buf::KeyBuf;
use super::short_key;
use crate::engine::ALPHABET;
use crate::error::order::OrderError;

/// The most keys one call makes: far past what memory holds, and small
/// enough that the spacing arithmetic cannot overflow.
///
/// ```
/// use kuuid::order::{KeyBuf, MAX_KEYS, n_keys_between_part_into};
///
/// // The first three of MAX_KEYS keys, without making the rest.
/// let mut buf = KeyBuf::new();
/// let n = usize::try_from(MAX_KEYS).unwrap();
/// n_keys_between_part_into(None, None, n, 0..3, &mut buf).unwrap();
/// assert_eq!(buf.len(), 3);
/// assert!(n_keys_between_part_into(None, None, n + 1, 0..3, &mut buf).is_err());
/// ```
pub const MAX_KEYS: u64 = 1 << 40;

/// Appends the key between `a` and `b` to `buf`: [`key_between`]'s key,
/// with no allocation once the buffer has grown.
///
/// [`key_between`]: super::key_between
///
/// ```
/// let mut buf = kuuid::order::KeyBuf::new();
/// kuuid::order::key_between_into(Some("a0"), Some("a1"), &mut buf)?;
/// assert_eq!(buf.get(0).unwrap().as_str(), "a0V");
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
#[inline]
pub fn key_between_into(
    a: Option<&str>,
    b: Option<&str>,
    buf: &mut KeyBuf,
) -> Result<(), OrderError> {
    let (a, b) = (a.map(str::as_bytes), b.map(str::as_bytes));
    if let Some((word, len)) = short_key::between(a, b) {
        // All 16 bytes, then the tail cut: a copy of fixed length, where
        // `[..len]` made it a call to `memmove`.
        let end = buf.text.len() + len;
        buf.text.extend_from_slice(&word.to_be_bytes());
        buf.text.truncate(end);
    } else {
        check(a, b)?;
        between(a, b, &mut buf.text);
    }
    buf.seal();
    Ok(())
}

/// `n` keys in ascending order strictly between `a` and `b`.
///
/// The keys npm `fractional-indexing` 4.0.0's `generateNKeysBetween`
/// returns: consecutive integers from an open end, otherwise evenly
/// bisected keys between the bounds.
///
/// ```
/// use kuuid::order::n_keys_between;
///
/// let keys = n_keys_between(Some("a0"), Some("a1"), 3)?;
/// let text: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
/// assert_eq!(text, ["a0G", "a0V", "a0l"]);
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn n_keys_between(
    a: Option<&str>,
    b: Option<&str>,
    n: usize,
) -> Result<Vec<OrderKey>, OrderError> {
    let mut buf = KeyBuf::new();
    n_keys_between_into(a, b, n, &mut buf)?;
    Ok(buf.iter().map(OrderKey::from).collect())
}

/// Appends `n` keys between `a` and `b` to `buf`: the same keys as
/// [`n_keys_between`], with no allocation per key.
///
/// ```
/// let mut buf = kuuid::order::KeyBuf::new();
/// kuuid::order::n_keys_between_into(Some("az"), None, 2, &mut buf)?;
/// assert_eq!(buf.iter().map(|k| k.as_str()).collect::<Vec<_>>(), ["b00", "b01"]);
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn n_keys_between_into(
    a: Option<&str>,
    b: Option<&str>,
    n: usize,
    buf: &mut KeyBuf,
) -> Result<(), OrderError> {
    let (a, b) = (a.map(str::as_bytes), b.map(str::as_bytes));
    check(a, b)?;
    if n as u64 > MAX_KEYS {
        return Err(OrderError::TooMany { found: n as u64 });
    }
    match (a, b) {
        _ if n == 0 => {}
        (_, None) => ascending_from(a, n, buf),
        (None, Some(b)) => descending_to(b, n, buf),
        (Some(a), Some(b)) => bisect_part(a, b, n, 0..n, buf),
    }
    Ok(())
}

/// Keys `part` of the `n` keys strictly between `a` and `b`.
pub(super) fn bisect_part(a: &[u8], b: &[u8], n: usize, part: Range<usize>, buf: &mut KeyBuf) {
    let mut arena = Vec::with_capacity(2 * (a.len() + b.len()) + 64);
    arena.extend_from_slice(a);
    arena.extend_from_slice(b);
    let (a, b) = (0..a.len(), a.len()..a.len() + b.len());
    bisect(&mut arena, a, b, n, part, buf);
}

/// `n` keys after `a` (or from `a0`), each the next integer after the one
/// before, as npm steps them.
fn ascending_from(a: Option<&[u8]>, n: usize, buf: &mut KeyBuf) {
    buf.ends.reserve(n);
    between(a, None, &mut buf.text);
    buf.seal();
    open_ended::<true>(buf, n - 1);
}

/// `n` keys before `b`, each the integer before the one after it, listed
/// in ascending order.
fn descending_to(b: &[u8], n: usize, buf: &mut KeyBuf) {
    let first = buf.ends.len();
    let base = buf.text.len();
    buf.ends.reserve(n);
    between(None, Some(b), &mut buf.text);
    buf.seal();
    open_ended::<false>(buf, n - 1);
    // Written descending: reverse the run of keys in place. Reversing all
    // bytes puts the keys in order with each one spelled backwards; then
    // each key is turned back.
    buf.text[base..].reverse();
    let ends = &mut buf.ends[first..];
    let mut prev_end = base;
    for end in ends.iter_mut() {
        let len = *end - prev_end;
        prev_end = *end;
        *end = len;
    }
    ends.reverse();
    let mut at = base;
    for end in ends.iter_mut() {
        let len = *end;
        buf.text[at..at + len].reverse();
        at += len;
        *end = at;
    }
}

/// Appends `n` keys, each the one after (`UP`) or before the last key
/// as `between` with an open end makes it: runs of integers that keep
/// their head are stepped in a local copy and stored with a fixed-size
/// copy (no call per key); a head change, the largest integer or a key
/// with a fraction goes through `between` from a copy in a scratch buffer.
pub(super) fn open_ended<const UP: bool>(buf: &mut KeyBuf, n: usize) {
    let mut made = 0;
    let mut scratch = Vec::new();
    while made < n {
        made += integer_run::<UP>(buf, n - made);
        if made == n {
            break;
        }
        let end = buf.text.len();
        let start = end - buf.last_bytes().expect("one key was written").len();
        if integer_len(buf.text[start]) == Some(end - start) {
            buf.text.extend_from_within(start..end);
            // Never onto the smallest integer, which is not a key: `between`
            // takes a fraction above it instead.
            if step::<UP>(&mut buf.text, end) && (UP || buf.text[end..] != *SMALLEST) {
                buf.seal();
                made += 1;
                continue;
            }
            buf.text.truncate(end);
        }
        scratch.clear();
        scratch.extend_from_slice(&buf.text[start..end]);
        let (a, b) = if UP {
            (Some(&scratch[..]), None)
        } else {
            (None, Some(&scratch[..]))
        };
        between(a, b, &mut buf.text);
        buf.seal();
        made += 1;
    }
}

/// While the last key is an integer and its successor (`UP`) or
/// predecessor keeps its head, appends that, up to `max` keys; returns how
/// many.
fn integer_run<const UP: bool>(buf: &mut KeyBuf, max: usize) -> usize {
    let last = buf.last_bytes().expect("one key was written");
    let len = last.len();
    if integer_len(last[0]) != Some(len) {
        return 0;
    }
    if len <= 16 {
        let key = u128::from_le_bytes(std::array::from_fn(|i| last.get(i).copied().unwrap_or(0)));
        return short_integer_run::<UP>(buf, key, len, max);
    }
    let mut cur = [0u8; 32];
    cur[..len].copy_from_slice(last);
    let mut made = 0;
    while made < max && step_digits::<UP>(&mut cur[..len]) {
        if !UP && cur[..len] == *SMALLEST {
            break;
        }
        let at = buf.text.len();
        buf.text.extend_from_slice(&cur);
        buf.text.truncate(at + len);
        buf.seal();
        made += 1;
    }
    made
}

/// [`integer_run`] for an integer of `len <= 16` bytes held in `key` (byte
/// `i` of the key in bits `8i..8i + 8`). The last digit steps with one add
/// unless it is the alphabet's end, and each key is stored from the
/// register: the byte-wise step wrote a byte that the next copy read back
/// with a 16-byte load, a store-forwarding stall that was two thirds of
/// `n_keys_between(None, None, 10^6)`'s time (perf, Zen 1). Not inlined:
/// inside `n_keys_between_into`'s one large body this loop and the
/// bisection both ran slower (criterion, 10^6 keys: 6.9 vs 9.0 ms, and
/// 43.6 vs 50.4 ms for the bisection).
#[inline(never)]
fn short_integer_run<const UP: bool>(
    buf: &mut KeyBuf,
    mut key: u128,
    len: usize,
    max: usize,
) -> usize {
    let shift = 8 * (len - 1) as u32;
    let mut made = 0;
    while made < max {
        // The distance to the next digit in the alphabet `0-9A-Za-z`.
        let gap: u128 = match (UP, (key >> shift) as u8) {
            (true, b'9') | (false, b'A') => 8,
            (true, b'Z') | (false, b'a') => 7,
            (true, b'z') | (false, b'0') => 0,
            _ => 1,
        };
        if gap != 0 {
            // The last digit is the key's top byte: nothing carries past it.
            key = if UP {
                key + (gap << shift)
            } else {
                key - (gap << shift)
            };
        } else {
            // A carry (one key in 62): step the digits as bytes.
            let mut bytes = key.to_le_bytes();
            if !step_digits::<UP>(&mut bytes[..len]) {
                break;
            }
            key = u128::from_le_bytes(bytes);
        }
        // (`integer_run` stops before the smallest integer, which is not a
        // key; it has 27 bytes, so it is never reached here.)
        let at = buf.text.len();
        buf.text.extend_from_slice(&key.to_le_bytes());
        buf.text.truncate(at + len);
        buf.seal();
        made += 1;
    }
    made
}

/// npm's recursion between two keys: the middle key first, then `n / 2`
/// keys below it and the rest above; appends the keys whose index (of the
/// `n`) is in `part`, descending only into the halves that hold some.
/// Bounds live in `arena` (a stack as deep as the recursion) so the output
/// can grow while they are read.
fn bisect(
    arena: &mut Vec<u8>,
    a: Range<usize>,
    b: Range<usize>,
    n: usize,
    part: Range<usize>,
    buf: &mut KeyBuf,
) {
    // `part` lies within `0..n`: empty when `n` is 0.
    if part.is_empty() {
        return;
    }
    let start = buf.text.len();
    between(
        Some(&arena[a.clone()]),
        Some(&arena[b.clone()]),
        &mut buf.text,
    );
    if n == 1 {
        buf.seal();
        return;
    }
    let mark = arena.len();
    arena.extend_from_slice(&buf.text[start..]);
    buf.text.truncate(start);
    let c = mark..arena.len();
    let below = n / 2;
    bisect(
        arena,
        a,
        c.clone(),
        below,
        part.start.min(below)..part.end.min(below),
        buf,
    );
    if part.contains(&below) {
        buf.text.extend_from_slice(&arena[c.clone()]);
        buf.seal();
    }
    let above = below + 1;
    bisect(
        arena,
        c,
        b,
        n - above,
        part.start.max(above) - above..part.end.max(above) - above,
        buf,
    );
    arena.truncate(mark);
}

/// The `n` shortest keys spaced evenly: all of one length, the shortest
/// whose integers number at least `n`, spread across them with equal gaps
/// (and half a gap at each end), so later inserts between any two stay
/// short.
///
/// Use it to renumber a list whose keys have grown long after many
/// inserts in the same place. Under replication it rewrites every item:
/// two replicas that renumber concurrently, or one that renumbers while
/// another inserts, leave conflicting revisions or keys from two schemes
/// mixed, so renumber only where one writer owns the list (or after
/// replicas have synced and paused writes).
///
/// ```
/// let keys = kuuid::order::rebalance(3)?;
/// let text: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
/// assert_eq!(text, ["aA", "aV", "ap"]);
/// assert_eq!(kuuid::order::rebalance(100)?[0].as_str(), "b0J"); // 3844 slots, every 38.44th
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn rebalance(n: usize) -> Result<Vec<OrderKey>, OrderError> {
    let mut buf = KeyBuf::new();
    rebalance_into(n, &mut buf)?;
    Ok(buf.iter().map(OrderKey::from).collect())
}

/// Appends [`rebalance`]'s `n` keys to `buf`.
///
/// ```
/// let mut buf = kuuid::order::KeyBuf::new();
/// kuuid::order::rebalance_into(62, &mut buf)?;
/// assert_eq!(buf.get(0).unwrap().as_str(), "a0");
/// assert_eq!(buf.get(61).unwrap().as_str(), "az");
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
pub fn rebalance_into(n: usize, buf: &mut KeyBuf) -> Result<(), OrderError> {
    let count = n as u64;
    if count > MAX_KEYS {
        return Err(OrderError::TooMany { found: count });
    }
    if n == 0 {
        return Ok(());
    }
    // The integers of head `a` + k are (k + 1)-digit numbers.
    let mut digits = 1usize;
    let mut capacity: u128 = 62;
    while capacity < u128::from(count) {
        digits += 1;
        capacity *= 62;
    }
    let head = b'a' + (digits - 1) as u8;
    buf.ends.reserve(n);
    buf.text.reserve(n * (digits + 1));
    // Key i sits at floor((2i + 1) C / 2n), the middle of slot i of n equal
    // slots. With n <= 2^40, C < 62 n and these fit in a u64; step from
    // one to the next by adding, with the remainder carried by hand.
    let (c, twice_n) = (capacity as u64, 2 * count);
    let (step, step_rem) = (2 * c / twice_n, 2 * c % twice_n);
    let (mut p, mut rem) = (c / twice_n, c % twice_n);
    let mut key = [head; 8];
    for _ in 0..n {
        let mut v = p;
        for d in key[1..=digits].iter_mut().rev() {
            *d = ALPHABET[(v % 62) as usize];
            v /= 62;
        }
        let at = buf.text.len();
        buf.text.extend_from_slice(&key);
        buf.text.truncate(at + digits + 1);
        debug_assert_eq!(integer_part(&buf.text[at..]).len(), digits + 1);
        buf.seal();
        p += step;
        rem += step_rem;
        if rem >= twice_n {
            rem -= twice_n;
            p += 1;
        }
    }
    Ok(())
}
