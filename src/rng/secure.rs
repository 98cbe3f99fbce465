//! The default engine: a CSPRNG keyed from the OS.
//!
//! AES-128 in counter mode where the CPU has AES instructions (AES-NI/VAES on
//! x86-64, the ARMv8 crypto extension on aarch64), ChaCha12 elsewhere. Picked
//! by measurement (`cargo bench --bench engine -- rng`): encrypting counter
//! blocks with the `aes` crate (VAES here) costs ~1.2-1.5 ns per 16 bytes,
//! the `ctr` crate's Ctr64LE ~1.5-1.7 and Ctr128BE ~2.5, ChaCha8 ~4.9 and
//! ChaCha12 ~7.1 (rand_chacha). Both choices are standard CSPRNG
//! constructions (AES-CTR is the core of NIST's CTR_DRBG): an observer of any
//! number of ids cannot predict the next without the key.

use aes::Aes128;
use aes::cipher::array::Array;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use rand_chacha::ChaCha12Rng;
use rand_core::{RngCore, SeedableRng};

/// Words in one AES block.
const BLOCK_WORDS: usize = 4;

/// AES-128 in counter mode: block `i` of the stream is `AES_k(counter + i ||
/// nonce)`, with key, nonce and starting counter drawn from the OS. The
/// (counter, nonce) pair never repeats under one key, so blocks never repeat.
pub(crate) struct AesCtr {
    cipher: Aes128,
    nonce: u64,
    counter: u64,
    /// Words of the last block not yet handed out, at `spare[pos..]`.
    spare: [u32; BLOCK_WORDS],
    pos: usize,
}

impl AesCtr {
    fn new(seed: &[u8; 32]) -> Self {
        let key: [u8; 16] = seed[..16].try_into().expect("16 bytes");
        let word = |i: usize| u64::from_le_bytes(seed[i..i + 8].try_into().expect("8 bytes"));
        AesCtr {
            cipher: Aes128::new(&key.into()),
            nonce: word(16),
            counter: word(24),
            spare: [0; BLOCK_WORDS],
            pos: BLOCK_WORDS,
        }
    }

    /// Encrypts consecutive counter blocks into `out` (a multiple of 4 words).
    fn blocks(&mut self, out: &mut [u32]) {
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(out);
        for block in bytes.chunks_exact_mut(16) {
            block[..8].copy_from_slice(&self.counter.to_le_bytes());
            block[8..].copy_from_slice(&self.nonce.to_le_bytes());
            self.counter = self.counter.wrapping_add(1);
        }
        let (blocks, _) = Array::slice_as_chunks_mut(bytes);
        self.cipher.encrypt_blocks(blocks);
    }

    fn fill_words(&mut self, mut out: &mut [u32]) {
        let take = out.len().min(BLOCK_WORDS - self.pos);
        out[..take].copy_from_slice(&self.spare[self.pos..self.pos + take]);
        self.pos += take;
        out = &mut out[take..];
        let whole = out.len() / BLOCK_WORDS * BLOCK_WORDS;
        let (bulk, tail) = out.split_at_mut(whole);
        self.blocks(bulk);
        if !tail.is_empty() {
            let mut spare = [0u32; BLOCK_WORDS];
            self.blocks(&mut spare);
            tail.copy_from_slice(&spare[..tail.len()]);
            self.spare = spare;
            self.pos = tail.len();
        }
    }
}

/// Inline, not boxed: a reseed after a raw `clone` must not need the heap,
/// whose locks another thread of the parent may have held.
pub(crate) enum SecureRng {
    Aes(AesCtr),
    ChaCha(ChaCha12Rng),
}

/// Whether the CPU has AES instructions (the `aes` crate then uses them).
fn hardware_aes() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("aes")
    }
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("aes")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

impl SecureRng {
    pub(crate) fn from_os() -> Result<Self, getrandom::Error> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed)?;
        Ok(if hardware_aes() {
            SecureRng::Aes(AesCtr::new(&seed))
        } else {
            SecureRng::ChaCha(ChaCha12Rng::from_seed(seed))
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
            SecureRng::Aes(ctr) => {
                ctr.nonce ^= token;
                ctr.pos = BLOCK_WORDS;
            }
            SecureRng::ChaCha(rng) => rng.set_stream(rng.get_stream() ^ token),
        }
    }

    #[inline]
    pub(crate) fn fill_words(&mut self, out: &mut [u32]) {
        match self {
            // Words take the target's byte order: every order of uniformly
            // random bytes is uniformly random.
            SecureRng::Aes(ctr) => ctr.fill_words(out),
            SecureRng::ChaCha(rng) => rng.fill_bytes(bytemuck::cast_slice_mut(out)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream is AES-128 of the counter blocks (FIPS-197 checks the
    /// cipher itself; this checks our counter layout and spare handling).
    #[test]
    fn stream_is_aes_of_consecutive_counters() {
        let seed: [u8; 32] = std::array::from_fn(|i| i as u8 * 7 + 1);
        let mut rng = AesCtr::new(&seed);
        let mut got = Vec::new();
        for n in [1usize, 3, 4, 5, 17, 2, 64] {
            let mut buf = vec![0u32; n];
            rng.fill_words(&mut buf);
            got.extend(buf);
        }
        let reference = AesCtr::new(&seed);
        let mut want = Vec::new();
        let mut counter = reference.counter;
        while want.len() < got.len() {
            let mut block = [0u8; 16];
            block[..8].copy_from_slice(&counter.to_le_bytes());
            block[8..].copy_from_slice(&reference.nonce.to_le_bytes());
            let mut b = block.into();
            reference.cipher.encrypt_block(&mut b);
            want.extend(
                b.chunks_exact(4)
                    .map(|c| u32::from_ne_bytes(c.try_into().unwrap())),
            );
            counter = counter.wrapping_add(1);
        }
        assert_eq!(got, want[..got.len()]);
    }

    /// FIPS-197 appendix C.1: the `aes` crate is AES-128.
    #[test]
    fn aes128_known_answer() {
        let key: [u8; 16] = std::array::from_fn(|i| i as u8);
        let cipher = Aes128::new(&key.into());
        let mut block = [0u8; 16];
        for (i, b) in block.iter_mut().enumerate() {
            *b = (i as u8) * 0x11;
        }
        let mut b = block.into();
        cipher.encrypt_block(&mut b);
        let expect = [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4,
            0xc5, 0x5a,
        ];
        assert_eq!(b.as_slice(), &expect);
    }
}
