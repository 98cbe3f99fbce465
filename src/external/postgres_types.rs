//! postgres-types (feature `postgres-types`, for `postgres` and
//! `tokio-postgres`): ids as query parameters and row values, with no
//! newtype.
//!
//! | type | Postgres types | default |
//! |---|---|---|
//! | kuuids ([`Id`] of every length, [`AnyKuuid`]) | `text`, `varchar`, `char(n)`, `name` | text |
//! | [`Uuid7`], [`Simple`] | `uuid`, or text (36 or 32 characters) | `uuid`: 16 bytes, and Postgres orders it by its bytes, so time order holds |
//! | [`ObjectId`] | `bytea` (12 bytes), or text (24 hex) | `bytea` |
//! | [`TypeId`](crate::TypeId) (feature `typeid`) | text (its prefix is part of it; declare it `COLLATE "C"` for time order) | text |
//! | [`Ksuid`](crate::Ksuid) (feature `ksuid`) | `bytea` (20 bytes), or text (27 characters) | `bytea` |
//! | [`Ulid`](crate::Ulid) (feature `ulid`) | `uuid` (its 16 bytes, any version bits), or text (26 characters) | `uuid`: byte order is time order |
//!
//! A kuuid `text` key sorts in time order only under a byte-order
//! collation: declare it `COLLATE "C"` (docs/databases.md
//! shows what `en-US-x-icu` does to it). A value that is not an id of the
//! column's type is an error saying what is wrong, never a panic.

use bytes::BytesMut;
use postgres_types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

use super::size::{BoxError, sized};
use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Simple, Uuid7};
use crate::kuuid::id::{AnyKuuid, Id};

fn is_text(ty: &Type) -> bool {
    <&str as ToSql>::accepts(ty)
}

impl<const LEN: usize> ToSql for Id<LEN> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        self.as_str().to_sql(ty, out)
    }

    fn accepts(ty: &Type) -> bool {
        is_text(ty)
    }

    to_sql_checked!();
}

impl<'a, const LEN: usize> FromSql<'a> for Id<LEN> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(<&str as FromSql>::from_sql(ty, raw)?.parse()?)
    }

    fn accepts(ty: &Type) -> bool {
        <&str as FromSql>::accepts(ty)
    }
}

impl ToSql for AnyKuuid {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        self.as_str().to_sql(ty, out)
    }

    fn accepts(ty: &Type) -> bool {
        is_text(ty)
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for AnyKuuid {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        let text = <&str as FromSql>::from_sql(ty, raw)?;
        Ok(AnyKuuid::parse_bytes(text.as_bytes())?)
    }

    fn accepts(ty: &Type) -> bool {
        <&str as FromSql>::accepts(ty)
    }
}

/// A UUIDv7 as `uuid` (its 16 bytes) or as text in `form`.
fn uuid_to_sql(id: &Uuid7, text: &str, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
    if *ty == Type::UUID {
        out.extend_from_slice(id.as_bytes());
        Ok(IsNull::No)
    } else {
        text.to_sql(ty, out)
    }
}

fn uuid_from_sql(ty: &Type, raw: &[u8]) -> Result<Uuid7, BoxError> {
    if *ty == Type::UUID {
        Ok(Uuid7::from_bytes(sized::<16>("a uuid", raw)?)?)
    } else {
        Ok(<&str as FromSql>::from_sql(ty, raw)?.parse()?)
    }
}

fn accepts_uuid(ty: &Type) -> bool {
    *ty == Type::UUID || is_text(ty)
}

impl ToSql for Uuid7 {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        uuid_to_sql(self, &self.to_string(), ty, out)
    }

    fn accepts(ty: &Type) -> bool {
        accepts_uuid(ty)
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Uuid7 {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        uuid_from_sql(ty, raw)
    }

    fn accepts(ty: &Type) -> bool {
        accepts_uuid(ty)
    }
}

impl ToSql for Simple {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        uuid_to_sql(&self.0, &self.to_string(), ty, out)
    }

    fn accepts(ty: &Type) -> bool {
        accepts_uuid(ty)
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Simple {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        uuid_from_sql(ty, raw).map(Simple)
    }

    fn accepts(ty: &Type) -> bool {
        accepts_uuid(ty)
    }
}

impl ToSql for ObjectId {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        if *ty == Type::BYTEA {
            out.extend_from_slice(self.as_bytes());
            Ok(IsNull::No)
        } else {
            self.to_string().to_sql(ty, out)
        }
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::BYTEA || is_text(ty)
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for ObjectId {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        if *ty == Type::BYTEA {
            Ok(ObjectId::from_bytes(sized::<12>("an ObjectId", raw)?))
        } else {
            Ok(<&str as FromSql>::from_sql(ty, raw)?.parse()?)
        }
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::BYTEA || <&str as FromSql>::accepts(ty)
    }
}

#[cfg(feature = "ulid")]
impl ToSql for crate::formats::ulid::Ulid {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        if *ty == Type::UUID {
            out.extend_from_slice(self.as_bytes());
            Ok(IsNull::No)
        } else {
            let mut buf = [0; 26];
            (&*self.encode(&mut buf)).to_sql(ty, out)
        }
    }

    fn accepts(ty: &Type) -> bool {
        accepts_uuid(ty)
    }

    to_sql_checked!();
}

#[cfg(feature = "ulid")]
impl<'a> FromSql<'a> for crate::formats::ulid::Ulid {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        use crate::formats::ulid::Ulid;
        if *ty == Type::UUID {
            Ok(Ulid::from_bytes(sized::<16>("a uuid", raw)?))
        } else {
            Ok(<&str as FromSql>::from_sql(ty, raw)?.parse()?)
        }
    }

    fn accepts(ty: &Type) -> bool {
        accepts_uuid(ty)
    }
}

#[cfg(feature = "ksuid")]
impl ToSql for crate::formats::ksuid::Ksuid {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        if *ty == Type::BYTEA {
            out.extend_from_slice(self.as_bytes());
            Ok(IsNull::No)
        } else {
            let mut buf = [0; 27];
            (&*self.encode(&mut buf)).to_sql(ty, out)
        }
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::BYTEA || is_text(ty)
    }

    to_sql_checked!();
}

#[cfg(feature = "ksuid")]
impl<'a> FromSql<'a> for crate::formats::ksuid::Ksuid {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        use crate::formats::ksuid::Ksuid;
        if *ty == Type::BYTEA {
            Ok(Ksuid::from_bytes(sized::<20>("a KSUID", raw)?))
        } else {
            Ok(<&str as FromSql>::from_sql(ty, raw)?.parse()?)
        }
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::BYTEA || <&str as FromSql>::accepts(ty)
    }
}

#[cfg(feature = "typeid")]
impl ToSql for crate::formats::typeid::TypeId {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        let mut buf = [0; Self::MAX_LEN];
        self.encode(&mut buf).to_sql(ty, out)
    }

    fn accepts(ty: &Type) -> bool {
        is_text(ty)
    }

    to_sql_checked!();
}

#[cfg(feature = "typeid")]
impl<'a> FromSql<'a> for crate::formats::typeid::TypeId {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(<&str as FromSql>::from_sql(ty, raw)?.parse()?)
    }

    fn accepts(ty: &Type) -> bool {
        <&str as FromSql>::accepts(ty)
    }
}
