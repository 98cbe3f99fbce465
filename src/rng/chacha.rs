//! ChaCha12: the secure RNG on CPUs without AES instructions (a
//! Raspberry Pi 4's Cortex-A72, older Atoms).
//!
//! Bernstein's ChaCha with its original layout (a 64-bit block counter and
//! a 64-bit stream number), as `rand_chacha` lays it out: the tests check
//! this code word for word against `rand_chacha` (a dev-dependency) at 8,
//! 12 and 20 rounds. Written here rather than depended on because
//! `rand_chacha` brought `ppv-lite86` and `zerocopy`, 4.5 s of the 10.7 s
//! clean debug build of a hello world that calls `kuuid::id()` (issue 42,
//! item 9), for a fallback most CPUs never run. Four blocks at a time, as
//! arrays of four lanes that the compiler keeps in SSE2 or NEON registers.

/// `"expand 32-byte k"`.
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// Words a batch of four blocks makes.
const BATCH: usize = 64;

use crate::engine::row::{Lanes, Row, Simd};

/// A key and a stream; every request starts at block 0 and ends by
/// drawing the next key from the stream (fast key erasure).
pub(crate) struct ChaCha12 {
    key: [u32; 8],
    stream: u64,
}

impl ChaCha12 {
    /// Keyed by `seed` (read as little-endian words), on stream 0.
    pub(crate) fn from_seed(seed: &[u8; 32]) -> Self {
        let mut key = [0u32; 8];
        for (k, b) in key.iter_mut().zip(seed.chunks_exact(4)) {
            *k = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        ChaCha12 { key, stream: 0 }
    }

    /// Moves to another stream (a fork or a raw clone: the copies of one
    /// generator part ways).
    pub(crate) fn perturb(&mut self, token: u64) {
        self.stream ^= token;
    }

    /// Fills `out` from the stream's start, then keys the generator with
    /// the next 8 words (on stream 0) and erases the words it kept: the
    /// generator left behind makes nothing of what it handed out.
    pub(crate) fn fill_words(&mut self, out: &mut [u32]) {
        let mut counter = 0;
        let mut chunks = out.chunks_exact_mut(BATCH);
        for chunk in &mut chunks {
            chunk.copy_from_slice(&batch::<12>(&self.key, counter, self.stream));
            counter += 4;
        }
        let rest = chunks.into_remainder();
        let n = rest.len();
        let mut tail = [0u32; 2 * BATCH];
        tail[..BATCH].copy_from_slice(&batch::<12>(&self.key, counter, self.stream));
        if n + 8 > BATCH {
            tail[BATCH..].copy_from_slice(&batch::<12>(&self.key, counter + 4, self.stream));
        }
        rest.copy_from_slice(&tail[..n]);
        self.key.copy_from_slice(&tail[n..n + 8]);
        self.stream = 0;
        tail.fill(0);
        std::hint::black_box(&tail);
    }

    /// The current key, for the tests of what a captured key reveals.
    #[cfg(test)]
    pub(crate) fn key(&self) -> [u32; 8] {
        self.key
    }
}

/// Blocks `counter..counter + 4` of `stream`, one after the other: two
/// pairs, each pair's rounds interleaved for the CPU to overlap.
fn batch<const ROUNDS: usize>(key: &[u32; 8], counter: u64, stream: u64) -> [u32; BATCH] {
    let mut out = [0u32; BATCH];
    for (i, pair) in out.chunks_exact_mut(32).enumerate() {
        let words = |j: u64| {
            let c = counter.wrapping_add(2 * i as u64 + j);
            [
                c as u32,
                (c >> 32) as u32,
                stream as u32,
                (stream >> 32) as u32,
            ]
        };
        pair.copy_from_slice(bytemuck::cast_slice(&blocks::<ROUNDS, Simd>(
            key,
            [words(0), words(1)],
        )));
    }
    out
}

/// Two blocks, each as four rows of four words (a row is one SSE2 or NEON
/// register): a double round is a column round, a turn of rows 1-3 that
/// lines the diagonals up as columns, a column round and the turn back.
#[inline(always)]
fn blocks<const ROUNDS: usize, R: Row>(key: &[u32; 8], last: [Lanes; 2]) -> [[u32; 16]; 2] {
    let start = last.map(|last| {
        [
            SIGMA,
            [key[0], key[1], key[2], key[3]],
            [key[4], key[5], key[6], key[7]],
            last,
        ]
        .map(R::load)
    });
    let mut x = start;
    for _ in 0..ROUNDS / 2 {
        columns(&mut x);
        for [_, b, c, d] in &mut x {
            (*b, *c, *d) = (b.turn::<1>(), c.turn::<2>(), d.turn::<3>());
        }
        columns(&mut x);
        for [_, b, c, d] in &mut x {
            (*b, *c, *d) = (b.turn::<3>(), c.turn::<2>(), d.turn::<1>());
        }
    }
    let mut out = [[0u32; 16]; 2];
    for ((o, x), s) in out.iter_mut().zip(&x).zip(&start) {
        for row in 0..4 {
            o[4 * row..4 * row + 4].copy_from_slice(&x[row].add(s[row]).store());
        }
    }
    out
}

/// Four quarter rounds a block, one a column, both blocks step by step.
#[inline(always)]
fn columns<R: Row>(x: &mut [[R; 4]; 2]) {
    macro_rules! step {
        ($a:literal += $b:literal, $d:literal ^=, $l:literal, $r:literal) => {
            for [row_0, row_1, row_2, row_3] in x.iter_mut() {
                let rows = [row_0, row_1, row_2, row_3];
                *rows[$a] = rows[$a].add(*rows[$b]);
                *rows[$d] = rows[$d].xor(*rows[$a]).rotate::<$l, $r>();
            }
        };
    }
    step!(0 += 1, 3 ^=, 16, 16);
    step!(2 += 3, 1 ^=, 12, 20);
    step!(0 += 1, 3 ^=, 8, 24);
    step!(2 += 3, 1 ^=, 7, 25);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};

