//! Why text is not a TypeID (or a TypeID prefix), worded like every other
//! parse error of the crate.

use std::fmt;

use super::{Shown, invalid_byte};

/// Why text is not a TypeID, or a prefix not a TypeID prefix (jetify's
/// spec, v0.3: `^([a-z]([a-z_]*[a-z])?)?$`, at most 63 characters, then
/// `_` and 26 characters of small-letter Crockford base32, the first `0`-`7`).
///
/// ```
/// use kuuid::{TypeId, TypeIdParseError};
/// assert_eq!("User_01h455vb4pex5vsknk084sn02q".parse::<TypeId>(),
///            Err(TypeIdParseError::PrefixByte { index: 0, byte: b'U' }));
/// assert_eq!("_01h455vb4pex5vsknk084sn02q".parse::<TypeId>(),
///            Err(TypeIdParseError::SeparatorWithoutPrefix));
/// assert_eq!("user_01H455VB4PEX5VSKNK084SN02Q".parse::<TypeId>(),
///            Err(TypeIdParseError::SuffixByte { index: 7, byte: b'H' }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TypeIdParseError {
    /// The prefix is longer than 63 characters.
    PrefixTooLong {
        /// Its length.
        found: usize,
    },
    /// A prefix byte outside `a-z` and `_`, or an underscore first or
    /// last.
    PrefixByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A separator `_` with no prefix before it (an empty prefix has no
    /// separator).
    SeparatorWithoutPrefix,
    /// The suffix is not 26 characters.
    SuffixLength {
        /// Its length.
        found: usize,
    },
    /// A suffix byte outside `0-9` and the small letters but `i`, `l`,
    /// `o`, `u` (capitals too: the spec's suffix is lowercase only).
    SuffixByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// The suffix starts above `7`: more than 128 bits.
    SuffixOverflow {
        /// The suffix's first character.
        first: u8,
    },
}

impl fmt::Display for TypeIdParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TypeIdParseError::PrefixTooLong { found } => {
                write!(f, "prefix is {found} characters, at most 63")
            }
            TypeIdParseError::PrefixByte { index, byte } => invalid_byte(
                f,
                index,
                byte,
                "a prefix of a-z and _, starting and ending with a letter",
            ),
            TypeIdParseError::SeparatorWithoutPrefix => {
                f.write_str("a separator '_' with an empty prefix (an empty prefix has none)")
            }
            TypeIdParseError::SuffixLength { found } => {
                write!(f, "suffix is {found} characters, expected 26")
            }
            TypeIdParseError::SuffixByte { index, byte } => invalid_byte(
                f,
                index,
                byte,
                "lowercase Crockford base32: 0-9 and a-z without i, l, o, u",
            ),
            TypeIdParseError::SuffixOverflow { first } => write!(
                f,
                "suffix starts with {}, above '7': more than 128 bits",
                Shown(first)
            ),
        }
    }
}

impl std::error::Error for TypeIdParseError {}
