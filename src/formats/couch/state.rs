//! The process-wide state of `sequential` and `utc_*`: the claims that
//! advance the two process words by compare-and-swap (modelled under loom
//! in `loom-tests/tests/process_words.rs`), and the draws and clock reads
//! that feed them.

use std::sync::atomic::Ordering;

use super::random_u128;
use crate::word::{SequentialWord, Word64, Word128};

/// `sequential` draws a new prefix once the counter is at or past this.
const SEQUENTIAL_LIMIT: u32 = 0xfff000;
/// The largest step and start of the `sequential` counter (`16#ffd`).
const SEQUENTIAL_STEP: u32 = 0xffd;

pub(super) fn sequential_word() -> &'static SequentialWord {
    &crate::sys::process_words().couch_sequential
}

/// Makes the next `sequential` id draw a new prefix ([`crate::reseed`]):
/// a word at 0 is a new process's, and the prefix comes from this thread's
/// generator, which the token change that follows reseeds from the OS.
pub(crate) fn reseed() {
    sequential_word().store(0);
}

/// A uniform draw from `1..=SEQUENTIAL_STEP` (CouchDB's `rand:uniform(16#ffd)`),
/// by multiply-and-shift with rejection, so no step is favoured.
pub(super) fn step() -> u32 {
    let n = SEQUENTIAL_STEP;
    let threshold = n.wrapping_neg() % n;
    loop {
        let [w] = crate::local::words::<1>();
        let m = u64::from(w) * u64::from(n);
        if m as u32 >= threshold {
            return (m >> 32) as u32 + 1;
        }
    }
}

/// A fresh 13-byte prefix, in the top 104 bits.
#[cold]
pub(super) fn prefix() -> u128 {
    random_u128() >> 24 << 24
}

/// The next `sequential` value after the last one in `word` (prefix in the
/// top 104 bits, counter in the low 24): the counter plus a step, or a new
/// prefix and start once the last counter reached `0xfff000` (and for the
/// first id, when the word is 0: a counter is never 0).
#[doc(hidden)]
pub fn claim_sequential(
    word: &impl Word128,
    step: impl Fn() -> u32,
    prefix: impl Fn() -> u128,
) -> u128 {
    let inc = u128::from(step());
    let mut fresh = None;
    let mut cur = word.load();
    loop {
        let next = if cur == 0 || (cur as u32 & 0xff_ffff) >= SEQUENTIAL_LIMIT {
            *fresh.get_or_insert_with(&prefix) | inc
        } else {
            cur + inc
        };
        match word.compare_exchange(cur, next) {
            Ok(_) => return next,
            Err(seen) => cur = seen,
        }
    }
}

/// The next `utc_*` microsecond after the last one in `word`: `now` if it
/// is later, else the last + 1 (CouchDB's `utc_suffix`).
#[doc(hidden)]
pub fn claim_utc(word: &impl Word64, now: u64) -> u64 {
    let mut cur = word.load();
    loop {
        let next = if now <= cur { cur + 1 } else { now };
        match word.compare_exchange(cur, next) {
            Ok(_) => return next,
            Err(seen) => cur = seen,
        }
    }
}

/// The next `utc_*` microsecond of the process word, from now.
pub(super) fn claim_utc_now() -> u64 {
    let word = &*crate::sys::process_words().couch_utc;
    claim_utc(word, now_unless_ahead(word.load(Ordering::Relaxed)))
}

/// How far the coarse clock may lag the precise one: a kernel tick is at
/// most 10 ms (`HZ` >= 100), and a 2-vCPU VM (`HZ` = 250) lagged 2-7.4 ms
/// over 27 M paired reads; 20 ms for margin.
const COARSE_LAG_MICROS: u64 = 20_000;

