//! A [`Ulid`] to and from the crate's other 128-bit values: UUIDv7 (both
//! start with 48 bits of milliseconds), integers, bytes.

use super::Ulid;
use crate::formats::v7::Uuid7;
use crate::parse::{UlidParseError, UuidParseError};

impl Ulid {
    /// The ULID of a 16-byte slice; [`UlidParseError::Length`] otherwise.
    ///
    /// ```
    /// let id = kuuid::ulid();
    /// assert_eq!(kuuid::Ulid::from_slice(&id.as_bytes()[..]), Ok(id));
    /// assert!(kuuid::Ulid::from_slice(&[0; 15]).is_err());
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, UlidParseError> {
        match <[u8; 16]>::try_from(bytes) {
            Ok(b) => Ok(Ulid::from_bytes(b)),
            Err(_) => Err(UlidParseError::Length {
                expected: &[16],
                found: bytes.len(),
            }),
        }
    }
}

impl From<Uuid7> for Ulid {
    /// The same 16 bytes: a UUIDv7's millisecond is the ULID's, its version
    /// and variant bits become 6 of the 80 random ones.
    ///
    /// ```
    /// let v7 = kuuid::v7();
    /// let id = kuuid::Ulid::from(v7);
    /// assert_eq!(id.as_bytes(), v7.as_bytes());
    /// assert_eq!(id.timestamp(), v7.timestamp());
    /// ```
    fn from(id: Uuid7) -> Self {
        Ulid::from_bytes(*id.as_bytes())
    }
}

impl TryFrom<Ulid> for Uuid7 {
    type Error = UuidParseError;

    /// The same 16 bytes, where they are a UUIDv7 (version 7, variant
    /// `10`): a ULID minted as a ULID is one only by chance (1 in 64).
    ///
    /// ```
    /// let v7 = kuuid::v7();
    /// assert_eq!(kuuid::Uuid7::try_from(kuuid::Ulid::from(v7)), Ok(v7));
    /// assert!(kuuid::Uuid7::try_from(kuuid::Ulid::MIN).is_err());
    /// ```
    fn try_from(id: Ulid) -> Result<Self, UuidParseError> {
        Uuid7::from_bytes(*id.as_bytes())
    }
}

impl From<u128> for Ulid {
    /// ```
    /// assert_eq!(kuuid::Ulid::from(0u128), kuuid::Ulid::MIN);
    /// ```
    fn from(v: u128) -> Self {
        Ulid::from_u128(v)
    }
}

impl From<Ulid> for u128 {
    /// ```
    /// assert_eq!(u128::from(kuuid::Ulid::MAX), u128::MAX);
    /// ```
    fn from(id: Ulid) -> u128 {
        id.to_u128()
    }
}

impl From<[u8; 16]> for Ulid {
    /// ```
    /// assert_eq!(kuuid::Ulid::from([0xff; 16]), kuuid::Ulid::MAX);
    /// ```
    fn from(b: [u8; 16]) -> Self {
        Ulid::from_bytes(b)
    }
}

impl From<Ulid> for [u8; 16] {
    /// ```
    /// assert_eq!(<[u8; 16]>::from(kuuid::Ulid::MIN), [0; 16]);
    /// ```
    fn from(id: Ulid) -> [u8; 16] {
        *id.as_bytes()
    }
}

impl TryFrom<&[u8]> for Ulid {
    type Error = UlidParseError;

    /// As [`Ulid::from_slice`].
    ///
    /// ```
    /// assert!(kuuid::Ulid::try_from(&[0u8; 16][..]).is_ok());
    /// ```
    fn try_from(bytes: &[u8]) -> Result<Self, UlidParseError> {
        Ulid::from_slice(bytes)
    }
}

impl AsRef<[u8]> for Ulid {
    /// ```
    /// let id = kuuid::ulid();
    /// let bytes: &[u8] = id.as_ref();
    /// assert_eq!(bytes.len(), 16);
    /// ```
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}
