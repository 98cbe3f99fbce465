//! Sequence values as text: fixed-width decimal (account numbers) and
//! fixed-width base62 in the kuuid alphabet (short keys that sort by
//! value as raw bytes, with no time in them).
//!
//! ```
//! use kuuid_sequence::render::{BASE62_LEN, decode_base62, encode_base62, encode_decimal};
//!
//! let mut buf = [0; 12];
//! assert_eq!(encode_decimal(42, 12, &mut buf)?, "000000000042");
//! let mut key = [0; BASE62_LEN];
//! let text = encode_base62(42, &mut key).to_owned();
//! assert_eq!(decode_base62(&text)?, 42);
//! # Ok::<(), kuuid_sequence::render::RenderError>(())
//! ```

use std::fmt;

use kuuid::engine::ALPHABET;

/// Digits of a `u64` in base62: 62^11 > 2^64.
///
/// ```
/// use kuuid_sequence::render::{BASE62_LEN, encode_base62};
/// assert_eq!(encode_base62(u64::MAX, &mut [0; BASE62_LEN]), "LygHa16AHYF");
/// assert_eq!(encode_base62(0, &mut [0; BASE62_LEN]), "00000000000");
/// ```
pub const BASE62_LEN: usize = 11;

/// Digits of the largest `u64` in decimal.
///
/// ```
/// use kuuid_sequence::render::{MAX_DECIMAL_WIDTH, encode_decimal};
/// let mut buf = [0; MAX_DECIMAL_WIDTH + 1];
/// assert_eq!(encode_decimal(u64::MAX, MAX_DECIMAL_WIDTH, &mut buf).unwrap().len(), 20);
/// assert!(encode_decimal(1, MAX_DECIMAL_WIDTH + 1, &mut buf).is_err());
/// ```
pub const MAX_DECIMAL_WIDTH: usize = 20;

/// Every decimal width, so that a wrong length names the one asked for as
/// the `&'static [usize]` every parse error's `Length` has.
static WIDTHS: [usize; MAX_DECIMAL_WIDTH + 1] = {
    let mut w = [0; MAX_DECIMAL_WIDTH + 1];
    let mut i = 0;
    while i <= MAX_DECIMAL_WIDTH {
        w[i] = i;
        i += 1;
    }
    w
};

/// Why a value could not be rendered or read back.
///
/// ```
/// use kuuid_sequence::render::{RenderError, decode_base62, encode_decimal};
/// let mut buf = [0; 3];
/// assert_eq!(encode_decimal(1000, 3, &mut buf), Err(RenderError::TooWide { value: 1000, width: 3 }));
/// assert!(matches!(decode_base62("0000000000-"), Err(RenderError::InvalidByte { index: 10, byte: b'-' })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenderError {
    /// The value needs more digits than the width allows.
    TooWide {
        /// The value.
        value: u64,
        /// The width asked for.
        width: usize,
    },
    /// A width of 0 or above 20 digits.
    Width(usize),
    /// Text of the wrong length.
    Length {
        /// The length asked for (the width, or [`BASE62_LEN`]).
        expected: &'static [usize],
        /// The length found.
        found: usize,
    },
    /// A byte outside the alphabet.
    InvalidByte {
        /// Its index in the text.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A caller's buffer shorter than the width.
    BufferTooSmall {
        /// Bytes needed.
        needed: usize,
        /// Bytes given.
        found: usize,
    },
    /// Base62 text above the largest `u64` (`LygHa16AHYF`).
    Overflow,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::TooWide { value, width } => {
                let s = if *width == 1 { "" } else { "s" };
                write!(f, "{value} does not fit in {width} decimal digit{s}")
            }
            RenderError::Width(w) => {
                write!(f, "width {w} is out of range (1..={MAX_DECIMAL_WIDTH})")
            }
            RenderError::Length { expected, found } => {
                // kuuid's wording of a wrong length and a bad byte.
                let s = if *found == 1 { "" } else { "s" };
                let expected: Vec<String> = expected.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "length is {found} byte{s}, expected {}",
                    expected.join(" or ")
                )
            }
            RenderError::InvalidByte { index, byte } => {
                let shown = if byte.is_ascii_graphic() {
                    format!("'{}'", *byte as char)
                } else {
                    format!("0x{byte:02x}")
                };
                write!(
                    f,
                    "invalid byte {shown} at index {index} (expected a digit of the alphabet)"
                )
            }
            RenderError::BufferTooSmall { needed, found } => {
                write!(f, "buffer of {found} bytes is too small, {needed} needed")
            }
            RenderError::Overflow => f.write_str("base62 value is above the largest u64"),
        }
    }
}

