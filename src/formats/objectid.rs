//! MongoDB ObjectId (the `bson-objectid` specification): 12 bytes, a 4-byte
//! big-endian unsigned count of seconds since 1970, a 5-byte value random
//! per process, and a 3-byte big-endian counter that starts at a random
//! value, adds 1 per id and wraps from `0xFFFFFF` to 0. Shown as 24
//! lowercase hex characters.
//!
//! **State.** The 5-byte value and the counter live together in one 64-bit
//! word, advanced with one `fetch_add` per 256 ids: each thread claims a
//! block of 256 states (single ids take the next of their thread's block,
//! bulk fills claim per 256), so every thread of the process draws from one
//! counter without a lock. Ids of one thread increase; ids of different
//! threads in one second interleave by block, not by time. When the
//! counter wraps, the add carries into the 5-byte value: the spec assumes
//! fewer than 2^24 ids a second per process, this engine mints far more, and
//! the carry gives the next 2^24 ids a value never used before in the
//! process, so no ObjectId repeats within a process (until 2^64 ids).
//! **Fork and reseed.** The word lives in the wipe-on-fork page: a child
//! reads 0 and draws its own random value, as the spec's test plan asks
//! (the `bson` crate does nothing on fork). Each thread's block carries the
//! process token it was claimed under, so a child never resumes a block of
//! its parent's, whichever thread or bulk call mints first there.
//! [`crate::reseed`] gives the word a fresh random value from the OS and
//! moves the token, so two restored copies of one snapshot part ways.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::engine::hex;
use crate::parse::Bytes;
use crate::rng::fork::TaggedCell;
use crate::time::{TimeError, Timestamp};
use crate::word::Word64;

/// A MongoDB ObjectId: 12 bytes; byte order is (second, process value,
/// counter) order.
///
/// ```
/// let a = kuuid::object_id();
/// let b = kuuid::object_id();
/// assert_ne!(a, b);
/// assert_eq!(a.to_string().len(), 24);
/// assert_eq!(a.to_string().parse::<kuuid::ObjectId>()?, a);
/// # Ok::<(), kuuid::ObjectIdParseError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId([u8; 12]);

impl ObjectId {
    /// The ObjectId with these 12 bytes.
    ///
    /// ```
    /// let id = kuuid::ObjectId::from_bytes([0xff; 12]);
    /// assert_eq!(id.timestamp().to_string(), "2106-02-07T06:28:15Z");
    /// ```
    pub const fn from_bytes(bytes: [u8; 12]) -> Self {
        ObjectId(bytes)
    }

    /// The 12 bytes.
    ///
    /// ```
    /// assert_eq!(kuuid::object_id().as_bytes().len(), 12);
    /// ```
    pub const fn as_bytes(&self) -> &[u8; 12] {
        &self.0
    }