    fn words(rng: &mut impl RngCore, n: usize) -> Vec<u32> {
        let mut bytes = vec![0u8; 4 * n];
        rng.fill_bytes(&mut bytes);
        bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    /// The block function is rand_chacha's, at every round count it has,
    /// at counters that carry into the high word and at any stream.
    #[test]
    fn blocks_match_rand_chacha() {
        let mut seeds = rand_chacha::ChaCha8Rng::from_seed([3; 32]);
        for _ in 0..200 {
            let mut seed = [0u8; 32];
            seeds.fill_bytes(&mut seed);
            let stream = seeds.next_u64();
            let counter = match seeds.next_u32() % 3 {
                0 => 0,
                1 => u64::from(u32::MAX) - 1,
                _ => seeds.next_u64() >> 8,
            };
            let key = ChaCha12::from_seed(&seed).key;
            macro_rules! check {
                ($rounds:literal, $theirs:ty) => {{
                    let mut theirs = <$theirs>::from_seed(seed);
                    theirs.set_stream(stream);
                    theirs.set_word_pos(u128::from(counter) * 16);
                    assert_eq!(
                        batch::<$rounds>(&key, counter, stream).to_vec(),
                        words(&mut theirs, BATCH),
                        "{} rounds, counter {counter}",
                        $rounds
                    );
                }};
            }
            check!(8, rand_chacha::ChaCha8Rng);
            check!(12, rand_chacha::ChaCha12Rng);
            check!(20, rand_chacha::ChaCha20Rng);
        }
    }

    /// A run of requests of every length around the batch size, each
    /// followed by a new key from the stream: the words rand_chacha makes
    /// for the same steps (fill, draw 32 bytes, reseed with them), on a
    /// perturbed stream too.
    #[test]
    fn requests_and_rekeying_match_rand_chacha() {
        let mut ours = ChaCha12::from_seed(&[7; 32]);
        let mut theirs = rand_chacha::ChaCha12Rng::from_seed([7; 32]);
        for n in (0..=3 * BATCH + 9).chain([1000, 4096]) {
            if n % 5 == 0 {
                ours.perturb(n as u64 * 0x9e37_79b9);
                theirs.set_stream(theirs.get_stream() ^ (n as u64 * 0x9e37_79b9));
            }
            let mut out = vec![0u32; n];
            ours.fill_words(&mut out);
            assert_eq!(out, words(&mut theirs, n), "request of {n} words");
            let mut seed = [0u8; 32];
            theirs.fill_bytes(&mut seed);
            theirs = rand_chacha::ChaCha12Rng::from_seed(seed);
            assert_eq!(ours.key, ChaCha12::from_seed(&seed).key);
        }
    }
}
