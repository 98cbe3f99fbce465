//! svix-ksuid's type (feature `svix-ksuid`): the same 20 bytes both ways.

use svix_ksuid::KsuidLike;

use crate::formats::ksuid::Ksuid;

impl From<Ksuid> for svix_ksuid::Ksuid {
    /// ```
    /// let id = kuuid::ksuid();
    /// let theirs = svix_ksuid::Ksuid::from(id);
    /// assert_eq!(theirs.to_string(), id.to_string());
    /// assert_eq!(kuuid::Ksuid::from(theirs), id);
    /// ```
    fn from(id: Ksuid) -> Self {
        svix_ksuid::Ksuid::from_bytes(*id.as_bytes())
    }
}

impl From<svix_ksuid::Ksuid> for Ksuid {
    fn from(id: svix_ksuid::Ksuid) -> Self {
        Ksuid::from_bytes(*id.bytes())
    }
}
