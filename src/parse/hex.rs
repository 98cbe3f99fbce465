//! The parse errors of the hex formats, UUIDv7 and ObjectId: one shape
//! (`Length`, `InvalidByte`, then what the format adds), worded like
//! every other parse error of the crate (`wrong_length`, `invalid_byte`).

use std::fmt;

use super::{invalid_byte, wrong_length};

/// Why text is not a UUIDv7.
///
/// ```
/// use kuuid::{Uuid7, UuidParseError};
/// assert_eq!("017f22e2-79b0-4cc3-98c4-dc0c0c07398f".parse::<Uuid7>(),
///            Err(UuidParseError::Version { found: 4 }));
/// assert_eq!("017f22e279b07cc3".parse::<Uuid7>(),
///            Err(UuidParseError::Length { expected: &[36, 32, 38, 45], found: 16 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UuidParseError {
    /// Not 36 (with dashes), 32 (without), 38 (braced) or 45 (a URN) characters (or, from a slice, not 16 bytes).
    Length {
        /// The lengths a UUID's text takes, `&[36, 32, 38, 45]`; a slice's, `&[16]`.
        expected: &'static [usize],
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
            UuidParseError::Length { expected, found } => wrong_length(f, found, expected),
            UuidParseError::InvalidByte { index, byte } => {
                invalid_byte(f, index, byte, "a hex digit, or a dash at 8, 13, 18 and 23")
            }
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

/// Why text is not an ObjectId.
///
/// ```
/// use kuuid::{ObjectId, ObjectIdParseError};
/// assert_eq!("abc".parse::<ObjectId>(), Err(ObjectIdParseError::Length { expected: &[24], found: 3 }));
/// assert_eq!("zz0000000000000000000000".parse::<ObjectId>(),
///            Err(ObjectIdParseError::InvalidByte { index: 0, byte: b'z' }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ObjectIdParseError {
    /// Not 24 characters.
    Length {
        /// The length an ObjectId's text takes: `&[24]`.
        expected: &'static [usize],
        /// The length found.
        found: usize,
    },
    /// A byte that is not a hex digit.
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
}

impl fmt::Display for ObjectIdParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ObjectIdParseError::Length { expected, found } => wrong_length(f, found, expected),
            ObjectIdParseError::InvalidByte { index, byte } => {
                invalid_byte(f, index, byte, "a hex digit")
            }
        }
    }
}

impl std::error::Error for ObjectIdParseError {}
