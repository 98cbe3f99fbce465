//! CouchDB's `/_uuids` algorithms, byte for byte the texts of
//! `couch_uuids.erl` (apache/couchdb main), minted on this crate's
//! per-thread secure randomness. Feature `couch`.
//!
//! ```
//! use kuuid::couch::{Algorithm, Format, Uuids};
//!
//! let v7 = Uuids::new(Algorithm::UuidV7).format(Format::Rfc9562);
//! let text = v7.generate()?;
//! assert_eq!(text.len(), 36);
//! assert!(v7.decode(&text).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! | [`Algorithm`] | text |
//! |---|---|
//! | `random` | 32 lowercase hex of 16 random bytes |
//! | `sequential` | 26 hex of a 13-byte random prefix + 6 hex of a counter that starts at a random 1..=4093 and grows by a random 1..=4093; once it is `>= 0xfff000` after an id, a new prefix and start are drawn |
//! | `utc_random` | 14 hex of microseconds since 1970 + 18 hex of 9 random bytes |
//! | `utc_id` | the same 14 hex + a configured suffix |
//! | `uuid_v4`, `uuid_v7` | a UUID in the [`Format`] configured: `base_16` (32 hex), `rfc9562` (36, dashed) or `base_36` (25 of `0-9a-z`) |
//!
//! # Process-wide state, as CouchDB keeps it in one server process
//!
//! The `sequential` prefix and counter share one 128-bit word and the
//! `utc_*` microseconds one 64-bit word; both advance by compare-and-swap,
//! so every thread draws from one sequence without a lock, and `utc_*` ids
//! are strictly increasing across the process ("if the clock has not passed
//! the last value, last + 1"; so, as in CouchDB, minting faster than one id
//! a microsecond runs ahead of the clock by the excess). Both words live in
//! the wipe-on-fork page: a forked child draws its own `sequential` prefix, as a new node would.
//! `utc_id` ids are unique only per suffix and process (CouchDB's too): give
//! each process its own suffix.
//!
//! # `uuid_v7` is CouchDB's, not [`kuuid::v7`](crate::v7)
//!
//! CouchDB fills
//! `rand_a` with random bits and keeps no counter, so ids of one millisecond
//! are not ordered among themselves; this module mints them that way. For
//! ids ordered within the millisecond, format [`kuuid::v7`](crate::v7)'s
//! value with [`Format::encode_into`].

use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

mod decode;
mod format;
mod state;

pub use crate::error::couch::{Algorithm, Error, ParseError};
pub use decode::{Decoded, decode};
pub use format::Format;
pub(crate) use state::reseed;
#[doc(hidden)]
pub use state::{claim_sequential, claim_utc};

use super::uuid_layout::{self, MAX_UNIX_MILLIS};
use crate::engine::hex;
use crate::time::{IntoTimestamp, TimeError, TimeField};
use format::TextOut;
use state::{prefix, sequential_word, step};

/// The last microsecond 14 hex digits hold (`~14.16.0b`): 4253-05-31.
const MAX_MICROS: u64 = (1 << 56) - 1;

impl FromStr for Algorithm {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        named(&Algorithm::ALL, Algorithm::name, s).ok_or_else(|| Error::UnknownAlgorithm {
            found: s.to_owned(),
        })
    }
}

impl FromStr for Format {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        named(&Format::ALL, Format::name, s).ok_or_else(|| Error::UnknownFormat {
            found: s.to_owned(),
        })
    }
}

