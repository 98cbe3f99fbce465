//! AES-128 in counter mode, the secure engine's stream on CPUs with AES
//! instructions: block `i` is `AES_k(counter + i || nonce)`.
//!
//! The counter blocks are made and encrypted in registers and each result is
//! stored once, into the caller's buffer (`x86_64.rs`, `aarch64.rs`). Until
//! stop 35 the stream came from the `aes` crate's `encrypt_blocks` over
//! counter blocks written to memory first; that crate loads and stores each
//! batch through arrays, which took about as long as the rounds (perf, an
//! `id()` loop on Zen 4: the array plumbing 12 % of the time, the rounds 9 %).
//! The `aes` crate stays the reference the tests compare with.

mod schedule;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use super::spare::Spare;
use crate::engine::Isa;
use schedule::RoundKeys;

/// Words in one AES block.
const BLOCK_WORDS: usize = 4;

/// Whether this CPU has the AES instructions the kernels need.
pub(crate) fn is_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("aes") && std::is_x86_feature_detected!("sse2")
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

/// AES-128-CTR with key, nonce and starting counter from a seed. The
/// (counter, nonce) pair never repeats under one key (a fork's child changes
/// the nonce), so blocks never repeat.
pub(crate) struct AesCtr {
    blocks: Blocks,
    spare: Spare<BLOCK_WORDS>,
}

/// The block stream: key, nonce, next counter, and the CPU's AES units.
struct Blocks {
    keys: RoundKeys,
    nonce: u64,
    counter: u64,
    /// Which wide AES instructions the CPU has (fixed at construction).
    #[cfg(target_arch = "x86_64")]
    vaes256: bool,
    #[cfg(target_arch = "x86_64")]
    vaes512: bool,
}

impl AesCtr {
    /// The stream for `seed`: key, nonce, first counter. `None` where the CPU
    /// has no AES instructions.
    pub(crate) fn new(seed: &[u8; 32]) -> Option<Self> {
        if !is_supported() {
            return None;
        }
        let word = |i: usize| u64::from_le_bytes(seed[i..i + 8].try_into().expect("8 bytes"));
        let blocks = Blocks {
            keys: schedule::expand(seed[..16].try_into().expect("16 bytes")),
            nonce: word(16),
            counter: word(24),
            #[cfg(target_arch = "x86_64")]
            vaes256: std::is_x86_feature_detected!("vaes") && std::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            vaes512: std::is_x86_feature_detected!("vaes")
                && std::is_x86_feature_detected!("avx512f"),
        };
        Some(AesCtr {
            blocks,
            spare: Spare::empty(),
        })
    }

    /// Moves to the stream of nonce `nonce ^ token` (a fork's child, when
    /// the OS cannot reseed it), dropping the parent's spare words.
    pub(crate) fn perturb(&mut self, token: u64) {
        self.blocks.nonce ^= token;
        self.spare.clear();
    }

    /// Fills `out` with the stream's next words, spare words first.
    pub(crate) fn fill_words(&mut self, isa: Isa, out: &mut [u32]) {
        let blocks = &mut self.blocks;
        self.spare.fill(out, |words| blocks.encrypt(isa, words));
    }
}

