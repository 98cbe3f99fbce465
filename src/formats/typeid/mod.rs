//! TypeID (jetify's spec, v0.3): a type prefix, `_`, and a UUIDv7 as 26
//! characters of small-letter Crockford base32. Minted from the process's
//! UUIDv7 sequence, so ordered as [`kuuid::v7()`](crate::v7) is.

mod prefix;

use std::fmt;
use std::str::FromStr;

use crate::engine::base32::{self, Accept, Case, Fault};
use crate::formats::v7::{Uuid7, V7Generator};
use crate::parse::{TypeIdParseError, UuidParseError};
use crate::time::{IntoTimestamp, TimeError, Timestamp};

pub use prefix::TypeIdPrefix;

/// A TypeID: a [`TypeIdPrefix`] and a UUID (a UUIDv7 when minted here; the
/// spec lets users encode other UUIDs, so parsing reads any 128 bits and
/// [`uuid7`](Self::uuid7) says whether they are a UUIDv7).
///
/// `Copy` (80 bytes), `Ord` in the order of the text (the prefix first,
/// then the UUID: for one prefix, time order), `Hash`.
///
/// ```
/// let user = kuuid::TypeIdPrefix::new("user")?;
/// let a = kuuid::typeid(user);
/// let b = kuuid::typeid(user);
/// assert!(a < b && a.to_string() < b.to_string());
/// assert!(a.to_string().starts_with("user_0"));
/// let back: kuuid::TypeId = a.to_string().parse()?;
/// assert_eq!(back, a);
/// # Ok::<(), kuuid::TypeIdParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId {
    // Field order is the text's order (`TypeIdPrefix` says why).
    prefix: TypeIdPrefix,
    uuid: [u8; 16],
}

impl TypeId {
    /// The longest text: 63 characters of prefix, `_`, 26 of suffix.
    pub const MAX_LEN: usize = 90;

    /// The TypeID of `prefix` and a UUIDv7.
    ///
    /// ```
    /// let p = kuuid::TypeIdPrefix::new("order")?;
    /// let v7 = kuuid::v7();
    /// let id = kuuid::TypeId::new(p, v7);
    /// assert_eq!(id.uuid7(), Ok(v7));
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    pub const fn new(prefix: TypeIdPrefix, uuid: Uuid7) -> Self {
        TypeId {
            prefix,
            uuid: *uuid.as_bytes(),
        }
    }

    /// The TypeID of `prefix` and any 16 bytes (the spec's "other UUID
    /// variants ... provided by end users").
    ///
    /// ```
    /// let id = kuuid::TypeId::from_uuid_bytes(kuuid::TypeIdPrefix::EMPTY, [0; 16]);
    /// assert_eq!(id.to_string(), "00000000000000000000000000");
    /// ```
    pub const fn from_uuid_bytes(prefix: TypeIdPrefix, uuid: [u8; 16]) -> Self {
        TypeId { prefix, uuid }
    }

    /// The prefix.
    ///
    /// ```
    /// let id: kuuid::TypeId = "user_01h455vb4pex5vsknk084sn02q".parse()?;
    /// assert_eq!(id.prefix().as_str(), "user");
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    pub const fn prefix(&self) -> &TypeIdPrefix {
        &self.prefix
    }

    /// The UUID's 16 bytes.
    ///
    /// ```
    /// let id: kuuid::TypeId = "prefix_01h455vb4pex5vsknk084sn02q".parse()?;
    /// assert_eq!(id.uuid_bytes()[..4], [0x01, 0x89, 0x0a, 0x5d]);
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    pub const fn uuid_bytes(&self) -> &[u8; 16] {
        &self.uuid
    }

