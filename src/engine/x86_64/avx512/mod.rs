//! AVX-512 F and BW, with AVX2: the CPUs `Isa::Avx512` names (Skylake-X
//! and later). Base62's kernels need VBMI besides and check it
//! ([`base62::is_supported`]); without it `Isa::Avx512` encodes and
//! decodes base62 on AVX2's kernels.

pub(crate) mod base62;
pub(crate) mod hex;

/// Whether this CPU has AVX-512 F and BW, and AVX2.
pub(crate) fn is_supported() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx2")
}
