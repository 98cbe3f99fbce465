//! UUIDv7 (RFC 9562 §5.7), laid out as npm kuuid 3.x lays it out, with a
//! longer counter: 48-bit big-endian milliseconds | version `7` | a 22-bit
//! counter (12 bits in `rand_a`, then the top 10 bits of `rand_b`) |
//! variant `10` | 52 random bits.
//!
//! **Order.** [`v7()`](crate::v7) is strictly increasing across every thread
//! of the process, without a lock (RFC 9562 §6.2 method 1, "fixed
//! bit-length dedicated counter"): one 64-bit atomic word holds the last
//! (milliseconds, counter) pair as `ms << 22 | counter`, and an id takes the
//! next value with one `fetch_add` (a locked `xadd`, which never retries).
//! Only when the word's millisecond is behind the clock does a
//! compare-and-swap move it to the clock's millisecond, with the counter at
//! a random value below 2^21. So every millisecond has room for at least
//! 2^21 (2.1 million) ids: below 2.1 billion ids a second ids carry the
//! clock's millisecond (drift 0); a faster burst runs ahead of the clock by
//! at most one millisecond per 2^21 ids, as the counter carries into the
//! millisecond (never a wait, a longer id or a repeat). If the clock steps
//! back, ids keep the newest millisecond until it catches up. The word sits
//! in the process's wipe-on-fork page, so a forked child starts its own
//! sequence as a new process would.
//!
//! **Why 22 bits.** 42 bits of milliseconds and 22 of counter fill one
//! 64-bit word, and a 64-bit `fetch_add` costs about half a 128-bit
//! compare-and-swap (`lock cmpxchg16b`), which also retried whenever two
//! threads met. The 42 bits hold milliseconds until 2109-05-15; from 17
//! minutes before that, ids minted now take a random counter start, as
//! [`try_v7`](crate::try_v7) does: unique, ordered along one
//! [`fill_v7`](crate::fill_v7) slice or [`V7Generator`] block, but not
//! across calls.
//!
//! **Clock.** "Now" is the kernel's coarse clock (`CLOCK_REALTIME_COARSE`
//! on Linux, advancing once per tick), so an id can lag the precise time by
//! up to one tick (1-4 ms); the counter keeps the order within it.
//!
//! **Given times.** [`try_v7`](crate::try_v7) mints at a given time with a
//! random counter start and is not ordered against other ids of the same
//! millisecond (73 random bits keep them unique); npm increments a counter
//! that restarts each new millisecond and, unchecked, grows its `v7s` text
//! to 33 characters after 4,096 ids in one millisecond.

use std::fmt;
use std::str::FromStr;

use std::sync::atomic::AtomicU64;

use super::uuid_layout::{self, MAX_UNIX_MILLIS, NotThisUuid};
use crate::engine::hex;
use crate::parse::Bytes;
use crate::rng::fork::Tagged;
use crate::time::{TimeError, Timestamp};
use crate::word::Word64;

/// Bits of the counter: 12 in `rand_a` and 10 at the top of `rand_b`.
const COUNTER_BITS: u32 = 22;
/// Bits of `rand_b` below the counter, all random.
const RANDOM_BITS: u32 = 52;
/// A new millisecond's counter starts below this (so at least 2^21 ids fit).
const START_LIMIT: u64 = 1 << (COUNTER_BITS - 1);
/// Counter bits at the top of `rand_b` (the rest are in `rand_a`).
const LOW_COUNTER_BITS: u32 = COUNTER_BITS - 12;
/// The sequence word orders ids minted now before this millisecond: 2^42
/// (2109-05-15) less 2^20 ms, so that no counter carry can reach bit 64.
const SEQUENCE_MS_LIMIT: u64 = (1 << 42) - (1 << 20);

