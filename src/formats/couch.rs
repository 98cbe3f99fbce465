//! CouchDB's `/_uuids` algorithms, byte for byte the texts of
//! `couch_uuids.erl` (apache/couchdb main), minted on this crate's
//! per-thread secure randomness.
//!
//! | [`Algorithm`] | text |
//! |---|---|
//! | `random` | 32 lowercase hex of 16 random bytes |
//! | `sequential` | 26 hex of a 13-byte random prefix + 6 hex of a counter that starts at a random 1..=4093 and grows by a random 1..=4093; once it is `>= 0xfff000` after an id, a new prefix and start are drawn |
//! | `utc_random` | 14 hex of microseconds since 1970 + 18 hex of 9 random bytes |
//! | `utc_id` | the same 14 hex + a configured suffix |
//! | `uuid_v4`, `uuid_v7` | a UUID in the [`Format`] configured: `base_16` (32 hex), `rfc9562` (36, dashed) or `base_36` (25 of `0-9a-z`) |
//!
//! **Process-wide state, as CouchDB keeps it in one server process.** The
//! `sequential` prefix and counter share one 128-bit word and the
//! `utc_*` microseconds one 64-bit word; both advance by compare-and-swap,
//! so every thread draws from one sequence without a lock, and `utc_*` ids
//! are strictly increasing across the process ("if the clock has not passed
//! the last value, last + 1"; so, as in CouchDB, minting faster than one id
//! a microsecond runs ahead of the clock by the excess). Both words live in the wipe-on-fork page: a
//! forked child draws its own `sequential` prefix, as a new node would.
//! `utc_id` ids are unique only per suffix and process (CouchDB's too): give
//! each process its own suffix.
//!
//! **`uuid_v7` is CouchDB's, not [`kuuid::v7`](crate::v7).** CouchDB fills
//! `rand_a` with random bits and keeps no counter, so ids of one millisecond
//! are not ordered among themselves; this module mints them that way. For
//! ids ordered within the millisecond, format [`kuuid::v7`](crate::v7)'s
//! value with [`Format::encode_into`].

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use portable_atomic::AtomicU128;

use super::uuid_layout::{self, MAX_UNIX_MILLIS, NotThisUuid};
use crate::engine::{base36, hex};
use crate::parse::Bytes;
use crate::time::{IntoTimestamp, TimeError, Timestamp};
use crate::word::{Word64, Word128};

/// `sequential` draws a new prefix once the counter is at or past this.
const SEQUENTIAL_LIMIT: u32 = 0xfff000;
/// The largest step and start of the `sequential` counter (`16#ffd`).
const SEQUENTIAL_STEP: u32 = 0xffd;
/// The last microsecond 14 hex digits hold (`~14.16.0b`): 4253-05-31.
const MAX_MICROS: u64 = (1 << 56) - 1;

/// One of CouchDB's `[uuids] algorithm` values.
///
/// ```
/// use kuuid::couch::Algorithm;
/// assert_eq!("utc_random".parse::<Algorithm>()?, Algorithm::UtcRandom);
/// assert_eq!(Algorithm::UuidV7.to_string(), "uuid_v7");
/// assert!("uuid_v1".parse::<Algorithm>().is_err());
/// # Ok::<(), kuuid::couch::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// 32 hex of 16 random bytes.
    Random,
    /// A random 13-byte prefix and a counter that grows by random steps.
    Sequential,
    /// Microseconds since 1970 and 9 random bytes.
    UtcRandom,
    /// Microseconds since 1970 and a configured suffix.
    UtcId,
    /// A random UUID (version 4) in the configured [`Format`].
    UuidV4,
    /// A UUIDv7 with random `rand_a` (CouchDB's default) in the configured
    /// [`Format`].
    UuidV7,
}

