//! aarch64, by instruction set, then algorithm: `neon/` (base62, batch
//! hex, ChaCha's rows); `aes_ctr.rs` on the ARMv8 crypto extension.

pub(crate) mod aes_ctr;
pub(crate) mod neon;
