//! Why text is not a KSUID, worded like every other parse error of the
//! crate.

use std::fmt;

use super::{invalid_byte, wrong_length};

/// Why text is not a KSUID.
///
/// ```
/// use kuuid::{Ksuid, KsuidParseError};
/// assert_eq!("0ujtsYcgvSTl8PAuAdqWYSMnLO".parse::<Ksuid>(),
///            Err(KsuidParseError::Length { expected: &[27], found: 26 }));
/// assert_eq!("aWgEPTl1tmebfsQzFP4bxwgy80W".parse::<Ksuid>(),
///            Err(KsuidParseError::Overflow));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KsuidParseError {
    /// Not 27 characters (or, from a slice, not 20 bytes).
    Length {
        /// The length a KSUID's text takes, `&[27]`; a slice's, `&[20]`.
        expected: &'static [usize],
        /// The length found.
        found: usize,
    },
    /// A byte outside `0-9A-Za-z`.
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// The text spells more than 160 bits: it sorts above
    /// `aWgEPTl1tmebfsQzFP4bxwgy80V`, the largest KSUID.
    Overflow,
}

impl fmt::Display for KsuidParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            KsuidParseError::Length { expected, found } => wrong_length(f, found, expected),
            KsuidParseError::InvalidByte { index, byte } => {
                invalid_byte(f, index, byte, "0-9, A-Z or a-z")
            }
            KsuidParseError::Overflow => f.write_str(
                "above aWgEPTl1tmebfsQzFP4bxwgy80V, the largest KSUID: more than 160 bits",
            ),
        }
    }
}

impl std::error::Error for KsuidParseError {}
