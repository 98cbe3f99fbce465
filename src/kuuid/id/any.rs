//! [`AnyKuuid`]: an id whose number of random groups is known only at run
//! time.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::random::{RandomWords, words_of};
use super::{ANY_LEN, Id, MAX_GROUPS, MAX_LEN, encode_to, prefix_of, text};
use crate::engine::{GROUP_LEN, PREFIX_LEN};
use crate::error::Error;
use crate::kuuid::layout::{Layout, Prefix};
use crate::parse::{self, ParseError};
use crate::time::Timestamp;

/// An id whose number of random groups (1 to 4) is known only at run time:
/// what npm's `id({random: n})` returns, and what `kuuid inspect` reads.
///
/// ```
/// use kuuid::AnyKuuid;
/// let id: AnyKuuid = "001eVnWK000001".parse()?;
/// assert_eq!(id.groups(), 1);
/// assert_eq!(&*id.random_words(), &[1]);
/// assert!("001eVnWK00000".parse::<AnyKuuid>().is_err());
/// # Ok::<(), kuuid::ParseError>(())
/// ```
#[derive(Clone, Copy)]
pub struct AnyKuuid {
    bytes: [u8; MAX_LEN],
    len: u8,
}

impl AnyKuuid {
    /// Strictly parses 14, 20, 26 or 32 bytes of id text.
    ///
    /// ```
    /// assert_eq!(kuuid::AnyKuuid::parse_bytes(b"00000000000000")?.groups(), 1);
    /// # Ok::<(), kuuid::ParseError>(())
    /// ```
    pub fn parse_bytes(text: &[u8]) -> Result<Self, ParseError> {
        let n = text.len();
        if !ANY_LEN.contains(&n) {
            return Err(ParseError::Length {
                expected: ANY_LEN,
                found: n,
            });
        }
        let mut words = [0u32; MAX_GROUPS];
        parse::decode(text, &mut words[..(n - PREFIX_LEN) / GROUP_LEN])?;
        let mut bytes = [0u8; MAX_LEN];
        bytes[..n].copy_from_slice(text);
        Ok(AnyKuuid {
            bytes,
            len: n as u8,
        })
    }

    pub(crate) fn from_valid(text: &[u8]) -> Self {
        let mut bytes = [0u8; MAX_LEN];
        bytes[..text.len()].copy_from_slice(text);
        AnyKuuid {
            bytes,
            len: text.len() as u8,
        }
    }

    /// Number of random groups (1 to 4).
    ///
    /// ```
    /// assert_eq!(kuuid::AnyKuuid::from(kuuid::ids()).groups(), 2);
    /// ```
    pub fn groups(&self) -> usize {
        (self.len() - PREFIX_LEN) / GROUP_LEN
    }

    /// Length in bytes (14, 20, 26 or 32).
    ///
    /// ```
    /// assert_eq!(kuuid::AnyKuuid::from(kuuid::id()).len(), 32);
    /// ```
    #[allow(clippy::len_without_is_empty)] // an id is never empty
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The id as text.
    ///
    /// ```
    /// let id = kuuid::id();
    /// assert_eq!(kuuid::AnyKuuid::from(id).as_str(), id.as_str());
    /// ```
    pub fn as_str(&self) -> &str {
        text(self.as_bytes())
    }

    /// The id's ASCII bytes.
    ///
    /// ```
    /// assert_eq!(kuuid::AnyKuuid::from(kuuid::ids()).as_bytes().len(), 20);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len()]
    }

    /// Copies the text into a caller's buffer; fails if it is too short.
    ///
    /// ```
    /// let id = kuuid::AnyKuuid::from(kuuid::ids());
    /// let mut buf = [0u8; 20];
    /// assert_eq!(id.encode_to(&mut buf)?.len(), 20);
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn encode_to<'b>(&self, buf: &'b mut [u8]) -> Result<&'b mut str, Error> {
        encode_to(self.as_bytes(), buf)
    }

    /// The 8-character timestamp prefix.
    ///
    /// ```
    /// let id: kuuid::AnyKuuid = "zzzzzzzz000000".parse()?;
    /// assert_eq!(id.prefix().as_str(), "zzzzzzzz");
    /// # Ok::<(), kuuid::ParseError>(())
    /// ```
    pub fn prefix(&self) -> Prefix {
        prefix_of(self.as_bytes())
    }

    /// When the id was minted, under the layout it was minted with.
    ///
    /// ```
    /// let id: kuuid::AnyKuuid = "zzzzzzzz000000".parse()?;
    /// assert_eq!(id.timestamp(kuuid::Layout::SECONDS_REVERSE), kuuid::Timestamp::EPOCH);
    /// # Ok::<(), kuuid::ParseError>(())
    /// ```
    pub fn timestamp(&self, layout: Layout) -> Timestamp {
        self.prefix().timestamp(layout)
    }

    /// The random groups as numbers.
    ///
    /// ```
    /// let id: kuuid::AnyKuuid = "000000004gfFC3".parse()?;
    /// assert_eq!(&*id.random_words(), &[u32::MAX]);
    /// # Ok::<(), kuuid::ParseError>(())
    /// ```
    pub fn random_words(&self) -> RandomWords {
        words_of(self.as_bytes())
    }
}

impl<const LEN: usize> From<Id<LEN>> for AnyKuuid {
    fn from(id: Id<LEN>) -> Self {
        AnyKuuid::from_valid(&id.0)
    }
}

impl<const LEN: usize> TryFrom<AnyKuuid> for Id<LEN> {
    type Error = ParseError;

    /// Fails when the lengths differ.
    fn try_from(id: AnyKuuid) -> Result<Self, ParseError> {
        let bytes: [u8; LEN] = id.as_bytes().try_into().map_err(|_| ParseError::Length {
            expected: Self::EXPECTED,
            found: id.len(),
        })?;
        Ok(Id::from_valid(bytes))
    }
}

impl PartialEq for AnyKuuid {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for AnyKuuid {}

impl PartialOrd for AnyKuuid {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Byte order of the text, as CouchDB's `_all_docs` sorts `_id`.
impl Ord for AnyKuuid {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl Hash for AnyKuuid {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state)
    }
}

impl fmt::Display for AnyKuuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for AnyKuuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyKuuid({:?})", self.as_str())
    }
}

impl AsRef<str> for AnyKuuid {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl FromStr for AnyKuuid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse_bytes(s.as_bytes())
    }
}

impl TryFrom<&str> for AnyKuuid {
    type Error = ParseError;

    fn try_from(s: &str) -> Result<Self, ParseError> {
        Self::parse_bytes(s.as_bytes())
    }
}

impl TryFrom<&[u8]> for AnyKuuid {
    type Error = ParseError;

    fn try_from(b: &[u8]) -> Result<Self, ParseError> {
        Self::parse_bytes(b)
    }
}
