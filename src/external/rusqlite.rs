//! rusqlite (feature `rusqlite`): ids go into and out of SQLite as they
//! are, with no newtype.
//!
//! | type | written as | read from |
//! |---|---|---|
//! | kuuids ([`Id`] of every length, [`AnyKuuid`]) | TEXT | TEXT |
//! | [`Uuid7`] | BLOB, 16 bytes | BLOB 16, TEXT 36 or 32 |
//! | [`Simple`] | TEXT, 32 hex | BLOB 16, TEXT 36 or 32 |
//! | [`ObjectId`] | BLOB, 12 bytes | BLOB 12, TEXT 24 |
//! | [`Ulid`](crate::Ulid) (feature `ulid`) | BLOB, 16 bytes | BLOB 16, TEXT 26 (either case) |
//! | [`Ksuid`](crate::Ksuid) (feature `ksuid`) | BLOB, 20 bytes | BLOB 20, TEXT 27 |
//! | [`TypeId`](crate::TypeId) (feature `typeid`) | TEXT (its prefix is part of it) | TEXT |
//!
//! SQLite's default collation, `BINARY`, compares TEXT and BLOB with
//! `memcmp`, so every one of these sorts in time order in an index and in
//! `ORDER BY` (a `NOCASE` column would not: it folds base62's two cases
//! together). A UUIDv7 is a BLOB by default because it is 16 bytes against
//! 36 of text, in the table and again in every index that holds it, and
//! sorts the same; `Simple` is there for a readable column. An ObjectId is
//! MongoDB's 12 bytes. A value that is not an id of the column's type comes
//! back as a `FromSqlError` saying what is wrong, never a panic.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Simple, Uuid7};
use crate::kuuid::id::{AnyKuuid, Id};

impl<const LEN: usize> ToSql for Id<LEN> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Text(
            self.as_str().as_bytes(),
        )))
    }
}

impl<const LEN: usize> FromSql for Id<LEN> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Id::parse_bytes(value.as_bytes()?).map_err(FromSqlError::other)
    }
}

impl ToSql for AnyKuuid {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Text(self.as_bytes())))
    }
}

impl FromSql for AnyKuuid {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        AnyKuuid::parse_bytes(value.as_bytes()?).map_err(FromSqlError::other)
    }
}

impl ToSql for Uuid7 {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Blob(self.as_bytes())))
    }
}

/// A value stored as an `N`-byte BLOB or as its text: `from_bytes` reads
/// the one, `FromStr` the other.
fn blob_or_text<const N: usize, T, E>(
    value: ValueRef<'_>,
    from_bytes: impl FnOnce([u8; N]) -> Result<T, E>,
) -> FromSqlResult<T>
where
    T: std::str::FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
    E: std::error::Error + Send + Sync + 'static,
{
    match value {
        ValueRef::Blob(b) => {
            let bytes: [u8; N] = b.try_into().map_err(|_| FromSqlError::InvalidBlobSize {
                expected_size: N,
                blob_size: b.len(),
            })?;
            from_bytes(bytes).map_err(FromSqlError::other)
        }
        ValueRef::Text(t) => std::str::from_utf8(t)
            .map_err(FromSqlError::Utf8Error)?
            .parse()
            .map_err(FromSqlError::other),
        _ => Err(FromSqlError::InvalidType),
    }
}

impl FromSql for Uuid7 {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        blob_or_text(value, Uuid7::from_bytes)
    }
}

impl ToSql for Simple {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.to_string()))
    }
}

impl FromSql for Simple {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Uuid7::column_result(value).map(Simple)
    }
}

impl ToSql for ObjectId {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Blob(self.as_bytes())))
    }
}

impl FromSql for ObjectId {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        blob_or_text(value, |b| {
            Ok::<_, std::convert::Infallible>(ObjectId::from_bytes(b))
        })
    }
}

#[cfg(feature = "ulid")]
impl ToSql for crate::formats::ulid::Ulid {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Blob(self.as_bytes())))
    }
}

#[cfg(feature = "ulid")]
impl FromSql for crate::formats::ulid::Ulid {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        blob_or_text(value, |b| {
            Ok::<_, std::convert::Infallible>(crate::formats::ulid::Ulid::from_bytes(b))
        })
    }
}

#[cfg(feature = "ksuid")]
impl ToSql for crate::formats::ksuid::Ksuid {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Blob(self.as_bytes())))
    }
}

#[cfg(feature = "ksuid")]
impl FromSql for crate::formats::ksuid::Ksuid {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        blob_or_text(value, |b| {
            Ok::<_, std::convert::Infallible>(crate::formats::ksuid::Ksuid::from_bytes(b))
        })
    }
}

#[cfg(feature = "typeid")]
impl ToSql for crate::formats::typeid::TypeId {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.to_string()))
    }
}

#[cfg(feature = "typeid")]
impl FromSql for crate::formats::typeid::TypeId {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Self::parse_bytes(value.as_bytes()?).map_err(FromSqlError::other)
    }
}
