//! ULID: the value type, its text, and how the process mints them in
//! order ([`Ulid`]'s documentation has the layout, order and limits).

mod convert;
mod generator;
mod state;

use std::fmt;
use std::str::FromStr;

use super::sequence::COUNTER_BITS;
use super::uuid_layout::MAX_UNIX_MILLIS;
use crate::engine::base32::{self, Accept, Case, Fault};
use crate::parse::{self, ManyError, UlidParseError};
use crate::time::{IntoTimestamp, TimeError, TimeField, Timestamp};

pub use generator::UlidGenerator;
pub(crate) use state::{fill_now, fill_text_now, now};

/// Bits under the counter in an id minted now, all random.
const RANDOM_BITS: u32 = 80 - COUNTER_BITS;

/// A ULID: 128 bits, 48 of milliseconds since 1970 then 80 of randomness
/// ([the spec](https://github.com/ulid/spec)), shown as 26 characters of
/// Crockford's base32. Byte order, text order and time order agree.
///
/// # Order
///
/// [`kuuid::ulid()`](crate::ulid) is strictly increasing across every
/// thread of the process, without a lock, as [`kuuid::v7()`](crate::v7)
/// is (its documentation says how): within a millisecond the top 22 of the
/// 80 random bits are a counter that starts at a random value below 2^21
/// and takes +1 an id, and the 58 bits under it are random for every id.
/// The spec's monotonic mode adds 1 to the whole 80 bits instead, which
/// makes the next id of a millisecond guessable from the last; this one
/// keeps 58 unguessable bits an id and still sorts every id after the one
/// before. Past 2^21 ids in a millisecond the counter carries into the
/// next millisecond (a burst runs ahead of the clock) where the spec's
/// mode fails after 2^80: never an error. A forked child starts its own
/// sequence.
///
/// Ids at a given time ([`kuuid::ulid_at`](crate::ulid_at)) have 80
/// random bits and no order within their millisecond, as the spec's
/// plain `ulid(time)`.
///
/// # Text
///
/// [`Display`](fmt::Display) writes capitals, the spec's canonical form;
/// [`encode_lower`](Self::encode_lower) the small letters TypeID uses.
/// Parsing reads exactly 26 characters in either case and refuses
/// Crockford's aliases (`I`, `L`, `O`, `U`) and a first character above
/// `7` (more than 128 bits), as npm `ulid`'s `ulidToUUID` does; the `ulid`
/// crate (3.0) reads a first character up to `Z` and drops the bits above
/// 128, giving another id: this crate refuses, as the spec says.
///
/// ```
/// let a = kuuid::ulid();
/// let b = kuuid::ulid();
/// assert!(a < b && a.to_string() < b.to_string());
/// assert_eq!(a.to_string().len(), 26);
/// let back: kuuid::Ulid = a.to_string().to_lowercase().parse()?;
/// assert_eq!(back, a);
/// # Ok::<(), kuuid::UlidParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ulid([u8; 16]);

impl Ulid {
    /// The smallest ULID, `00000000000000000000000000` (also `Default`).
    ///
    /// ```
    /// assert_eq!(kuuid::Ulid::MIN.to_string(), "00000000000000000000000000");
    /// assert_eq!(kuuid::Ulid::default(), kuuid::Ulid::MIN);
    /// ```
    pub const MIN: Ulid = Ulid([0; 16]);

    /// The largest ULID, `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`.
    ///
    /// ```
    /// assert_eq!(kuuid::Ulid::MAX.to_string(), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    /// ```
    pub const MAX: Ulid = Ulid([0xff; 16]);

    /// A ULID minted now, as [`kuuid::ulid()`](crate::ulid): strictly after
    /// every other minted now in this process, on any thread.
    ///
    /// ```
    /// let (a, b) = (kuuid::Ulid::now(), kuuid::Ulid::now());
    /// assert!(a < b);
    /// ```
    #[inline]
    pub fn now() -> Self {
        now()
    }

