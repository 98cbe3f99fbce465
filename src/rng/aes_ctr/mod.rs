//! AES-128 in counter mode, the secure RNG's stream on CPUs with AES
//! instructions: block `i` is `AES_k(counter + i || nonce)`.
//!
//! The counter blocks are made and encrypted in registers and each result is
//! stored once, into the caller's buffer (the kernels are
//! `engine/x86_64/aes_ctr.rs` and `engine/aarch64/aes_ctr.rs`): the `aes`
//! crate's `encrypt_blocks` loads and stores each batch through arrays,
//! which costs about as much as the rounds (docs/performance.md,
//! "Measurements behind the code"). The `aes` crate stays the reference
//! the tests compare with.

// The portable schedule: aarch64's (no key-schedule instruction), and on
// x86-64 the reference the AES-NI schedule is tested against.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
mod schedule;

// The kernels, with every other intrinsic, live under `engine/`.
#[cfg(target_arch = "aarch64")]
use crate::engine::aarch64::aes_ctr as aarch64;
#[cfg(target_arch = "x86_64")]
use crate::engine::x86_64::aes_ctr as x86_64;

use super::spare::Spare;
use crate::engine::Isa;
use schedule::RoundKeys;

/// Words in one AES block.
const BLOCK_WORDS: usize = 4;

/// Whether this CPU has the AES instructions the kernels need.
pub(crate) fn is_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("aes")
            && std::is_x86_feature_detected!("sse2")
            && std::is_x86_feature_detected!("ssse3")
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

/// AES-128-CTR with key, nonce and starting counter from a seed, with
/// fast key erasure: after each request the next counter block, encrypted,
/// becomes the key, and the old round keys are overwritten. A key read from
/// memory (a core dump, a disclosure) then reproduces no earlier request:
/// going back would mean finding an AES key from one plaintext and its
/// ciphertext. The (counter, nonce) pair never repeats under one key (a
/// fork's child changes the nonce), so blocks never repeat.
pub(crate) struct AesCtr {
    stream: Stream,
}

impl AesCtr {
    /// The generator for `seed`: key, nonce, first counter. `None` where
    /// the CPU has no AES instructions.
    pub(crate) fn new(seed: &[u8; 32]) -> Option<Self> {
        Some(AesCtr {
            stream: Stream::new(seed)?,
        })
    }

    /// Moves to the stream of nonce `nonce ^ token` (a fork's child, when
    /// the OS cannot reseed it), dropping the parent's spare words.
    pub(crate) fn perturb(&mut self, token: u64) {
        self.stream.perturb(token);
    }

    /// Fills `out` with the stream's next words, then rekeys: the next
    /// counter block, encrypted under the old key, is the new key (+41-45
    /// ns a 1024-word batch on AES-NI, `rekey_cost`; computing it before
    /// the request, to overlap the request's AES work, measured no faster).
    pub(crate) fn fill_words(&mut self, isa: Isa, out: &mut [u32]) {
        self.stream.fill_words(isa, out);
        let blocks = &mut self.stream.blocks;
        blocks.keys = blocks.rekeyed(isa, blocks.counter);
        blocks.counter = blocks.counter.wrapping_add(1);
    }

    /// The current key (round 0), for the tests of what a captured key
    /// reveals.
    #[cfg(test)]
    fn key(&self) -> [u8; 16] {
        self.stream.blocks.keys[0]
    }

    /// What an attacker who read the key, counter and nonce from memory
    /// can run (spare words aside: the tests capture between batches of
    /// whole blocks).
    #[cfg(test)]
    pub(crate) fn model(&self) -> Model {
        let b = &self.stream.blocks;
        Model::new(b.keys[0], b.counter, b.nonce)
    }
}

