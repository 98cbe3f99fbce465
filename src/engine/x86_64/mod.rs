//! x86-64, by instruction set, then algorithm (after memchr's
//! `src/arch/`): `sse2/` (every x86-64 CPU: single-id hex, ChaCha's rows,
//! the order keys' digit check), `sse41/` (the base62 decoder), `avx2/`
//! (base62, batch hex, the fast RNG's steps), `avx512/` (base62 with VBMI,
//! batch hex). Each instruction set's `is_supported()` is the run-time
//! CPUID check of what its kernels enable; a kernel that needs more checks
//! it itself (`avx512::base62::is_supported`: VBMI). The base62 modules
//! have `encode4` and `decode4` with the dispatchers' raw-pointer contracts
//! (`sse41` only `decode4`). `aes_ctr.rs` is one counter-mode kernel at
//! three widths (AES-NI, 256- and 512-bit VAES).

pub(crate) mod aes_ctr;
pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse2;
pub(crate) mod sse41;
