//! Other id formats of the document-database world, minted on the same
//! per-thread randomness and clock as kuuids: one module per format.

#[cfg(feature = "couch")]
pub mod couch;
#[cfg(feature = "ksuid")]
pub(crate) mod ksuid;
pub(crate) mod kuuid_ordered;
pub(crate) mod objectid;
pub(crate) mod sequence;
#[cfg(feature = "typeid")]
pub(crate) mod typeid;
#[cfg(feature = "ulid")]
pub(crate) mod ulid;
pub(crate) mod uuid_layout;
pub(crate) mod v7;
