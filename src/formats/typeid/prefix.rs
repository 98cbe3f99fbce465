//! [`TypeIdPrefix`]: a TypeID's type prefix, checked once.

use std::fmt;

use crate::parse::TypeIdParseError;

/// A TypeID's type prefix, checked against the spec once so that minting
/// does not check it again: at most 63 characters of `a-z` and `_`,
/// starting and ending with a letter, or empty. `Copy`.
///
/// Stored padded with zero bytes, which sort before every prefix
/// character, so the derived order is the order of the TypeIDs' text.
///
/// ```
/// let p = kuuid::TypeIdPrefix::new("user_account")?;
/// assert_eq!(p.as_str(), "user_account");
/// assert!(kuuid::TypeIdPrefix::new("User").is_err());
/// assert!(kuuid::TypeIdPrefix::new("user_").is_err());
/// # Ok::<(), kuuid::TypeIdParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeIdPrefix {
    bytes: [u8; 63],
    len: u8,
}

impl TypeIdPrefix {
    /// The empty prefix: the text is the suffix alone.
    ///
    /// ```
    /// assert_eq!(kuuid::TypeIdPrefix::EMPTY.as_str(), "");
    /// ```
    pub const EMPTY: TypeIdPrefix = TypeIdPrefix {
        bytes: [0; 63],
        len: 0,
    };

    /// `prefix`, if the spec allows it.
    ///
    /// ```
    /// use kuuid::{TypeIdParseError, TypeIdPrefix};
    /// assert_eq!(TypeIdPrefix::new("pre.fix"),
    ///            Err(TypeIdParseError::PrefixByte { index: 3, byte: b'.' }));
    /// ```
    pub const fn new(prefix: &str) -> Result<Self, TypeIdParseError> {
        TypeIdPrefix::parse(prefix.as_bytes())
    }

    /// The prefix's bytes, checked (indexes in errors count from the
    /// text's start, where a prefix is).
    pub(super) const fn parse(p: &[u8]) -> Result<Self, TypeIdParseError> {
        if p.len() > 63 {
            return Err(TypeIdParseError::PrefixTooLong { found: p.len() });
        }
        let mut bytes = [0u8; 63];
        let mut i = 0;
        while i < p.len() {
            let b = p[i];
            let edge = i == 0 || i + 1 == p.len();
            if !(b.is_ascii_lowercase() || (b == b'_' && !edge)) {
                return Err(TypeIdParseError::PrefixByte { index: i, byte: b });
            }
            bytes[i] = b;
            i += 1;
        }
        Ok(TypeIdPrefix {
            bytes,
            len: p.len() as u8,
        })
    }

    /// The prefix.
    ///
    /// ```
    /// assert_eq!(kuuid::TypeIdPrefix::new("user")?.as_str(), "user");
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("checked ASCII")
    }
}

impl fmt::Display for TypeIdPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for TypeIdPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypeIdPrefix({:?})", self.as_str())
    }
}

impl std::str::FromStr for TypeIdPrefix {
    type Err = TypeIdParseError;

    /// ```
    /// let p: kuuid::TypeIdPrefix = "user".parse()?;
    /// assert_eq!(p.to_string(), "user");
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, TypeIdParseError> {
        TypeIdPrefix::new(s)
    }
}