impl Algorithm {
    /// Every algorithm, in CouchDB's documentation order.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Random,
        Algorithm::Sequential,
        Algorithm::UtcRandom,
        Algorithm::UtcId,
        Algorithm::UuidV4,
        Algorithm::UuidV7,
    ];

    /// The name in CouchDB's configuration.
    ///
    /// ```
    /// assert_eq!(kuuid::couch::Algorithm::UtcId.name(), "utc_id");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::Sequential => "sequential",
            Algorithm::UtcRandom => "utc_random",
            Algorithm::UtcId => "utc_id",
            Algorithm::UuidV4 => "uuid_v4",
            Algorithm::UuidV7 => "uuid_v7",
        }
    }

    /// Whether its ids carry a time (and so can be minted
    /// [`at`](Uuids::at) a given one).
    ///
    /// ```
    /// use kuuid::couch::Algorithm;
    /// assert!(Algorithm::UtcRandom.has_time());
    /// assert!(!Algorithm::Sequential.has_time());
    /// ```
    pub const fn has_time(self) -> bool {
        matches!(
            self,
            Algorithm::UtcRandom | Algorithm::UtcId | Algorithm::UuidV7
        )
    }

    /// Whether the [`Format`] applies (CouchDB ignores it for the others).
    ///
    /// ```
    /// assert!(kuuid::couch::Algorithm::UuidV4.takes_format());
    /// assert!(!kuuid::couch::Algorithm::Random.takes_format());
    /// ```
    pub const fn takes_format(self) -> bool {
        matches!(self, Algorithm::UuidV4 | Algorithm::UuidV7)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| Error::UnknownAlgorithm {
                found: s.to_owned(),
            })
    }
}

/// One of CouchDB's `[uuids] format` values: how `uuid_v4` and `uuid_v7`
/// show their 128 bits.
///
/// ```
/// use kuuid::couch::Format;
/// let mut s = String::new();
/// Format::Base36.encode_into(u128::MAX, &mut s);
/// assert_eq!(s, "f5lxx1zz5pnorynqglhzmsp33");
/// assert_eq!("rfc9562".parse::<Format>()?.len(), 36);
/// # Ok::<(), kuuid::couch::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// 32 lowercase hex characters (CouchDB's default).
    #[default]
    Base16,
    /// 36 characters, lowercase hex with dashes (8-4-4-4-12).
    Rfc9562,
    /// 25 characters of `0-9a-z`, left-padded with `0`.
    Base36,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Base16, Format::Rfc9562, Format::Base36];

    /// The name in CouchDB's configuration.
    ///
    /// ```
    /// assert_eq!(kuuid::couch::Format::Base36.name(), "base_36");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Format::Base16 => "base_16",
            Format::Rfc9562 => "rfc9562",
            Format::Base36 => "base_36",
        }
    }

    /// Characters of every text in this format.
    ///
    /// ```
    /// assert_eq!(kuuid::couch::Format::Base16.len(), 32);
    /// ```
    #[allow(clippy::len_without_is_empty)] // a fixed width, never empty
    pub const fn len(self) -> usize {
        match self {
            Format::Base16 => 32,
            Format::Rfc9562 => 36,
            Format::Base36 => base36::LEN,
        }
    }

    /// Appends the text of a 128-bit value (big-endian) to `out`.
    ///
    /// ```
    /// use kuuid::couch::Format;
    /// let mut s = String::new();
    /// Format::Rfc9562.encode_into(kuuid::v7().to_u128(), &mut s);
    /// assert_eq!(&s[14..15], "7");
    /// ```
    pub fn encode_into(self, value: u128, out: &mut String) {
        let bytes = value.to_be_bytes();
        match self {
            Format::Base16 => push_hex(&bytes, out),
            Format::Rfc9562 => {
                for (i, range) in [0..4, 4..6, 6..8, 8..10, 10..16].into_iter().enumerate() {
                    if i > 0 {
                        out.push('-');
                    }
                    push_hex(&bytes[range], out);
                }
            }
            Format::Base36 => {
                let mut buf = [0u8; base36::LEN];
                base36::encode(value, &mut buf);
                out.push_str(std::str::from_utf8(&buf).expect("base 36 is ASCII"));
            }
        }
    }

    /// The 128-bit value of a text in this format (hex in either case).
    fn decode(self, text: &str) -> Result<u128, ParseError> {
        let bytes = text.as_bytes();
        if bytes.len() != self.len() {
            return Err(ParseError::Length {
                found: bytes.len(),
                expected: self.len(),
            });
        }
        match self {
            Format::Base16 | Format::Rfc9562 => {
                let dashes: &[usize] = if self == Format::Rfc9562 {
                    &[8, 13, 18, 23]
                } else {
                    &[]
                };
                let mut out = [0u8; 16];
                hex::decode(bytes, dashes, &mut out).map_err(invalid)?;
                Ok(u128::from_be_bytes(out))
            }
            Format::Base36 => {
                let text: &[u8; base36::LEN] = bytes.try_into().expect("length checked");
                base36::decode(text).map_err(|e| match e {
                    base36::DecodeError::InvalidByte(index, byte) => {
                        ParseError::InvalidByte { index, byte }
                    }
                    base36::DecodeError::Overflow => ParseError::Overflow,
                })
            }
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| Error::UnknownFormat {
                found: s.to_owned(),
            })
    }
}

