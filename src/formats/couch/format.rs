//! CouchDB's `[uuids] format`: the three texts of a 128-bit value that
//! `uuid_v4` and `uuid_v7` ids take, and the hex text of the others.

use std::fmt;
use std::str::FromStr;

use super::Error;
use crate::engine::{base36, hex};

/// One of CouchDB's `[uuids] format` values: how `uuid_v4` and `uuid_v7`
/// show their 128 bits.
///
/// ```
/// use kuuid::couch::Format;
/// let mut s = String::new();
/// Format::Base36.encode_into(u128::MAX, &mut s);
/// assert_eq!(s, "f5lxx1zz5pnorynqglhzmsp33");
/// assert_eq!("rfc9562".parse::<Format>()?.len(), 36);
/// # Ok::<(), kuuid::couch::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// 32 lowercase hex characters (CouchDB's default).
    #[default]
    Base16,
    /// 36 characters, lowercase hex with dashes (8-4-4-4-12).
    Rfc9562,
    /// 25 characters of `0-9a-z`, left-padded with `0`.
    Base36,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Base16, Format::Rfc9562, Format::Base36];

    /// The name in CouchDB's configuration.
    ///
    /// ```
    /// assert_eq!(kuuid::couch::Format::Base36.name(), "base_36");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Format::Base16 => "base_16",
            Format::Rfc9562 => "rfc9562",
            Format::Base36 => "base_36",
        }
    }

    /// Characters of every text in this format.
    ///
    /// ```
    /// assert_eq!(kuuid::couch::Format::Base16.len(), 32);
    /// ```
    #[allow(clippy::len_without_is_empty)] // a fixed width, never empty
    pub const fn len(self) -> usize {
        match self {
            Format::Base16 => 32,
            Format::Rfc9562 => 36,
            Format::Base36 => base36::LEN,
        }
    }

    /// Appends the text of a 128-bit value (big-endian) to `out`.
    ///
    /// ```
    /// use kuuid::couch::Format;
    /// let mut s = String::new();
    /// Format::Rfc9562.encode_into(kuuid::v7().to_u128(), &mut s);
    /// assert_eq!(&s[14..15], "7");
    /// ```
    pub fn encode_into(self, value: u128, out: &mut String) {
        match self {
            Format::Base16 => push_ascii(&hex::simple(value), out),
            Format::Rfc9562 => push_ascii(&hex::hyphenated(value), out),
            Format::Base36 => {
                let mut buf = [0u8; base36::LEN];
                base36::encode(value, &mut buf);
                push_ascii(&buf, out);
            }
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| Error::UnknownFormat {
                found: s.to_owned(),
            })
    }
}

/// Appends text the encoders made (ASCII, so checked in one pass).
///
/// The length is a constant so that the copy is a few moves, not a call
/// to `memmove`: `from_utf8` is opaque to the compiler, and `get(..N)`
/// gives it the length back (the check is one compare).
#[inline]
pub(super) fn push_ascii<const N: usize>(text: &[u8; N], out: &mut String) {
    let text = std::str::from_utf8(text).expect("encoders write ASCII");
    out.push_str(text.get(..N).expect("from_utf8 keeps the length"));
}
