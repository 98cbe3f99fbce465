//! aarch64 paths.

pub(crate) mod aes_ctr;
pub(crate) mod row;

#[cfg(target_endian = "little")]
pub(crate) mod hex;
#[cfg(target_endian = "little")]
pub(crate) mod neon;
