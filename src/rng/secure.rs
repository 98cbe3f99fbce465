//! The default RNG: a CSPRNG keyed from the OS.
//!
//! AES-128 in counter mode where the CPU has AES instructions (AES-NI/VAES on
//! x86-64, the ARMv8 crypto extension on aarch64; `aes_ctr`), ChaCha12
//! elsewhere (`chacha`). Picked by measurement (`cargo bench --bench engine
//! -- rng`, `kuuid bench`): AES-CTR runs 0.69-0.75 ns per 16 bytes with VAES
//! on Zen 4 (the `aes` crate's `encrypt_blocks` ~0.96, the `ctr` crate's
//! Ctr64LE ~1.5-1.7), ChaCha8 ~4.9 and ChaCha12 ~7.1 (rand_chacha on AVX2;
//! the in-crate ChaCha12 on SSE2 rows took 1.7x rand_chacha's time in one
//! run on an Emerald Rapids Xeon, a CPU that never needs it). Both choices are
//! standard CSPRNG constructions (AES-CTR is the core of NIST's CTR_DRBG): an
//! observer of any number of ids cannot predict the next without the key.
//! The key is erased after each request and the OS reseeds the generator
//! every [`RESEED_BYTES`], as CTR_DRBG updates its key after each request
//! and reseeds by count: a key read from memory reproduces nothing before
//! it and predicts nothing past the next reseed.

use super::aes_ctr::AesCtr;
use super::chacha::ChaCha12;
use crate::engine::Isa;

/// How many bytes a secure generator hands out between two seeds from the
/// OS: a key read from memory predicts at most this much of what follows
/// (fast key erasure already keeps everything before it). 1 MiB is 65,536
/// ids of 16 random bytes; one `getrandom` (0.4-0.6 us measured) a MiB is
/// under 0.01 ns an id. (rand's `ThreadRng` reseeds every 64 KiB, which
/// here would cost 0.1 ns an id, 1-2 % of `id()`.)
pub(crate) const RESEED_BYTES: u64 = 1 << 20;

/// Inline, not boxed: a reseed after a raw `clone` must not need the heap,
/// whose locks another thread of the parent may have held.
pub(crate) struct SecureRng {
    cipher: Cipher,
    /// Bytes handed out since the last seed from the OS.
    since_seed: u64,
}

enum Cipher {
    Aes(AesCtr),
    ChaCha(ChaCha12),
}

impl Cipher {
    fn new(seed: &[u8; 32]) -> Self {
        match AesCtr::new(seed) {
            Some(ctr) => Cipher::Aes(ctr),
            None => Cipher::ChaCha(ChaCha12::from_seed(seed)),
        }
    }
}

impl SecureRng {
    pub(crate) fn from_os() -> Result<Self, getrandom::Error> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed)?;
        let rng = SecureRng {
            cipher: Cipher::new(&seed),
            since_seed: 0,
        };
        erase(&mut seed);
        Ok(rng)
    }

    pub(crate) fn name(&self) -> &'static str {
        match self.cipher {
            Cipher::Aes(_) => "AES-128-CTR",
            Cipher::ChaCha(_) => "ChaCha12",
        }
    }

    pub(crate) fn perturb(&mut self, token: u64) {
        match &mut self.cipher {
            Cipher::Aes(ctr) => ctr.perturb(token),
            Cipher::ChaCha(rng) => rng.perturb(token),
        }
    }

    /// Fills `out`, then erases the key that made it (AES: the next block
    /// is the key; ChaCha: 32 more bytes seed a new generator), and every
    /// [`RESEED_BYTES`] takes a new seed from the OS. If the OS fails, the
    /// generator goes on (keys still erased) and asks again next time.
    #[inline]
    pub(crate) fn fill_words(&mut self, isa: Isa, out: &mut [u32]) {
        match &mut self.cipher {
            // Words take the target's byte order: every order of uniformly
            // random bytes is uniformly random.
            Cipher::Aes(ctr) => ctr.fill_words(isa, out),
            Cipher::ChaCha(rng) => rng.fill_words(out),
        }
        self.since_seed = self.since_seed.saturating_add(4 * out.len() as u64);
        if self.since_seed >= RESEED_BYTES {
            self.reseed();
        }
    }

    /// A new seed from the OS.
    #[cold]
    fn reseed(&mut self) {
        let mut seed = [0u8; 32];
        if getrandom::fill(&mut seed).is_ok() {
            self.cipher = Cipher::new(&seed);
            self.since_seed = 0;
        }
        erase(&mut seed);
    }

    /// The cipher's current key, for the tests of what a captured key
    /// reveals (AES only).
    #[cfg(test)]
    pub(crate) fn aes(&mut self) -> Option<&mut AesCtr> {
        match &mut self.cipher {
            Cipher::Aes(ctr) => Some(ctr),
            Cipher::ChaCha(_) => None,
        }
    }
}