/// A UUIDv7: 16 bytes, big-endian, version 7 and variant `10` checked.
/// Byte order is time order.
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
    /// let id = kuuid::try_v7("2022-02-22T19:22:22Z")?;
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
    pub fn encode_hyphenated<'a>(&self, buf: &'a mut [u8; 36]) -> &'a str {
        *buf = self.hyphenated_bytes();
        std::str::from_utf8(buf).expect("hex is ASCII")
    }

    /// The 36-character texts of many ids at once, on the engine's SIMD
    /// path: `out[i]` gets `ids[i]`'s text, for the first
    /// `min(ids.len(), out.len())` ids; returns how many.
    ///
    /// ```
    /// let mut ids = [kuuid::Uuid7::MIN; 100];
    /// kuuid::fill_v7(&mut ids);
    /// let mut text = [[0u8; 36]; 100];
    /// assert_eq!(kuuid::Uuid7::encode_hyphenated_many(&ids, &mut text), 100);
    /// assert_eq!(text[7], *ids[7].to_string().as_bytes());
    /// ```
    pub fn encode_hyphenated_many(ids: &[Uuid7], out: &mut [[u8; 36]]) -> usize {
        let n = ids.len().min(out.len());
        hex::encode16_dashed(crate::engine::isa(), &ids[..n], &mut out[..n]);
        n
    }

    /// The 32-character texts (npm `v7s`) of many ids at once, on the
    /// engine's SIMD path; as [`encode_hyphenated_many`](Self::encode_hyphenated_many).
    ///
    /// ```
    /// let mut ids = [kuuid::Uuid7::MIN; 100];
    /// kuuid::fill_v7(&mut ids);
    /// let mut text = [[0u8; 32]; 100];
    /// assert_eq!(kuuid::Uuid7::encode_simple_many(&ids, &mut text), 100);
    /// assert_eq!(text[7], *ids[7].simple().to_string().as_bytes());
    /// ```
    pub fn encode_simple_many(ids: &[Uuid7], out: &mut [[u8; 32]]) -> usize {
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
    pub fn encode_simple<'a>(&self, buf: &'a mut [u8; 32]) -> &'a str {
        *buf = self.simple_bytes();
        std::str::from_utf8(buf).expect("hex is ASCII")
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

/// Why text is not a UUIDv7.
///
/// ```
/// use kuuid::{Uuid7, UuidParseError};
/// assert_eq!("017f22e2-79b0-4cc3-98c4-dc0c0c07398f".parse::<Uuid7>(),
///            Err(UuidParseError::Version { found: 4 }));
/// assert_eq!("017f22e279b07cc3".parse::<Uuid7>(),
///            Err(UuidParseError::Length { found: 16 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UuidParseError {
    /// Neither 36 (with dashes) nor 32 (without) characters.
    Length {
        /// The length found.
        found: usize,
    },
    /// A byte that is not a hex digit, or a dash out of place.
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// The version nibble is not 7.
    Version {
        /// The version found.
        found: u8,
    },
    /// The variant bits are not `10`.
    Variant {
        /// The nibble that holds them.
        found: u8,
    },
}

impl fmt::Display for UuidParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UuidParseError::Length { found } => {
                write!(f, "length is {}, expected 36 or 32", Bytes(found))
            }
            UuidParseError::InvalidByte { index, byte } if byte.is_ascii_graphic() => write!(
                f,
                "invalid byte {:?} at index {index} (expected a hex digit, or a dash at 8, 13, 18 and 23)",
                byte as char
            ),
            UuidParseError::InvalidByte { index, byte } => write!(
                f,
                "invalid byte 0x{byte:02x} at index {index} (expected a hex digit)"
            ),
            UuidParseError::Version { found } => {
                write!(f, "version is {found}, expected 7")
            }
            UuidParseError::Variant { found } => write!(
                f,
                "variant nibble is {found:x}, expected 8, 9, a or b (RFC 9562)"
            ),
        }
    }
}

impl std::error::Error for UuidParseError {}

impl FromStr for Uuid7 {
    type Err = UuidParseError;

    /// Parses the 36-character RFC 9562 text or the 32-character one (hex
    /// in either case), then checks version and variant.
    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        Uuid7::parse_ascii(s.as_bytes())
    }
}

impl Uuid7 {
    /// [`FromStr`] on bytes that need not be UTF-8 (serde's byte strings).
    pub(crate) fn parse_ascii(text: &[u8]) -> Result<Self, UuidParseError> {
        let dashed = match text.len() {
            36 => true,
            32 => false,
            found => return Err(UuidParseError::Length { found }),
        };
        let dashes: &[usize] = if dashed { &[8, 13, 18, 23] } else { &[] };
        let mut bytes = [0u8; 16];
        hex::decode(text, dashes, &mut bytes)
            .map_err(|(index, byte)| UuidParseError::InvalidByte { index, byte })?;
        Uuid7::from_bytes(bytes)
    }
}

