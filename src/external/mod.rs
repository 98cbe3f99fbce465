//! Feature-gated integrations with other crates.

#[cfg(feature = "serde")]
mod serde;
