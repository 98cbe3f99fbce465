//! sqlx on SQLite (feature `sqlx-sqlite`): ids as query arguments and row
//! values, with no newtype. The same storage as the `rusqlite` feature, so
//! a table written by one reads back through the other.
//!
//! | type | written as | read from |
//! |---|---|---|
//! | kuuids ([`Id`] of every length, [`AnyKuuid`]) | TEXT | TEXT |
//! | [`Uuid7`] | BLOB, 16 bytes | BLOB 16, TEXT 36 or 32 |
//! | [`Simple`] | TEXT, 32 hex | BLOB 16, TEXT 36 or 32 |
//! | [`ObjectId`] | BLOB, 12 bytes | BLOB 12, TEXT 24 |
//! | [`Ulid`](crate::Ulid) (feature `ulid`) | BLOB, 16 bytes | BLOB 16, TEXT 26 |
//! | [`Ksuid`](crate::Ksuid) (feature `ksuid`) | BLOB, 20 bytes | BLOB 20, TEXT 27 |
//! | [`TypeId`](crate::TypeId) (feature `typeid`) | TEXT (its prefix is part of it) | TEXT |
//!
//! SQLite's default `BINARY` collation compares TEXT and BLOB with
//! `memcmp`, so all of these sort in time order. A value that is not an id
//! of the column's type is an error saying what is wrong, never a panic.

use sqlx_core::decode::Decode;
use sqlx_core::encode::{Encode, IsNull};
use sqlx_core::types::Type;
use sqlx_core::value::ValueRef;
use sqlx_sqlite::{Sqlite, SqliteArgumentsBuffer, SqliteTypeInfo, SqliteValueRef};

use super::size::{BoxError, sized};
use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Simple, Uuid7};
use crate::kuuid::id::{AnyKuuid, Id};

fn text_type() -> SqliteTypeInfo {
    <&str as Type<Sqlite>>::type_info()
}

fn blob_type() -> SqliteTypeInfo {
    <&[u8] as Type<Sqlite>>::type_info()
}

fn is_text(ty: &SqliteTypeInfo) -> bool {
    *ty == text_type()
}

fn blob_or_text(ty: &SqliteTypeInfo) -> bool {
    is_text(ty) || *ty == blob_type()
}

fn encode_text(text: &str, buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxError> {
    <&str as Encode<Sqlite>>::encode(text, buf)
}

fn encode_blob(bytes: &[u8], buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxError> {
    <&[u8] as Encode<Sqlite>>::encode(bytes, buf)
}

/// A value stored as an `N`-byte BLOB or as its text: `from_bytes` reads
/// the one, `FromStr` the other.
fn decode_blob_or_text<const N: usize, T, E>(
    what: &'static str,
    value: SqliteValueRef<'_>,
    from_bytes: impl FnOnce([u8; N]) -> Result<T, E>,
) -> Result<T, BoxError>
where
    T: std::str::FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
    E: std::error::Error + Send + Sync + 'static,
{
    if is_text(&ValueRef::type_info(&value)) {
        Ok(<&str as Decode<Sqlite>>::decode(value)?.parse()?)
    } else {
        let bytes = <&[u8] as Decode<Sqlite>>::decode(value)?;
        Ok(from_bytes(sized::<N>(what, bytes)?)?)
    }
}

/// Type, `Encode` and `Decode` for a kuuid type, as TEXT.
macro_rules! kuuid_as_text {
    ([$($generics:tt)*] $ty:ty, $parse:expr) => {
        impl<$($generics)*> Type<Sqlite> for $ty {
            fn type_info() -> SqliteTypeInfo {
                text_type()
            }
        }

        impl<$($generics)*> Encode<'_, Sqlite> for $ty {
            fn encode_by_ref(&self, buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxError> {
                encode_text(self.as_str(), buf)
            }
        }

        impl<$($generics)*> Decode<'_, Sqlite> for $ty {
            fn decode(value: SqliteValueRef<'_>) -> Result<Self, BoxError> {
                Ok($parse(<&str as Decode<Sqlite>>::decode(value)?.as_bytes())?)
            }
        }
    };
}

kuuid_as_text!([const LEN: usize] Id<LEN>, Id::<LEN>::parse_bytes);
kuuid_as_text!([] AnyKuuid, AnyKuuid::parse_bytes);

#[cfg(feature = "typeid")]
mod typeid {
    use super::*;
    use crate::formats::typeid::TypeId;

    impl Type<Sqlite> for TypeId {
        fn type_info() -> SqliteTypeInfo {
            text_type()
        }
    }

    impl Encode<'_, Sqlite> for TypeId {
        fn encode_by_ref(&self, buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxError> {
            let mut text = [0; TypeId::MAX_LEN];
            encode_text(self.encode(&mut text), buf)
        }
    }

    impl Decode<'_, Sqlite> for TypeId {
        fn decode(value: SqliteValueRef<'_>) -> Result<Self, BoxError> {
            Ok(TypeId::parse_bytes(
                <&str as Decode<Sqlite>>::decode(value)?.as_bytes(),
            )?)
        }
    }
}