/// A fixed time to mint at, with its own `utc_*` sequence.
#[derive(Debug)]
struct Given {
    millis: u64,
    /// The next `utc_*` microsecond: the time's, then one more an id.
    next_micros: AtomicU64,
}

/// CouchDB's `[uuids]` configuration, minting ids: the algorithm, the
/// format of `uuid_v4`/`uuid_v7`, the `utc_id` suffix, and optionally a
/// fixed time. `Send + Sync`; the state it advances is the process's (see
/// the module docs), except that ids minted [`at`](Uuids::at) a fixed time
/// count their microseconds per `Uuids` value.
///
/// ```
/// use kuuid::couch::{Algorithm, Format, Uuids};
/// let seq = Uuids::new(Algorithm::Sequential);
/// let (a, b) = (seq.mint()?, seq.mint()?);
/// assert_eq!((a.len(), &a[..26]), (32, &b[..26]));   // one prefix...
/// assert!(a < b);                                    // ...a growing counter
///
/// let v4 = Uuids::new(Algorithm::UuidV4).format(Format::Rfc9562);
/// assert_eq!(&v4.mint()?[14..15], "4");
///
/// let utc = Uuids::new(Algorithm::UtcId).utc_id_suffix("frog");
/// assert!(utc.mint()?.ends_with("frog"));
/// # Ok::<(), kuuid::couch::Error>(())
/// ```
#[derive(Debug)]
pub struct Uuids {
    algorithm: Algorithm,
    format: Format,
    suffix: String,
    given: Option<Given>,
}

impl Uuids {
    /// The algorithm with CouchDB's defaults: `base_16`, an empty
    /// `utc_id` suffix, minting now.
    ///
    /// ```
    /// let ids = kuuid::couch::Uuids::new(kuuid::couch::Algorithm::Random);
    /// assert_eq!(ids.mint()?.len(), 32);
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn new(algorithm: Algorithm) -> Self {
        Uuids {
            algorithm,
            format: Format::Base16,
            suffix: String::new(),
            given: None,
        }
    }

