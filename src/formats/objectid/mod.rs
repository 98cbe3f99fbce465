//! MongoDB ObjectId: the value type, its text, and the process state that
//! mints them ([`ObjectId`]'s documentation has the layout, the state and
//! what fork and `reseed` do).

use std::fmt;
use std::str::FromStr;

mod state;

pub(crate) use state::{at, fill_now, now, reseed};
#[cfg(loom)]
pub use state::{claim, reseed_word};

use crate::engine::hex;
use crate::parse::ObjectIdParseError;
use crate::time::{IntoTimestamp, TimeError, Timestamp};

/// A MongoDB ObjectId: 12 bytes; byte order is (second, process value,
/// counter) order.
///
/// # Layout
///
/// The `bson-objectid` specification: 12 bytes, a 4-byte
/// big-endian unsigned count of seconds since 1970, a 5-byte value random
/// per process, and a 3-byte big-endian counter that starts at a random
/// value, adds 1 per id and wraps from `0xFFFFFF` to 0. Shown as 24
/// lowercase hex characters.
///
/// # State
///
/// The 5-byte value and the counter live together in one 64-bit
/// word, advanced with one `fetch_add` per 256 ids: each thread claims a
/// block of 256 states (single ids take the next of their thread's block,
/// bulk fills claim per 256), so every thread of the process draws from one
/// counter without a lock. Ids of one thread increase; ids of different
/// threads in one second interleave by block, not by time. When the
/// counter wraps, the add carries into the 5-byte value: the spec assumes
/// fewer than 2^24 ids a second per process, this engine mints far more, and
/// the carry gives the next 2^24 ids a value never used before in the
/// process, so no ObjectId repeats within a process (until 2^64 ids).
///
/// # Fork and reseed
///
/// The word lives in the wipe-on-fork page: a child
/// reads 0 and draws its own random value, as the spec's test plan asks
/// (the `bson` crate does nothing on fork). Each thread's block carries the
/// process token it was claimed under, so a child never resumes a block of
/// its parent's, whichever thread or bulk call mints first there.
/// [`crate::reseed`] gives the word a fresh random value from the OS and
/// moves the token, so two restored copies of one snapshot part ways.
///
/// # Example
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
    /// An ObjectId minted now, as [`object_id()`](crate::object_id): the
    /// current second, this process's random value and the shared counter.
    ///
    /// ```
    /// let a = kuuid::ObjectId::now();
    /// assert_ne!(a, kuuid::ObjectId::now());
    /// ```
    #[inline]
    pub fn now() -> Self {
        now()
    }

    /// An ObjectId at time `t` (seconds), as
    /// [`object_id_at`](crate::object_id_at); fails past
    /// 2106-02-07T06:28:15Z, the last second its 4-byte timestamp holds.
    ///
    /// ```
    /// let id = kuuid::ObjectId::at(0u64)?;
    /// assert_eq!(&id.to_string()[..8], "00000000");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(t: impl IntoTimestamp) -> Result<Self, TimeError> {
        at(t.into_timestamp()?)
    }

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
    /// let id = kuuid::object_id_at("2018-01-01T00:00:00Z")?;
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
    pub fn encode_hex<'a>(&self, buf: &'a mut [u8; 24]) -> &'a mut str {
        *buf = self.hex_bytes();
        std::str::from_utf8_mut(buf).expect("hex is ASCII")
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
    /// A slot may be wider than the text (`W` at least 24, checked at
    /// compile time): the text goes at its start and the rest is left as
    /// it is, so slots of 25 bytes ending in `\n` are lines ready to write.
    ///
    /// ```
    /// let mut ids = [kuuid::ObjectId::default(); 100];
    /// kuuid::fill_object_id(&mut ids);
    /// let mut text = [[0u8; 24]; 100];
    /// assert_eq!(kuuid::ObjectId::encode_hex_many(&ids, &mut text), 100);
    /// assert_eq!(text[7], *ids[7].to_string().as_bytes());
    /// let mut lines = [[b'\n'; 25]; 100];
    /// kuuid::ObjectId::encode_hex_many(&ids, &mut lines);
    /// assert_eq!(lines[7][..24], text[7]);
    /// assert_eq!(lines[7][24], b'\n');
    /// ```
    pub fn encode_hex_many<const W: usize>(ids: &[ObjectId], out: &mut [[u8; W]]) -> usize {
        let n = ids.len().min(out.len());
        hex::encode12(crate::engine::isa(), &ids[..n], &mut out[..n]);
        n
    }

    /// The id for a second and a (process value, counter) state word.
    pub(super) const fn build(secs: u32, state: u64) -> Self {
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
            return Err(ObjectIdParseError::Length {
                expected: &[24],
                found: text.len(),
            });
        }
        let mut bytes = [0u8; 12];
        hex::decode(text, &[], &mut bytes)
            .map_err(|(index, byte)| ObjectIdParseError::InvalidByte { index, byte })?;
        Ok(ObjectId(bytes))
    }
}
