//! The ObjectId process word: the claims that advance it (modelled under
//! loom in `loom-tests/tests/process_words.rs`), each thread's block of
//! claimed states, and minting from them.

use std::sync::atomic::{AtomicU64, Ordering};

use super::ObjectId;
use crate::rng::fork::TaggedCell;
use crate::time::{TimeError, TimeField, Timestamp};
use crate::word::Word64;

/// Claims `count >= 1` consecutive states after the last one; returns the
/// first. A word still 0 (first use, or a new child) gets `seed` first.
/// Every state handed out is the word's value right after this call's own
/// add, so no two claims share one (until the word wraps at 2^64).
#[doc(hidden)]
#[inline]
pub fn claim(word: &impl Word64, seed: impl FnOnce() -> u64, count: u64) -> u64 {
    if word.load() == 0 {
        // Racing threads each offer a seed; one wins, the others adopt it.
        let _ = word.compare_exchange(0, seed().max(1));
    }
    word.fetch_add(count).wrapping_add(1)
}

fn state() -> &'static AtomicU64 {
    &crate::sys::process_words().object_id
}

/// A seed from this thread's secure generator.
#[cold]
fn seed() -> u64 {
    crate::local::random_u64()
}

/// Seconds now, held at the last second a 4-byte timestamp has (2106).
#[inline]
fn now_secs() -> u32 {
    u32::try_from(crate::local::now_secs()).unwrap_or(u32::MAX)
}

/// States a thread claims at once for single ids.
const BLOCK_LEN: u64 = 256;

thread_local! {
    /// This thread's claimed states (the next one and one past the last),
    /// tagged with the process token they were claimed under: a forked
    /// child or a [`crate::reseed`] finds the block stale, whatever else in
    /// the process claimed first.
    static BLOCK: TaggedCell<(u64, u64)> = const { TaggedCell::stale((0, 0)) };
}

/// The next state for a single id, from this thread's block (one atomic
/// add per 256 ids instead of one an id: ~5 ns of a ~13 ns call).
#[inline]
fn next_state() -> u64 {
    // One look-up of the process words for both the token and the state.
    let words = crate::sys::process_words();
    let word = &*words.object_id;
    BLOCK
        .try_with(|b| {
            // The token word as it is: 0 in a new child, which matches no
            // block (a slot never filled is tagged with a value no word
            // holds): no need to settle the token before the slow path.
            let seen = words.token.load(Ordering::Relaxed);
            if let Some((next, end)) = b.get(seen)
                && next != end
            {
                b.set((next.wrapping_add(1), end));
                return next;
            }
            let token = crate::rng::fork::token_in(&words.token);
            let first = claim(word, seed, BLOCK_LEN);
            b.renew(
                token,
                (first.wrapping_add(1), first.wrapping_add(BLOCK_LEN)),
            );
            first
        })
        // Thread-local storage already torn down: claim one.
        .unwrap_or_else(|_| claim(word, seed, 1))
}

/// Gives the process word a fresh random value ([`crate::reseed`]: a
/// restored snapshot's copies must not share it). Drawn from the OS, not
/// from a generator the snapshot copied; blocks claimed before are dropped
/// by the token change that follows.
pub(crate) fn reseed() {
    reseed_word(state(), crate::rng::fork::fresh_token());
}

/// Puts `fresh` in the word: claims after it count on from there. A swap,
/// not a store: it costs the same once per reseed, and loom models a store
/// that races a `fetch_add` wrongly (tokio-rs/loom#254).
#[doc(hidden)]
pub fn reseed_word(word: &impl Word64, fresh: u64) {
    word.swap(fresh.max(1));
}

/// An ObjectId minted now. Always inlined, as `local::mint_now` is: LLVM's
/// choice sat at the edge, and a change elsewhere in the crate (key
/// erasure in the generator) tipped it into a call that cost 17
/// instructions an ObjectId (Callgrind, `object_id_1000`).
#[inline(always)]
pub(crate) fn now() -> ObjectId {
    ObjectId::build(now_secs(), next_state())
}

/// An ObjectId at a given time (seconds; past 2106 is an error).
pub(crate) fn at(t: Timestamp) -> Result<ObjectId, TimeError> {
    let secs = u32::try_from(t.as_secs()).map_err(|_| TimeError::OutOfRange {
        field: TimeField::ObjectId,
        millis: t.as_millis(),
    })?;
    Ok(ObjectId::build(secs, next_state()))
}

/// Fills `ids` with ObjectIds minted now, one `fetch_add` per 256.
pub(crate) fn fill_now(ids: &mut [ObjectId]) {
    for chunk in ids.chunks_mut(256) {
        let secs = now_secs();
        let first = claim(state(), seed, chunk.len() as u64);
        for (i, id) in chunk.iter_mut().enumerate() {
            *id = ObjectId::build(secs, first.wrapping_add(i as u64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block claimed before a fork is not used after it: the child's first
    /// single id comes from a fresh claim on its own (wiped) word.
    #[cfg(all(test, target_os = "linux"))]
    mod fork_tests {
        #[test]
        fn a_childs_block_is_its_own() {
            let parent = super::now();
            // SAFETY: fork in a test; the child only mints and calls _exit.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                let child = super::now();
                let same = child.as_bytes()[4..9] == parent.as_bytes()[4..9];
                // SAFETY: ends the child without running the parent's handlers.
                unsafe { libc::_exit(i32::from(same)) };
            }
            let mut status = 0;
            // SAFETY: waits for the child we forked.
            assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
            assert!(libc::WIFEXITED(status));
            assert_eq!(
                libc::WEXITSTATUS(status),
                0,
                "the child kept the parent's block"
            );
        }
    }

    /// The spec's test plan: the counter wraps from 0xFFFFFF to 0 (and
    /// here the process value moves on by one at the wrap).
    #[test]
    fn the_counter_wraps_to_zero() {
        let word = AtomicU64::new(0x12_3456_789A << 24 | 0xFF_FFFE);
        let a = ObjectId::build(0, claim(&word, || unreachable!(), 1));
        let b = ObjectId::build(0, claim(&word, || unreachable!(), 1));
        assert_eq!(a.0[9..], [0xff, 0xff, 0xff]);
        assert_eq!(b.0[9..], [0, 0, 0]);
        assert_eq!(a.0[4..9], [0x12, 0x34, 0x56, 0x78, 0x9A]);
        assert_eq!(b.0[4..9], [0x12, 0x34, 0x56, 0x78, 0x9B]);
    }

    /// A word at 0 takes the seed once; later claims count on from it.
    #[test]
    fn the_first_claim_seeds_the_word() {
        let word = AtomicU64::new(0);
        assert_eq!(claim(&word, || 41, 1), 42);
        assert_eq!(claim(&word, || unreachable!(), 10), 43);
        assert_eq!(claim(&word, || unreachable!(), 1), 53);
    }
}