    /// The format of `uuid_v4` and `uuid_v7` ids (ignored by the others,
    /// as CouchDB ignores it).
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Format, Uuids};
    /// let ids = Uuids::new(Algorithm::UuidV7).format(Format::Base36);
    /// assert_eq!(ids.mint()?.len(), 25);
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// The suffix of `utc_id` ids (CouchDB's `utc_id_suffix`; any text).
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Uuids};
    /// let id = Uuids::new(Algorithm::UtcId).utc_id_suffix("-node1").mint()?;
    /// assert_eq!(&id[14..], "-node1");
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn utc_id_suffix(mut self, suffix: impl Into<String>) -> Self {
        self.suffix = suffix.into();
        self
    }

    /// Mints at time `t` instead of now (RFC 3339 text, integer ms,
    /// `SystemTime`, ...). `utc_*` ids count on by one microsecond an id
    /// from `t`; `uuid_v7` ids all carry `t`'s millisecond. Fails for an
    /// algorithm without a time, or past the time its text holds.
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Uuids};
    /// let ids = Uuids::new(Algorithm::UtcRandom).at("2020-01-01T00:00:00Z")?;
    /// let (a, b) = (ids.mint()?, ids.mint()?);
    /// assert_eq!(&a[..14], format!("{:014x}", 1_577_836_800_000_000u64));
    /// assert_eq!(&b[..14], format!("{:014x}", 1_577_836_800_000_001u64));
    /// assert!(Uuids::new(Algorithm::Random).at(0u64).is_err());
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn at(mut self, t: impl IntoTimestamp) -> Result<Self, Error> {
        if !self.algorithm.has_time() {
            return Err(Error::NoTime {
                algorithm: self.algorithm,
            });
        }
        let millis = t.into_timestamp()?.as_millis();
        let micros = millis.saturating_mul(1000);
        let fits = match self.algorithm {
            Algorithm::UuidV7 => millis <= MAX_UNIX_MILLIS,
            _ => micros <= MAX_MICROS,
        };
        if !fits {
            return Err(Error::PastRange {
                algorithm: self.algorithm,
                millis,
            });
        }
        self.given = Some(Given {
            millis,
            next_micros: AtomicU64::new(micros),
        });
        Ok(self)
    }

    /// The algorithm.
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Uuids};
    /// assert_eq!(Uuids::new(Algorithm::UtcId).algorithm(), Algorithm::UtcId);
    /// ```
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// One id, as a new `String`.
    ///
    /// Fails only past the time the text holds (`utc_*`: 4253-05-31, when
    /// 14 hex digits of microseconds run out).
    ///
    /// ```
    /// let id = kuuid::couch::Uuids::new(kuuid::couch::Algorithm::UtcRandom).mint()?;
    /// assert_eq!(id.len(), 32);
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn mint(&self) -> Result<String, Error> {
        let mut s = String::with_capacity(36);
        self.mint_into(&mut s)?;
        Ok(s)
    }

    /// Appends one id to `out` (no allocation when it has room): the bulk
    /// path. On error nothing is appended.
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Uuids};
    /// let ids = Uuids::new(Algorithm::Sequential);
    /// let mut text = String::new();
    /// for _ in 0..3 {
    ///     ids.mint_into(&mut text)?;
    ///     text.push('\n');
    /// }
    /// assert_eq!(text.len(), 3 * 33);
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn mint_into(&self, out: &mut String) -> Result<(), Error> {
        match self.algorithm {
            Algorithm::Random => {
                let bytes = words_to_bytes(crate::local::words::<4>());
                push_hex(&bytes, out);
            }
            Algorithm::Sequential => {
                let v = claim_sequential(sequential_word(), step, prefix);
                push_hex(&v.to_be_bytes(), out);
            }
            Algorithm::UtcRandom | Algorithm::UtcId => {
                let micros = self.next_micros()?;
                push_hex(&micros.to_be_bytes()[1..], out);
                if self.algorithm == Algorithm::UtcRandom {
                    let bytes = words_to_bytes(crate::local::words::<4>());
                    push_hex(&bytes[..9], out);
                } else {
                    out.push_str(&self.suffix);
                }
            }
            Algorithm::UuidV4 => {
                let random = u128::from_be_bytes(words_to_bytes(crate::local::words::<4>()));
                self.format.encode_into(uuid_v4(random), out);
            }
            Algorithm::UuidV7 => {
                let millis = match &self.given {
                    Some(g) => g.millis,
                    None => crate::sys::unix_millis().min(MAX_UNIX_MILLIS),
                };
                let random = u128::from_be_bytes(words_to_bytes(crate::local::words::<4>()));
                self.format.encode_into(uuid_v7(millis, random), out);
            }
        }
        Ok(())
    }

    /// `count` ids: the body of CouchDB's `GET /_uuids?count=N`.
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Uuids};
    /// let ids = Uuids::new(Algorithm::UtcRandom).uuids(1000)?;
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn uuids(&self, count: usize) -> Result<Vec<String>, Error> {
        (0..count).map(|_| self.mint()).collect()
    }

    /// The fields of an id of this configuration's algorithm and format.
    /// A `utc_id` suffix is returned as found, not checked against the
    /// configured one.
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Decoded, Uuids};
    /// let ids = Uuids::new(Algorithm::Sequential);
    /// let Decoded::Sequential { counter, .. } = ids.decode(&ids.mint()?)? else {
    ///     unreachable!()
    /// };
    /// assert!((1..=0xfff000 + 4093).contains(&counter));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode<'a>(&self, text: &'a str) -> Result<Decoded<'a>, ParseError> {
        decode(text, self.algorithm, self.format)
    }

    /// The next `utc_*` microsecond: the clock's (or the given time's), or
    /// one past the last if that is not behind.
    fn next_micros(&self) -> Result<u64, Error> {
        let micros = match &self.given {
            // A clock that never moves: the time, then one past the last.
            Some(g) => g.next_micros.fetch_add(1, Ordering::Relaxed),
            None => claim_utc(
                &*crate::sys::process_words().couch_utc,
                crate::sys::unix_micros(),
            ),
        };
        if micros > MAX_MICROS {
            return Err(Error::PastRange {
                algorithm: self.algorithm,
                millis: micros / 1000,
            });
        }
        Ok(micros)
    }
}

