//! UUIDv7: the value type, its text, and how the process mints them in
//! order ([`Uuid7`]'s documentation has the layout, order, clock and
//! limits).

mod forms;
mod generator;
mod parse;
mod pinned;
mod state;

use std::fmt;

use super::uuid_layout::{self, MAX_UNIX_MILLIS, NotThisUuid};
use crate::engine::hex;
use crate::parse::UuidParseError;
use crate::time::{IntoTimestamp, TimeError, TimeField, Timestamp};

pub use forms::{Braced, Urn};
pub use generator::V7Generator;
pub use pinned::V7GeneratorAt;
pub(crate) use state::{fill_now, now};

// The counter: 12 bits in `rand_a` and 10 at the top of `rand_b`.
use super::sequence::{COUNTER_BITS, START_LIMIT};
/// Bits of `rand_b` below the counter, all random.
const RANDOM_BITS: u32 = 52;
/// Counter bits at the top of `rand_b` (the rest are in `rand_a`).
const LOW_COUNTER_BITS: u32 = COUNTER_BITS - 12;

/// A UUIDv7: 16 bytes, big-endian, version 7 and variant `10` checked.
/// Byte order is time order.
///
/// # Layout
///
/// RFC 9562 §5.7, as npm kuuid 3.x lays it out, with a longer counter: 48-bit big-endian milliseconds | version `7` | a 22-bit
/// counter (12 bits in `rand_a`, then the top 10 bits of `rand_b`) |
/// variant `10` | 52 random bits.
///
/// # Order
///
/// [`v7()`](crate::v7) is strictly increasing across every thread
/// of the process, without a lock (RFC 9562 §6.2 method 1, "fixed
/// bit-length dedicated counter"): one 64-bit atomic word holds the last
/// (milliseconds, counter) pair as `ms << 22 | counter`, and an id takes the
/// next value with one `fetch_add` (a locked `xadd`, which never retries).
/// Only when the word's millisecond is behind the clock does a
/// compare-and-swap move it to the clock's millisecond, with the counter at
/// a random value below 2^21. So every millisecond has room for at least
/// 2^21 (2.1 million) ids: below 2.1 billion ids a second ids carry the
/// clock's millisecond (drift 0); a faster burst runs ahead of the clock by
/// at most one millisecond per 2^21 ids, as the counter carries into the
/// millisecond (never a wait, a longer id or a repeat). If the clock steps
/// back, ids keep the newest millisecond until it catches up. The word sits
/// in the process's wipe-on-fork page, so a forked child starts its own
/// sequence as a new process would.
///
/// # Limits: why 22 bits
///
/// 42 bits of milliseconds and 22 of counter fill one
/// 64-bit word, and a 64-bit `fetch_add` costs about half a 128-bit
/// compare-and-swap (`lock cmpxchg16b`), which also retried whenever two
/// threads met. The 42 bits hold milliseconds until 2109-05-15; from 17
/// minutes before that, ids minted now take a random counter start, as
/// [`v7_at`](crate::v7_at) does: unique, ordered along one
/// [`fill_v7`](crate::fill_v7) slice or [`V7Generator`] block, but not
/// across calls.
///
/// # Clock
///
/// "Now" is, by default, the kernel's coarse clock (`CLOCK_REALTIME_COARSE`
/// on Linux, advancing once per tick), which was measured 3-7 ms behind
/// the precise time on KVM guests with a 4 ms tick; the counter keeps the
/// order within it. [`clock::set_millis_clock`](crate::clock::set_millis_clock)
/// makes the process read the precise clock instead (about 30 ns more an
/// id there).
///
/// # Given times
///
/// [`v7_at`](crate::v7_at) mints at a given time with a
/// random counter start and is not ordered against other ids of the same
/// millisecond (73 random bits keep them unique); npm increments a counter
/// that restarts each new millisecond and, unchecked, grows its `v7s` text
/// to 33 characters after 4,096 ids in one millisecond.
///
/// # Example
///
/// ```
/// let a = kuuid::v7();
/// let b = kuuid::v7();
/// assert!(a < b);                              // strictly increasing in the process
/// assert_eq!(a.to_string().len(), 36);         // 8-4-4-4-12, lowercase
/// assert_eq!(a.simple().to_string().len(), 32);
/// let back: kuuid::Uuid7 = a.to_string().parse()?;
/// assert_eq!(back, a);
/// # Ok::<(), kuuid::UuidParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uuid7([u8; 16]);

