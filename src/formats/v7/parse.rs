//! UUIDv7 text: `FromStr` for both texts (the error is in `crate::parse`).

use std::str::FromStr;

use super::{Simple, Uuid7};
use crate::engine::hex;
use crate::parse::UuidParseError;

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
            found => {
                return Err(UuidParseError::Length {
                    expected: &[36, 32],
                    found,
                });
            }
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