/// AES-128-CTR as it is, one key for ever: the kernels' stream, which the
/// tests and the fuzz target hold against the `aes` crate.
pub(crate) struct Stream {
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

impl Stream {
    /// The stream for `seed`: key, nonce, first counter. `None` where the CPU
    /// has no AES instructions.
    pub(crate) fn new(seed: &[u8; 32]) -> Option<Self> {
        if !is_supported() {
            return None;
        }
        let word = |i: usize| u64::from_le_bytes(seed[i..i + 8].try_into().expect("8 bytes"));
        let blocks = Blocks {
            keys: expand(seed[..16].try_into().expect("16 bytes")),
            nonce: word(16),
            counter: word(24),
            #[cfg(target_arch = "x86_64")]
            vaes256: std::is_x86_feature_detected!("vaes") && std::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            vaes512: std::is_x86_feature_detected!("vaes")
                && std::is_x86_feature_detected!("avx512f"),
        };
        Some(Stream {
            blocks,
            spare: Spare::empty(),
        })
    }

    /// Moves to the stream of nonce `nonce ^ token`, dropping the spare words.
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

/// The round keys of `key`, on the CPU's key-schedule instruction where
/// there is one (the caller checked [`is_supported`]).
fn expand(key: &[u8; 16]) -> RoundKeys {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: callers hold a `Stream`, made only where AES-NI, SSE2
        // and SSSE3 are (`is_supported`).
        unsafe { x86_64::expand_aesni(key) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        schedule::expand(key)
    }
}

impl Blocks {
    /// The round keys of block `at`, encrypted under the current keys
    /// (fast key erasure); the copies on the stack are zeroed as far as
    /// safe code can (the compiler may keep others in registers).
    fn rekeyed(&self, isa: Isa, at: u64) -> RoundKeys {
        let mut next = [0u32; BLOCK_WORDS];
        self.encrypt_at(isa, at, &mut next);
        let mut key: [u8; 16] = bytemuck::cast(next);
        let keys = expand(&key);
        next.fill(0);
        key.fill(0);
        std::hint::black_box((&next, &key));
        keys
    }

    /// Encrypts the next `out.len() / 4` counter blocks into `out` (a
    /// multiple of 4 words), on the widest AES instructions that `isa`'s
    /// registers allow.
    fn encrypt(&mut self, isa: Isa, out: &mut [u32]) {
        self.encrypt_at(isa, self.counter, out);
        self.counter = self.counter.wrapping_add((out.len() / BLOCK_WORDS) as u64);
    }

    /// Encrypts counter blocks `counter..` into `out` (a multiple of 4
    /// words), on the widest AES instructions that `isa`'s registers allow.
    fn encrypt_at(&self, isa: Isa, counter: u64, out: &mut [u32]) {
        let blocks: &mut [[u8; 16]] = bytemuck::cast_slice_mut(out);
        let (keys, nonce) = (&self.keys, self.nonce);
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
        // Elsewhere no stream is ever made (`AesCtr::new` says `None`).
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let _ = (isa, counter, blocks, keys, nonce);
    }
}

/// The erasing generator as a model on the `aes` crate: what [`AesCtr`]
/// must hand out, and what an attacker holding a key can compute.
#[cfg(test)]
pub(crate) struct Model {
    pub(crate) key: [u8; 16],
    pub(crate) counter: u64,
    pub(crate) nonce: u64,
    spare: Vec<u32>,
}

#[cfg(test)]
impl Model {
    pub(crate) fn new(key: [u8; 16], counter: u64, nonce: u64) -> Self {
        Model {
            key,
            counter,
            nonce,
            spare: Vec::new(),
        }
    }

    fn block(&mut self) -> [u32; 4] {
        use aes::cipher::{BlockCipherEncrypt, KeyInit};
        let cipher = aes::Aes128::new(&self.key.into());
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&self.counter.to_le_bytes());
        b[8..].copy_from_slice(&self.nonce.to_le_bytes());
        let mut b = b.into();
        cipher.encrypt_block(&mut b);
        self.counter = self.counter.wrapping_add(1);
        std::array::from_fn(|i| u32::from_ne_bytes(b[4 * i..4 * i + 4].try_into().unwrap()))
    }

