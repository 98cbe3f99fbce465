//! Strict decoding of id text, and the errors that say what is wrong where.

use std::fmt;

use crate::engine::scalar::{self, DecodeFault};
use crate::engine::{GROUP_LEN, PREFIX_LEN};

mod hex;
#[cfg(feature = "ksuid")]
mod ksuid;
#[cfg(feature = "typeid")]
mod typeid;
#[cfg(feature = "ulid")]
mod ulid;

pub use hex::{ObjectIdParseError, UuidParseError};
#[cfg(feature = "ksuid")]
pub use ksuid::KsuidParseError;
#[cfg(feature = "typeid")]
pub use typeid::TypeIdParseError;
#[cfg(feature = "ulid")]
pub use ulid::UlidParseError;

/// Why text is not a valid kuuid.
///
/// ```
/// use kuuid::{Kuuid, ParseError};
/// assert_eq!("001eVnWK".parse::<Kuuid>(), Err(ParseError::Length { expected: &[32], found: 8 }));
/// assert_eq!("001eVnWK-00000000000000000000000".parse::<Kuuid>(),
///            Err(ParseError::InvalidByte { index: 8, byte: b'-' }));
/// assert_eq!("001eVnWK4gfFC4000000000000000000".parse::<Kuuid>(),
///            Err(ParseError::GroupOverflow { index: 8 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseError {
    /// The text has the wrong number of bytes.
    Length {
        /// The lengths this type accepts (one, or 14/20/26/32 for [`crate::AnyKuuid`]).
        expected: &'static [usize],
        /// The length found.
        found: usize,
    },
    /// A byte outside `0-9A-Za-z` (including any byte >= 0x80).
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A 6-character random group above `4gfFC3` (2^32 - 1).
    GroupOverflow {
        /// Index of the group's first byte.
        index: usize,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseError::Length { expected, found } => wrong_length(f, found, expected),
            ParseError::InvalidByte { index, byte } => {
                invalid_byte(f, index, byte, "0-9, A-Z or a-z")
            }
            ParseError::GroupOverflow { index } => write!(
                f,
                "random group at index {index} is above 4gfFC3 (2^32 - 1)"
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// Validates `text` as a whole id with `words.len()` groups; returns the
/// prefix value and writes the random words.
pub(crate) fn decode(text: &[u8], words: &mut [u32]) -> Result<u64, ParseError> {
    debug_assert_eq!(text.len(), PREFIX_LEN + GROUP_LEN * words.len());
    scalar::decode_id(text, words).map_err(|fault| match fault {
        DecodeFault::Byte(index) => ParseError::InvalidByte {
            index,
            byte: text[index],
        },
        DecodeFault::Overflow(index) => ParseError::GroupOverflow { index },
    })
}

/// The first id of a batch that failed to parse: which one, and why
/// (`E`, the id type's own parse error: [`ParseError`] for kuuids).
///
/// ```
/// let text = b"001eVnWK000000000000000000000000001eVnWK4gfFC4000000000000000000";
/// let mut ids = [kuuid::Kuuid::default(); 2];
/// let err = kuuid::Kuuid::parse_many(text, 32, &mut ids).unwrap_err();
/// assert_eq!(err.index, 1);
/// assert_eq!(err.error, kuuid::ParseError::GroupOverflow { index: 8 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ManyError<E = ParseError> {
    /// Which id (0-based) in the batch.
    pub index: usize,
    /// What is wrong with it (byte indexes are within that id).
    pub error: E,
}

impl<E: fmt::Display> fmt::Display for ManyError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "id {} of the batch: {}", self.index, self.error)
    }
}

impl<E: std::error::Error> std::error::Error for ManyError<E> {}

/// How many `len`-byte records laid out every `stride` bytes lie wholly
/// inside `text_len` bytes (a batch parser's records past them are length
/// errors). `stride >= len > 0`, checked by the callers.
pub(crate) fn whole_records(text_len: usize, len: usize, stride: usize) -> usize {
    text_len.checked_sub(len).map_or(0, |n| n / stride + 1)
}

/// Record `i` of a batch, cut short where `text` ends (the bytes its
/// error is about).
pub(crate) fn record(text: &[u8], i: usize, len: usize, stride: usize) -> &[u8] {
    let start = (i * stride).min(text.len());
    &text[start..(start + len).min(text.len())]
}

/// A count of bytes in a message: "1 byte", "3 bytes".
struct Bytes(usize);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 byte"),
            n => write!(f, "{n} bytes"),
        }
    }
}

/// The one wording of a wrong length, for every parse error of the crate:
/// "length is 3 bytes, expected 32" (or "24, 26 or 32").
pub(crate) fn wrong_length(
    f: &mut fmt::Formatter<'_>,
    found: usize,
    expected: &[usize],
) -> fmt::Result {
    write!(f, "length is {}, expected ", Bytes(found))?;
    for (i, n) in expected.iter().enumerate() {
        let sep = match i {
            0 => "",
            _ if i + 1 == expected.len() => " or ",
            _ => ", ",
        };
        write!(f, "{sep}{n}")?;
    }
    Ok(())
}

/// The wording of a text shorter than the least its format takes (a
/// CouchDB `utc_id`): "length is 4 bytes, expected at least 14".
#[cfg(feature = "couch")]
pub(crate) fn too_short(f: &mut fmt::Formatter<'_>, found: usize, min: usize) -> fmt::Result {
    write!(f, "length is {}, expected at least {min}", Bytes(found))
}

/// The one wording of a caller's buffer too short for the text:
/// "buffer of 4 bytes is too small, 12 needed".
pub(crate) fn buffer_too_small(
    f: &mut fmt::Formatter<'_>,
    needed: usize,
    found: usize,
) -> fmt::Result {
    write!(f, "buffer of {found} bytes is too small, {needed} needed")
}

/// The one wording of a bad byte, for every parse error of the crate:
/// "invalid byte 'x' at index 3 (expected ...)", `0x0a` for a byte that
/// does not print.
pub(crate) fn invalid_byte(
    f: &mut fmt::Formatter<'_>,
    index: usize,
    byte: u8,
    expected: &str,
) -> fmt::Result {
    write!(
        f,
        "invalid byte {} at index {index} (expected {expected})",
        Shown(byte)
    )
}

/// A byte in a message: `'x'` when printable, `0x0a` otherwise.
pub(crate) struct Shown(pub u8);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            b if b.is_ascii_graphic() => write!(f, "'{}'", b as char),
            b => write!(f, "0x{b:02x}"),
        }
    }
}