impl FromStr for Simple {
    type Err = UuidParseError;

    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        s.parse().map(Simple)
    }
}

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
fn claim_now(count: u64) -> u128 {
    let now = crate::sys::coarse_millis();
    if now < SEQUENCE_MS_LIMIT {
        u128::from(claim(sequence(), now, random_start, count))
    } else {
        u128::from(now.min(MAX_UNIX_MILLIS)) << COUNTER_BITS
            | u128::from(random_start() % START_LIMIT)
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

/// The bits of the id for sequence value `v` (`ms << 22 | counter`) and 52
/// random bits.
#[inline]
fn sequence_bits(v: u128, random: u64) -> u128 {
    let ms = (v >> COUNTER_BITS) as u64;
    bits(ms.min(MAX_UNIX_MILLIS), v as u64, random)
}

/// The id for sequence value `v` and 52 random bits.
#[inline]
fn from_sequence(v: u128, random: u64) -> Uuid7 {
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
/// whether they inlined the call).
#[inline]
fn now_bits() -> u128 {
    let random = crate::local::random_u64();
    sequence_bits(claim_now(1), random)
}

/// Fills `ids` with UUIDv7s minted now, in one claim per 256 ids: strictly
/// increasing along the slice and after every id minted before in the
/// process.
pub(crate) fn fill_now(ids: &mut [Uuid7]) {
    for chunk in ids.chunks_mut(256) {
        let mut random = [0u64; 256];
        let random = &mut random[..chunk.len()];
        crate::local::fill_words(bytemuck::cast_slice_mut(random));
        write_run(claim_now(chunk.len() as u64), random, chunk);
    }
}

/// Writes the ids of sequence values `first..` with `random`'s bits into
/// `out` (as [`from_sequence`] each, `random.len() == out.len()`).
#[inline]
fn write_run(first: u128, random: &[u64], out: &mut [Uuid7]) {
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

/// Sequence values a [`V7Generator`] claims at once.
const BLOCK: u64 = 256;

/// UUIDv7s for one owner (a thread, a task), for hot paths on several
/// threads at once: it claims counter values from the process's sequence in
/// blocks of 256, so threads do not take turns on the shared word for every
/// id.
///
/// **Which order is which.** Ids of one generator are strictly increasing,
/// and every id in the process is unique. Ids of *different* generators
/// (and of [`kuuid::v7`](crate::v7)) are ordered by millisecond but not
/// within one: a generator keeps minting from its block until the clock
/// moves on. [`kuuid::v7`](crate::v7) is the one ordered across the whole
/// process, at the price of one atomic add on the shared word an id
/// (measured in docs/formats.md: two threads minting at once each run several
/// times slower than one alone).
///
/// A forked child, or a [`kuuid::reseed`](crate::reseed), drops the block:
/// the child claims from its own sequence.
///
/// ```
/// let mut g = kuuid::V7Generator::new();
/// let a = g.generate();
/// let b = g.generate();
/// assert!(a < b);
/// let handles: Vec<_> = (0..2)
///     .map(|_| std::thread::spawn(|| {
///         let mut g = kuuid::V7Generator::new();
///         (0..1000).map(|_| g.generate()).collect::<Vec<_>>()
///     }))
///     .collect();
/// let mut all: Vec<_> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
/// all.sort();
/// all.dedup();
/// assert_eq!(all.len(), 2000);
/// ```
#[derive(Debug, Default)]
pub struct V7Generator {
    /// The next sequence value of the block and one past its last, under
    /// the process token the block was claimed under.
    block: Tagged<(u128, u128)>,
    /// For a generator pinned at a time ([`V7Generator::at`]): the next
    /// sequence value, counted on from a random start in that millisecond.
    pinned: Option<u128>,
}

impl V7Generator {
    /// A generator with no block yet (the first id claims one).
    ///
    /// ```
    /// let id = kuuid::V7Generator::new().generate();
    /// assert_eq!(id.as_bytes()[6] >> 4, 7);
    /// ```
    pub fn new() -> Self {
        V7Generator::default()
    }

    /// A generator whose ids carry time `t` instead of now: a random
    /// counter start in `t`'s millisecond, then +1 an id, so its ids are
    /// strictly increasing (after 2^21 ids at least, the counter carries
    /// into the next millisecond, as the sequence of ids minted now does).
    /// Fails past the 48-bit millisecond range (year 10889).
    ///
    /// Unlike ids minted now, these are unique only within the generator:
    /// another generator at the same time starts at another random
    /// counter, and 52 random bits follow the counter in each id.
    ///
    /// ```
    /// let mut g = kuuid::V7Generator::at("2024-01-01T00:00:00Z")?;
    /// let ids: Vec<_> = (0..1000).map(|_| g.generate()).collect();
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// assert_eq!(ids[0].timestamp().to_string(), "2024-01-01T00:00:00Z");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(t: impl crate::time::IntoTimestamp) -> Result<Self, TimeError> {
        let t = t.into_timestamp()?;
        let first = at(t)?;
        Ok(V7Generator {
            block: Tagged::default(),
            pinned: Some(
                u128::from((first.to_u128() >> 80) as u64) << COUNTER_BITS
                    | u128::from(first.counter()),
            ),
        })
    }

    /// A UUIDv7 minted now: strictly after this generator's previous ids.
    ///
    /// ```
    /// let mut g = kuuid::V7Generator::new();
    /// let ids: Vec<_> = (0..10_000).map(|_| g.generate()).collect();
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// ```
    #[inline]
    pub fn generate(&mut self) -> Uuid7 {
        let now = crate::sys::coarse_millis();
        let token = crate::rng::fork::token();
        let v = match self.block.get_mut(token) {
            // A block of this process, not used up, whose millisecond the
            // clock has not passed.
            Some((next, end)) if *next != *end && *next >> COUNTER_BITS >= u128::from(now) => {
                let v = *next;
                *next += 1;
                v
            }
            _ => self.claim(token),
        };
        from_sequence(v, crate::local::random_u64())
    }

    /// Claims a new block and takes its first value; a pinned generator
    /// (whose block stays empty) takes its next value instead.
    #[cold]
    fn claim(&mut self, token: u64) -> u128 {
        if let Some(next) = &mut self.pinned {
            *next += 1;
            return *next - 1;
        }
        let first = claim_now(BLOCK);
        self.block = Tagged::new(token, (first + 1, first + u128::from(BLOCK)));
        first
    }

    /// Fills `ids` with UUIDv7s minted now, strictly increasing along the
    /// slice and after this generator's previous ids (as
    /// [`fill_v7`](crate::fill_v7), which it uses).
    ///
    /// ```
    /// let mut g = kuuid::V7Generator::new();
    /// let first = g.generate();
    /// let mut ids = [kuuid::Uuid7::MIN; 100];
    /// g.fill(&mut ids);
    /// assert!(first < ids[0] && ids.windows(2).all(|w| w[0] < w[1]));
    /// assert!(ids[99] < g.generate());
    /// ```
    pub fn fill(&mut self, ids: &mut [Uuid7]) {
        if let Some(next) = &mut self.pinned {
            for chunk in ids.chunks_mut(256) {
                let mut random = [0u64; 256];
                let random = &mut random[..chunk.len()];
                crate::local::fill_words(bytemuck::cast_slice_mut(random));
                write_run(*next, random, chunk);
                *next += chunk.len() as u128;
            }
            return;
        }
        fill_now(ids);
        // The rest of the block sorts before what the fill claimed.
        self.block = Tagged::default();
    }
}

/// A UUIDv7 at a given time: a random counter start, 52 random bits.
pub(crate) fn at(t: Timestamp) -> Result<Uuid7, TimeError> {
    let ms = t.as_millis();
    if ms > MAX_UNIX_MILLIS {
        return Err(TimeError::PastUuid7Range { millis: ms });
    }
    let [r0, r1, r2] = crate::local::words::<3>();
    let start = u64::from(r2) % START_LIMIT;
    Ok(Uuid7::build(ms, start, u64::from(r1) << 32 | u64::from(r0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

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
        ] {
            let mut run = vec![Uuid7::MIN; random.len()];
            write_run(first, &random, &mut run);
            for (i, (id, &r)) in run.iter().zip(&random).enumerate() {
                assert_eq!(*id, from_sequence(first + i as u128, r), "{first:#x} + {i}");
            }
        }
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

/// `uuid` interop (feature `uuid`): every UUIDv7 is a `uuid::Uuid`; a
/// `uuid::Uuid` is a [`Uuid7`] if its version and variant say so.
#[cfg(feature = "uuid")]
mod uuid_interop {
    use super::{Uuid7, UuidParseError};

    impl From<Uuid7> for uuid::Uuid {
        fn from(id: Uuid7) -> Self {
            uuid::Uuid::from_bytes(id.0)
        }
    }

    impl TryFrom<uuid::Uuid> for Uuid7 {
        type Error = UuidParseError;

        /// ```
        /// let u: uuid::Uuid = kuuid::v7().into();
        /// assert_eq!(u.get_version_num(), 7);
        /// assert_eq!(kuuid::Uuid7::try_from(u)?.to_string(), u.to_string());
        /// assert!(kuuid::Uuid7::try_from(uuid::Uuid::new_v4()).is_err());
        /// # Ok::<(), kuuid::UuidParseError>(())
        /// ```
        fn try_from(u: uuid::Uuid) -> Result<Self, UuidParseError> {
            Uuid7::from_bytes(*u.as_bytes())
        }
    }
}