/// The fields of a CouchDB id (see [`decode`]).
///
/// ```
/// use kuuid::couch::{Algorithm, Decoded, Format};
/// let d = kuuid::couch::decode("060223bb23d2f0frog", Algorithm::UtcId, Format::Base16)?;
/// assert_eq!(d, Decoded::Utc { micros: 0x060223bb23d2f0, suffix: "frog" });
/// assert_eq!(d.timestamp().unwrap().to_string(), "2023-08-05T02:25:47.062Z");
/// # Ok::<(), kuuid::couch::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decoded<'a> {
    /// `random`: the 16 bytes.
    Random {
        /// The bytes.
        bytes: [u8; 16],
    },
    /// `sequential`: the 13-byte prefix and the 24-bit counter.
    Sequential {
        /// The prefix.
        prefix: [u8; 13],
        /// The counter.
        counter: u32,
    },
    /// `utc_random` and `utc_id`: microseconds since 1970 and the rest of
    /// the text (18 hex for `utc_random`).
    Utc {
        /// Microseconds since 1970.
        micros: u64,
        /// The text after the 14 hex digits.
        suffix: &'a str,
    },
    /// `uuid_v4` and `uuid_v7`: the 128-bit value (version and variant
    /// checked).
    Uuid {
        /// The value, big-endian.
        value: u128,
    },
}

impl Decoded<'_> {
    /// The time the id carries, to the millisecond (`utc_*` and `uuid_v7`).
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Format, Uuids};
    /// let ids = Uuids::new(Algorithm::UuidV7).format(Format::Base36).at(1_700_000_000_123u64)?;
    /// let id = ids.mint()?;
    /// assert_eq!(ids.decode(&id)?.timestamp().unwrap().as_millis(), 1_700_000_000_123);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn timestamp(&self) -> Option<Timestamp> {
        match *self {
            Decoded::Utc { micros, .. } => Some(Timestamp::from_millis(micros / 1000)),
            Decoded::Uuid { value } if (value >> 76) & 0xf == 7 => {
                Some(Timestamp::from_millis((value >> 80) as u64))
            }
            _ => None,
        }
    }
}

