//! The random groups of an id: as numbers ([`RandomWords`]) and as text
//! without a prefix ([`RandomPart`], npm `rand()`).

use std::fmt;
use std::ops::Deref;

use super::{MAX_GROUPS, text, value_of};
use crate::engine::{GROUP_LEN, PREFIX_LEN};

/// The random groups of an id as numbers (1 to 4 of them); derefs to `[u32]`.
///
/// ```
/// let id: kuuid::Kuuid = "00000000000001000002000003000004".parse()?;
/// assert_eq!(&*id.random_words(), &[1, 2, 3, 4]);
/// # Ok::<(), kuuid::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RandomWords {
    words: [u32; MAX_GROUPS],
    len: u8,
}

impl Deref for RandomWords {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.words[..usize::from(self.len)]
    }
}

/// The random groups alone, without a prefix: npm `rand()` (24 characters
/// for 4 groups).
///
/// ```
/// let r = kuuid::rand();
/// assert_eq!(r.as_str().len(), 24);
/// assert_eq!(kuuid::try_rand(2)?.as_str().len(), 12);
/// # Ok::<(), kuuid::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RandomPart {
    bytes: [u8; GROUP_LEN * MAX_GROUPS],
    len: u8,
}

impl RandomPart {
    pub(crate) fn from_valid(text: &[u8]) -> Self {
        let mut bytes = [0u8; GROUP_LEN * MAX_GROUPS];
        bytes[..text.len()].copy_from_slice(text);
        RandomPart {
            bytes,
            len: text.len() as u8,
        }
    }

    /// The groups as text.
    ///
    /// ```
    /// assert!(kuuid::rand().as_str().bytes().all(|b| b.is_ascii_alphanumeric()));
    /// ```
    pub fn as_str(&self) -> &str {
        text(&self.bytes[..usize::from(self.len)])
    }
}

impl fmt::Display for RandomPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for RandomPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RandomPart({:?})", self.as_str())
    }
}

impl AsRef<str> for RandomPart {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

pub(super) fn words_of(text: &[u8]) -> RandomWords {
    let mut words = [0u32; MAX_GROUPS];
    let groups = text[PREFIX_LEN..].chunks_exact(GROUP_LEN);
    let len = groups.len();
    for (w, g) in words.iter_mut().zip(groups) {
        // Validated text: every group is <= u32::MAX.
        *w = value_of(g) as u32;
    }
    RandomWords {
        words,
        len: len as u8,
    }
}
