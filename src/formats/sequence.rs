//! The process-wide sequences of ids minted now (UUIDv7, `idms_monotonic()`,
//! ULID): each one 64-bit word holding `ms << 22 | counter` of the last id,
//! the claims on it (their loom model is `loom-tests`' `v7_claim`), and the
//! run writer the bulk calls share. Each format keeps its word in the
//! wipe-on-fork page and lays the (millisecond, counter) pair into its own
//! bits.

use std::sync::atomic::AtomicU64;

use super::uuid_layout::MAX_UNIX_MILLIS;
use crate::rng::fork::Tagged;
use crate::word::Word64;

/// Bits of the counter under the millisecond in a sequence word.
pub(crate) const COUNTER_BITS: u32 = 22;
/// The counter's bits.
const COUNTER_MASK: u64 = (1 << COUNTER_BITS) - 1;
/// A new millisecond's counter starts below this (so at least 2^21 ids fit).
pub(crate) const START_LIMIT: u64 = 1 << (COUNTER_BITS - 1);
/// The sequence word orders ids minted now before this millisecond: 2^42
/// (2109-05-15) less 2^20 ms, so that no counter carry can reach bit 64.
pub(crate) const SEQUENCE_MS_LIMIT: u64 = (1 << 42) - (1 << 20);

/// Claims `count` (1 to 2^20) consecutive sequence values after the last
/// one and at or after millisecond `now` (below [`SEQUENCE_MS_LIMIT`]);
/// returns the first. A new millisecond starts at `start() % 2^21`.
///
/// Every value handed out is the word's value right after this call's own
/// atomic update, and the word only grows, so values never repeat and a
/// claim that starts after another ended gets larger ones.
#[doc(hidden)]
#[inline]
pub fn claim(seq: &impl Word64, now: u64, start: impl FnOnce() -> u64, count: u64) -> u64 {
    debug_assert!((1..=1 << 20).contains(&count) && now < SEQUENCE_MS_LIMIT);
    let before = seq.fetch_add(count);
    // The word's millisecond is the clock's or later (the clock stepped
    // back, or a burst carried the counter on): the values are ours.
    if before >> COUNTER_BITS >= now {
        return before + 1;
    }
    advance(seq, now, start, count, before + count)
}

/// The word is behind the clock (once a millisecond, and in a new process):
/// the values the `fetch_add` took are dropped, and a compare-and-swap moves
/// the word to `now` with a fresh start, unless another thread has moved it
/// to `now` or later first, when the claim continues after that thread's.
#[cold]
fn advance(
    seq: &impl Word64,
    now: u64,
    start: impl FnOnce() -> u64,
    count: u64,
    mut current: u64,
) -> u64 {
    let fresh = (now << COUNTER_BITS) | (start() % START_LIMIT);
    loop {
        let first = if current >> COUNTER_BITS < now {
            fresh
        } else {
            current + 1
        };
        match seq.compare_exchange(current, first + (count - 1)) {
            Ok(_) => return first,
            Err(seen) => current = seen,
        }
    }
}

/// Claims `count` values of the sequence in `word` at the coarse clock's
/// millisecond, as (millisecond, counter) in one `u128` (`ms << 22 |
/// counter`). From [`SEQUENCE_MS_LIMIT`] on, a random start instead:
/// ordered within the claim only.
/// Past [`MAX_UNIX_MILLIS`] the millisecond is held there. Always
/// inlined: as a call it cost `idms_monotonic()` 6 instructions an id.
#[inline(always)]
pub(crate) fn claim_now_on(word: &AtomicU64, count: u64) -> u128 {
    claim_at_on(word, crate::sys::coarse_millis(), count)
}

/// [`claim_now_on`] with the clock read by the caller (the tests reach
/// the years past the sequence's last millisecond through it).
#[inline(always)]
fn claim_at_on(word: &AtomicU64, now: u64, count: u64) -> u128 {
    if now < SEQUENCE_MS_LIMIT {
        u128::from(claim(word, now, random_start, count))
    } else {
        u128::from(now.min(MAX_UNIX_MILLIS)) << COUNTER_BITS
            | u128::from(random_start() % START_LIMIT)
    }
}

