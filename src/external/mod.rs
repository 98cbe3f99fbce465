//! Feature-gated integrations with other crates.

#[cfg(feature = "serde")]
pub(crate) mod serde;

#[cfg(feature = "rusqlite")]
mod rusqlite;

#[cfg(feature = "bson")]
mod bson;

#[cfg(feature = "postgres-types")]
mod postgres;
