//! `uuid` interop (feature `uuid`): every UUIDv7 is a `uuid::Uuid`; a
//! `uuid::Uuid` is a [`Uuid7`] if its version and variant say so.

use crate::formats::v7::Uuid7;
use crate::parse::UuidParseError;

impl From<Uuid7> for uuid::Uuid {
    fn from(id: Uuid7) -> Self {
        uuid::Uuid::from_bytes(*id.as_bytes())
    }
}

impl TryFrom<uuid::Uuid> for Uuid7 {
    type Error = UuidParseError;

    /// ```
    /// let u: uuid::Uuid = kuuid::v7().into();
    /// assert_eq!(u.get_version_num(), 7);
    /// assert_eq!(kuuid::Uuid7::try_from(u)?.to_string(), u.to_string());
    /// assert!(kuuid::Uuid7::try_from(uuid::Uuid::new_v4()).is_err());
    /// # Ok::<(), kuuid::UuidParseError>(())
    /// ```
    fn try_from(u: uuid::Uuid) -> Result<Self, UuidParseError> {
        Uuid7::from_bytes(*u.as_bytes())
    }
}

/// Every UUID's 16 bytes are a ULID, and every ULID's a UUID (of the
/// version its bits happen to say): the same bytes both ways.
#[cfg(feature = "ulid")]
impl From<crate::formats::ulid::Ulid> for uuid::Uuid {
    /// ```
    /// let id = kuuid::ulid();
    /// let u = uuid::Uuid::from(id);
    /// assert_eq!(u.as_bytes(), id.as_bytes());
    /// assert_eq!(kuuid::Ulid::from(u), id);
    /// ```
    fn from(id: crate::formats::ulid::Ulid) -> Self {
        uuid::Uuid::from_bytes(*id.as_bytes())
    }
}

#[cfg(feature = "ulid")]
impl From<uuid::Uuid> for crate::formats::ulid::Ulid {
    fn from(u: uuid::Uuid) -> Self {
        crate::formats::ulid::Ulid::from_bytes(*u.as_bytes())
    }
}