/// A counter start for a new millisecond, from this thread's generator.
#[cold]
fn random_start() -> u64 {
    crate::local::random_u64()
}

/// Fills `ids` 256 at a time, each run's sequence values from `first_of`
/// (given the run's length), its random bits from this thread's generator,
/// and each id from `build(ms, counter, random)`.
#[inline]
pub(crate) fn fill_runs<T>(
    ids: &mut [T],
    mut first_of: impl FnMut(u64) -> u128,
    build: impl Fn(u64, u64, u64) -> T,
) {
    for chunk in ids.chunks_mut(256) {
        let mut random = [0u64; 256];
        let random = &mut random[..chunk.len()];
        crate::local::fill_words(bytemuck::cast_slice_mut(random));
        write_run(first_of(chunk.len() as u64), random, chunk, &build);
    }
}

/// Writes the ids of sequence values `first..` with `random`'s bits into
/// `out` (`random.len() == out.len()`): `build(ms, counter, random)` each,
/// the millisecond held at the last one 48 bits hold.
#[inline]
pub(crate) fn write_run<T>(
    first: u128,
    random: &[u64],
    out: &mut [T],
    build: impl Fn(u64, u64, u64) -> T,
) {
    let ms = (first >> COUNTER_BITS) as u64;
    let counter = first as u64 & COUNTER_MASK;
    if ms <= MAX_UNIX_MILLIS && counter + out.len() as u64 <= 1 << COUNTER_BITS {
        // One millisecond for the whole run (unless the counter is about to
        // carry): a 64-bit counter and the millisecond hoisted out of the
        // loop, 1.4 against 1.9 ns an id (UUIDv7s).
        for ((id, &r), c) in out.iter_mut().zip(random).zip(counter..) {
            *id = build(ms, c, r);
        }
    } else {
        for ((id, &r), v) in out.iter_mut().zip(random).zip(first..) {
            let (ms, c) = parts(v);
            *id = build(ms, c, r);
        }
    }
}

/// The millisecond (held at the last one 48 bits hold) and the counter of
/// sequence value `v`.
#[inline]
pub(crate) fn parts(v: u128) -> (u64, u64) {
    (
        ((v >> COUNTER_BITS) as u64).min(MAX_UNIX_MILLIS),
        v as u64 & COUNTER_MASK,
    )
}

/// Sequence values a generator ([`crate::V7Generator`], the ULID one)
/// claims at once.
const BLOCK: u64 = 256;

/// A generator's block of sequence values, claimed 256 at a time so that
/// threads do not take turns on the shared word for every id; tagged with
/// the process it was claimed in, so a forked child or a
/// [`crate::reseed`] drops it.
#[derive(Debug, Default)]
pub(crate) struct Block {
    /// The next value and one past the last.
    range: Tagged<(u128, u128)>,
}

impl Block {
    /// The next value: from the block while it lasts and the clock has not
    /// passed its millisecond, else the first of a new block from `claim`
    /// (the format's word).
    #[inline]
    pub(crate) fn next(&mut self, claim: impl FnOnce(u64) -> u128) -> u128 {
        let now = crate::sys::coarse_millis();
        let token = crate::rng::fork::token();
        match self.range.get_mut(token) {
            Some((next, end)) if *next != *end && *next >> COUNTER_BITS >= u128::from(now) => {
                *next += 1;
                *next - 1
            }
            _ => self.renew(token, claim),
        }
    }

    /// Claims a new block and takes its first value.
    #[cold]
    fn renew(&mut self, token: u64, claim: impl FnOnce(u64) -> u128) -> u128 {
        let first = claim(BLOCK);
        self.range = Tagged::new(token, (first + 1, first + u128::from(BLOCK)));
        first
    }

