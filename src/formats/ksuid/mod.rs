//! KSUID (Segment's): the value type, its text, and minting.

use std::fmt;
use std::str::FromStr;

use crate::engine::base62_160::{self, Fault};
use crate::parse::KsuidParseError;
use crate::time::{IntoTimestamp, TimeError, TimeField, Timestamp};

/// Seconds since 1970 of a KSUID's zero: 2014-05-13T16:53:20Z.
const EPOCH: u64 = 1_400_000_000;

/// A KSUID: 20 bytes, a big-endian 32-bit count of seconds since
/// 2014-05-13T16:53:20Z then 128 random bits, shown as 27 base62
/// characters (this crate's alphabet, in ASCII order: text order, byte
/// order and time order agree, to the second).
///
/// Within a second KSUIDs are random, as Segment's `ksuid.New()`: they
/// identify, they do not order (for ids in mint order use
/// [`kuuid::ulid`](crate::ulid) or [`kuuid::v7`](crate::v7)).
///
/// ```
/// let id = kuuid::ksuid();
/// assert_eq!(id.to_string().len(), 27);
/// let back: kuuid::Ksuid = id.to_string().parse()?;
/// assert_eq!(back, id);
/// # Ok::<(), kuuid::KsuidParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ksuid([u8; 20]);

impl Ksuid {
    /// The smallest KSUID, 27 zeros (also `Default`).
    ///
    /// ```
    /// assert_eq!(kuuid::Ksuid::MIN.to_string(), "000000000000000000000000000");
    /// ```
    pub const MIN: Ksuid = Ksuid([0; 20]);

    /// The largest KSUID, `aWgEPTl1tmebfsQzFP4bxwgy80V`.
    ///
    /// ```
    /// assert_eq!(kuuid::Ksuid::MAX.to_string(), "aWgEPTl1tmebfsQzFP4bxwgy80V");
    /// ```
    pub const MAX: Ksuid = Ksuid([0xff; 20]);

    /// A KSUID minted now, as [`kuuid::ksuid()`](crate::ksuid).
    ///
    /// ```
    /// assert_ne!(kuuid::Ksuid::now(), kuuid::Ksuid::now());
    /// ```
    #[inline]
    pub fn now() -> Self {
        now()
    }

