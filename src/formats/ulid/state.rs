//! The process's ULID sequence: its word in the wipe-on-fork page
//! (`formats::sequence` claims on it, as on UUIDv7's), and ULIDs from its
//! values.

use std::sync::atomic::AtomicU64;

use super::super::sequence::{self, claim_now_on, fill_runs};
use super::Ulid;
use crate::engine::base32::{self, Case};

fn word() -> &'static AtomicU64 {
    &crate::sys::process_words().ulid
}

/// Claims `count` values of the process's ULID sequence at the coarse
/// clock's millisecond (`ms << 22 | counter`).
#[inline]
pub(super) fn claim_now(count: u64) -> u128 {
    claim_now_on(word(), count)
}

/// The id for sequence value `v` and 58 random bits.
#[inline]
pub(super) fn from_sequence(v: u128, random: u64) -> Ulid {
    let (ms, counter) = sequence::parts(v);
    Ulid::build(ms, counter, random)
}

/// A ULID minted now, strictly after every other minted now in this
/// process.
#[inline(always)]
pub(crate) fn now() -> Ulid {
    let random = crate::local::random_u64();
    from_sequence(claim_now(1), random)
}

/// Fills `ids` with ULIDs minted now, one claim per 256 ids: strictly
/// increasing along the slice and after every ULID minted before.
pub(crate) fn fill_now(ids: &mut [Ulid]) {
    fill_runs(ids, claim_now, Ulid::build);
}

/// Fills `out` with the text of ULIDs minted now (capitals, at the start
/// of each slot), as `fill_now` then `Ulid::encode_many` would, but 256 at
/// a time through a 4 KiB batch that stays in L1: a bulk load writes only
/// its text to memory, not the ids and then the text.
pub(crate) fn fill_text_now<const W: usize>(out: &mut [[u8; W]]) {
    const CHUNK: usize = 256;
    let mut ids = [Ulid::MIN; CHUNK];
    let isa = crate::engine::isa();
    for slots in out.chunks_mut(CHUNK) {
        let ids = &mut ids[..slots.len()];
        fill_now(ids);
        base32::encode_many(isa, ids, slots, Case::Upper);
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::sequence::{claim, write_run};
    use super::*;

    /// The counter carrying into the next millisecond keeps the order, in
    /// single ids and in runs alike.
    #[test]
    fn a_full_counter_moves_the_millisecond_on() {
        let seq = AtomicU64::new((7 << 22) | ((1 << 22) - 2));
        let v = u128::from(claim(&seq, 7, || 0, 3));
        let ids = [0, 1, 2].map(|i| from_sequence(v + i, u64::MAX));
        assert_eq!(ids.map(|id| id.timestamp().as_millis()), [7, 8, 8]);
        assert!(ids[0] < ids[1] && ids[1] < ids[2]);
        let random = [u64::MAX, 0, 5];
        let mut run = [Ulid::MIN; 3];
        write_run(v, &random, &mut run, Ulid::build);
        for i in 0..3 {
            assert_eq!(run[i], from_sequence(v + i as u128, random[i]));
        }
    }

    /// Minted now: the clock's millisecond (within a second of std's: a
    /// bound that catches a wrong unit, not a slow machine) and one order
    /// for singles and fills.
    #[test]
    fn ids_minted_now_keep_order() {
        let std_ms = || {
            let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            d.unwrap().as_millis() as u64
        };
        let before = std_ms();
        let first = now();
        let mut bulk = vec![Ulid::MIN; 600];
        fill_now(&mut bulk);
        let last = now();
        let after = std_ms();
        let all: Vec<Ulid> = [first].into_iter().chain(bulk).chain([last]).collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "out of order");
        for id in &all {
            let ms = id.timestamp().as_millis();
            assert!(before - 1000 <= ms && ms <= after + 1000, "{ms}");
        }
    }
}