/// Zeroes a seed on the stack once it is used (as far as safe code can).
fn erase(seed: &mut [u8; 32]) {
    seed.fill(0);
    std::hint::black_box(seed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key read from memory predicts what follows only until the next
    /// seed from the OS: run forward from the captured key (the erasing
    /// chain, as an attacker would), it makes the batches up to the
    /// reseed, and no block of any batch after it.
    #[test]
    fn a_captured_key_predicts_nothing_past_the_next_reseed() {
        let mut rng = SecureRng::from_os().unwrap();
        let isa = crate::engine::isa();
        let batch = 4096; // words: 16 KiB, 64 batches a reseed
        let batches_a_seed = (RESEED_BYTES / (4 * batch as u64)) as usize;
        let mut buf = vec![0u32; batch];
        for _ in 0..batches_a_seed - 2 {
            rng.fill_words(isa, &mut buf);
        }
        let Some(ctr) = rng.aes() else {
            eprintln!("skipped: no AES instructions (ChaCha12 erases its key alike)");
            return;
        };
        let mut attacker = ctr.model();
        let mut after: std::collections::HashSet<Vec<u32>> = Default::default();
        let mut guesses = Vec::new();
        for i in 0..8 {
            rng.fill_words(isa, &mut buf);
            let guess = attacker.fill(batch);
            if i < 2 {
                assert_eq!(guess, buf, "batch {i}, before the reseed");
            } else {
                after.extend(buf.chunks(4).map(<[u32]>::to_vec));
                guesses.extend(guess);
            }
        }
        // The attacker's chain, run well past the batches it had to guess.
        for _ in 0..64 {
            guesses.extend(attacker.fill(batch));
        }
        for b in guesses.chunks(4) {
            assert!(!after.contains(b), "a block after the reseed was predicted");
        }
    }

    /// ChaCha12 (CPUs without AES instructions) erases its key as AES does:
    /// the generator left after a request, run from the start of its
    /// stream and on, makes none of that request's words.
    #[test]
    fn chacha_erases_its_key_after_each_request() {
        let mut rng = SecureRng {
            cipher: Cipher::ChaCha(ChaCha12::from_seed(&[9; 32])),
            since_seed: 0,
        };
        let isa = crate::engine::isa();
        let mut earlier = vec![0u32; 1024];
        rng.fill_words(isa, &mut earlier);
        let Cipher::ChaCha(captured) = &rng.cipher else {
            unreachable!()
        };
        let key = captured.key();
        // The key itself is no run of words the request handed out (a key
        // taken from its last 8 words would be).
        assert!(
            earlier.windows(8).all(|w| w != key),
            "the captured key is words the generator handed out"
        );
        let mut probe = ChaCha12::from_seed(bytemuck::cast_ref(&key));
        let mut words = vec![0u32; 64 * 1024];
        probe.fill_words(&mut words);
        let earlier: std::collections::HashSet<&[u32]> = earlier.chunks(4).collect();
        assert!(
            words.chunks(4).all(|w| !earlier.contains(w)),
            "the generator left behind made an earlier request's words"
        );
        assert_ne!(
            key,
            ChaCha12::from_seed(&[9; 32]).key(),
            "the key did not change"
        );
    }
}