impl Blocks {
    /// Encrypts the next `out.len() / 4` counter blocks into `out` (a
    /// multiple of 4 words), on the widest AES instructions that `isa`'s
    /// registers allow.
    fn encrypt(&mut self, isa: Isa, out: &mut [u32]) {
        let blocks: &mut [[u8; 16]] = bytemuck::cast_slice_mut(out);
        let (keys, counter, nonce) = (&self.keys, self.counter, self.nonce);
        #[cfg(target_arch = "x86_64")]
        match isa {
            // SAFETY: `vaes512` says the CPU has AVX-512F and VAES, and
            // `AesCtr::new` checked AES-NI and SSE2; set once, never changed.
            Isa::Avx512 if self.vaes512 => unsafe {
                x86_64::ctr_vaes512(keys, counter, nonce, blocks)
            },
            // SAFETY: as above, with AVX2 and VAES.
            Isa::Avx2 | Isa::Avx512 if self.vaes256 => unsafe {
                x86_64::ctr_vaes256(keys, counter, nonce, blocks)
            },
            // SAFETY: `AesCtr::new` makes a stream only where AES-NI and
            // SSE2 are.
            _ => unsafe { x86_64::ctr_aesni(keys, counter, nonce, blocks) },
        }
        #[cfg(target_arch = "aarch64")]
        {
            let _ = isa;
            // SAFETY: `AesCtr::new` makes a stream only where the AES
            // instructions are.
            unsafe { aarch64::ctr(keys, counter, nonce, blocks) }
        }
        self.counter = counter.wrapping_add(blocks.len() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes::Aes128;
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    use proptest::prelude::Strategy;

    /// The words of blocks `counter..counter + n` under the `aes` crate.
    fn reference(seed: &[u8; 32], counter: u64, nonce: u64, n: usize) -> Vec<u32> {
        let key: [u8; 16] = seed[..16].try_into().unwrap();
        let cipher = Aes128::new(&key.into());
        let mut words = Vec::new();
        for i in 0..n as u64 {
            let mut block = [0u8; 16];
            block[..8].copy_from_slice(&counter.wrapping_add(i).to_le_bytes());
            block[8..].copy_from_slice(&nonce.to_le_bytes());
            let mut b = block.into();
            cipher.encrypt_block(&mut b);
            words.extend(
                b.chunks_exact(4)
                    .map(|c| u32::from_ne_bytes(c.try_into().unwrap())),
            );
        }
        words
    }

    /// Every path this CPU has, so each kernel is checked where it can run.
    fn paths() -> Vec<Isa> {
        Isa::available()
    }

    /// The stream is AES-128 of consecutive counter blocks, on every path,
    /// for request sizes that cross each kernel's unit (1, 2, 4 blocks a
    /// register, 8 registers), spare words included.
    #[test]
    fn stream_is_aes_of_consecutive_counters() {
        let Some(_) = AesCtr::new(&[0; 32]) else {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        };
        let seed: [u8; 32] = std::array::from_fn(|i| i as u8 * 7 + 1);
        for isa in paths() {
            let mut rng = AesCtr::new(&seed).unwrap();
            let (counter, nonce) = (rng.blocks.counter, rng.blocks.nonce);
            let mut got = Vec::new();
            for n in [1usize, 3, 4, 5, 17, 2, 64, 128, 124, 1024, 4 * 37 + 3] {
                let mut buf = vec![0u32; n];
                rng.fill_words(isa, &mut buf);
                got.extend(buf);
            }
            let want = reference(&seed, counter, nonce, got.len().div_ceil(4));
            assert_eq!(got, want[..got.len()], "{isa}");
        }
    }

    /// The counter wraps as a `u64` inside the registers as it does in the
    /// reference, at every offset within a kernel's unit.
    #[test]
    fn counter_wraps_like_the_reference() {
        let Some(_) = AesCtr::new(&[0; 32]) else {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        };
        let seed = [0x5a; 32];
        for isa in paths() {
            for back in 0..40u64 {
                let mut rng = AesCtr::new(&seed).unwrap();
                rng.blocks.counter = 0u64.wrapping_sub(back);
                let mut got = vec![0u32; 4 * 80];
                rng.fill_words(isa, &mut got);
                assert_eq!(
                    got,
                    reference(
                        &seed,
                        rng.blocks.counter.wrapping_sub(80),
                        rng.blocks.nonce,
                        80
                    ),
                    "{isa} {back}"
                );
            }
        }
    }

    proptest::proptest! {
        /// Any key, nonce and counter (wrapping included) and any request
        /// sizes, on every path: the differential proof of the kernels
        /// against the `aes` crate.
        #[test]
        fn any_seed_matches_the_reference(
            seed in proptest::prelude::any::<[u8; 32]>(),
            counter in proptest::prop_oneof![
                proptest::prelude::any::<u64>(),
                (0u64..80).prop_map(|back| 0u64.wrapping_sub(back)),
            ],
            sizes in proptest::collection::vec(0usize..300, 1..6),
        ) {
            if AesCtr::new(&seed).is_none() {
                return Ok(());
            }
            for isa in paths() {
                let mut rng = AesCtr::new(&seed).unwrap();
                rng.blocks.counter = counter;
                let mut got = Vec::new();
                for &n in &sizes {
                    let mut buf = vec![0u32; n];
                    rng.fill_words(isa, &mut buf);
                    got.extend(buf);
                }
                let want = reference(&seed, counter, rng.blocks.nonce, got.len().div_ceil(4));
                proptest::prop_assert_eq!(&got[..], &want[..got.len()], "{}", isa);
            }
        }
    }

    /// FIPS-197 appendix C.1 through the kernels: with counter and nonce
    /// chosen to spell the plaintext, block 0 is the standard's ciphertext.
    #[test]
    fn aes128_known_answer() {
        let Some(_) = AesCtr::new(&[0; 32]) else {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        };
        let plain: [u8; 16] = std::array::from_fn(|i| i as u8 * 0x11);
        let mut seed = [0u8; 32];
        seed[..16].copy_from_slice(&std::array::from_fn::<u8, 16, _>(|i| i as u8));
        seed[16..24].copy_from_slice(&plain[8..]);
        seed[24..].copy_from_slice(&plain[..8]);
        let expect = [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4,
            0xc5, 0x5a,
        ];
        for isa in paths() {
            let mut rng = AesCtr::new(&seed).unwrap();
            let mut words = [0u32; 4 * 64];
            rng.fill_words(isa, &mut words);
            let bytes: &[u8] = bytemuck::cast_slice(&words);
            assert_eq!(bytes[..16], expect, "{isa}");
        }
    }
}