    /// One request of `n` words, then the rekey.
    pub(crate) fn fill(&mut self, n: usize) -> Vec<u32> {
        let mut out: Vec<u32> = self.spare.drain(..self.spare.len().min(n)).collect();
        while out.len() < n {
            let b = self.block();
            let take = (n - out.len()).min(4);
            out.extend_from_slice(&b[..take]);
            self.spare = b[take..].to_vec();
        }
        self.key = bytemuck::cast(self.block());
        out
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
        let Some(_) = Stream::new(&[0; 32]) else {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        };
        let seed: [u8; 32] = std::array::from_fn(|i| i as u8 * 7 + 1);
        for isa in paths() {
            let mut rng = Stream::new(&seed).unwrap();
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
        let Some(_) = Stream::new(&[0; 32]) else {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        };
        let seed = [0x5a; 32];
        for isa in paths() {
            for back in 0..40u64 {
                let mut rng = Stream::new(&seed).unwrap();
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
            if Stream::new(&seed).is_none() {
                return Ok(());
            }
            for isa in paths() {
                let mut rng = Stream::new(&seed).unwrap();
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
        let Some(_) = Stream::new(&[0; 32]) else {
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
            let mut rng = Stream::new(&seed).unwrap();
            let mut words = [0u32; 4 * 64];
            rng.fill_words(isa, &mut words);
            let bytes: &[u8] = bytemuck::cast_slice(&words);
            assert_eq!(bytes[..16], expect, "{isa}");
        }
    }

    /// The AES-NI key schedule is the standard's (the portable one), for
    /// FIPS-197's key and any other.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_aesni_schedule_is_the_portable_one() {
        if !is_supported() {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        }
        let mut key: [u8; 16] = std::array::from_fn(|i| [0x2b, 0x7e, 0x15, 0x16][i % 4] ^ i as u8);
        for _ in 0..10_000 {
            // SAFETY: AES-NI checked above.
            let hw = unsafe { x86_64::expand_aesni(&key) };
            assert_eq!(hw, schedule::expand(&key), "{key:02x?}");
            key = hw[10];
        }
    }

    /// Each request is AES-128-CTR under the key of the moment, and after
    /// each the next counter block, encrypted, becomes the key: on every
    /// path, for request sizes across the kernels' units, spare words
    /// included.
    #[test]
    fn each_request_rekeys_with_the_next_block() {
        let Some(_) = Stream::new(&[0; 32]) else {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        };
        let seed: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(13) ^ 5);
        for isa in paths() {
            let mut rng = AesCtr::new(&seed).unwrap();
            let b = &rng.stream.blocks;
            let mut model = Model::new(seed[..16].try_into().unwrap(), b.counter, b.nonce);
            for n in [1usize, 3, 4, 5, 17, 2, 64, 1024, 124, 4 * 37 + 3, 7] {
                let mut got = vec![0u32; n];
                rng.fill_words(isa, &mut got);
                assert_eq!(got, model.fill(n), "{isa} {n}");
                assert_eq!(rng.key(), model.key, "{isa} {n}");
            }
        }
    }

    /// What a key read from memory between two batches gives: the next
    /// batch (inherent, until the OS reseeds: `secure.rs`), and nothing of
    /// the batches before it. Before key erasure the one key gave both:
    /// run at the counters already used, it made the earlier batches again.
    #[test]
    fn a_captured_key_reproduces_no_earlier_batch() {
        let Some(mut rng) = AesCtr::new(&[0x42; 32]) else {
            eprintln!("skipped: this CPU has no AES instructions");
            return;
        };
        let isa = crate::engine::isa();
        let start = rng.stream.blocks.counter;
        let mut earlier = vec![0u32; 2 * 1024];
        rng.fill_words(isa, &mut earlier[..1024]);
        rng.fill_words(isa, &mut earlier[1024..]);
        let (captured, counter, nonce) = (
            rng.key(),
            rng.stream.blocks.counter,
            rng.stream.blocks.nonce,
        );
        let mut next = vec![0u32; 1024];
        rng.fill_words(isa, &mut next);
        assert_eq!(
            Model::new(captured, counter, nonce).fill(1024),
            next,
            "the captured key is the one that makes the next batch"
        );
        // The key itself is no block the earlier batches handed out (a
        // key taken from the last emitted block would be).
        let key_words: [u32; 4] = bytemuck::cast(captured);
        let earlier_blocks: std::collections::HashSet<&[u32]> = earlier.chunks(4).collect();
        assert!(
            !earlier_blocks.contains(&key_words[..]),
            "the captured key is a block the generator handed out"
        );
        // Every block the captured key makes at the counters used so far
        // and well around them: none is a block of the earlier batches.
        let mut probe = Model::new(captured, start.wrapping_sub(4096), nonce);
        for _ in 0..3 * 4096 {
            let b = probe.block();
            assert!(
                !earlier_blocks.contains(&b[..]),
                "the captured key made an earlier block"
            );
        }
    }

    /// What key erasure costs a batch, measured in one process: the same
    /// 1024-word batches (256 ids' worth) from the raw stream and from the
    /// erasing generator, alternated over many rounds so that both see the
    /// same machine; prints the medians. Not a pass/fail test (timing):
    /// `cargo test --release --lib -- --ignored --nocapture rekey_cost`.
    #[test]
    #[ignore]
    fn rekey_cost() {
        let Some(mut raw) = Stream::new(&[1; 32]) else {
            return;
        };
        let mut erasing = AesCtr::new(&[1; 32]).unwrap();
        for isa in paths() {
            let mut buf = vec![0u32; 1024];
            let (mut t_raw, mut t_erasing) = (Vec::new(), Vec::new());
            for _ in 0..200 {
                let t = std::time::Instant::now();
                for _ in 0..1000 {
                    raw.fill_words(isa, &mut buf);
                    std::hint::black_box(&buf);
                }
                t_raw.push(t.elapsed().as_nanos() as f64 / 1000.0);
                let t = std::time::Instant::now();
                for _ in 0..1000 {
                    erasing.fill_words(isa, &mut buf);
                    std::hint::black_box(&buf);
                }
                t_erasing.push(t.elapsed().as_nanos() as f64 / 1000.0);
            }
            let median = |v: &mut Vec<f64>| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let (r, e) = (median(&mut t_raw), median(&mut t_erasing));
            println!(
                "{isa}: a 1024-word batch {r:.1} ns raw, {e:.1} ns erasing: +{:.1} ns a batch, +{:.3} ns an id of 16 bytes",
                e - r,
                (e - r) / 256.0
            );
        }
    }

    /// The parts of a rekey, timed alone (see `rekey_cost`).
    #[cfg(target_arch = "x86_64")]
    #[test]
    #[ignore]
    fn rekey_parts_cost() {
        let Some(mut raw) = Stream::new(&[1; 32]) else {
            return;
        };
        let mut key = [3u8; 16];
        let t = std::time::Instant::now();
        for _ in 0..1_000_000 {
            // SAFETY: a Stream exists, so AES-NI does.
            let k = unsafe { x86_64::expand_aesni(std::hint::black_box(&key)) };
            key = k[10];
        }
        println!(
            "expand_aesni: {:.1} ns (chained)",
            t.elapsed().as_nanos() as f64 / 1e6
        );
        let t = std::time::Instant::now();
        for _ in 0..1_000_000 {
            let k = schedule::expand(std::hint::black_box(&key));
            key = k[10];
        }
        println!(
            "portable expand: {:.1} ns (chained)",
            t.elapsed().as_nanos() as f64 / 1e6
        );
        for isa in paths() {
            let mut one = [0u32; 4];
            let t = std::time::Instant::now();
            for _ in 0..1_000_000 {
                raw.blocks.encrypt(isa, &mut one);
                std::hint::black_box(&one);
            }
            println!(
                "{isa}: one block: {:.1} ns",
                t.elapsed().as_nanos() as f64 / 1e6
            );
        }
    }
}
