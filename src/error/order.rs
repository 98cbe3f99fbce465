//! Why a string is not an order key, and why no key fits between two: the
//! errors alone, below everything else in `order`, so that the crate's
//! umbrella error can hold them without importing the key code.

use std::fmt;

/// Why a string is not an order key.
///
/// ```
/// use kuuid::order::{OrderKey, OrderKeyError};
///
/// assert_eq!("a0 ".parse::<OrderKey>(), Err(OrderKeyError::InvalidByte { index: 2, byte: b' ' }));
/// assert_eq!(
///     "a0V0".parse::<OrderKey>().unwrap_err().to_string(),
///     "the fraction ends in '0' at byte 3 (a key never ends in a zero digit)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OrderKeyError {
    /// The empty string.
    Empty,
    /// The first byte is not a letter (`a`-`z` or `A`-`Z`).
    Head {
        /// The byte found.
        byte: u8,
    },
    /// Shorter than the integer part its head letter announces.
    Short {
        /// The head letter.
        head: char,
        /// The integer part's length.
        needed: usize,
        /// The key's length.
        found: usize,
    },
    /// A byte after the head that is not a base62 digit.
    InvalidByte {
        /// Its index in the key.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// The fraction ends in `0` (the same position has a shorter spelling).
    TrailingZero {
        /// The position of the last byte.
        index: usize,
    },
    /// `A` and 26 zeros, the smallest integer, which nothing fits before.
    Smallest,
}

impl fmt::Display for OrderKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OrderKeyError::Empty => f.write_str("the key is empty"),
            OrderKeyError::Head { byte } => write!(
                f,
                "the first byte {} is not a head letter (a-z or A-Z)",
                crate::parse::Shown(byte)
            ),
            OrderKeyError::Short {
                head,
                needed,
                found,
            } => write!(
                f,
                "head '{head}' starts an integer part of {needed} bytes but the key has {found}"
            ),
            OrderKeyError::InvalidByte { index, byte } => {
                crate::parse::invalid_byte(f, index, byte, "0-9, A-Z or a-z")
            }
            OrderKeyError::TrailingZero { index } => write!(
                f,
                "the fraction ends in '0' at byte {index} (a key never ends in a zero digit)"
            ),
            OrderKeyError::Smallest => f.write_str(
                "A followed by 26 zeros is the smallest integer, which no key fits before",
            ),
        }
    }
}

impl std::error::Error for OrderKeyError {}

/// Why no key could be made between two bounds.
///
/// ```
/// use kuuid::order::{OrderError, OrderKeyError, key_between};
///
/// let err = key_between(Some("a1"), Some("a0")).unwrap_err();
/// assert_eq!(err, OrderError::NotAscending);
/// let err = key_between(Some("a0 "), None).unwrap_err();
/// assert_eq!(err, OrderError::Lower(OrderKeyError::InvalidByte { index: 2, byte: b' ' }));
/// assert_eq!(err.to_string(), "lower key: invalid byte 0x20 at index 2 (expected 0-9, A-Z or a-z)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OrderError {
    /// The lower bound is not a key.
    Lower(OrderKeyError),
    /// The upper bound is not a key.
    Upper(OrderKeyError),
    /// The lower bound is not below the upper (npm swaps them; we refuse,
    /// since a caller who passes them reversed has mixed up the neighbours).
    NotAscending,
    /// More random bits than the jitter takes (at most 64).
    JitterBits {
        /// The number asked for.
        found: u32,
    },
    /// More keys than one call makes (at most 2^40).
    TooMany {
        /// The number asked for.
        found: u64,
    },
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::Lower(e) => write!(f, "lower key: {e}"),
            OrderError::Upper(e) => write!(f, "upper key: {e}"),
            OrderError::NotAscending => f.write_str("the lower key is not below the upper key"),
            OrderError::JitterBits { found } => {
                write!(f, "jitter takes 0 to 64 random bits, got {found}")
            }
            OrderError::TooMany { found } => {
                write!(f, "at most 2^40 keys a call, asked for {found}")
            }
        }
    }
}

/// Display is the whole message; `source` gives only what it did not
/// print (see [`crate::Error`]).
impl std::error::Error for OrderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OrderError::Lower(e) | OrderError::Upper(e) => e.source(),
            _ => None,
        }
    }
}