/// The value of `all` whose configuration name is `s`.
fn named<T: Copy>(all: &[T], name: fn(T) -> &'static str, s: &str) -> Option<T> {
    all.iter().copied().find(|&v| name(v) == s)
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
/// let (a, b) = (seq.generate()?, seq.generate()?);
/// assert_eq!((a.len(), &a[..26]), (32, &b[..26]));   // one prefix...
/// assert!(a < b);                                    // ...a growing counter
///
/// let v4 = Uuids::new(Algorithm::UuidV4).format(Format::Rfc9562);
/// assert_eq!(&v4.generate()?[14..15], "4");
///
/// let utc = Uuids::new(Algorithm::UtcId).utc_id_suffix("frog");
/// assert!(utc.generate()?.ends_with("frog"));
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
    /// assert_eq!(ids.generate()?.len(), 32);
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
    /// assert_eq!(ids.generate()?.len(), 25);
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
    /// let id = Uuids::new(Algorithm::UtcId).utc_id_suffix("-node1").generate()?;
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
    /// let (a, b) = (ids.generate()?, ids.generate()?);
    /// assert_eq!(&a[..14], format!("{:014x}", 1_577_836_800_000_000u64));
    /// assert_eq!(&b[..14], format!("{:014x}", 1_577_836_800_000_001u64));
    /// assert!(Uuids::new(Algorithm::Random).at(0u64).is_err());
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn at(mut self, t: impl IntoTimestamp) -> Result<Self, Error> {
        let field = match self.algorithm {
            Algorithm::UuidV7 => TimeField::Uuid7,
            Algorithm::UtcRandom | Algorithm::UtcId => TimeField::CouchUtc,
            algorithm => return Err(Error::NoTime { algorithm }),
        };
        let millis = t.into_timestamp()?.as_millis();
        if millis > field.last_millis() {
            return Err(Error::Time(TimeError::OutOfRange { field, millis }));
        }
        let micros = millis * 1000;
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
    /// let id = kuuid::couch::Uuids::new(kuuid::couch::Algorithm::UtcRandom).generate()?;
    /// assert_eq!(id.len(), 32);
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn generate(&self) -> Result<String, Error> {
        let mut s = String::with_capacity(36);
        self.generate_into(&mut s)?;
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
    ///     ids.generate_into(&mut text)?;
    ///     text.push('\n');
    /// }
    /// assert_eq!(text.len(), 3 * 33);
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn generate_into(&self, out: &mut String) -> Result<(), Error> {
        self.mint_to(out)
    }

    /// Appends one id's text to a byte buffer: [`Uuids::generate_into`] for
    /// text bound for a file, a socket or an HTTP body, which skips the
    /// UTF-8 check a `String` needs (about 3 ns of `sequential`'s 15). On
    /// error nothing is appended.
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Uuids};
    /// let ids = Uuids::new(Algorithm::Sequential);
    /// let mut body = Vec::new();
    /// for _ in 0..3 {
    ///     ids.generate_into_bytes(&mut body)?;
    ///     body.push(b'\n');
    /// }
    /// assert_eq!(body.len(), 3 * 33);
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
    pub fn generate_into_bytes(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        self.mint_to(out)
    }

    fn mint_to(&self, out: &mut impl TextOut) -> Result<(), Error> {
        match self.algorithm {
            Algorithm::Random => {
                let v = random_u128();
                out.push_ascii(&hex::simple(v));
            }
            Algorithm::Sequential => {
                let v = claim_sequential(sequential_word(), step, prefix);
                out.push_ascii(&hex::simple(v));
            }
            Algorithm::UtcRandom => {
                // 7 bytes of microseconds, then 9 random: one 128-bit
                // value, one hex conversion.
                let micros = u128::from(self.next_micros()?);
                let random = random_u128();
                out.push_ascii(&hex::simple(micros << 72 | random >> 56));
            }
            Algorithm::UtcId => {
                let micros = u128::from(self.next_micros()?);
                let text = hex::simple(micros << 72);
                out.push_ascii(text.first_chunk::<14>().expect("32 digits"));
                out.push_str(&self.suffix);
            }
            Algorithm::UuidV4 => {
                let random = random_u128();
                self.format.encode_to(uuid_v4(random), out);
            }
            Algorithm::UuidV7 => {
                let millis = match &self.given {
                    Some(g) => g.millis,
                    None => crate::sys::unix_millis().min(MAX_UNIX_MILLIS),
                };
                let random = random_u128();
                self.format.encode_to(uuid_v7(millis, random), out);
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
        (0..count).map(|_| self.generate()).collect()
    }

    /// The fields of an id of this configuration's algorithm and format.
    /// A `utc_id` suffix is returned as found, not checked against the
    /// configured one.
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Decoded, Uuids};
    /// let ids = Uuids::new(Algorithm::Sequential);
    /// let Decoded::Sequential { counter, .. } = ids.decode(&ids.generate()?)? else {
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
            None => state::claim_utc_now(),
        };
        if micros > MAX_MICROS {
            return Err(Error::Time(TimeError::OutOfRange {
                field: TimeField::CouchUtc,
                millis: micros / 1000,
            }));
        }
        Ok(micros)
    }
}

/// 128 random bits from this thread's secure generator (four words, each
/// little-endian, read as one big-endian value).
fn random_u128() -> u128 {
    let mut b = [0u8; 16];
    for (chunk, w) in b.chunks_exact_mut(4).zip(crate::local::words::<4>()) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    u128::from_be_bytes(b)
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The limits the errors name are the ones the text holds.
    #[test]
    fn time_fields_end_where_the_text_does() {
        assert_eq!(TimeField::Uuid7.last_millis(), MAX_UNIX_MILLIS);
        assert_eq!(TimeField::CouchUtc.last_millis(), MAX_MICROS / 1000);
    }
}
