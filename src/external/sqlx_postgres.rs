//! sqlx on PostgreSQL (feature `sqlx-postgres`): ids as query arguments and
//! row values, with no newtype.
//!
//! | type | Postgres types | default |
//! |---|---|---|
//! | kuuids ([`Id`] of every length, [`AnyKuuid`]) | `text`, `varchar`, `char(n)`, `name` | `text` |
//! | [`Uuid7`], [`Simple`] | `uuid` | `uuid`: 16 bytes, ordered by its bytes, so time order holds |
//! | [`ObjectId`] | `bytea` (12 bytes), or text (24 hex) | `bytea` |
//! | [`Ksuid`](crate::Ksuid) (feature `ksuid`) | `bytea` (20 bytes), or text (27 characters) | `bytea` |
//! | [`Ulid`](crate::Ulid) (feature `ulid`) | `uuid` (its 16 bytes) | `uuid`: byte order is time order |
//! | [`TypeId`](crate::TypeId) (feature `typeid`) | text types, as kuuids | `text` (its prefix is part of it; `COLLATE "C"` for time order) |
//!
//! A TypeID whose column holds one prefix can keep only its UUIDv7 in a
//! `uuid` column: bind [`TypeId::uuid7`](crate::TypeId::uuid7) (a
//! [`Uuid7`]) and rebuild with [`TypeId::new`](crate::TypeId::new).
//!
//! Each type also has its array type, for `= ANY($1)`. The conversions
//! lean on sqlx's own `&str` and `Vec<u8>` ones, so the text and binary
//! wire formats both work. A kuuid `text` key sorts in time order only
//! under `COLLATE "C"` (see docs/databases.md). A value that
//! is not an id of the column's type is an error saying what is wrong,
//! never a panic.

use std::borrow::Cow;

use sqlx_core::decode::Decode;
use sqlx_core::encode::{Encode, IsNull};
use sqlx_core::types::Type;
use sqlx_core::value::ValueRef;
use sqlx_postgres::types::{Oid, PgHasArrayType};
use sqlx_postgres::{PgArgumentBuffer, PgTypeInfo, PgValueFormat, PgValueRef, Postgres};

use super::size::{BoxError, sized};
use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Simple, Uuid7};
use crate::kuuid::id::{AnyKuuid, Id};

/// `uuid` and `uuid[]` by their fixed OIDs (`pg_type.dat`): sqlx keeps its
/// own constants private.
const UUID: PgTypeInfo = PgTypeInfo::with_oid(Oid(2950));
const UUID_ARRAY: PgTypeInfo = PgTypeInfo::with_oid(Oid(2951));

/// The Postgres text of a value in either wire format.
fn text(value: PgValueRef<'_>) -> Result<&str, BoxError> {
    <&str as Decode<Postgres>>::decode(value)
}

/// Type, array type, `Encode` and `Decode` for a kuuid type, as `text`.
macro_rules! kuuid_as_text {
    ([$($generics:tt)*] $ty:ty, $parse:expr) => {
        impl<$($generics)*> Type<Postgres> for $ty {
            fn type_info() -> PgTypeInfo {
                <&str as Type<Postgres>>::type_info()
            }

            fn compatible(ty: &PgTypeInfo) -> bool {
                <&str as Type<Postgres>>::compatible(ty)
            }
        }

        impl<$($generics)*> PgHasArrayType for $ty {
            fn array_type_info() -> PgTypeInfo {
                <&str as PgHasArrayType>::array_type_info()
            }

            fn array_compatible(ty: &PgTypeInfo) -> bool {
                <&str as PgHasArrayType>::array_compatible(ty)
            }
        }

        impl<$($generics)*> Encode<'_, Postgres> for $ty {
            fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxError> {
                <&str as Encode<Postgres>>::encode(self.as_str(), buf)
            }

            fn size_hint(&self) -> usize {
                self.as_str().len()
            }
        }

        impl<$($generics)*> Decode<'_, Postgres> for $ty {
            fn decode(value: PgValueRef<'_>) -> Result<Self, BoxError> {
                Ok($parse(text(value)?.as_bytes())?)
            }
        }
    };
}

kuuid_as_text!([const LEN: usize] Id<LEN>, Id::<LEN>::parse_bytes);
kuuid_as_text!([] AnyKuuid, AnyKuuid::parse_bytes);

impl Type<Postgres> for Uuid7 {
    fn type_info() -> PgTypeInfo {
        UUID
    }
}

impl PgHasArrayType for Uuid7 {
    fn array_type_info() -> PgTypeInfo {
        UUID_ARRAY
    }
}

impl Encode<'_, Postgres> for Uuid7 {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxError> {
        buf.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    fn size_hint(&self) -> usize {
        16
    }
}

impl Decode<'_, Postgres> for Uuid7 {
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxError> {
        match value.format() {
            PgValueFormat::Binary => Ok(Uuid7::from_bytes(sized::<16>(
                "a uuid",
                value.as_bytes()?,
            )?)?),
            PgValueFormat::Text => Ok(text(value)?.parse()?),
        }
    }
}

impl Type<Postgres> for Simple {
    fn type_info() -> PgTypeInfo {
        UUID
    }
}

