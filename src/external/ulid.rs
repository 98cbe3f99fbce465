//! The `ulid` crate's type (feature `ulid-crate`): the same 128 bits
//! both ways.

use crate::formats::ulid::Ulid;

impl From<Ulid> for ulid::Ulid {
    /// ```
    /// let id = kuuid::ulid();
    /// let theirs = ulid::Ulid::from(id);
    /// assert_eq!(theirs.to_string(), id.to_string());
    /// assert_eq!(kuuid::Ulid::from(theirs), id);
    /// ```
    fn from(id: Ulid) -> Self {
        ulid::Ulid(id.to_u128())
    }
}

impl From<ulid::Ulid> for Ulid {
    fn from(id: ulid::Ulid) -> Self {
        Ulid::from_u128(id.0)
    }
}
