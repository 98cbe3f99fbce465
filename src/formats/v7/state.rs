//! The process's UUIDv7 sequence: one 64-bit word in the wipe-on-fork
//! page holding `ms << 22 | counter` of the last id minted now (its loom
//! model is `loom-tests`' `v7_claim`), the claims on it, and the bulk
//! writer.

use std::sync::atomic::AtomicU64;

use super::{COUNTER_BITS, MAX_UNIX_MILLIS, SEQUENCE_MS_LIMIT, START_LIMIT, Uuid7, bits};
use crate::word::Word64;

/// The process's sequence: `ms << 22 | counter` of the last id minted now.
fn sequence() -> &'static AtomicU64 {
    &crate::sys::process_words().v7
}

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

/// Claims `count` values of the process's sequence at the coarse clock's
/// millisecond, as (millisecond, counter) in one `u128` (`ms << 22 |
/// counter`). From [`SEQUENCE_MS_LIMIT`] on, a random start instead: ordered
/// within the claim only.
#[inline]
pub(super) fn claim_now(count: u64) -> u128 {
    claim_now_on(sequence(), count)
}

/// [`claim_now`] on another word of the same shape (`idms_monotonic()`'s).
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

/// The bits of the id for sequence value `v` (`ms << 22 | counter`) and 52
/// random bits.
#[inline]
fn sequence_bits(v: u128, random: u64) -> u128 {
    let ms = (v >> COUNTER_BITS) as u64;
    bits(ms.min(MAX_UNIX_MILLIS), v as u64, random)
}

/// The id for sequence value `v` and 52 random bits.
#[inline]
pub(super) fn from_sequence(v: u128, random: u64) -> Uuid7 {
    Uuid7(sequence_bits(v, random).to_be_bytes())
}

/// A counter start for a new millisecond, from this thread's generator.
#[cold]
fn random_start() -> u64 {
    crate::local::random_u64()
}

/// A UUIDv7 minted now, strictly after every other minted now in this
/// process (the module docs say how).
#[inline(always)]
pub(crate) fn now() -> Uuid7 {
    Uuid7(now_bits().to_be_bytes())
}

/// The bits of a UUIDv7 minted now. Where the call is not inlined, a
/// `u128` comes back in two registers; a `Uuid7` would come back through
/// memory, and its text would then load 16 bytes that two 8-byte stores
/// had just written, a load store forwarding cannot serve (21.8 against
/// 10.8 ns a `v7()` with text, in two bench binaries that differed in
/// whether they inlined the call). Always inlined since LLVM's choice
/// flipped with a change elsewhere (key erasure): +4 instructions an id.
#[inline(always)]
fn now_bits() -> u128 {
    let random = crate::local::random_u64();
    sequence_bits(claim_now(1), random)
}

/// Fills `ids` with UUIDv7s minted now, in one claim per 256 ids: strictly
/// increasing along the slice and after every id minted before in the
/// process.
pub(crate) fn fill_now(ids: &mut [Uuid7]) {
    fill_runs(ids, claim_now);
}

/// Fills `ids` 256 at a time, each run's sequence values from `first_of`
/// (given the run's length) and its random bits from this thread's
/// generator.
pub(super) fn fill_runs(ids: &mut [Uuid7], mut first_of: impl FnMut(u64) -> u128) {
    for chunk in ids.chunks_mut(256) {
        let mut random = [0u64; 256];
        let random = &mut random[..chunk.len()];
        crate::local::fill_words(bytemuck::cast_slice_mut(random));
        write_run(first_of(chunk.len() as u64), random, chunk);
    }
}