    /// The second it was minted in (an unsigned 32-bit count since 1970).
    ///
    /// ```
    /// let id = kuuid::try_object_id("2018-01-01T00:00:00Z")?;
    /// assert_eq!(id.timestamp().to_string(), "2018-01-01T00:00:00Z");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn timestamp(&self) -> Timestamp {
        let secs = u32::from_be_bytes([self.0[0], self.0[1], self.0[2], self.0[3]]);
        Timestamp::from_millis(u64::from(secs) * 1000)
    }

    /// The 24-character lowercase hex text in a caller's buffer.
    ///
    /// ```
    /// let mut buf = [0u8; 24];
    /// let id = kuuid::ObjectId::from_bytes([0xab; 12]);
    /// assert_eq!(id.encode_hex(&mut buf), "abababababababababababab");
    /// ```
    pub fn encode_hex<'a>(&self, buf: &'a mut [u8; 24]) -> &'a str {
        *buf = self.hex_bytes();
        std::str::from_utf8(buf).expect("hex is ASCII")
    }

    /// The 24-character text as bytes, for writers (no `&str`, so no UTF-8
    /// check).
    ///
    /// ```
    /// let id = kuuid::object_id();
    /// assert_eq!(id.hex_bytes(), *id.to_string().as_bytes());
    /// ```
    #[inline]
    pub fn hex_bytes(&self) -> [u8; 24] {
        hex::hex24(&self.0)
    }

    /// The 24-character texts of many ids at once, on the engine's SIMD
    /// path: `out[i]` gets `ids[i]`'s text, for the first
    /// `min(ids.len(), out.len())` ids; returns how many.
    ///
    /// ```
    /// let mut ids = [kuuid::ObjectId::default(); 100];
    /// kuuid::fill_object_ids(&mut ids);
    /// let mut text = [[0u8; 24]; 100];
    /// assert_eq!(kuuid::ObjectId::encode_hex_many(&ids, &mut text), 100);
    /// assert_eq!(text[7], *ids[7].to_string().as_bytes());
    /// ```
    pub fn encode_hex_many(ids: &[ObjectId], out: &mut [[u8; 24]]) -> usize {
        let n = ids.len().min(out.len());
        hex::encode12(crate::engine::isa(), &ids[..n], &mut out[..n]);
        n
    }

    /// The id for a second and a (process value, counter) state word.
    const fn build(secs: u32, state: u64) -> Self {
        let s = secs.to_be_bytes();
        let w = state.to_be_bytes();
        ObjectId([
            s[0], s[1], s[2], s[3], w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7],
        ])
    }
}

impl hex::Bytes<12> for ObjectId {
    #[inline(always)]
    fn bytes(&self) -> &[u8; 12] {
        &self.0
    }
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode_hex(&mut [0; 24]))
    }
}

impl fmt::Debug for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ObjectId({self})")
    }
}

/// Why text is not an ObjectId.
///
/// ```
/// use kuuid::{ObjectId, ObjectIdParseError};
/// assert_eq!("abc".parse::<ObjectId>(), Err(ObjectIdParseError::Length { found: 3 }));
/// assert_eq!("zz0000000000000000000000".parse::<ObjectId>(),
///            Err(ObjectIdParseError::InvalidByte { index: 0, byte: b'z' }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ObjectIdParseError {
    /// Not 24 characters.
    Length {
        /// The length found.
        found: usize,
    },
    /// A byte that is not a hex digit.
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
}

impl fmt::Display for ObjectIdParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ObjectIdParseError::Length { found } => {
                write!(f, "length is {}, expected 24", Bytes(found))
            }
            ObjectIdParseError::InvalidByte { index, byte } => {
                write!(
                    f,
                    "invalid byte 0x{byte:02x} at index {index} (expected a hex digit)"
                )
            }
        }
    }
}

impl std::error::Error for ObjectIdParseError {}

impl FromStr for ObjectId {
    type Err = ObjectIdParseError;

    /// 24 hex digits, either case.
    fn from_str(s: &str) -> Result<Self, ObjectIdParseError> {
        ObjectId::parse_ascii(s.as_bytes())
    }
}

impl ObjectId {
    /// [`FromStr`] on bytes that need not be UTF-8 (serde's byte strings).
    pub(crate) fn parse_ascii(text: &[u8]) -> Result<Self, ObjectIdParseError> {
        if text.len() != 24 {
            return Err(ObjectIdParseError::Length { found: text.len() });
        }
        let mut bytes = [0u8; 12];
        hex::decode(text, &[], &mut bytes)
            .map_err(|(index, byte)| ObjectIdParseError::InvalidByte { index, byte })?;
        Ok(ObjectId(bytes))
    }
}

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
            // The token word as it is: 0 in a new child, which matches only
            // a block never claimed ((0, 0), so used up): no need to settle
            // the token before the slow path.
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

/// An ObjectId minted now.
#[inline]
pub(crate) fn now() -> ObjectId {
    ObjectId::build(now_secs(), next_state())
}

/// An ObjectId at a given time (seconds; past 2106 is an error).
pub(crate) fn at(t: Timestamp) -> Result<ObjectId, TimeError> {
    let secs = u32::try_from(t.as_secs()).map_err(|_| TimeError::PastObjectIdRange {
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
