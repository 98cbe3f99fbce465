//! SSE4.1 (with SSSE3, which every SSE4.1 CPU has).

#[cfg(any(feature = "ulid", feature = "typeid"))]
pub(crate) mod base32;
mod base62;
#[cfg(feature = "ksuid")]
pub(crate) mod base62_160;

pub(crate) use base62::{decode4, encode4};

/// Whether this CPU has SSE4.1 and SSSE3.
pub(crate) fn is_supported() -> bool {
    std::is_x86_feature_detected!("sse4.1") && std::is_x86_feature_detected!("ssse3")
}