impl Uuid7 {
    /// A UUIDv7 minted now, as [`v7()`](crate::v7): strictly after every
    /// other UUIDv7 minted in this process, on any thread, without a lock.
    ///
    /// ```
    /// let a = kuuid::Uuid7::now();
    /// let b = kuuid::Uuid7::now();
    /// assert!(a < b);
    /// ```
    #[inline]
    pub fn now() -> Self {
        now()
    }

    /// A UUIDv7 at time `t` (RFC 3339 text, integer milliseconds,
    /// `SystemTime`, ...), as [`v7_at`](crate::v7_at): not ordered against
    /// other ids of the same millisecond; fails before 1970 or past the
    /// 48-bit millisecond field.
    ///
    /// ```
    /// let id = kuuid::Uuid7::at("2022-02-22T19:22:22Z")?;
    /// assert_eq!(&id.to_string()[..13], "017f22e2-79b0");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(t: impl IntoTimestamp) -> Result<Self, TimeError> {
        at(t.into_timestamp()?)
    }

    /// The smallest UUIDv7, `00000000-0000-7000-8000-000000000000`: a valid
    /// placeholder for buffers to fill. `Uuid7` has no `Default`: the nil
    /// UUID that `uuid::Uuid::default()` gives is not a UUIDv7.
    ///
    /// ```
    /// let mut ids = [kuuid::Uuid7::MIN; 4];
    /// kuuid::fill_v7(&mut ids);
    /// assert!(ids.iter().all(|id| *id > kuuid::Uuid7::MIN));
    /// assert_eq!(kuuid::Uuid7::MIN.to_string(), "00000000-0000-7000-8000-000000000000");
    /// ```
    pub const MIN: Uuid7 = Uuid7::build(0, 0, 0);

    /// The UUID from its 16 bytes, if they are a UUIDv7 (version 7, variant
    /// `10`).
    ///
    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(kuuid::Uuid7::from_bytes(*id.as_bytes()), Ok(id));
    /// assert!(kuuid::Uuid7::from_bytes([0; 16]).is_err());
    /// ```
    pub const fn from_bytes(bytes: [u8; 16]) -> Result<Self, UuidParseError> {
        match uuid_layout::check(u128::from_be_bytes(bytes), 7) {
            Ok(()) => Ok(Uuid7(bytes)),
            Err(NotThisUuid::Version(found)) => Err(UuidParseError::Version { found }),
            Err(NotThisUuid::Variant(found)) => Err(UuidParseError::Variant { found }),
        }
    }

    /// The 16 bytes, big-endian.
    ///
    /// ```
    /// assert_eq!(kuuid::v7().as_bytes()[6] >> 4, 7);
    /// ```
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// The UUID from its 128-bit value, if it is a UUIDv7 (as
    /// [`from_bytes`](Self::from_bytes)).
    ///
    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(kuuid::Uuid7::from_u128(id.as_u128()), Ok(id));
    /// assert!(kuuid::Uuid7::from_u128(u128::MAX).is_err());
    /// ```
    pub const fn from_u128(v: u128) -> Result<Self, UuidParseError> {
        Uuid7::from_bytes(v.to_be_bytes())
    }

    /// The 128-bit value (uuid's name for it).
    ///
    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(id.as_u128() >> 76 & 0xf, 7);
    /// assert_eq!(u128::from(id), id.as_u128());
    /// ```
    pub const fn as_u128(&self) -> u128 {
        u128::from_be_bytes(self.0)
    }

    /// The 128-bit value.
    ///
    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(id.to_u128() >> 76 & 0xf, 7);
    /// ```
    pub const fn to_u128(self) -> u128 {
        u128::from_be_bytes(self.0)
    }

    /// The millisecond the id was minted in.
    ///
    /// ```
    /// let id = kuuid::v7_at("2022-02-22T19:22:22Z")?;
    /// assert_eq!(id.timestamp().to_string(), "2022-02-22T19:22:22Z");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn timestamp(&self) -> Timestamp {
        Timestamp::from_millis((self.to_u128() >> 80) as u64)
    }

    /// The 22-bit counter (`rand_a` and the top 10 bits of `rand_b`).
    ///
    /// ```
    /// let (a, b) = (kuuid::v7(), kuuid::v7());
    /// assert!(a.timestamp() < b.timestamp() || a.counter() < b.counter());
    /// ```
    pub const fn counter(&self) -> u64 {
        let v = self.to_u128();
        let rand_a = (v >> 64) as u64 & 0xfff;
        let rand_b_top = (v >> RANDOM_BITS) as u64 & ((1 << LOW_COUNTER_BITS) - 1);
        rand_a << LOW_COUNTER_BITS | rand_b_top
    }

    /// The id built from a millisecond, a counter (its low 22 bits) and 52
    /// random bits (the low 52 of `random`).
    #[inline]
    const fn build(ms: u64, counter: u64, random: u64) -> Self {
        Uuid7(bits(ms, counter, random).to_be_bytes())
    }

    /// The 36-character RFC 9562 text (lowercase) in a caller's buffer.
    ///
    /// ```
    /// let mut buf = [0u8; 36];
    /// let text = kuuid::v7().encode_hyphenated(&mut buf);
    /// assert_eq!(&text[14..15], "7");
    /// ```
    pub fn encode_hyphenated<'a>(&self, buf: &'a mut [u8; 36]) -> &'a mut str {
        *buf = self.hyphenated_bytes();
        std::str::from_utf8_mut(buf).expect("hex is ASCII")
    }

    /// The 36-character texts of many ids at once, on the engine's SIMD
    /// path: `out[i]` gets `ids[i]`'s text, for the first
    /// `min(ids.len(), out.len())` ids; returns how many.
    ///
    /// A slot may be wider than the text (`W` at least 36, checked at
    /// compile time): the text goes at its start and the rest is left as
    /// it is, so slots of 37 bytes ending in `\n` are lines ready to write.
    ///
    /// ```
    /// let mut ids = [kuuid::Uuid7::MIN; 100];
    /// kuuid::fill_v7(&mut ids);
    /// let mut text = [[0u8; 36]; 100];
    /// assert_eq!(kuuid::Uuid7::encode_hyphenated_many(&ids, &mut text), 100);
    /// assert_eq!(text[7], *ids[7].to_string().as_bytes());
    /// let mut lines = [[b'\n'; 37]; 100];
    /// kuuid::Uuid7::encode_hyphenated_many(&ids, &mut lines);
    /// assert_eq!(lines[7][..36], text[7]);
    /// assert_eq!(lines[7][36], b'\n');
    /// ```
    pub fn encode_hyphenated_many<const W: usize>(ids: &[Uuid7], out: &mut [[u8; W]]) -> usize {
        let n = ids.len().min(out.len());
        hex::encode16_dashed(crate::engine::isa(), &ids[..n], &mut out[..n]);
        n
    }

    /// The 32-character texts (npm `v7s`) of many ids at once, on the
    /// engine's SIMD path; as [`encode_hyphenated_many`](Self::encode_hyphenated_many)
    /// (slots of `W >= 32` bytes).
    ///
    /// ```
    /// let mut ids = [kuuid::Uuid7::MIN; 100];
    /// kuuid::fill_v7(&mut ids);
    /// let mut text = [[0u8; 32]; 100];
    /// assert_eq!(kuuid::Uuid7::encode_simple_many(&ids, &mut text), 100);
    /// assert_eq!(text[7], *ids[7].simple().to_string().as_bytes());
    /// ```
    pub fn encode_simple_many<const W: usize>(ids: &[Uuid7], out: &mut [[u8; W]]) -> usize {
        let n = ids.len().min(out.len());
        hex::encode16(crate::engine::isa(), &ids[..n], &mut out[..n]);
        n
    }

    /// The 36-character RFC 9562 text as bytes, for writers (no `&str`, so
    /// no UTF-8 check: about a fifth of a `v7()` call's instructions).
    ///
    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(id.hyphenated_bytes(), *id.to_string().as_bytes());
    /// ```
    #[inline]
    pub fn hyphenated_bytes(&self) -> [u8; 36] {
        hex::hyphenated(self.to_u128())
    }

    /// The 32-character text without dashes (npm `v7s`) as bytes, for
    /// writers.
    ///
    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(id.simple_bytes(), *id.simple().to_string().as_bytes());
    /// ```
    #[inline]
    pub fn simple_bytes(&self) -> [u8; 32] {
        hex::simple(self.to_u128())
    }

    /// The 32-character text without dashes (npm `v7s`) in a caller's
    /// buffer.
    ///
    /// ```
    /// let mut buf = [0u8; 32];
    /// let text = kuuid::v7().encode_simple(&mut buf);
    /// assert_eq!(&text[12..13], "7");
    /// ```
    pub fn encode_simple<'a>(&self, buf: &'a mut [u8; 32]) -> &'a mut str {
        *buf = self.simple_bytes();
        std::str::from_utf8_mut(buf).expect("hex is ASCII")
    }

    /// The id shown without dashes (npm `v7s`).
    ///
    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(id.simple().to_string(), id.to_string().replace('-', ""));
    /// ```
    pub const fn simple(self) -> Simple {
        Simple(self)
    }
}