/// The fields of a CouchDB id of `algorithm` (`format` matters only for
/// `uuid_v4`/`uuid_v7`). Hex is read in either case.
///
/// ```
/// use kuuid::couch::{Algorithm, Decoded, Format, ParseError};
/// let d = kuuid::couch::decode("f5lxx1zz5pnorynqglhzmsp33", Algorithm::UuidV4, Format::Base36);
/// assert_eq!(d, Err(ParseError::Version { found: 0xf, expected: 4 }));
/// let v4 = "8ae2f7a1-4c02-4b8f-9d2e-1f0b3c5a7e99";
/// assert!(matches!(kuuid::couch::decode(v4, Algorithm::UuidV4, Format::Rfc9562),
///                  Ok(Decoded::Uuid { .. })));
/// ```
pub fn decode(text: &str, algorithm: Algorithm, format: Format) -> Result<Decoded<'_>, ParseError> {
    let bytes = text.as_bytes();
    match algorithm {
        Algorithm::Random | Algorithm::Sequential => {
            let mut out = [0u8; 16];
            if bytes.len() != 32 {
                return Err(ParseError::Length {
                    found: bytes.len(),
                    expected: 32,
                });
            }
            hex::decode(bytes, &[], &mut out).map_err(invalid)?;
            Ok(if algorithm == Algorithm::Random {
                Decoded::Random { bytes: out }
            } else {
                let mut prefix = [0u8; 13];
                prefix.copy_from_slice(&out[..13]);
                Decoded::Sequential {
                    prefix,
                    counter: u32::from_be_bytes([0, out[13], out[14], out[15]]),
                }
            })
        }
        Algorithm::UtcRandom | Algorithm::UtcId => {
            let min = if algorithm == Algorithm::UtcRandom {
                32
            } else {
                14
            };
            if bytes.len() < min || (algorithm == Algorithm::UtcRandom && bytes.len() != 32) {
                return Err(ParseError::Length {
                    found: bytes.len(),
                    expected: min,
                });
            }
            let mut micros = [0u8; 8];
            hex::decode(&bytes[..14], &[], &mut micros[1..]).map_err(invalid)?;
            if algorithm == Algorithm::UtcRandom {
                let mut random = [0u8; 9];
                hex::decode(&bytes[14..], &[], &mut random).map_err(|(i, b)| {
                    ParseError::InvalidByte {
                        index: i + 14,
                        byte: b,
                    }
                })?;
            }
            Ok(Decoded::Utc {
                micros: u64::from_be_bytes(micros),
                // Bytes 0..14 are ASCII hex, so 14 is a char boundary.
                suffix: &text[14..],
            })
        }
        Algorithm::UuidV4 | Algorithm::UuidV7 => {
            let value = format.decode(text)?;
            let expected = if algorithm == Algorithm::UuidV4 { 4 } else { 7 };
            match uuid_layout::check(value, expected) {
                Ok(()) => Ok(Decoded::Uuid { value }),
                Err(NotThisUuid::Version(found)) => Err(ParseError::Version { found, expected }),
                Err(NotThisUuid::Variant(found)) => Err(ParseError::Variant { found }),
            }
        }
    }
}

/// Why a name or a time was refused.
///
/// ```
/// let e = "snowflake".parse::<kuuid::couch::Algorithm>().unwrap_err();
/// assert_eq!(e.to_string(),
///     "unknown CouchDB uuid algorithm \"snowflake\" (expected one of random, sequential, utc_random, utc_id, uuid_v4, uuid_v7)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Not one of CouchDB's `[uuids] algorithm` names.
    UnknownAlgorithm {
        /// The name given.
        found: String,
    },
    /// Not one of CouchDB's `[uuids] format` names.
    UnknownFormat {
        /// The name given.
        found: String,
    },
    /// A time given to an algorithm whose ids carry none.
    NoTime {
        /// The algorithm.
        algorithm: Algorithm,
    },
    /// A time the algorithm's text cannot hold (`utc_*`: past 4253-05-31,
    /// where 14 hex digits of microseconds end; `uuid_v7`: past 48 bits of
    /// milliseconds).
    PastRange {
        /// The algorithm.
        algorithm: Algorithm,
        /// The time, in ms since 1970.
        millis: u64,
    },
    /// A time that is not a time.
    Time(TimeError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = |all: &[&str]| all.join(", ");
        match self {
            Error::UnknownAlgorithm { found } => write!(
                f,
                "unknown CouchDB uuid algorithm {found:?} (expected one of {})",
                names(&Algorithm::ALL.map(Algorithm::name))
            ),
            Error::UnknownFormat { found } => write!(
                f,
                "unknown CouchDB uuid format {found:?} (expected one of {})",
                names(&Format::ALL.map(Format::name))
            ),
            Error::NoTime { algorithm } => {
                write!(f, "CouchDB {algorithm} ids carry no time to mint at")
            }
            Error::PastRange { algorithm, millis } => write!(
                f,
                "time {millis} ms since 1970 is past the last time a CouchDB {algorithm} id holds"
            ),
            Error::Time(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Time(e) => Some(e),
            _ => None,
        }
    }
}

