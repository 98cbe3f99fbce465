//! Why text is not a ULID, worded like every other parse error of the
//! crate.

use std::fmt;

use super::{Shown, invalid_byte, wrong_length};

/// Why text is not a ULID.
///
/// ```
/// use kuuid::{Ulid, UlidParseError};
/// assert_eq!("01ARZ3NDEKTSV4RRFFQ69G5FA".parse::<Ulid>(),
///            Err(UlidParseError::Length { expected: &[26], found: 25 }));
/// // Crockford's aliases are not read (as npm `ulid` and the `ulid` crate).
/// assert_eq!("01ARZ3NDEKTSV4RRFFQ69G5FAL".parse::<Ulid>(),
///            Err(UlidParseError::InvalidByte { index: 25, byte: b'L' }));
/// assert_eq!("81ARZ3NDEKTSV4RRFFQ69G5FAV".parse::<Ulid>(),
///            Err(UlidParseError::Overflow { first: b'8' }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UlidParseError {
    /// Not 26 characters (or, from a slice, not 16 bytes).
    Length {
        /// The length a ULID's text takes, `&[26]`; a slice's, `&[16]`.
        expected: &'static [usize],
        /// The length found.
        found: usize,
    },
    /// A byte outside Crockford's base32 (`0-9`, and the letters but
    /// `I`, `L`, `O` and `U`, in either case).
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// The first character is above `7`: the text spells more than 128
    /// bits (the largest ULID is `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`).
    Overflow {
        /// The first character.
        first: u8,
    },
}

impl fmt::Display for UlidParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UlidParseError::Length { expected, found } => wrong_length(f, found, expected),
            UlidParseError::InvalidByte { index, byte } => invalid_byte(
                f,
                index,
                byte,
                "Crockford base32: 0-9 and A-Z without I, L, O, U, in either case",
            ),
            UlidParseError::Overflow { first } => write!(
                f,
                "first character {} is above '7': more than 128 bits (the largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ)",
                Shown(first)
            ),
        }
    }
}

impl std::error::Error for UlidParseError {}
