//! Feature-gated integrations with other crates.

#[cfg(feature = "serde")]
pub(crate) mod serde;

#[cfg(feature = "rusqlite")]
mod rusqlite;

#[cfg(feature = "bson")]
mod bson;

#[cfg(feature = "chrono")]
mod chrono;

#[cfg(feature = "jiff")]
mod jiff;

#[cfg(feature = "time")]
mod time;

#[cfg(feature = "postgres-types")]
mod postgres_types;

#[cfg(feature = "sqlx-postgres")]
mod sqlx_postgres;

#[cfg(feature = "sqlx-sqlite")]
mod sqlx_sqlite;

#[cfg(feature = "uuid")]
mod uuid;

#[cfg(feature = "ulid-crate")]
mod ulid;

#[cfg(feature = "svix-ksuid")]
mod svix_ksuid;

#[cfg(any(
    feature = "postgres-types",
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite"
))]
mod size;