impl PgHasArrayType for Simple {
    fn array_type_info() -> PgTypeInfo {
        UUID_ARRAY
    }
}

impl Encode<'_, Postgres> for Simple {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxError> {
        <Uuid7 as Encode<Postgres>>::encode_by_ref(&self.0, buf)
    }

    fn size_hint(&self) -> usize {
        16
    }
}

impl Decode<'_, Postgres> for Simple {
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxError> {
        <Uuid7 as Decode<Postgres>>::decode(value).map(Simple)
    }
}

fn is_bytea(ty: &PgTypeInfo) -> bool {
    <Vec<u8> as Type<Postgres>>::compatible(ty)
}

/// Type, `Encode` and `Decode` for an id kept as its `$n` bytes in
/// `bytea`, read back from `bytea` or from its text.
macro_rules! bytea_id {
    ($ty:ty, $n:literal, $what:literal) => {
        impl Type<Postgres> for $ty {
            fn type_info() -> PgTypeInfo {
                <Vec<u8> as Type<Postgres>>::type_info()
            }

            fn compatible(ty: &PgTypeInfo) -> bool {
                is_bytea(ty) || <&str as Type<Postgres>>::compatible(ty)
            }
        }

        impl PgHasArrayType for $ty {
            fn array_type_info() -> PgTypeInfo {
                <Vec<u8> as PgHasArrayType>::array_type_info()
            }
        }

        impl Encode<'_, Postgres> for $ty {
            fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxError> {
                buf.extend_from_slice(self.as_bytes());
                Ok(IsNull::No)
            }

            fn size_hint(&self) -> usize {
                $n
            }
        }

        impl Decode<'_, Postgres> for $ty {
            fn decode(value: PgValueRef<'_>) -> Result<Self, BoxError> {
                let column: Cow<'_, PgTypeInfo> = ValueRef::type_info(&value);
                if is_bytea(&column) {
                    let bytes = <Vec<u8> as Decode<Postgres>>::decode(value)?;
                    Ok(<$ty>::from_bytes(sized::<$n>($what, &bytes)?))
                } else {
                    Ok(text(value)?.parse()?)
                }
            }
        }
    };
}

#[cfg(feature = "typeid")]
mod typeid {
    use super::*;
    use crate::formats::typeid::TypeId;

    impl Type<Postgres> for TypeId {
        fn type_info() -> PgTypeInfo {
            <&str as Type<Postgres>>::type_info()
        }

        fn compatible(ty: &PgTypeInfo) -> bool {
            <&str as Type<Postgres>>::compatible(ty)
        }
    }

    impl PgHasArrayType for TypeId {
        fn array_type_info() -> PgTypeInfo {
            <&str as PgHasArrayType>::array_type_info()
        }

        fn array_compatible(ty: &PgTypeInfo) -> bool {
            <&str as PgHasArrayType>::array_compatible(ty)
        }
    }

    impl Encode<'_, Postgres> for TypeId {
        fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxError> {
            let mut text = [0; TypeId::MAX_LEN];
            <&str as Encode<Postgres>>::encode(self.encode(&mut text), buf)
        }
    }

    impl Decode<'_, Postgres> for TypeId {
        fn decode(value: PgValueRef<'_>) -> Result<Self, BoxError> {
            Ok(text(value)?.parse()?)
        }
    }
}

// A `bytea` column's 12 bytes, or a text column's 24 hex digits.
bytea_id!(ObjectId, 12, "an ObjectId");
#[cfg(feature = "ksuid")]
bytea_id!(crate::formats::ksuid::Ksuid, 20, "a KSUID");

#[cfg(feature = "ulid")]
impl Type<Postgres> for crate::formats::ulid::Ulid {
    fn type_info() -> PgTypeInfo {
        UUID
    }
}

#[cfg(feature = "ulid")]
impl PgHasArrayType for crate::formats::ulid::Ulid {
    fn array_type_info() -> PgTypeInfo {
        UUID_ARRAY
    }
}

#[cfg(feature = "ulid")]
impl Encode<'_, Postgres> for crate::formats::ulid::Ulid {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxError> {
        buf.extend_from_slice(self.as_bytes());
        Ok(IsNull::No)
    }

    fn size_hint(&self) -> usize {
        16
    }
}

#[cfg(feature = "ulid")]
impl Decode<'_, Postgres> for crate::formats::ulid::Ulid {
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxError> {
        use crate::formats::ulid::Ulid;
        match value.format() {
            PgValueFormat::Binary => {
                Ok(Ulid::from_bytes(sized::<16>("a uuid", value.as_bytes()?)?))
            }
            // PostgreSQL's text of a uuid: 36 hex characters of the bytes.
            PgValueFormat::Text => {
                let text = text(value)?.as_bytes();
                if text.len() != 36 {
                    return Err(format!("a uuid's text is 36 bytes, not {}", text.len()).into());
                }
                let mut bytes = [0u8; 16];
                crate::engine::hex::decode(text, &[8, 13, 18, 23], &mut bytes)
                    .map_err(|(index, byte)| crate::UuidParseError::InvalidByte { index, byte })?;
                Ok(Ulid::from_bytes(bytes))
            }
        }
    }
}