impl From<TimeError> for Error {
    fn from(e: TimeError) -> Self {
        Error::Time(e)
    }
}

/// Why text is not an id of a CouchDB algorithm.
///
/// ```
/// use kuuid::couch::{Algorithm, Format, ParseError};
/// assert_eq!(kuuid::couch::decode("abc", Algorithm::Random, Format::Base16),
///            Err(ParseError::Length { found: 3, expected: 32 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// The wrong length (for `utc_id`: shorter than the 14 hex digits).
    Length {
        /// The length found.
        found: usize,
        /// The length expected (for `utc_id`, the least).
        expected: usize,
    },
    /// A byte outside the format's alphabet (or a dash out of place).
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A `base_36` text whose value does not fit 128 bits.
    Overflow,
    /// A UUID of another version.
    Version {
        /// The version found.
        found: u8,
        /// The version the algorithm mints.
        expected: u8,
    },
    /// A UUID whose variant bits are not `10`.
    Variant {
        /// The nibble that holds them.
        found: u8,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseError::Length { found, expected } => {
                write!(f, "length is {}, expected {expected}", Bytes(found))
            }
            ParseError::InvalidByte { index, byte } => write!(
                f,
                "invalid byte 0x{byte:02x} at index {index} (outside the format's alphabet)"
            ),
            ParseError::Overflow => f.write_str("base 36 value is 2^128 or more"),
            ParseError::Version { found, expected } => {
                write!(f, "UUID version is {found}, expected {expected}")
            }
            ParseError::Variant { found } => write!(
                f,
                "variant nibble is {found:x}, expected 8, 9, a or b (RFC 9562)"
            ),
        }
    }
}

impl std::error::Error for ParseError {}

fn invalid((index, byte): (usize, u8)) -> ParseError {
    ParseError::InvalidByte { index, byte }
}

/// Appends the lowercase hex of up to 16 bytes.
fn push_hex(bytes: &[u8], out: &mut String) {
    let mut buf = [0u8; 32];
    let text = &mut buf[..2 * bytes.len()];
    hex::encode_lower(bytes, text);
    out.push_str(std::str::from_utf8(text).expect("hex is ASCII"));
}

fn words_to_bytes(words: [u32; 4]) -> [u8; 16] {
    let mut b = [0u8; 16];
    for (chunk, w) in b.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    b
}

/// RFC 9562 version 4: 122 random bits, CouchDB's `v4_bin`.
const fn uuid_v4(random: u128) -> u128 {
    uuid_layout::with_version(random, 4)
}

/// CouchDB's `v7_bin`: 48-bit milliseconds, version 7, 12 random bits of
/// `rand_a`, variant `10`, 62 random bits.
const fn uuid_v7(millis: u64, random: u128) -> u128 {
    let rand = random & ((1 << 80) - 1);
    (millis as u128) << 80 | uuid_layout::with_version(rand, 7)
}

fn sequential_word() -> &'static AtomicU128 {
    &crate::sys::process_words().couch_sequential
}

/// Makes the next `sequential` id draw a new prefix ([`crate::reseed`]):
/// a word at 0 is a new process's, and the prefix comes from this thread's
/// generator, which the token change that follows reseeds from the OS.
pub(crate) fn reseed() {
    sequential_word().store(0, Ordering::Relaxed);
}

/// A uniform draw from `1..=SEQUENTIAL_STEP` (CouchDB's `rand:uniform(16#ffd)`),
/// by multiply-and-shift with rejection, so no step is favoured.
fn step() -> u32 {
    let n = SEQUENTIAL_STEP;
    let threshold = n.wrapping_neg() % n;
    loop {
        let [w] = crate::local::words::<1>();
        let m = u64::from(w) * u64::from(n);
        if m as u32 >= threshold {
            return (m >> 32) as u32 + 1;
        }
    }
}

/// A fresh 13-byte prefix, in the top 104 bits.
#[cold]
fn prefix() -> u128 {
    u128::from_be_bytes(words_to_bytes(crate::local::words::<4>())) >> 24 << 24
}