    /// The UUID as a [`Uuid7`], if it is one.
    ///
    /// ```
    /// let id = kuuid::typeid(kuuid::TypeIdPrefix::new("user")?);
    /// assert!(id.uuid7().is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn uuid7(&self) -> Result<Uuid7, UuidParseError> {
        Uuid7::from_bytes(self.uuid)
    }

    /// The millisecond of the UUID's first 48 bits (a UUIDv7's time).
    ///
    /// ```
    /// let p = kuuid::TypeIdPrefix::new("user")?;
    /// let id = kuuid::typeid_at(p, "2023-06-29T00:00:00Z")?;
    /// assert_eq!(id.timestamp().to_string(), "2023-06-29T00:00:00Z");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn timestamp(&self) -> Timestamp {
        Timestamp::from_millis((u128::from_be_bytes(self.uuid) >> 80) as u64)
    }

    /// The text in a caller's buffer (at most 90 bytes).
    ///
    /// ```
    /// let id = kuuid::typeid(kuuid::TypeIdPrefix::new("user")?);
    /// let mut buf = [0u8; kuuid::TypeId::MAX_LEN];
    /// assert_eq!(id.encode(&mut buf), id.to_string());
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    pub fn encode<'a>(&self, buf: &'a mut [u8; Self::MAX_LEN]) -> &'a str {
        let p = self.prefix.as_str().as_bytes();
        let mut n = p.len();
        buf[..n].copy_from_slice(p);
        if n > 0 {
            buf[n] = b'_';
            n += 1;
        }
        buf[n..n + 26].copy_from_slice(&self.suffix_bytes());
        std::str::from_utf8(&buf[..n + 26]).expect("ASCII")
    }

    /// The 26-character suffix.
    ///
    /// ```
    /// let id: kuuid::TypeId = "user_01h455vb4pex5vsknk084sn02q".parse()?;
    /// assert_eq!(&id.suffix_bytes(), b"01h455vb4pex5vsknk084sn02q");
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    #[inline]
    pub fn suffix_bytes(&self) -> [u8; 26] {
        base32::encode(u128::from_be_bytes(self.uuid), Case::Lower)
    }

    /// Reads a TypeID's text (see [`TypeIdParseError`] for the rules).
    ///
    /// ```
    /// let id = kuuid::TypeId::parse_bytes(b"pre_fix_00000000000000000000000000")?;
    /// assert_eq!(id.prefix().as_str(), "pre_fix");
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    pub fn parse_bytes(text: &[u8]) -> Result<Self, TypeIdParseError> {
        // The prefix holds underscores too: the suffix follows the last one.
        let (prefix, at) = match text.iter().rposition(|&b| b == b'_') {
            None => (TypeIdPrefix::EMPTY, 0),
            Some(0) => return Err(TypeIdParseError::SeparatorWithoutPrefix),
            Some(i) => (TypeIdPrefix::parse(&text[..i])?, i + 1),
        };
        let suffix: &[u8; 26] =
            text[at..]
                .try_into()
                .map_err(|_| TypeIdParseError::SuffixLength {
                    found: text.len() - at,
                })?;
        match base32::decode(suffix, Accept::Lower) {
            Ok(v) => Ok(TypeId::from_uuid_bytes(prefix, v.to_be_bytes())),
            Err(Fault::Byte(i, byte)) => Err(TypeIdParseError::SuffixByte {
                index: at + i,
                byte,
            }),
            Err(Fault::Overflow(first)) => Err(TypeIdParseError::SuffixOverflow { first }),
        }
    }
}

/// A TypeID minted now: [`kuuid::v7()`](crate::v7)'s UUIDv7.
#[inline]
pub(crate) fn now(prefix: TypeIdPrefix) -> TypeId {
    TypeId::new(prefix, crate::formats::v7::now())
}

/// A TypeID at a given time ([`kuuid::v7_at`](crate::v7_at)'s UUIDv7).
pub(crate) fn at(prefix: TypeIdPrefix, t: impl IntoTimestamp) -> Result<TypeId, TimeError> {
    Ok(TypeId::new(
        prefix,
        crate::formats::v7::at(t.into_timestamp()?)?,
    ))
}

/// Fills `ids` with TypeIDs of `prefix` minted now, in the process's
/// UUIDv7 order ([`kuuid::fill_v7`](crate::fill_v7)), 256 at a time.
pub(crate) fn fill_now(prefix: TypeIdPrefix, ids: &mut [TypeId]) {
    let mut v7 = [Uuid7::MIN; 256];
    for chunk in ids.chunks_mut(256) {
        let v7 = &mut v7[..chunk.len()];
        crate::formats::v7::fill_now(v7);
        for (id, &u) in chunk.iter_mut().zip(v7.iter()) {
            *id = TypeId::new(prefix, u);
        }
    }
}

/// TypeIDs of one prefix for one owner, from a [`V7Generator`]: strictly
/// increasing, blocks of the process's UUIDv7 sequence (its documentation
/// says when to prefer it to [`kuuid::typeid`](crate::typeid)).
///
/// ```
/// let mut g = kuuid::TypeIdGenerator::new(kuuid::TypeIdPrefix::new("user")?);
/// let ids: Vec<_> = (0..1000).map(|_| g.generate()).collect();
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// # Ok::<(), kuuid::TypeIdParseError>(())
/// ```
#[derive(Debug)]
pub struct TypeIdGenerator {
    prefix: TypeIdPrefix,
    v7: V7Generator,
}

impl TypeIdGenerator {
    /// A generator of `prefix`'s TypeIDs.
    ///
    /// ```
    /// let g = kuuid::TypeIdGenerator::new(kuuid::TypeIdPrefix::EMPTY);
    /// # let _ = g;
    /// ```
    pub fn new(prefix: TypeIdPrefix) -> Self {
        TypeIdGenerator {
            prefix,
            v7: V7Generator::new(),
        }
    }

    /// A TypeID minted now, after this generator's previous ones.
    ///
    /// ```
    /// let mut g = kuuid::TypeIdGenerator::new(kuuid::TypeIdPrefix::new("user")?);
    /// assert!(g.generate() < g.generate());
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    #[inline]
    pub fn generate(&mut self) -> TypeId {
        TypeId::new(self.prefix, self.v7.generate())
    }
}

impl fmt::Display for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode(&mut [0; TypeId::MAX_LEN]))
    }
}

impl fmt::Debug for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypeId({self})")
    }
}

impl FromStr for TypeId {
    type Err = TypeIdParseError;

    /// ```
    /// let id: kuuid::TypeId = "user_01h455vb4pex5vsknk084sn02q".parse()?;
    /// assert_eq!(id.to_string(), "user_01h455vb4pex5vsknk084sn02q");
    /// # Ok::<(), kuuid::TypeIdParseError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, TypeIdParseError> {
        TypeId::parse_bytes(s.as_bytes())
    }
}
