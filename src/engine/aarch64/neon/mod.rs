//! NEON, part of every aarch64 CPU (checked at run time all the same, as
//! the dispatchers check every path). Base62 and hex assume little-endian
//! lanes; ChaCha's rows do not.

#[cfg(all(target_endian = "little", any(feature = "ulid", feature = "typeid")))]
pub(crate) mod base32;
#[cfg(target_endian = "little")]
mod base62;
#[cfg(all(target_endian = "little", feature = "ksuid"))]
pub(crate) mod base62_160;
#[cfg(target_endian = "little")]
pub(crate) mod hex;
pub(crate) mod row;

#[cfg(target_endian = "little")]
pub(crate) use base62::{decode4, encode4};

/// Whether this CPU has NEON.
#[cfg(target_endian = "little")]
pub(crate) fn is_supported() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}