    /// A KSUID at time `t`, as [`kuuid::ksuid_at`](crate::ksuid_at).
    ///
    /// ```
    /// let id = kuuid::Ksuid::at("2017-10-09T21:00:47Z")?;
    /// assert_eq!(id.timestamp().to_string(), "2017-10-09T21:00:47Z");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(t: impl IntoTimestamp) -> Result<Self, TimeError> {
        let [a, b, c, d] = crate::local::words::<4>();
        let mut payload = [0u8; 16];
        for (chunk, w) in payload.chunks_exact_mut(4).zip([a, b, c, d]) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        Ksuid::from_parts(t, payload)
    }

    /// The KSUID of a time (to the second) and a 16-byte payload; fails
    /// before 2014-05-13T16:53:20Z and after 2150-06-19T23:21:35Z.
    ///
    /// ```
    /// let id = kuuid::Ksuid::from_parts(1_507_582_847_000u64, [7; 16])?;
    /// assert_eq!(id.payload(), [7; 16]);
    /// assert!(kuuid::Ksuid::from_parts("2014-01-01T00:00:00Z", [0; 16]).is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn from_parts(t: impl IntoTimestamp, payload: [u8; 16]) -> Result<Self, TimeError> {
        let millis = t.into_timestamp()?.as_millis();
        let field = TimeField::Ksuid;
        if millis < field.first_millis() {
            return Err(TimeError::BeforeStart { field, millis });
        }
        if millis > field.last_millis() {
            return Err(TimeError::OutOfRange { field, millis });
        }
        Ok(Ksuid::build((millis / 1000 - EPOCH) as u32, payload))
    }

    #[inline]
    fn build(secs: u32, payload: [u8; 16]) -> Self {
        let mut b = [0u8; 20];
        b[..4].copy_from_slice(&secs.to_be_bytes());
        b[4..].copy_from_slice(&payload);
        Ksuid(b)
    }

    /// The KSUID of 20 bytes (every 160-bit value is one).
    ///
    /// ```
    /// let id = kuuid::ksuid();
    /// assert_eq!(kuuid::Ksuid::from_bytes(*id.as_bytes()), id);
    /// ```
    pub const fn from_bytes(bytes: [u8; 20]) -> Self {
        Ksuid(bytes)
    }

    /// The 20 bytes.
    ///
    /// ```
    /// assert_eq!(kuuid::Ksuid::MAX.as_bytes(), &[0xff; 20]);
    /// ```
    pub const fn as_bytes(&self) -> &[u8; 20] {
        &self.0
    }

    /// The KSUID of a 20-byte slice; [`KsuidParseError::Length`] otherwise.
    ///
    /// ```
    /// assert!(kuuid::Ksuid::from_slice(&[0; 20]).is_ok());
    /// assert!(kuuid::Ksuid::from_slice(&[0; 16]).is_err());
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, KsuidParseError> {
        <[u8; 20]>::try_from(bytes)
            .map(Ksuid)
            .map_err(|_| KsuidParseError::Length {
                expected: &[20],
                found: bytes.len(),
            })
    }

    /// The second it carries.
    ///
    /// ```
    /// // Segment's README example: 2017-10-09 21:00:47 -0700.
    /// let id: kuuid::Ksuid = "0ujtsYcgvSTl8PAuAdqWYSMnLOv".parse()?;
    /// assert_eq!(id.timestamp().to_string(), "2017-10-10T04:00:47Z");
    /// # Ok::<(), kuuid::KsuidParseError>(())
    /// ```
    pub fn timestamp(&self) -> Timestamp {
        let secs = u32::from_be_bytes([self.0[0], self.0[1], self.0[2], self.0[3]]);
        Timestamp::from_millis((EPOCH + u64::from(secs)) * 1000)
    }

    /// The 16 bytes after the time.
    ///
    /// ```
    /// assert_eq!(kuuid::Ksuid::MIN.payload(), [0; 16]);
    /// ```
    pub fn payload(&self) -> [u8; 16] {
        self.0[4..].try_into().expect("16 bytes")
    }

    /// The 27 characters, as bytes.
    ///
    /// ```
    /// let id = kuuid::ksuid();
    /// assert_eq!(id.text_bytes(), *id.to_string().as_bytes());
    /// ```
    #[inline]
    pub fn text_bytes(&self) -> [u8; 27] {
        base62_160::encode(&self.0)
    }

    /// The 27 characters in a caller's buffer.
    ///
    /// ```
    /// let mut buf = [0u8; 27];
    /// assert_eq!(kuuid::Ksuid::MIN.encode(&mut buf), "000000000000000000000000000");
    /// ```
    pub fn encode<'a>(&self, buf: &'a mut [u8; 27]) -> &'a mut str {
        *buf = self.text_bytes();
        std::str::from_utf8_mut(buf).expect("base62 is ASCII")
    }

    /// The texts of many ids at once: `out[i]` gets `ids[i]`'s, for the
    /// first `min(ids.len(), out.len())`; returns how many. A slot may be
    /// wider than the text (`W >= 27`, checked at compile time): the rest
    /// is left as it is.
    ///
    /// ```
    /// let mut ids = [kuuid::Ksuid::MIN; 10];
    /// kuuid::fill_ksuid(&mut ids);
    /// let mut lines = [[b'\n'; 28]; 10];
    /// assert_eq!(kuuid::Ksuid::encode_many(&ids, &mut lines), 10);
    /// assert_eq!(lines[3][..27], ids[3].text_bytes());
    /// ```
    pub fn encode_many<const W: usize>(ids: &[Ksuid], out: &mut [[u8; W]]) -> usize {
        const { assert!(W >= 27, "a slot holds at least the 27 characters") };
        let n = ids.len().min(out.len());
        base62_160::encode_many(crate::engine::isa(), &ids[..n], &mut out[..n]);
        n
    }

    /// The KSUID `text` spells (27 base62 characters).
    ///
    /// ```
    /// let id = kuuid::Ksuid::parse_bytes(b"aWgEPTl1tmebfsQzFP4bxwgy80V")?;
    /// assert_eq!(id, kuuid::Ksuid::MAX);
    /// # Ok::<(), kuuid::KsuidParseError>(())
    /// ```
    pub fn parse_bytes(text: &[u8]) -> Result<Self, KsuidParseError> {
        let text: &[u8; 27] = text.try_into().map_err(|_| KsuidParseError::Length {
            expected: &[27],
            found: text.len(),
        })?;
        match base62_160::decode(text) {
            Ok(b) => Ok(Ksuid(b)),
            Err(Fault::Byte(index, byte)) => Err(KsuidParseError::InvalidByte { index, byte }),
            Err(Fault::Overflow) => Err(KsuidParseError::Overflow),
        }
    }
}

