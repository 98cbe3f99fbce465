//! UUIDv7 text: the parse error, and `FromStr` for both texts.

use std::fmt;
use std::str::FromStr;

use super::{Simple, Uuid7};
use crate::engine::hex;
use crate::parse::Bytes;

/// Why text is not a UUIDv7.
///
/// ```
/// use kuuid::{Uuid7, UuidParseError};
/// assert_eq!("017f22e2-79b0-4cc3-98c4-dc0c0c07398f".parse::<Uuid7>(),
///            Err(UuidParseError::Version { found: 4 }));
/// assert_eq!("017f22e279b07cc3".parse::<Uuid7>(),
///            Err(UuidParseError::Length { found: 16 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UuidParseError {
    /// Neither 36 (with dashes) nor 32 (without) characters.
    Length {
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
            UuidParseError::Length { found } => {
                write!(f, "length is {}, expected 36 or 32", Bytes(found))
            }
            UuidParseError::InvalidByte { index, byte } if byte.is_ascii_graphic() => write!(
                f,
                "invalid byte {:?} at index {index} (expected a hex digit, or a dash at 8, 13, 18 and 23)",
                byte as char
            ),
            UuidParseError::InvalidByte { index, byte } => write!(
                f,
                "invalid byte 0x{byte:02x} at index {index} (expected a hex digit)"
            ),
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

impl FromStr for Uuid7 {
    type Err = UuidParseError;

    /// Parses the 36-character RFC 9562 text or the 32-character one (hex
    /// in either case), then checks version and variant.
    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        Uuid7::parse_ascii(s.as_bytes())
    }
}

impl Uuid7 {
    /// [`FromStr`] on bytes that need not be UTF-8 (serde's byte strings).
    pub(crate) fn parse_ascii(text: &[u8]) -> Result<Self, UuidParseError> {
        let dashed = match text.len() {
            36 => true,
            32 => false,
            found => return Err(UuidParseError::Length { found }),
        };
        let dashes: &[usize] = if dashed { &[8, 13, 18, 23] } else { &[] };
        let mut bytes = [0u8; 16];
        hex::decode(text, dashes, &mut bytes)
            .map_err(|(index, byte)| UuidParseError::InvalidByte { index, byte })?;
        Uuid7::from_bytes(bytes)
    }
}

impl FromStr for Simple {
    type Err = UuidParseError;

    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        s.parse().map(Simple)
    }
}
