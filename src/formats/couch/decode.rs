//! Reading CouchDB ids back: their fields by algorithm (why a text is not
//! one: `error.rs`).

use super::Algorithm;
use super::ParseError;
use super::format::Format;
use crate::engine::{base36, hex};
use crate::formats::uuid_layout::{self, NotThisUuid};
use crate::time::Timestamp;

/// The fields of a CouchDB id (see [`decode`]).
///
/// ```
/// use kuuid::couch::{Algorithm, Decoded, Format};
/// let d = kuuid::couch::decode("060223bb23d2f0frog", Algorithm::UtcId, Format::Base16)?;
/// assert_eq!(d, Decoded::Utc { micros: 0x060223bb23d2f0, suffix: "frog" });
/// assert_eq!(d.timestamp().unwrap().to_string(), "2023-08-05T02:25:47.062Z");
/// # Ok::<(), kuuid::couch::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decoded<'a> {
    /// `random`: the 16 bytes.
    Random {
        /// The bytes.
        bytes: [u8; 16],
    },
    /// `sequential`: the 13-byte prefix and the 24-bit counter.
    Sequential {
        /// The prefix.
        prefix: [u8; 13],
        /// The counter.
        counter: u32,
    },
    /// `utc_random` and `utc_id`: microseconds since 1970 and the rest of
    /// the text (18 hex for `utc_random`).
    Utc {
        /// Microseconds since 1970.
        micros: u64,
        /// The text after the 14 hex digits.
        suffix: &'a str,
    },
    /// `uuid_v4` and `uuid_v7`: the 128-bit value (version and variant
    /// checked).
    Uuid {
        /// The value, big-endian.
        value: u128,
    },
}

impl Decoded<'_> {
    /// The time the id carries, to the millisecond (`utc_*` and `uuid_v7`).
    ///
    /// ```
    /// use kuuid::couch::{Algorithm, Format, Uuids};
    /// let ids = Uuids::new(Algorithm::UuidV7).format(Format::Base36).at(1_700_000_000_123u64)?;
    /// let id = ids.generate()?;
    /// assert_eq!(ids.decode(&id)?.timestamp().unwrap().as_millis(), 1_700_000_000_123);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn timestamp(&self) -> Option<Timestamp> {
        match *self {
            Decoded::Utc { micros, .. } => Some(Timestamp::from_millis(micros / 1000)),
            Decoded::Uuid { value } if (value >> 76) & 0xf == 7 => {
                Some(Timestamp::from_millis((value >> 80) as u64))
            }
            _ => None,
        }
    }
}

/// The fields of a CouchDB id of `algorithm` (`format` matters only for
/// `uuid_v4`/`uuid_v7`). Hex is read in either case.
///
/// ```
/// use kuuid::couch::{Algorithm, Decoded, Format, ParseError};
/// let d = kuuid::couch::decode("f5lxx1zz5pnorynqglhzmsp33", Algorithm::UuidV4, Format::Base36);
/// assert_eq!(d, Err(ParseError::Version { found: 0xf, expected: 4 }));
/// let v4 = "8ae2f7a1-4c02-4b8f-9d2e-1f0b3c5a7e99";
/// assert!(matches!(kuuid::couch::decode(v4, Algorithm::UuidV4, Format::Rfc9562),
///                  Ok(Decoded::Uuid { .. })));
/// ```
pub fn decode(text: &str, algorithm: Algorithm, format: Format) -> Result<Decoded<'_>, ParseError> {
    let bytes = text.as_bytes();
    match algorithm {
        Algorithm::Random | Algorithm::Sequential => {
            let mut out = [0u8; 16];
            if bytes.len() != 32 {
                return Err(ParseError::Length {
                    expected: &[32],
                    found: bytes.len(),
                });
            }
            hex::decode(bytes, &[], &mut out).map_err(invalid)?;
            Ok(if algorithm == Algorithm::Random {
                Decoded::Random { bytes: out }
            } else {
                let mut prefix = [0u8; 13];
                prefix.copy_from_slice(&out[..13]);
                Decoded::Sequential {
                    prefix,
                    counter: u32::from_be_bytes([0, out[13], out[14], out[15]]),
                }
            })
        }
        Algorithm::UtcRandom | Algorithm::UtcId => {
            let found = bytes.len();
            if algorithm == Algorithm::UtcRandom && found != 32 {
                return Err(ParseError::Length {
                    expected: &[32],
                    found,
                });
            }
            if found < 14 {
                return Err(ParseError::TooShort { min: 14, found });
            }
            let mut micros = [0u8; 8];
            hex::decode(&bytes[..14], &[], &mut micros[1..]).map_err(invalid)?;
            if algorithm == Algorithm::UtcRandom {
                let mut random = [0u8; 9];
                hex::decode(&bytes[14..], &[], &mut random).map_err(|(i, b)| {
                    ParseError::InvalidByte {
                        index: i + 14,
                        byte: b,
                    }
                })?;
            }
            Ok(Decoded::Utc {
                micros: u64::from_be_bytes(micros),
                // Bytes 0..14 are ASCII hex, so 14 is a char boundary.
                suffix: &text[14..],
            })
        }
        Algorithm::UuidV4 | Algorithm::UuidV7 => {
            let value = value(format, text)?;
            let expected = if algorithm == Algorithm::UuidV4 { 4 } else { 7 };
            match uuid_layout::check(value, expected) {
                Ok(()) => Ok(Decoded::Uuid { value }),
                Err(NotThisUuid::Version(found)) => Err(ParseError::Version { found, expected }),
                Err(NotThisUuid::Variant(found)) => Err(ParseError::Variant { found }),
            }
        }
    }
}

/// The 128-bit value of a text in `format` (hex in either case).
fn value(format: Format, text: &str) -> Result<u128, ParseError> {
    let bytes = text.as_bytes();
    if bytes.len() != format.len() {
        return Err(ParseError::Length {
            expected: format.lengths(),
            found: bytes.len(),
        });
    }
    match format {
        Format::Base16 | Format::Rfc9562 => {
            let dashes: &[usize] = if format == Format::Rfc9562 {
                &[8, 13, 18, 23]
            } else {
                &[]
            };
            let mut out = [0u8; 16];
            hex::decode(bytes, dashes, &mut out).map_err(invalid)?;
            Ok(u128::from_be_bytes(out))
        }
        Format::Base36 => {
            let text: &[u8; base36::LEN] = bytes.try_into().expect("length checked");
            base36::decode(text).map_err(|e| match e {
                base36::DecodeError::InvalidByte(index, byte) => {
                    ParseError::InvalidByte { index, byte }
                }
                base36::DecodeError::Overflow => ParseError::Overflow,
            })
        }
    }
}

fn invalid((index, byte): (usize, u8)) -> ParseError {
    ParseError::InvalidByte { index, byte }
}
