//! The explicit fast engine: xoshiro256++ seeded from the OS. Not a CSPRNG.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub(crate) struct FastRng(Xoshiro256PlusPlus);

impl FastRng {
    pub(crate) fn from_os() -> Result<Self, getrandom::Error> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed)?;
        Ok(FastRng(Xoshiro256PlusPlus::from_seed(seed)))
    }

    #[inline]
    pub(crate) fn fill_words(&mut self, out: &mut [u32]) {
        // Split each u64 with shifts, not by reinterpreting memory, so the
        // word order is the same on big-endian targets.
        let mut pairs = out.chunks_exact_mut(2);
        for pair in &mut pairs {
            let v = self.0.next_u64();
            pair[0] = v as u32;
            pair[1] = (v >> 32) as u32;
        }
        if let [last] = pairs.into_remainder() {
            *last = self.0.next_u64() as u32;
        }
    }
}
