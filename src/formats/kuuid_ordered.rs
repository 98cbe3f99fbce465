//! [`idms_monotonic()`](crate::idms_monotonic): 32-character millisecond
//! kuuids (npm `idms()`'s layout) in one strict order across every thread
//! of the process, without a lock.
//!
//! The order is UUIDv7's (`formats::sequence::claim`, modelled under loom in
//! `loom-tests/tests/kuuid_ordered.rs`) on a word of its own in the
//! wipe-on-fork page: `ms << 22 | counter`, one `fetch_add` an id (one per
//! 256 in a fill), a new millisecond's counter starting at a random value
//! below 2^21. An id is that millisecond as the 8-character prefix, then
//! the counter in the top 22 bits of the first group (its low 10 bits 0),
//! then three random groups (96 bits). Fixed-width base62 sorts as the
//! number it spells, so a larger (millisecond, counter) is a larger id.
//!
//! Past 2^21 ids in one millisecond the counter carries into the next, so a
//! burst runs ahead of the clock rather than repeat or wait. From 2109-05-15
//! (the word's last millisecond) ids take a random counter start as
//! [`fill_v7`](crate::fill_v7) does: ordered within one call only.

use std::sync::atomic::AtomicU64;

use super::sequence::{COUNTER_BITS, claim_now_on};
use crate::kuuid::id::Kuuid;

/// Bits of the first group under the counter.
const LOW_BITS: u32 = 32 - COUNTER_BITS;

fn word() -> &'static AtomicU64 {
    &crate::sys::process_words().kuuid_ms
}

/// The millisecond and the first group's value of sequence value `v`
/// (`ms << 22 | counter`).
#[doc(hidden)]
#[inline]
pub fn parts(v: u128) -> (u64, u32) {
    let counter = v as u32 & ((1 << COUNTER_BITS) - 1);
    ((v >> COUNTER_BITS) as u64, counter << LOW_BITS)
}

/// Claims `count` (1 to 256) sequence values at the coarse clock's
/// millisecond, as UUIDv7's claims do on theirs; returns the first.
#[inline]
fn claim_now(count: u64) -> u128 {
    claim_now_on(word(), count)
}

/// The next id of the process's order.
#[inline(always)]
pub(crate) fn now() -> Kuuid {
    let (ms, first) = parts(claim_now(1));
    crate::local::mint_ordered(ms, first)
}

/// Fills `ids` with the next ids of the process's order, one claim per 256.
pub(crate) fn fill_now(ids: &mut [Kuuid]) {
    for chunk in ids.chunks_mut(256) {
        let first = claim_now(chunk.len() as u64);
        for (id, v) in chunk.iter_mut().zip(first..) {
            let (ms, group) = parts(v);
            *id = crate::local::mint_ordered(ms, group);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Layout;

    #[test]
    fn a_larger_sequence_value_is_a_larger_id() {
        let ms = 1_514_764_800_000u128;
        let values = [
            ms << COUNTER_BITS,
            ms << COUNTER_BITS | 1,
            ms << COUNTER_BITS | ((1 << COUNTER_BITS) - 1),
            (ms + 1) << COUNTER_BITS,
        ];
        let ids: Vec<Kuuid> = values
            .iter()
            .map(|&v| {
                let (ms, first) = parts(v);
                crate::local::mint_ordered(ms, first)
            })
            .collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
        assert_eq!(
            ids[0].timestamp(Layout::MILLIS).to_string(),
            "2018-01-01T00:00:00Z"
        );
        assert_eq!(ids[1].random_words()[0], 1 << LOW_BITS);
        assert_eq!(ids[2].random_words()[0], u32::MAX << LOW_BITS);
    }
}
