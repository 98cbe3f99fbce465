//! x86-64 paths. Each module has `is_supported()` (runtime CPUID check) and
//! `encode4` and `decode4` with the dispatchers' raw-pointer contracts
//! (`sse41` only `decode4`).

pub(crate) mod aes_ctr;
pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod hex;
pub(crate) mod key_digits;
pub(crate) mod row;
pub(crate) mod sse41;
pub(crate) mod xoshiro;
// Compiled where the target enables SSE2: every x86-64 target with std.
#[cfg(target_feature = "sse2")]
pub(crate) mod hex_single;
