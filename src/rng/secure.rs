//! The default engine: a CSPRNG keyed from the OS.
//!
//! AES-128 in counter mode where the CPU has AES instructions (AES-NI/VAES on
//! x86-64, the ARMv8 crypto extension on aarch64; `aes_ctr`), ChaCha12
//! elsewhere. Picked by measurement (`cargo bench --bench engine -- rng`,
//! `kuuid bench`): AES-CTR runs 0.69-0.75 ns per 16 bytes with VAES on Zen 4
//! (the `aes` crate's `encrypt_blocks` ~0.96, the `ctr` crate's Ctr64LE
//! ~1.5-1.7), ChaCha8 ~4.9 and ChaCha12 ~7.1 (rand_chacha). Both choices are
//! standard CSPRNG constructions (AES-CTR is the core of NIST's CTR_DRBG): an
//! observer of any number of ids cannot predict the next without the key.

use rand_chacha::ChaCha12Rng;
use rand_core::{RngCore, SeedableRng};

use super::aes_ctr::AesCtr;
use crate::engine::Isa;

/// Inline, not boxed: a reseed after a raw `clone` must not need the heap,
/// whose locks another thread of the parent may have held.
pub(crate) enum SecureRng {
    Aes(AesCtr),
    ChaCha(ChaCha12Rng),
}

impl SecureRng {
    pub(crate) fn from_os() -> Result<Self, getrandom::Error> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed)?;
        Ok(match AesCtr::new(&seed) {
            Some(ctr) => SecureRng::Aes(ctr),
            None => SecureRng::ChaCha(ChaCha12Rng::from_seed(seed)),
        })
    }

    pub(crate) fn name(&self) -> &'static str {
        match self {
            SecureRng::Aes(_) => "AES-128-CTR",
            SecureRng::ChaCha(_) => "ChaCha12",
        }
    }

    pub(crate) fn perturb(&mut self, token: u64) {
        match self {
            SecureRng::Aes(ctr) => ctr.perturb(token),
            SecureRng::ChaCha(rng) => rng.set_stream(rng.get_stream() ^ token),
        }
    }

    #[inline]
    pub(crate) fn fill_words(&mut self, isa: Isa, out: &mut [u32]) {
        match self {
            // Words take the target's byte order: every order of uniformly
            // random bytes is uniformly random.
            SecureRng::Aes(ctr) => ctr.fill_words(isa, out),
            SecureRng::ChaCha(rng) => rng.fill_bytes(bytemuck::cast_slice_mut(out)),
        }
    }
}