    /// A ULID at time `t` (RFC 3339 text, integer milliseconds,
    /// `SystemTime`, ...), as [`kuuid::ulid_at`](crate::ulid_at).
    ///
    /// ```
    /// let id = kuuid::Ulid::at("2016-07-30T23:54:10.259Z")?;
    /// assert_eq!(&id.to_string()[..10], "01ARZ3NDEK"); // the spec's example time
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(t: impl IntoTimestamp) -> Result<Self, TimeError> {
        at(t.into_timestamp()?)
    }

    /// The ULID of a millisecond and 80 random bits (the low 80 of
    /// `random`); fails past the 48-bit millisecond (the year 10889).
    ///
    /// ```
    /// let id = kuuid::Ulid::from_parts(1_469_922_850_259, 42)?;
    /// assert_eq!(id.timestamp().as_millis(), 1_469_922_850_259);
    /// assert_eq!(id.random(), 42);
    /// assert!(kuuid::Ulid::from_parts(1 << 48, 0).is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn from_parts(millis: u64, random: u128) -> Result<Self, TimeError> {
        if millis > MAX_UNIX_MILLIS {
            return Err(TimeError::OutOfRange {
                field: TimeField::Ulid,
                millis,
            });
        }
        let v = u128::from(millis) << 80 | random & ((1 << 80) - 1);
        Ok(Ulid(v.to_be_bytes()))
    }

    /// The ULID of 16 bytes, big-endian (every 128-bit value is one).
    ///
    /// ```
    /// let id = kuuid::ulid();
    /// assert_eq!(kuuid::Ulid::from_bytes(*id.as_bytes()), id);
    /// ```
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        Ulid(bytes)
    }

    /// The 16 bytes, big-endian: the millisecond first.
    ///
    /// ```
    /// let id = kuuid::Ulid::from_parts(0x0102_0304_0506, 0)?;
    /// assert_eq!(id.as_bytes()[..6], [1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// The ULID of a 128-bit value.
    ///
    /// ```
    /// assert_eq!(kuuid::Ulid::from_u128(u128::MAX), kuuid::Ulid::MAX);
    /// ```
    pub const fn from_u128(v: u128) -> Self {
        Ulid(v.to_be_bytes())
    }

    /// The 128-bit value.
    ///
    /// ```
    /// let id = kuuid::ulid();
    /// assert_eq!(kuuid::Ulid::from_u128(id.to_u128()), id);
    /// ```
    pub const fn to_u128(self) -> u128 {
        u128::from_be_bytes(self.0)
    }

    /// The millisecond the id carries.
    ///
    /// ```
    /// let id = kuuid::ulid_at("2016-07-30T23:54:10.259Z")?;
    /// assert_eq!(id.timestamp().to_string(), "2016-07-30T23:54:10.259Z");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn timestamp(&self) -> Timestamp {
        Timestamp::from_millis((self.to_u128() >> 80) as u64)
    }

    /// The 80 bits after the time.
    ///
    /// ```
    /// assert_eq!(kuuid::Ulid::MAX.random(), (1 << 80) - 1);
    /// ```
    pub const fn random(&self) -> u128 {
        u128::from_be_bytes(self.0) & ((1 << 80) - 1)
    }

    /// The id of a millisecond, a counter (its low 22 bits) and 58 random
    /// bits (the low 58 of `random`), in two 64-bit halves.
    #[inline]
    const fn build(ms: u64, counter: u64, random: u64) -> Self {
        let counter = counter & ((1 << COUNTER_BITS) - 1);
        // The counter's top 16 bits end the high half, its low 6 start the
        // low one.
        let hi = ms << 16 | counter >> (64 - RANDOM_BITS);
        let lo = counter << RANDOM_BITS | random & ((1 << RANDOM_BITS) - 1);
        Ulid(((hi as u128) << 64 | lo as u128).to_be_bytes())
    }

    /// The 26-character text in capitals, as bytes.
    ///
    /// ```
    /// let id = kuuid::ulid();
    /// assert_eq!(id.text_bytes(), *id.to_string().as_bytes());
    /// ```
    #[inline]
    pub fn text_bytes(&self) -> [u8; 26] {
        base32::encode(self.to_u128(), Case::Upper)
    }

    /// The 26-character text in capitals, in a caller's buffer.
    ///
    /// ```
    /// let mut buf = [0u8; 26];
    /// let id = kuuid::Ulid::MAX;
    /// assert_eq!(id.encode(&mut buf), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    /// ```
    pub fn encode<'a>(&self, buf: &'a mut [u8; 26]) -> &'a mut str {
        *buf = self.text_bytes();
        std::str::from_utf8_mut(buf).expect("base32 is ASCII")
    }

    /// The 26-character text in small letters, in a caller's buffer.
    ///
    /// ```
    /// let mut buf = [0u8; 26];
    /// assert_eq!(kuuid::Ulid::MAX.encode_lower(&mut buf), "7zzzzzzzzzzzzzzzzzzzzzzzzz");
    /// ```
    pub fn encode_lower<'a>(&self, buf: &'a mut [u8; 26]) -> &'a mut str {
        *buf = base32::encode(self.to_u128(), Case::Lower);
        std::str::from_utf8_mut(buf).expect("base32 is ASCII")
    }

    /// The texts (capitals) of many ids at once, on the engine's SIMD path
    /// (AVX2 or SSE4.1; scalar elsewhere): `out[i]` gets `ids[i]`'s,
    /// for the first `min(ids.len(), out.len())` ids; returns how many. A
    /// slot may be wider than the text (`W >= 26`, checked at compile
    /// time): the text goes at its start, the rest is left as it is.
    ///
    /// ```
    /// let mut ids = [kuuid::Ulid::MIN; 100];
    /// kuuid::fill_ulid(&mut ids);
    /// let mut lines = [[b'\n'; 27]; 100];
    /// assert_eq!(kuuid::Ulid::encode_many(&ids, &mut lines), 100);
    /// assert_eq!(lines[7][..26], *ids[7].to_string().as_bytes());
    /// ```
    pub fn encode_many<const W: usize>(ids: &[Ulid], out: &mut [[u8; W]]) -> usize {
        const { assert!(W >= 26, "a slot holds at least the 26 characters") };
        let n = ids.len().min(out.len());
        base32::encode_many(crate::engine::isa(), &ids[..n], &mut out[..n], Case::Upper);
        n
    }

    /// Parses `out.len()` ULIDs laid out every `stride` bytes of `text` (27
    /// for newline-terminated lines) into `out`, read as
    /// [`parse_bytes`](Self::parse_bytes) reads one; stops at the first bad
    /// one (the ids before it are written, the rest of `out` is
    /// unspecified). Decoded in bulk on the SIMD engine (AVX2, SSE4.1 or
    /// NEON; scalar elsewhere), at several times the speed of one
    /// `parse` after another.
    ///
    /// ```
    /// use kuuid::{ManyError, Ulid, UlidParseError};
    /// let mut ids = [Ulid::MIN; 100];
    /// kuuid::fill_ulid(&mut ids);
    /// let text: String = ids.iter().map(|id| format!("{id}\n")).collect();
    /// let mut back = [Ulid::MIN; 100];
    /// Ulid::parse_many(text.as_bytes(), 27, &mut back)?;
    /// assert_eq!(back, ids);
    ///
    /// let err = Ulid::parse_many(b"01ARZ3NDEKTSV4RRFFQ69G5FAV 01ARZ3NDEKTSV4RRFFQ69G5FAU", 27, &mut back[..2]);
    /// assert_eq!(err, Err(ManyError { index: 1, error: UlidParseError::InvalidByte { index: 25, byte: b'U' } }));
    /// # Ok::<(), ManyError<UlidParseError>>(())
    /// ```
    pub fn parse_many(
        text: &[u8],
        stride: usize,
        out: &mut [Ulid],
    ) -> Result<(), ManyError<UlidParseError>> {
        const LEN: usize = base32::LEN;
        // Checked even for no ids: a stride of 0 would divide by zero below.
        if stride < LEN {
            let error = UlidParseError::Length {
                expected: &[LEN],
                found: stride,
            };
            return Err(ManyError { index: 0, error });
        }
        // Ids wholly inside `text`; a short last one is a length error.
        let whole = out.len().min(parse::whole_records(text.len(), LEN, stride));
        let isa = crate::engine::isa();
        let done = base32::decode_many(isa, text, stride, &mut out[..whole], Accept::AnyCase);
        if done == out.len() {
            return Ok(());
        }
        let error = Self::parse_bytes(parse::record(text, done, LEN, stride))
            .expect_err("the engine refused it");
        Err(ManyError { index: done, error })
    }

    /// The ULID `text` spells (26 characters, either case).
    ///
    /// ```
    /// let id = kuuid::Ulid::parse_bytes(b"01ARZ3NDEKTSV4RRFFQ69G5FAV")?;
    /// assert_eq!(id.timestamp().as_millis(), 1_469_922_850_259);
    /// # Ok::<(), kuuid::UlidParseError>(())
    /// ```
    pub fn parse_bytes(text: &[u8]) -> Result<Self, UlidParseError> {
        let text: &[u8; 26] = text.try_into().map_err(|_| UlidParseError::Length {
            expected: &[26],
            found: text.len(),
        })?;
        match base32::decode(text, Accept::AnyCase) {
            Ok(v) => Ok(Ulid::from_u128(v)),
            Err(Fault::Byte(index, byte)) => Err(UlidParseError::InvalidByte { index, byte }),
            Err(Fault::Overflow(first)) => Err(UlidParseError::Overflow { first }),
        }
    }
}