impl Type<Sqlite> for Uuid7 {
    fn type_info() -> SqliteTypeInfo {
        blob_type()
    }

    fn compatible(ty: &SqliteTypeInfo) -> bool {
        blob_or_text(ty)
    }
}

impl Encode<'_, Sqlite> for Uuid7 {
    fn encode_by_ref(&self, buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxError> {
        encode_blob(self.as_bytes(), buf)
    }
}

impl Decode<'_, Sqlite> for Uuid7 {
    fn decode(value: SqliteValueRef<'_>) -> Result<Self, BoxError> {
        decode_blob_or_text("a UUIDv7", value, Uuid7::from_bytes)
    }
}

impl Type<Sqlite> for Simple {
    fn type_info() -> SqliteTypeInfo {
        text_type()
    }

    fn compatible(ty: &SqliteTypeInfo) -> bool {
        blob_or_text(ty)
    }
}

impl Encode<'_, Sqlite> for Simple {
    fn encode_by_ref(&self, buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxError> {
        let text = self.0.simple_bytes();
        // Hex digits are ASCII.
        encode_text(std::str::from_utf8(&text)?, buf)
    }
}

impl Decode<'_, Sqlite> for Simple {
    fn decode(value: SqliteValueRef<'_>) -> Result<Self, BoxError> {
        <Uuid7 as Decode<Sqlite>>::decode(value).map(Simple)
    }
}

/// Type, `Encode` and `Decode` for an id kept as its bytes (a BLOB of
/// `$n`), read back from the BLOB or from its text.
macro_rules! blob_id {
    ($ty:ty, $n:literal, $what:literal) => {
        impl Type<Sqlite> for $ty {
            fn type_info() -> SqliteTypeInfo {
                blob_type()
            }

            fn compatible(ty: &SqliteTypeInfo) -> bool {
                blob_or_text(ty)
            }
        }

        impl Encode<'_, Sqlite> for $ty {
            fn encode_by_ref(&self, buf: &mut SqliteArgumentsBuffer) -> Result<IsNull, BoxError> {
                encode_blob(self.as_bytes(), buf)
            }
        }

        impl Decode<'_, Sqlite> for $ty {
            fn decode(value: SqliteValueRef<'_>) -> Result<Self, BoxError> {
                decode_blob_or_text($what, value, |b: [u8; $n]| {
                    Ok::<_, std::convert::Infallible>(<$ty>::from_bytes(b))
                })
            }
        }
    };
}

blob_id!(ObjectId, 12, "an ObjectId");
#[cfg(feature = "ulid")]
blob_id!(crate::formats::ulid::Ulid, 16, "a ULID");
#[cfg(feature = "ksuid")]
blob_id!(crate::formats::ksuid::Ksuid, 20, "a KSUID");
