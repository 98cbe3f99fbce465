//! The crate's umbrella error, for calls that can fail in more than one way.

use std::fmt;

use crate::parse::{ObjectIdParseError, ParseError, UuidParseError};
use crate::time::TimeError;

/// Any error from kuuid; each variant says what and where.
///
/// ```
/// let err = kuuid::Options::new().random(5).id().unwrap_err();
/// assert_eq!(err, kuuid::Error::Groups { found: 5 });
/// assert_eq!(err.to_string(), "random groups must be 1 to 4, got 5");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Text that is not a valid kuuid.
    Parse(ParseError),
    /// Text or bytes that are not a UUIDv7.
    Uuid(UuidParseError),
    /// Text that is not an ObjectId.
    ObjectId(ObjectIdParseError),
    /// A time that cannot become a prefix.
    Time(TimeError),
    /// A number of random groups outside 1 to 4.
    Groups {
        /// The number asked for.
        found: usize,
    },
    /// The wrong number of random words for an id type.
    WordCount {
        /// The id type's number of groups.
        expected: usize,
        /// The number of words given.
        found: usize,
    },
    /// A caller's buffer too short for the text.
    BufferTooSmall {
        /// Bytes needed.
        needed: usize,
        /// Bytes given.
        found: usize,
    },
    /// A time range whose start is after its end.
    InvertedRange,
    /// A monotonic generator has no later id: its prefix is at the end of
    /// the range and its random part is used up.
    MonotonicExhausted,
    /// The OS random source failed (its message).
    Random(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Uuid(e) => write!(f, "not a UUIDv7: {e}"),
            Error::ObjectId(e) => write!(f, "not an ObjectId: {e}"),
            Error::Time(e) => e.fmt(f),
            Error::Groups { found } => write!(f, "random groups must be 1 to 4, got {found}"),
            Error::WordCount { expected, found } => {
                write!(f, "this id type takes {expected} random words, got {found}")
            }
            Error::BufferTooSmall { needed, found } => {
                write!(f, "buffer of {found} bytes is too small, {needed} needed")
            }
            Error::InvertedRange => f.write_str("the range's start is after its end"),
            Error::MonotonicExhausted => f.write_str(
                "monotonic ids exhausted: the prefix is at the end of its range and the random part is used up",
            ),
            Error::Random(e) => write!(f, "the OS random source failed: {e}"),
        }
    }
}

/// Display is the whole message; `source` gives only what it did not
/// print (the crate's rule, so that anyhow and eyre reports say each cause
/// once): a wrapped error's own cause, never the wrapped error itself.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Parse(e) => e.source(),
            Error::Uuid(e) => e.source(),
            Error::ObjectId(e) => e.source(),
            Error::Time(e) => e.source(),
            _ => None,
        }
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

/// So `?` takes a UUIDv7 parse into a function returning [`Error`].
///
/// ```
/// fn parse(text: &str) -> Result<kuuid::Uuid7, kuuid::Error> {
///     Ok(text.parse()?)
/// }
/// let err = parse("not a uuid").unwrap_err();
/// assert!(matches!(err, kuuid::Error::Uuid(_)));
/// assert_eq!(err.to_string(), "not a UUIDv7: length is 10 bytes, expected 36 or 32");
/// ```
impl From<UuidParseError> for Error {
    fn from(e: UuidParseError) -> Self {
        Error::Uuid(e)
    }
}

/// So `?` takes an ObjectId parse into a function returning [`Error`].
///
/// ```
/// fn parse(text: &str) -> Result<kuuid::ObjectId, kuuid::Error> {
///     Ok(text.parse()?)
/// }
/// assert!(matches!(parse("abc"), Err(kuuid::Error::ObjectId(_))));
/// ```
impl From<ObjectIdParseError> for Error {
    fn from(e: ObjectIdParseError) -> Self {
        Error::ObjectId(e)
    }
}

impl From<TimeError> for Error {
    fn from(e: TimeError) -> Self {
        Error::Time(e)
    }
}