/// The next `sequential` value after the last one in `word` (prefix in the
/// top 104 bits, counter in the low 24): the counter plus a step, or a new
/// prefix and start once the last counter reached `0xfff000` (and for the
/// first id, when the word is 0: a counter is never 0).
#[doc(hidden)]
pub fn claim_sequential(
    word: &impl Word128,
    step: impl Fn() -> u32,
    prefix: impl Fn() -> u128,
) -> u128 {
    let inc = u128::from(step());
    let mut fresh = None;
    let mut cur = word.load();
    loop {
        let next = if cur == 0 || (cur as u32 & 0xff_ffff) >= SEQUENTIAL_LIMIT {
            *fresh.get_or_insert_with(&prefix) | inc
        } else {
            cur + inc
        };
        match word.compare_exchange(cur, next) {
            Ok(_) => return next,
            Err(seen) => cur = seen,
        }
    }
}

/// The next `utc_*` microsecond after the last one in `word`: `now` if it
/// is later, else the last + 1 (CouchDB's `utc_suffix`).
#[doc(hidden)]
pub fn claim_utc(word: &impl Word64, now: u64) -> u64 {
    let mut cur = word.load();
    loop {
        let next = if now <= cur { cur + 1 } else { now };
        match word.compare_exchange(cur, next) {
            Ok(_) => return next,
            Err(seen) => cur = seen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CouchDB's `utc_id_time_does_not_advance_test` and
    /// `utc_id_time_advanced_test`.
    #[test]
    fn utc_follows_the_clock_or_counts_on() {
        let word = AtomicU64::new(345);
        assert_eq!(claim_utc(&word, 12), 346);
        assert_eq!(claim_utc(&word, 345), 347);
        assert_eq!(claim_utc(&word, 999), 999);
        assert_eq!(claim_utc(&word, 999), 1000);
    }

    /// The counter steps on under one prefix until it reaches 0xfff000
    /// after an id; then a new prefix and start.
    #[test]
    fn sequential_steps_then_draws_a_new_prefix() {
        let word = AtomicU128::new(0);
        let p1 = 0xAAu128 << 120;
        let first = claim_sequential(&word, || 7, || p1);
        assert_eq!(first, p1 | 7);
        assert_eq!(
            claim_sequential(&word, || 0xffd, || unreachable!()),
            p1 | (7 + 0xffd)
        );
        // Just below the limit: one more step under the same prefix, even
        // past the limit (CouchDB checks after emitting).
        word.store(p1 | 0xffefff, Ordering::Relaxed);
        assert_eq!(
            claim_sequential(&word, || 0xffd, || unreachable!()),
            p1 | 0xfffffc
        );
        let p2 = 0xBBu128 << 120;
        assert_eq!(claim_sequential(&word, || 3, || p2), p2 | 3);
        // Exactly at the limit: a new prefix.
        word.store(p1 | 0xfff000, Ordering::Relaxed);
        assert_eq!(claim_sequential(&word, || 5, || p2), p2 | 5);
    }

    #[test]
    fn steps_cover_their_range_only() {
        let mut seen = [false; SEQUENTIAL_STEP as usize + 2];
        for _ in 0..200_000 {
            seen[step() as usize] = true;
        }
        assert!(!seen[0] && !seen[SEQUENTIAL_STEP as usize + 1]);
        assert!(seen[1..=SEQUENTIAL_STEP as usize].iter().all(|&s| s));
    }

    #[test]
    fn uuid_bits_are_set_and_cleared() {
        for random in [0, u128::MAX] {
            let v4 = uuid_v4(random);
            assert_eq!((v4 >> 76) & 0xf, 4);
            assert_eq!((v4 >> 62) & 0b11, 0b10);
            let v7 = uuid_v7(MAX_UNIX_MILLIS, random);
            assert_eq!((v7 >> 76) & 0xf, 7);
            assert_eq!((v7 >> 62) & 0b11, 0b10);
            assert_eq!((v7 >> 80) as u64, MAX_UNIX_MILLIS);
        }
        assert_eq!(uuid_v7(1, 0), 1 << 80 | 7 << 76 | 0b10 << 62);
    }
}
