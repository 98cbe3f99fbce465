//! AVX2 (Haswell, Zen 1 and later).

#[cfg(any(feature = "ulid", feature = "typeid"))]
pub(crate) mod base32;
mod base62;
#[cfg(feature = "ksuid")]
pub(crate) mod base62_160;
pub(crate) mod hex;
pub(crate) mod xoshiro;

pub(crate) use base62::{decode4, encode4};

/// Whether this CPU has AVX2.
pub(crate) fn is_supported() -> bool {
    std::is_x86_feature_detected!("avx2")
}