/// Writes the ids of sequence values `first..` with `random`'s bits into
/// `out` (as [`from_sequence`] each, `random.len() == out.len()`).
#[inline]
pub(super) fn write_run(first: u128, random: &[u64], out: &mut [Uuid7]) {
    let ms = (first >> COUNTER_BITS) as u64;
    let counter = first as u64 & ((1 << COUNTER_BITS) - 1);
    if ms <= MAX_UNIX_MILLIS && counter + out.len() as u64 <= 1 << COUNTER_BITS {
        // One millisecond for the whole run (unless the counter is about to
        // carry): a 64-bit counter and the millisecond hoisted out of the
        // loop, 1.4 against 1.9 ns an id.
        for ((id, &r), c) in out.iter_mut().zip(random).zip(counter..) {
            *id = Uuid7::build(ms, c, r);
        }
    } else {
        for ((id, &r), v) in out.iter_mut().zip(random).zip(first..) {
            *id = from_sequence(v, r);
        }
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

    /// The counter overflowing its 22 bits carries into the millisecond,
    /// also in the middle of a block.
    #[test]
    fn a_full_counter_moves_the_millisecond_on() {
        let seq = AtomicU64::new((7 << 22) | ((1 << 22) - 2));
        let v = claim(&seq, 7, || 0, 3);
        let ids = [0, 1, 2].map(|i| from_sequence(u128::from(v + i), 0));
        assert_eq!(ids.map(|id| id.timestamp().as_millis()), [7, 8, 8]);
        assert_eq!(ids.map(|id| id.counter()), [(1 << 22) - 1, 0, 1]);
        assert!(ids[0] < ids[1] && ids[1] < ids[2]);
    }

    /// A run writes what one id at a time writes, inside a millisecond, across
    /// a counter carry, and at the last millisecond a UUIDv7 holds.
    #[test]
    fn runs_match_single_ids() {
        let random: Vec<u64> = (0..300u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for first in [
            1000u128 << COUNTER_BITS | 5,
            1000 << COUNTER_BITS | ((1 << COUNTER_BITS) - 300),
            1000 << COUNTER_BITS | ((1 << COUNTER_BITS) - 299),
            1000 << COUNTER_BITS | ((1 << COUNTER_BITS) - 7),
            u128::from(MAX_UNIX_MILLIS) << COUNTER_BITS | 9,
            // A millisecond whose low 20 bits are 0.
            (1u128 << 40) << COUNTER_BITS | 5,
        ] {
            let mut run = vec![Uuid7::MIN; random.len()];
            write_run(first, &random, &mut run);
            for (i, (id, &r)) in run.iter().zip(&random).enumerate() {
                assert_eq!(*id, from_sequence(first + i as u128, r), "{first:#x} + {i}");
            }
        }
    }

    /// Ids minted now carry the clock's millisecond (the coarse clock:
    /// within a second of std's, a bound that catches a wrong unit or a
    /// lost clock, not a slow machine), and `now()` and `fill_now()` keep
    /// one order, whatever other tests mint meanwhile on other threads.
    #[test]
    fn ids_minted_now_carry_the_clock_and_keep_order() {
        let std_ms = || {
            let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            d.unwrap().as_millis() as u64
        };
        let before = std_ms();
        let first = now();
        let mut bulk = vec![Uuid7::MIN; 600];
        fill_now(&mut bulk);
        let last = now();
        let after = std_ms();
        let all: Vec<Uuid7> = [first].into_iter().chain(bulk).chain([last]).collect();
        for id in &all {
            let ms = id.timestamp().as_millis();
            assert!(
                before - 1000 <= ms && ms <= after + 1000,
                "{ms} not in {before}..={after}"
            );
        }
        assert!(
            all.windows(2).all(|w| w[0] < w[1]),
            "minted now, out of order"
        );
        // On a word of its own: the claim's millisecond is the clock's, its
        // start below the limit, and the word ends at the claim's last value.
        let word = AtomicU64::new(0);
        let v = claim_now_on(&word, 5);
        let (ms, counter) = (
            (v >> COUNTER_BITS) as u64,
            v as u64 & ((1 << COUNTER_BITS) - 1),
        );
        assert!(before - 1000 <= ms && ms <= std_ms() + 1000);
        assert!(counter < START_LIMIT);
        assert_eq!(u128::from(word.load(Ordering::Relaxed)), v + 4);
        // The next claim follows (v + 5, or a fresh start if a millisecond
        // went by).
        assert!(claim_now_on(&word, 1) > v + 4);
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

    /// Past the sequence's last millisecond, ids still carry the clock's.
    #[test]
    fn the_layout_holds_every_millisecond() {
        for ms in [0, SEQUENCE_MS_LIMIT, MAX_UNIX_MILLIS] {
            let v = u128::from(ms) << COUNTER_BITS | 5;
            let id = from_sequence(v, u64::MAX);
            assert_eq!((id.timestamp().as_millis(), id.counter()), (ms, 5));
            assert_eq!(Uuid7::from_bytes(id.0), Ok(id));
        }
    }
}
