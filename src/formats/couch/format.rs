//! CouchDB's `[uuids] format`: the three texts of a 128-bit value that
//! `uuid_v4` and `uuid_v7` ids take, and the hex text of the others.

use std::fmt;

use crate::engine::{base36, hex};
use crate::error::couch::FORMAT_NAMES;

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
    ///
    /// ```
    /// use kuuid::couch::Format;
    ///
    /// for f in Format::ALL {
    ///     let mut text = String::new();
    ///     f.encode_into(u128::MAX, &mut text);
    ///     assert_eq!(text.len(), f.len(), "{}", f.name());
    /// }
    /// ```
    pub const ALL: [Format; 3] = [Format::Base16, Format::Rfc9562, Format::Base36];

    /// The name in CouchDB's configuration.
    ///
    /// ```
    /// assert_eq!(kuuid::couch::Format::Base36.name(), "base_36");
    /// ```
    pub const fn name(self) -> &'static str {
        FORMAT_NAMES[self as usize]
    }

    /// Characters of every text in this format.
    ///
    /// ```
    /// assert_eq!(kuuid::couch::Format::Base16.len(), 32);
    /// ```
    #[allow(clippy::len_without_is_empty)] // a fixed width, never empty
    pub const fn len(self) -> usize {
        self.lengths()[0]
    }

    /// [`Format::len`] as a parse error's `expected` holds it.
    pub(crate) const fn lengths(self) -> &'static [usize] {
        match self {
            Format::Base16 => &[32],
            Format::Rfc9562 => &[36],
            Format::Base36 => &[base36::LEN],
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
        self.encode_to(value, out);
    }

    /// [`Format::encode_into`] for either kind of buffer.
    pub(super) fn encode_to(self, value: u128, out: &mut impl TextOut) {
        match self {
            Format::Base16 => out.push_ascii(&hex::simple(value)),
            Format::Rfc9562 => out.push_ascii(&hex::hyphenated(value)),
            Format::Base36 => {
                let mut buf = [0u8; base36::LEN];
                base36::encode(value, &mut buf);
                out.push_ascii(&buf);
            }
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where an id's text goes: a `String`, whose text must be checked as
/// UTF-8 on the way in (safe code has no other way to make a `&str`), or a
/// byte buffer, which takes it as it is.
pub(super) trait TextOut {
    /// Appends text the encoders made (ASCII).
    fn push_ascii<const N: usize>(&mut self, text: &[u8; N]);
    /// Appends a `str`.
    fn push_str(&mut self, text: &str);
}

impl TextOut for String {
    /// Checked in one pass. The length is a constant so that the copy is
    /// a few moves, not a call to `memmove`: `from_utf8` is opaque to the
    /// compiler, and `get(..N)` gives it the length back (one compare).
    #[inline]
    fn push_ascii<const N: usize>(&mut self, text: &[u8; N]) {
        let text = std::str::from_utf8(text).expect("encoders write ASCII");
        String::push_str(self, text.get(..N).expect("from_utf8 keeps the length"));
    }

    #[inline]
    fn push_str(&mut self, text: &str) {
        String::push_str(self, text);
    }
}

impl TextOut for Vec<u8> {
    #[inline]
    fn push_ascii<const N: usize>(&mut self, text: &[u8; N]) {
        self.extend_from_slice(text);
    }

    #[inline]
    fn push_str(&mut self, text: &str) {
        self.extend_from_slice(text.as_bytes());
    }
}
