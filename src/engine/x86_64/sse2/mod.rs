//! SSE2, part of every x86-64 CPU: no run-time check.

#[cfg(feature = "order")]
pub(crate) mod key_digits;
pub(crate) mod row;
pub(crate) mod xoshiro;
// Compiled where the target enables SSE2: every x86-64 target with std.
#[cfg(target_feature = "sse2")]
pub(crate) mod hex;
