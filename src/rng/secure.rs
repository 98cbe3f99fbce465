//! The default engine: ChaCha12 keyed from the OS.

use rand_chacha::ChaCha12Rng;
use rand_core::{RngCore, SeedableRng};

pub(crate) struct SecureRng(ChaCha12Rng);

impl SecureRng {
    pub(crate) fn from_os() -> Result<Self, getrandom::Error> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed)?;
        Ok(SecureRng(ChaCha12Rng::from_seed(seed)))
    }

    #[inline]
    pub(crate) fn fill_words(&mut self, out: &mut [u32]) {
        // rand_chacha keeps a block buffer: next_u32 is a load and an index bump.
        for w in out {
            *w = self.0.next_u32();
        }
    }
}