/// A KSUID minted now: the coarse clock's second, 128 bits of this
/// thread's generator. Before 2014 (a clock set wrong) the KSUID's zero;
/// past 2150 its last second: a time the field cannot hold is clamped, as
/// `kuuid::id()`'s is, not an error on the hot path.
#[inline]
pub(crate) fn now() -> Ksuid {
    let secs = crate::sys::unix_secs().clamp(EPOCH, EPOCH + u64::from(u32::MAX)) - EPOCH;
    let w = crate::local::words::<4>();
    let mut payload = [0u8; 16];
    for (chunk, w) in payload.chunks_exact_mut(4).zip(w) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    Ksuid::build(secs as u32, payload)
}

/// Fills `ids` with KSUIDs minted now (one clock read, 256 ids of random
/// words at a time).
pub(crate) fn fill_now(ids: &mut [Ksuid]) {
    for chunk in ids.chunks_mut(256) {
        let secs = crate::sys::unix_secs().clamp(EPOCH, EPOCH + u64::from(u32::MAX)) - EPOCH;
        let mut words = [0u32; 4 * 256];
        let words = &mut words[..4 * chunk.len()];
        crate::local::fill_words(words);
        for (id, w) in chunk.iter_mut().zip(words.chunks_exact(4)) {
            let mut payload = [0u8; 16];
            for (c, w) in payload.chunks_exact_mut(4).zip(w) {
                c.copy_from_slice(&w.to_le_bytes());
            }
            *id = Ksuid::build(secs as u32, payload);
        }
    }
}

impl crate::engine::bytes::Bytes<20> for Ksuid {
    fn bytes(&self) -> &[u8; 20] {
        &self.0
    }
}

impl fmt::Display for Ksuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode(&mut [0; 27]))
    }
}

impl fmt::Debug for Ksuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ksuid({self})")
    }
}

impl FromStr for Ksuid {
    type Err = KsuidParseError;

    /// ```
    /// let id: kuuid::Ksuid = "0ujtsYcgvSTl8PAuAdqWYSMnLOv".parse()?;
    /// assert_eq!(id.to_string(), "0ujtsYcgvSTl8PAuAdqWYSMnLOv");
    /// # Ok::<(), kuuid::KsuidParseError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, KsuidParseError> {
        Ksuid::parse_bytes(s.as_bytes())
    }
}

impl From<Ksuid> for [u8; 20] {
    /// ```
    /// assert_eq!(<[u8; 20]>::from(kuuid::Ksuid::MIN), [0; 20]);
    /// ```
    fn from(id: Ksuid) -> [u8; 20] {
        id.0
    }
}

impl From<[u8; 20]> for Ksuid {
    /// ```
    /// assert_eq!(kuuid::Ksuid::from([0xff; 20]), kuuid::Ksuid::MAX);
    /// ```
    fn from(b: [u8; 20]) -> Self {
        Ksuid(b)
    }
}

impl TryFrom<&[u8]> for Ksuid {
    type Error = KsuidParseError;

    /// As [`Ksuid::from_slice`].
    ///
    /// ```
    /// assert!(kuuid::Ksuid::try_from(&[0u8; 20][..]).is_ok());
    /// ```
    fn try_from(bytes: &[u8]) -> Result<Self, KsuidParseError> {
        Ksuid::from_slice(bytes)
    }
}

impl AsRef<[u8]> for Ksuid {
    /// ```
    /// let id = kuuid::ksuid();
    /// assert_eq!(AsRef::<[u8]>::as_ref(&id).len(), 20);
    /// ```
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}