impl hex::Bytes<16> for Uuid7 {
    #[inline(always)]
    fn bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

/// A [`Uuid7`] shown as 32 lowercase hex characters (npm `v7s`); it parses
/// from either text as well.
///
/// ```
/// let s = kuuid::v7s();
/// assert_eq!(s.to_string().len(), 32);
/// assert_eq!(s.to_string().parse::<kuuid::Simple>()?, s);
/// # Ok::<(), kuuid::UuidParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Simple(pub Uuid7);

impl From<Uuid7> for u128 {
    fn from(id: Uuid7) -> u128 {
        id.as_u128()
    }
}

impl TryFrom<u128> for Uuid7 {
    type Error = UuidParseError;

    /// ```
    /// let id = kuuid::v7();
    /// assert_eq!(kuuid::Uuid7::try_from(u128::from(id)), Ok(id));
    /// assert!(kuuid::Uuid7::try_from(0u128).is_err());
    /// ```
    fn try_from(v: u128) -> Result<Self, UuidParseError> {
        Uuid7::from_u128(v)
    }
}

impl fmt::Display for Uuid7 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode_hyphenated(&mut [0; 36]))
    }
}

impl fmt::Debug for Uuid7 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid7({self})")
    }
}

impl fmt::Display for Simple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.encode_simple(&mut [0; 32]))
    }
}

