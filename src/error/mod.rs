//! The crate's umbrella error: every error kuuid returns converts into it,
//! so one `?` carries any of them into a function returning [`Error`].
//!
//! Names: a module's error for all its calls is that module's `Error`
//! (`kuuid::Error`, `couch::Error`); an error of one kind of input or one
//! failure is `<What>Error` (`ParseError`, `OrderKeyError`,
//! `engine::IsaError`).
//!
//! Shapes: one fault has one variant shape in every error that can meet
//! it. Text of the wrong length is `Length { expected, found }`, with
//! `expected: &'static [usize]` the lengths the format takes; a bad byte
//! is `InvalidByte { index, byte }`; a caller's buffer too short is
//! `BufferTooSmall { needed, found }`. The one open-ended format (a
//! CouchDB `utc_id`, whose suffix is the server's) says `TooShort { min,
//! found }`.

use std::fmt;

#[cfg(feature = "couch")]
pub(crate) mod couch;
#[cfg(feature = "order")]
pub(crate) mod order;

#[cfg(feature = "order")]
use order::{OrderError, OrderKeyError};

use crate::engine::{EngineError, IsaError};

use crate::parse::{ManyError, ObjectIdParseError, ParseError, UuidParseError};
use crate::time::TimeError;

/// Any error from kuuid; each variant says what and where. Every error a
/// kuuid call returns converts into it (`From`), so `?` takes a parse, a
/// time, a CouchDB id, an order key or an engine path's error alike. It
/// holds no database's error: the counters of `kuuid-sequence` have their
/// own error, which carries this one.
///
/// ```
/// let err = kuuid::Options::new().random(5).id().unwrap_err();
/// assert_eq!(err, kuuid::Error::Groups { found: 5 });
/// assert_eq!(err.to_string(), "random groups must be 1 to 4, got 5");
/// ```
///
/// One error type for a program that uses CouchDB ids, order keys (features
/// `couch` and `order`) and a chosen engine path:
///
/// ```
/// use kuuid::couch::{self, Algorithm, Format};
///
/// fn main() -> Result<(), kuuid::Error> {
///     let key = kuuid::order::key_between(None, None)?;
///     let uuids = couch::Uuids::new("utc_random".parse()?);
///     let id = uuids.generate()?;
///     couch::decode(&id, Algorithm::UtcRandom, Format::Base16)?;
///     let isa: kuuid::engine::Isa = "scalar".parse()?;
///     let parsed: kuuid::Kuuid = kuuid::id().as_str().parse()?;
///     println!("{key} {id} {isa} {parsed}");
///     Ok(())
/// }
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
    /// An id of a batch that is not a valid kuuid, and where it is.
    Many(ManyError),
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
    /// A CouchDB `_uuids` configuration or call kuuid cannot serve.
    #[cfg(feature = "couch")]
    Couch(couch::Error),
    /// Text that is not a CouchDB id of the kind asked for.
    #[cfg(feature = "couch")]
    CouchParse(couch::ParseError),
    /// Keys no key can be placed between, or a bad request for keys.
    #[cfg(feature = "order")]
    Order(OrderError),
    /// Text that is not an order key.
    #[cfg(feature = "order")]
    OrderKey(OrderKeyError),
    /// An engine path that does not exist or that this CPU cannot run.
    Isa(IsaError),
    /// A call into the engine that it refused.
    Engine(EngineError),
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
                crate::parse::buffer_too_small(f, *needed, *found)
            }
            Error::InvertedRange => f.write_str("the range's start is after its end"),
            Error::MonotonicExhausted => f.write_str(
                "monotonic ids exhausted: the prefix is at the end of its range and the random part is used up",
            ),
            Error::Random(e) => write!(f, "the OS random source failed: {e}"),
            Error::Many(e) => e.fmt(f),
            #[cfg(feature = "couch")]
            Error::Couch(e) => e.fmt(f),
            #[cfg(feature = "couch")]
            Error::CouchParse(e) => write!(f, "not a CouchDB id: {e}"),
            #[cfg(feature = "order")]
            Error::Order(e) => e.fmt(f),
            #[cfg(feature = "order")]
            Error::OrderKey(e) => write!(f, "not an order key: {e}"),
            Error::Isa(e) => e.fmt(f),
            Error::Engine(e) => e.fmt(f),
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
            Error::Many(e) => e.source(),
            #[cfg(feature = "couch")]
            Error::Couch(e) => e.source(),
            #[cfg(feature = "couch")]
            Error::CouchParse(e) => e.source(),
            #[cfg(feature = "order")]
            Error::Order(e) => e.source(),
            #[cfg(feature = "order")]
            Error::OrderKey(e) => e.source(),
            Error::Isa(e) => e.source(),
            Error::Engine(e) => e.source(),
            Error::Groups { .. }
            | Error::WordCount { .. }
            | Error::BufferTooSmall { .. }
            | Error::InvertedRange
            | Error::MonotonicExhausted
            | Error::Random(_) => None,
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
/// assert_eq!(err.to_string(), "not a UUIDv7: length is 10 bytes, expected 36, 32, 38 or 45");
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

/// `From` for the errors whose variant holds them as they are.
macro_rules! from {
    ($($ty:ty => $variant:ident),* $(,)?) => {$(
        impl From<$ty> for Error {
            fn from(e: $ty) -> Self {
                Error::$variant(e)
            }
        }
    )*};
}

from! {
    ManyError => Many,
    IsaError => Isa,
    EngineError => Engine,
}

#[cfg(feature = "couch")]
from! {
    couch::Error => Couch,
    couch::ParseError => CouchParse,
}

#[cfg(feature = "order")]
from! {
    OrderError => Order,
    OrderKeyError => OrderKey,
}