    /// Drops the rest of the block (a fill claimed later values: the rest
    /// would sort before them).
    pub(crate) fn clear(&mut self) {
        self.range = Tagged::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    /// Claims from one word: consecutive within a millisecond, a fresh start
    /// when the clock moves, the newest millisecond kept when it steps back,
    /// and blocks that never overlap.
    #[test]
    fn claims_follow_the_clock_and_never_repeat() {
        let seq = AtomicU64::new(0);
        let a = claim(&seq, 1000, || 5, 1);
        assert_eq!(a, 1000 << 22 | 5);
        assert_eq!(claim(&seq, 1000, || 99, 1), a + 1);
        let block = claim(&seq, 1000, || 99, 10);
        assert_eq!(block, a + 2);
        assert_eq!(claim(&seq, 1000, || 0, 1), a + 12);
        // The clock moves: a fresh start; it steps back: the newest ms holds.
        let b = claim(&seq, 1001, || 7, 1);
        assert_eq!(b, 1001 << 22 | 7);
        assert_eq!(claim(&seq, 900, || 3, 1), b + 1);
        // A start at or above 2^21 is folded below it.
        let c = claim(&seq, 1002, || START_LIMIT + 3, 4);
        assert_eq!(c, 1002 << 22 | 3);
        assert_eq!(
            seq.load(Ordering::Relaxed),
            c + 3,
            "the word holds the last value"
        );
    }

    /// At the sequence's last millisecond the word is used; from the next
    /// one (the year 2109) on the word is left alone and each claim takes a
    /// random start below the limit, with the millisecond held at the last
    /// one a UUIDv7 holds past that.
    #[test]
    fn past_the_sequence_each_claim_starts_at_random() {
        let parts = |v: u128| {
            (
                (v >> COUNTER_BITS) as u64,
                v as u64 & ((1 << COUNTER_BITS) - 1),
            )
        };
        let word = AtomicU64::new(0);
        let v = claim_at_on(&word, SEQUENCE_MS_LIMIT - 1, 3);
        assert_eq!(parts(v).0, SEQUENCE_MS_LIMIT - 1);
        assert_eq!(u128::from(word.load(Ordering::Relaxed)), v + 2);
        for (now, ms) in [
            (SEQUENCE_MS_LIMIT, SEQUENCE_MS_LIMIT),
            (MAX_UNIX_MILLIS, MAX_UNIX_MILLIS),
            (MAX_UNIX_MILLIS + 5, MAX_UNIX_MILLIS),
            (u64::MAX, MAX_UNIX_MILLIS),
        ] {
            let before = word.load(Ordering::Relaxed);
            let starts: std::collections::HashSet<u64> = (0..8)
                .map(|_| {
                    let (got_ms, start) = parts(claim_at_on(&word, now, 1));
                    assert_eq!(got_ms, ms, "at {now}");
                    assert!(start < START_LIMIT, "start {start} at {now}");
                    start
                })
                .collect();
            // Eight draws of 21 random bits: all equal once in 2^147.
            assert!(starts.len() > 1, "the same start eight times at {now}");
            assert_eq!(
                word.load(Ordering::Relaxed),
                before,
                "the word moved at {now}"
            );
        }
    }

    /// Another thread moved the word to this millisecond first: the claim
    /// continues after that thread's, never from a fresh start.
    #[test]
    fn a_claim_that_lost_the_race_continues_after_the_winner() {
        let won = 1000 << 22 | 100;
        let seq = AtomicU64::new(won);
        assert_eq!(advance(&seq, 1000, || 5, 3, won), won + 1);
        assert_eq!(seq.load(Ordering::Relaxed), won + 3);
        // Also when the winner's millisecond is later than this claim's clock.
        let later = 1001 << 22 | 7;
        let seq = AtomicU64::new(later);
        assert_eq!(advance(&seq, 1000, || 5, 1, later), later + 1);
    }
}