/// The precise clock in microseconds, or 0 when the last `utc_*` id
/// (`last`) is already ahead of any reading it could give: then the next id
/// is `last + 1` whatever the time, and the 25 ns precise read is skipped
/// for a ~5 ns coarse one. Minting faster than one id a microsecond (bulk
/// `/_uuids?count=N`) runs ahead like that. The answer is the one the
/// precise clock would give; if the coarse clock ever lagged by more than
/// [`COARSE_LAG_MICROS`] (a tickless CPU), an id's time could trail the
/// clock by that lag, still unique and in order.
fn now_unless_ahead(last: u64) -> u64 {
    let floor = crate::sys::coarse_millis().saturating_mul(1000);
    if last >= floor.saturating_add(COARSE_LAG_MICROS) {
        0
    } else {
        crate::sys::unix_micros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use portable_atomic::AtomicU128;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A prefix is 13 drawn bytes over a zero counter: every byte varies
    /// (over 8 draws, a byte stays 0 by chance once in 2^64), no two repeat.
    #[test]
    fn prefixes_are_13_random_bytes_over_a_zero_counter() {
        let draws: Vec<u128> = (0..8).map(|_| prefix()).collect();
        assert!(draws.iter().all(|p| p & 0xff_ffff == 0), "{draws:x?}");
        for byte in 3..16 {
            assert!(
                draws.iter().any(|p| (p >> (8 * byte)) & 0xff != 0),
                "byte {byte} never drawn: {draws:x?}"
            );
        }
        let distinct: std::collections::HashSet<_> = draws.iter().collect();
        assert_eq!(distinct.len(), draws.len());
    }

    /// CouchDB's `utc_id_time_does_not_advance_test` and
    /// `utc_id_time_advanced_test`.
    #[test]
    fn utc_follows_the_clock_or_counts_on() {
        let word = AtomicU64::new(345);
        assert_eq!(claim_utc(&word, 12), 346);
        assert_eq!(claim_utc(&word, 345), 347);
        assert_eq!(claim_utc(&word, 999), 999);
        assert_eq!(claim_utc(&word, 999), 1000);
    }

    /// The counter steps on under one prefix until it reaches 0xfff000
    /// after an id; then a new prefix and start.
    #[test]
    fn sequential_steps_then_draws_a_new_prefix() {
        let word = AtomicU128::new(0);
        let p1 = 0xAAu128 << 120;
        let first = claim_sequential(&word, || 7, || p1);
        assert_eq!(first, p1 | 7);
        assert_eq!(
            claim_sequential(&word, || 0xffd, || unreachable!()),
            p1 | (7 + 0xffd)
        );
        // Just below the limit: one more step under the same prefix, even
        // past the limit (CouchDB checks after emitting).
        word.store(p1 | 0xffefff, Ordering::Relaxed);
        assert_eq!(
            claim_sequential(&word, || 0xffd, || unreachable!()),
            p1 | 0xfffffc
        );
        let p2 = 0xBBu128 << 120;
        assert_eq!(claim_sequential(&word, || 3, || p2), p2 | 3);
        // Exactly at the limit: a new prefix.
        word.store(p1 | 0xfff000, Ordering::Relaxed);
        assert_eq!(claim_sequential(&word, || 5, || p2), p2 | 5);
    }

    #[test]
    fn steps_cover_their_range_only() {
        let mut seen = [false; SEQUENTIAL_STEP as usize + 2];
        for _ in 0..200_000 {
            seen[step() as usize] = true;
        }
        assert!(!seen[0] && !seen[SEQUENTIAL_STEP as usize + 1]);
        assert!(seen[1..=SEQUENTIAL_STEP as usize].iter().all(|&s| s));
    }

    /// Behind the clock, a `utc_*` id takes the precise time (never the
    /// coarse clock's, which lags it); far ahead of it, the count goes on
    /// without a clock read.
    #[test]
    fn the_precise_clock_unless_ahead() {
        for _ in 0..1000 {
            let before = crate::sys::unix_micros();
            let now = now_unless_ahead(0);
            assert!(now >= before, "{now} read before {before}");
        }
        let ahead = crate::sys::unix_micros() + 2 * COARSE_LAG_MICROS;
        assert_eq!(now_unless_ahead(ahead), 0);
        let word = AtomicU64::new(ahead);
        assert_eq!(claim_utc(&word, now_unless_ahead(ahead)), ahead + 1);
    }
}