/// A ULID at a given time: 80 random bits.
pub(crate) fn at(t: Timestamp) -> Result<Ulid, TimeError> {
    let [r0, r1, r2] = crate::local::words::<3>();
    let random = u128::from(r2) << 64 | u128::from(r1) << 32 | u128::from(r0);
    Ulid::from_parts(t.as_millis(), random)
}

impl crate::engine::bytes::BytesMut<16> for Ulid {
    fn bytes_mut(&mut self) -> &mut [u8; 16] {
        &mut self.0
    }
}

impl crate::engine::hex::Bytes<16> for Ulid {
    #[inline(always)]
    fn bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl fmt::Display for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode(&mut [0; 26]))
    }
}

impl fmt::Debug for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ulid({self})")
    }
}

impl FromStr for Ulid {
    type Err = UlidParseError;

    /// ```
    /// let id: kuuid::Ulid = "01arz3ndektsv4rrffq69g5fav".parse()?;
    /// assert_eq!(id.to_string(), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    /// # Ok::<(), kuuid::UlidParseError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, UlidParseError> {
        Ulid::parse_bytes(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `build` puts the fields where the layout says: the millisecond on
    /// top, the counter in the next 22 bits, 58 random bits under it.
    #[test]
    fn build_lays_out_the_fields() {
        for (ms, counter, random) in [
            (0, 0, 0),
            (MAX_UNIX_MILLIS, (1 << COUNTER_BITS) - 1, u64::MAX),
            (1_700_000_000_000, 0x2a_5a5a, 0x0f0f_0f0f_0f0f_0f0f),
        ] {
            let v = Ulid::build(ms, counter, random).to_u128();
            assert_eq!((v >> 80) as u64, ms);
            assert_eq!((v >> 58) as u64 & ((1 << 22) - 1), counter);
            assert_eq!(v as u64 & ((1 << 58) - 1), random & ((1 << 58) - 1));
        }
        // Bits beyond the counter's 22 are dropped.
        assert_eq!(Ulid::build(1, 1 << 22 | 3, 0), Ulid::build(1, 3, 0));
    }

    /// The spec's own example: 1469922850259 ms is `01ARZ3NDEK`.
    #[test]
    fn the_spec_example_time() {
        let id: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse().unwrap();
        assert_eq!(id.timestamp().as_millis(), 1_469_922_850_259);
        let at = Ulid::at(1_469_922_850_259u64).unwrap();
        assert_eq!(&at.to_string()[..10], "01ARZ3NDEK");
    }

    #[test]
    fn times_past_48_bits_are_refused() {
        let last = Ulid::at(MAX_UNIX_MILLIS).unwrap();
        assert_eq!(last.timestamp().as_millis(), MAX_UNIX_MILLIS);
        assert!(matches!(
            Ulid::at(MAX_UNIX_MILLIS + 1),
            Err(TimeError::OutOfRange { millis, .. }) if millis == MAX_UNIX_MILLIS + 1
        ));
    }
}