impl std::error::Error for RenderError {}

/// Writes `value` as exactly `width` decimal digits, zero-padded, into the
/// front of `buf` and returns them; fails if the value needs more digits
/// (an account number space is a promise) or `buf` is shorter than `width`.
///
/// ```
/// use kuuid_sequence::render::{RenderError, encode_decimal};
/// let mut buf = [0u8; 20];
/// assert_eq!(encode_decimal(42, 12, &mut buf)?, "000000000042");
/// assert_eq!(
///     encode_decimal(1_000_000_000_000, 12, &mut buf),
///     Err(RenderError::TooWide { value: 1_000_000_000_000, width: 12 })
/// );
/// # Ok::<(), RenderError>(())
/// ```
pub fn encode_decimal(value: u64, width: usize, buf: &mut [u8]) -> Result<&mut str, RenderError> {
    if width == 0 || width > MAX_DECIMAL_WIDTH {
        return Err(RenderError::Width(width));
    }
    if width < MAX_DECIMAL_WIDTH && value >= 10u64.pow(width as u32) {
        return Err(RenderError::TooWide { value, width });
    }
    let found = buf.len();
    let Some(out) = buf.get_mut(..width) else {
        return Err(RenderError::BufferTooSmall {
            needed: width,
            found,
        });
    };
    let mut v = value;
    for b in out.iter_mut().rev() {
        *b = b'0' + (v % 10) as u8;
        v /= 10;
    }
    Ok(std::str::from_utf8_mut(out).expect("ASCII digits"))
}

/// Reads exactly `width` decimal digits back.
///
/// ```
/// use kuuid_sequence::render::decode_decimal;
/// assert_eq!(decode_decimal("000000000042", 12)?, 42);
/// assert!(decode_decimal("42", 12).is_err());
/// assert!(decode_decimal("00000000004x", 12).is_err());
/// # Ok::<(), kuuid_sequence::render::RenderError>(())
/// ```
pub fn decode_decimal(text: &str, width: usize) -> Result<u64, RenderError> {
    if width == 0 || width > MAX_DECIMAL_WIDTH {
        return Err(RenderError::Width(width));
    }
    let bytes = text.as_bytes();
    if bytes.len() != width {
        return Err(RenderError::Length {
            expected: std::slice::from_ref(&WIDTHS[width]),
            found: bytes.len(),
        });
    }
    let mut v: u64 = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        if !byte.is_ascii_digit() {
            return Err(RenderError::InvalidByte { index, byte });
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(byte - b'0')))
            .ok_or(RenderError::Overflow)?;
    }
    Ok(v)
}

/// `value` as 11 base62 digits in the kuuid alphabet, zero-padded: byte
/// order is numeric order.
///
/// ```
/// use kuuid_sequence::render::encode_base62;
/// let mut buf = [0u8; 11];
/// assert_eq!(encode_base62(61, &mut buf), "0000000000z");
/// assert_eq!(encode_base62(u64::MAX, &mut buf), "LygHa16AHYF");
/// ```
pub fn encode_base62(value: u64, buf: &mut [u8; BASE62_LEN]) -> &mut str {
    let mut v = value;
    for b in buf.iter_mut().rev() {
        *b = ALPHABET[(v % 62) as usize];
        v /= 62;
    }
    std::str::from_utf8_mut(buf).expect("base62 ASCII")
}

/// Reads 11 base62 digits back.
///
/// ```
/// use kuuid_sequence::render::{RenderError, decode_base62};
/// assert_eq!(decode_base62("0000000000z")?, 61);
/// assert_eq!(decode_base62("LygHa16AHYG"), Err(RenderError::Overflow));
/// # Ok::<(), RenderError>(())
/// ```
pub fn decode_base62(text: &str) -> Result<u64, RenderError> {
    let bytes = text.as_bytes();
    if bytes.len() != BASE62_LEN {
        return Err(RenderError::Length {
            expected: &[BASE62_LEN],
            found: bytes.len(),
        });
    }
    let mut v: u64 = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        let digit = match byte {
            b'0'..=b'9' => byte - b'0',
            b'A'..=b'Z' => byte - b'A' + 10,
            b'a'..=b'z' => byte - b'a' + 36,
            _ => return Err(RenderError::InvalidByte { index, byte }),
        };
        v = v
            .checked_mul(62)
            .and_then(|v| v.checked_add(u64::from(digit)))
            .ok_or(RenderError::Overflow)?;
    }
    Ok(v)
}
