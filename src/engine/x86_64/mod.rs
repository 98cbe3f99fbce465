//! x86-64 paths. Each base62 module has `is_supported()` (runtime CPUID
//! check) and `encode4` and `decode4` with the dispatchers' raw-pointer
//! contracts (`sse41` only `decode4`).

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

/// The CPUs `Isa::Avx512` names: AVX-512 F and BW, with AVX2 (Skylake-X
/// and later). The kernels that need more check it themselves and take
/// AVX2's kernel without it: base62's `vpermb` needs VBMI
/// ([`avx512::is_supported`]), 512-bit AES needs VAES.
pub(crate) fn avx512_supported() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx2")
}
