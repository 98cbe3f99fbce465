//! aarch64 paths.

#[cfg(target_endian = "little")]
pub(crate) mod hex;
#[cfg(target_endian = "little")]
pub(crate) mod neon;
