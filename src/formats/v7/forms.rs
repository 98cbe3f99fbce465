//! What a user of the uuid crate expects of a UUID value beyond its two
//! texts: the braced (`{...}`) and URN (`urn:uuid:...`) texts as adapters,
//! hex formatting, bytes in and out as slices, and a default.

use std::fmt;
use std::str::FromStr;

use super::Uuid7;
use crate::parse::UuidParseError;

/// A [`Uuid7`] as braced text, `{` + 36 characters + `}` (Microsoft's
/// GUID form), from [`Uuid7::braced`].
///
/// ```
/// let id = kuuid::v7();
/// let text = id.braced().to_string();
/// assert_eq!(text, format!("{{{id}}}"));
/// assert_eq!(text.parse::<kuuid::Braced>()?, id.braced());
/// # Ok::<(), kuuid::UuidParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Braced(pub Uuid7);

/// A [`Uuid7`] as a URN, `urn:uuid:` + 36 characters (RFC 9562), from
/// [`Uuid7::urn`].
///
/// ```
/// let id = kuuid::v7();
/// let text = id.urn().to_string();
/// assert_eq!(text, format!("urn:uuid:{id}"));
/// assert_eq!(text.parse::<kuuid::Urn>()?, id.urn());
/// # Ok::<(), kuuid::UuidParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Urn(pub Uuid7);

impl Uuid7 {
    /// The id as braced text (`{...}`, 38 characters).
    ///
    /// ```
    /// let id = kuuid::Uuid7::MIN;
    /// assert_eq!(id.braced().to_string(), "{00000000-0000-7000-8000-000000000000}");
    /// ```
    pub const fn braced(self) -> Braced {
        Braced(self)
    }

    /// The id as a URN (`urn:uuid:...`, 45 characters).
    ///
    /// ```
    /// let id = kuuid::Uuid7::MIN;
    /// assert_eq!(id.urn().to_string(), "urn:uuid:00000000-0000-7000-8000-000000000000");
    /// ```
    pub const fn urn(self) -> Urn {
        Urn(self)
    }

    /// The id from 16 bytes in a slice, as [`from_bytes`](Self::from_bytes)
    /// after checking the length (uuid's `from_slice`).
    ///
    /// ```
    /// use kuuid::{Uuid7, UuidParseError};
    /// let id = kuuid::v7();
    /// assert_eq!(Uuid7::from_slice(&id.as_bytes()[..]), Ok(id));
    /// assert_eq!(Uuid7::from_slice(&[0; 15]), Err(UuidParseError::Length { expected: &[16], found: 15 }));
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, UuidParseError> {
        match <[u8; 16]>::try_from(bytes) {
            Ok(raw) => Uuid7::from_bytes(raw),
            Err(_) => Err(UuidParseError::Length {
                expected: &[16],
                found: bytes.len(),
            }),
        }
    }
}

/// [`Uuid7::MIN`]: the least id, version 7 and the variant set, every other
/// bit 0 (the nil UUID is not a UUIDv7).
///
/// ```
/// assert_eq!(kuuid::Uuid7::default(), kuuid::Uuid7::MIN);
/// ```
impl Default for Uuid7 {
    fn default() -> Self {
        Uuid7::MIN
    }
}

/// The 16 bytes, big-endian (RFC 9562's order, the time first).
///
/// ```
/// let id = kuuid::v7();
/// let bytes: &[u8] = id.as_ref();
/// assert_eq!(bytes, id.as_bytes());
/// ```
impl AsRef<[u8]> for Uuid7 {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// [`Uuid7::from_slice`].
///
/// ```
/// let id = kuuid::v7();
/// assert_eq!(kuuid::Uuid7::try_from(&id.as_bytes()[..]), Ok(id));
/// assert!(kuuid::Uuid7::try_from(&[0u8; 16][..]).is_err()); // version 0
/// ```
impl TryFrom<&[u8]> for Uuid7 {
    type Error = UuidParseError;

    fn try_from(bytes: &[u8]) -> Result<Self, UuidParseError> {
        Uuid7::from_slice(bytes)
    }
}

/// The 36-character text in lower case, as `Display` (uuid's `{:x}`).
///
/// ```
/// let id = kuuid::v7();
/// assert_eq!(format!("{id:x}"), id.to_string());
/// ```
impl fmt::LowerHex for Uuid7 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The 36-character text in upper case (uuid's `{:X}`).
///
/// ```
/// let id = kuuid::Uuid7::MIN;
/// assert_eq!(format!("{id:X}"), "00000000-0000-7000-8000-000000000000");
/// let id = kuuid::v7();
/// assert_eq!(format!("{id:X}"), id.to_string().to_uppercase());
/// ```
impl fmt::UpperHex for Uuid7 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = self.hyphenated_bytes();
        text.make_ascii_uppercase();
        // Hex digits and dashes: ASCII.
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Display for Braced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", self.0)
    }
}

impl fmt::Display for Urn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "urn:uuid:{}", self.0)
    }
}

/// Any text [`Uuid7`]'s `FromStr` reads, braced or not.
impl FromStr for Braced {
    type Err = UuidParseError;

    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        s.parse().map(Braced)
    }
}

/// Any text [`Uuid7`]'s `FromStr` reads, a URN or not.
impl FromStr for Urn {
    type Err = UuidParseError;

    fn from_str(s: &str) -> Result<Self, UuidParseError> {
        s.parse().map(Urn)
    }
}

impl From<Braced> for Uuid7 {
    fn from(b: Braced) -> Self {
        b.0
    }
}

impl From<Urn> for Uuid7 {
    fn from(u: Urn) -> Self {
        u.0
    }
}
