//! The process's UUIDv7 sequence: its word in the wipe-on-fork page
//! (`formats::sequence` claims on it), and UUIDv7s from its values.

use std::sync::atomic::AtomicU64;

use super::super::sequence::{self, claim_now_on, fill_runs};
use super::{Uuid7, bits};

/// The process's sequence: `ms << 22 | counter` of the last id minted now.
fn word() -> &'static AtomicU64 {
    &crate::sys::process_words().v7
}

/// Claims `count` values of the process's sequence at the coarse clock's
/// millisecond, as (millisecond, counter) in one `u128` (`ms << 22 |
/// counter`). From [`SEQUENCE_MS_LIMIT`] on, a random start instead: ordered
/// within the claim only.
#[inline]
pub(super) fn claim_now(count: u64) -> u128 {
    claim_now_on(word(), count)
}

/// The bits of the id for sequence value `v` (`ms << 22 | counter`) and 52
/// random bits.
#[inline]
fn sequence_bits(v: u128, random: u64) -> u128 {
    let (ms, counter) = sequence::parts(v);
    bits(ms, counter, random)
}

/// The id for sequence value `v` and 52 random bits.
#[inline]
pub(super) fn from_sequence(v: u128, random: u64) -> Uuid7 {
    Uuid7(sequence_bits(v, random).to_be_bytes())
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
    fill_runs(ids, claim_now, Uuid7::build);
}

#[cfg(test)]
mod tests {
    use super::super::super::sequence::{
        COUNTER_BITS, SEQUENCE_MS_LIMIT, START_LIMIT, claim, write_run,
    };
    use super::super::MAX_UNIX_MILLIS;
    use super::*;
    use std::sync::atomic::Ordering;

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
            write_run(first, &random, &mut run, Uuid7::build);
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
