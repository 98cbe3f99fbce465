//! Feature-gated integrations with other crates.

#[cfg(feature = "serde")]
pub(crate) mod serde;