/// The 128 bits of the id of a millisecond, a counter (its low 22 bits) and
/// 52 random bits (the low 52 of `random`).
#[inline]
const fn bits(ms: u64, counter: u64, random: u64) -> u128 {
    // `uuid_layout`'s version 7 and variant, written in two 64-bit halves:
    // cheaper than 128-bit shifts in bulk loops (tests check the two agree).
    let hi = ms << 16 | 7 << 12 | (counter >> LOW_COUNTER_BITS) & 0xfff;
    let lo = 0b10 << 62
        | (counter & ((1 << LOW_COUNTER_BITS) - 1)) << RANDOM_BITS
        | random & ((1 << RANDOM_BITS) - 1);
    (hi as u128) << 64 | lo as u128
}

/// A UUIDv7 at a given time: a random counter start, 52 random bits.
pub(crate) fn at(t: Timestamp) -> Result<Uuid7, TimeError> {
    let ms = t.as_millis();
    if ms > MAX_UNIX_MILLIS {
        return Err(TimeError::OutOfRange {
            field: TimeField::Uuid7,
            millis: ms,
        });
    }
    let [r0, r1, r2] = crate::local::words::<3>();
    let start = u64::from(r2) % START_LIMIT;
    Ok(Uuid7::build(ms, start, u64::from(r1) << 32 | u64::from(r0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bits` writes `uuid_layout`'s version 7 and variant and keeps the
    /// fields: the time in the top 48 bits, the counter and random below.
    #[test]
    fn bits_follow_the_uuid_layout() {
        for (ms, counter, random) in [
            (0, 0, 0),
            (MAX_UNIX_MILLIS, (1 << COUNTER_BITS) - 1, u64::MAX),
            (1_700_000_000_000, 0x2a_5a5a, 0x000f_0f0f_0f0f_0f0f),
        ] {
            let v = bits(ms, counter, random);
            assert_eq!(uuid_layout::check(v, 7), Ok(()));
            assert_eq!(uuid_layout::with_version(v, 7), v);
            assert_eq!((v >> 80) as u64, ms);
            assert_eq!(
                v as u64 & ((1 << RANDOM_BITS) - 1),
                random & ((1 << RANDOM_BITS) - 1)
            );
        }
    }

    #[test]
    fn fields_round_trip() {
        let id = Uuid7::build(0x017F_22E2_79B0, (1 << 22) - 1, 0xF_DEAD_BEEF_CAFE);
        assert_eq!(id.timestamp().as_millis(), 0x017F_22E2_79B0);
        assert_eq!(id.counter(), (1 << 22) - 1);
        assert_eq!(id.to_u128() as u64 & ((1 << 52) - 1), 0xF_DEAD_BEEF_CAFE);
        // Counter bits beyond 22 and random bits beyond 52 are dropped.
        let wide = Uuid7::build(1, (1 << 22) | 3, u64::MAX);
        assert_eq!(
            (wide.counter(), wide.to_u128() as u64 >> 52 & 0x3ff),
            (3, 3)
        );
        assert_eq!(Uuid7::from_bytes(id.0), Ok(id));
    }
}
