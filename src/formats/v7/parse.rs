//! UUIDv7 text: `FromStr` for both texts (the error is in `crate::parse`).

use std::str::FromStr;

use super::{Simple, Uuid7};
use crate::engine::hex;
use crate::parse::UuidParseError;

impl FromStr for Uuid7 {
    type Err = UuidParseError;

    /// Parses the 36-character RFC 9562 text, the 32-character one, the
    /// braced one (`{` + 36 + `}`, 38) or the URN (`urn:uuid:` + 36, 45),
    /// as the uuid crate does (hex digits in either case, the URN's prefix
    /// too), then checks version and variant.
    ///
    /// ```
    /// let id = kuuid::v7();
    /// for text in [id.to_string(), id.simple().to_string(), id.braced().to_string(), id.urn().to_string()] {
    ///     assert_eq!(text.parse::<kuuid::Uuid7>()?, id);
    /// }
    /// # Ok::<(), kuuid::UuidParseError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        Uuid7::parse_ascii(s.as_bytes())
    }
}

impl Uuid7 {
    /// [`FromStr`] on bytes that need not be UTF-8 (serde's byte strings).
    pub(crate) fn parse_ascii(text: &[u8]) -> Result<Self, UuidParseError> {
        // The 36 characters inside, and where they start (for the index of
        // a byte at fault, which counts from the start of `text`).
        let (inner, at) = match (text.len(), text) {
            (32 | 36, _) => (text, 0),
            (38, [b'{', inner @ .., b'}']) => (inner, 1),
            (38, [b'{', ..]) => {
                return Err(UuidParseError::InvalidByte {
                    index: 37,
                    byte: text[37],
                });
            }
            (38, _) => {
                return Err(UuidParseError::InvalidByte {
                    index: 0,
                    byte: text[0],
                });
            }
            (45, _) => {
                let (prefix, inner) = text.split_at(9);
                match prefix
                    .iter()
                    .zip(b"urn:uuid:")
                    .position(|(a, b)| !a.eq_ignore_ascii_case(b))
                {
                    None => (inner, 9),
                    Some(index) => {
                        return Err(UuidParseError::InvalidByte {
                            index,
                            byte: text[index],
                        });
                    }
                }
            }
            _ => {
                return Err(UuidParseError::Length {
                    expected: &[36, 32, 38, 45],
                    found: text.len(),
                });
            }
        };
        let dashes: &[usize] = if inner.len() == 36 {
            &[8, 13, 18, 23]
        } else {
            &[]
        };
        let mut bytes = [0u8; 16];
        hex::decode(inner, dashes, &mut bytes).map_err(|(index, byte)| {
            UuidParseError::InvalidByte {
                index: index + at,
                byte,
            }
        })?;
        Uuid7::from_bytes(bytes)
    }
}

impl FromStr for Simple {
    type Err = UuidParseError;

    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        s.parse().map(Simple)
    }
}
