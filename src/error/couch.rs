//! CouchDB's algorithm names and why a name, a time or an id's text was
//! refused: the words the errors quote, with the errors, below the minting
//! code (`formats/couch`) so that the crate's umbrella error can hold them
//! without importing it. `kuuid::couch` re-exports all of it.

use std::fmt;

use crate::parse::{invalid_byte, too_short, wrong_length};
use crate::time::TimeError;
#[cfg(doc)]
use crate::time::TimeField;

/// The names of CouchDB's `[uuids] format` values, in `Format::ALL`'s
/// order (`Format::name` reads them here).
pub(crate) const FORMAT_NAMES: [&str; 3] = ["base_16", "rfc9562", "base_36"];

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
    /// A random UUID (version 4) in the configured
    /// [`Format`](crate::couch::Format).
    UuidV4,
    /// A UUIDv7 with random `rand_a` (CouchDB's default) in the configured
    /// [`Format`](crate::couch::Format).
    UuidV7,
}

impl Algorithm {
    /// Every algorithm, in CouchDB's documentation order.
    ///
    /// ```
    /// use kuuid::couch::Algorithm;
    ///
    /// for a in Algorithm::ALL {
    ///     assert_eq!(a.name().parse::<Algorithm>()?, a);
    /// }
    /// # Ok::<(), kuuid::couch::Error>(())
    /// ```
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
    /// [`at`](crate::couch::Uuids::at) a given one).
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

    /// Whether the [`Format`](crate::couch::Format) applies (CouchDB ignores it for the others).
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
    /// A time that is not a time, or one past what the algorithm's text
    /// holds ([`TimeError::OutOfRange`], naming [`TimeField::CouchUtc`]
    /// for `utc_*` ids, past 4253-05-31, or [`TimeField::Uuid7`]).
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
                names(&FORMAT_NAMES)
            ),
            Error::NoTime { algorithm } => {
                write!(f, "CouchDB {algorithm} ids carry no time to mint at")
            }
            Error::Time(e) => e.fmt(f),
        }
    }
}

/// Display is the whole message; `source` gives only what it did not
/// print (see [`crate::Error`]).
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Time(e) => e.source(),
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
///            Err(ParseError::Length { expected: &[32], found: 3 }));
/// assert_eq!(kuuid::couch::decode("0123", Algorithm::UtcId, Format::Base16),
///            Err(ParseError::TooShort { min: 14, found: 4 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// The wrong length for an algorithm whose ids have one length.
    Length {
        /// The length its ids have.
        expected: &'static [usize],
        /// The length found.
        found: usize,
    },
    /// A `utc_id` shorter than its 14 hex digits of time (its suffix is
    /// the server's own and may have any length).
    TooShort {
        /// The least length.
        min: usize,
        /// The length found.
        found: usize,
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
            ParseError::Length { expected, found } => wrong_length(f, found, expected),
            ParseError::TooShort { min, found } => too_short(f, found, min),
            ParseError::InvalidByte { index, byte } => {
                invalid_byte(f, index, byte, "a digit of the format's alphabet")
            }
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
