//! Counter-mode kernels on x86-64: AES-NI (one block a register), VAES on
//! 256-bit registers (two) and on 512-bit registers (four).
//!
//! One generic loop over a [`Blocks`] register: the counter blocks are made
//! in registers (one add each), eight registers are encrypted side by side
//! (AES instructions have a latency of about four cycles and issue one or two
//! a cycle, so eight chains keep the units busy), and each result is stored
//! once, straight into the caller's buffer.

use core::arch::x86_64::*;

/// The eleven AES-128 round keys, as bytes (`rng/aes_ctr`'s schedule).
pub(crate) type RoundKeys = [[u8; 16]; 11];

/// Registers encrypted side by side.
const CHAINS: usize = 8;

/// A register of `BLOCKS` AES blocks.
///
/// # Safety
/// An implementation's methods use the instructions its doc names; callers
/// run them only on a CPU that has them.
unsafe trait Blocks: Copy {
    const BLOCKS: usize;
    /// `key` in every block.
    unsafe fn splat(key: &[u8; 16]) -> Self;
    /// Counter blocks `counter + i || nonce` for `i` in `0..BLOCKS`.
    unsafe fn counters(counter: u64, nonce: u64) -> Self;
    /// Every block's counter plus `n`, wrapping as `u64`.
    unsafe fn add(self, n: u64) -> Self;
    unsafe fn xor(self, key: Self) -> Self;
    unsafe fn round(self, key: Self) -> Self;
    unsafe fn last_round(self, key: Self) -> Self;
    /// Stores the blocks at `out`, which has room for `BLOCKS * 16` bytes.
    unsafe fn store(self, out: *mut u8);
}

/// AES-NI on `xmm` (SSE2 and AES).
#[derive(Clone, Copy)]
struct Xmm(__m128i);

// SAFETY: every method uses SSE2 and AES-NI only.
unsafe impl Blocks for Xmm {
    const BLOCKS: usize = 1;

    #[inline(always)]
    unsafe fn splat(key: &[u8; 16]) -> Self {
        // SAFETY: the trait's contract (SSE2 and AES-NI); `key` is 16
        // readable bytes and `loadu` takes any alignment.
        unsafe { Xmm(_mm_loadu_si128(key.as_ptr().cast())) }
    }

    #[inline(always)]
    unsafe fn counters(counter: u64, nonce: u64) -> Self {
        // SAFETY: the trait's contract (SSE2 and AES-NI).
        unsafe { Xmm(_mm_set_epi64x(nonce as i64, counter as i64)) }
    }

    #[inline(always)]
    unsafe fn add(self, n: u64) -> Self {
        // SAFETY: the trait's contract (SSE2 and AES-NI).
        unsafe { Xmm(_mm_add_epi64(self.0, _mm_set_epi64x(0, n as i64))) }
    }

    #[inline(always)]
    unsafe fn xor(self, key: Self) -> Self {
        // SAFETY: the trait's contract (SSE2 and AES-NI).
        unsafe { Xmm(_mm_xor_si128(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn round(self, key: Self) -> Self {
        // SAFETY: the trait's contract (SSE2 and AES-NI).
        unsafe { Xmm(_mm_aesenc_si128(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn last_round(self, key: Self) -> Self {
        // SAFETY: the trait's contract (SSE2 and AES-NI).
        unsafe { Xmm(_mm_aesenclast_si128(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn store(self, out: *mut u8) {
        // SAFETY: the caller gives 16 writable bytes; `storeu` takes any alignment.
        unsafe { _mm_storeu_si128(out.cast(), self.0) }
    }
}

/// VAES on `ymm` (AVX2 and VAES).
#[derive(Clone, Copy)]
struct Ymm(__m256i);

// SAFETY: every method uses AVX, AVX2 and VAES only.
unsafe impl Blocks for Ymm {
    const BLOCKS: usize = 2;

    #[inline(always)]
    unsafe fn splat(key: &[u8; 16]) -> Self {
        // SAFETY: the trait's contract (AVX2 and VAES).
        unsafe { Ymm(_mm256_broadcastsi128_si256(Xmm::splat(key).0)) }
    }

    #[inline(always)]
    unsafe fn counters(counter: u64, nonce: u64) -> Self {
        // SAFETY: the trait's contract (AVX2 and VAES).
        unsafe {
            let n = nonce as i64;
            Ymm(_mm256_set_epi64x(
                n,
                counter.wrapping_add(1) as i64,
                n,
                counter as i64,
            ))
        }
    }

    #[inline(always)]
    unsafe fn add(self, n: u64) -> Self {
        // SAFETY: the trait's contract (AVX2 and VAES).
        unsafe {
            Ymm(_mm256_add_epi64(
                self.0,
                _mm256_set_epi64x(0, n as i64, 0, n as i64),
            ))
        }
    }

    #[inline(always)]
    unsafe fn xor(self, key: Self) -> Self {
        // SAFETY: the trait's contract (AVX2 and VAES).
        unsafe { Ymm(_mm256_xor_si256(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn round(self, key: Self) -> Self {
        // SAFETY: the trait's contract (AVX2 and VAES).
        unsafe { Ymm(_mm256_aesenc_epi128(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn last_round(self, key: Self) -> Self {
        // SAFETY: the trait's contract (AVX2 and VAES).
        unsafe { Ymm(_mm256_aesenclast_epi128(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn store(self, out: *mut u8) {
        // SAFETY: the caller gives 32 writable bytes; `storeu` takes any alignment.
        unsafe { _mm256_storeu_si256(out.cast(), self.0) }
    }
}

/// VAES on `zmm` (AVX-512F and VAES).
#[derive(Clone, Copy)]
struct Zmm(__m512i);

// SAFETY: every method uses AVX-512F and VAES only.
unsafe impl Blocks for Zmm {
    const BLOCKS: usize = 4;

    #[inline(always)]
    unsafe fn splat(key: &[u8; 16]) -> Self {
        // SAFETY: the trait's contract (AVX-512F and VAES).
        unsafe { Zmm(_mm512_broadcast_i32x4(Xmm::splat(key).0)) }
    }

    #[inline(always)]
    unsafe fn counters(counter: u64, nonce: u64) -> Self {
        // SAFETY: the trait's contract (AVX-512F and VAES).
        unsafe {
            let n = nonce as i64;
            let c = |i: u64| counter.wrapping_add(i) as i64;
            Zmm(_mm512_set_epi64(n, c(3), n, c(2), n, c(1), n, c(0)))
        }
    }

    #[inline(always)]
    unsafe fn add(self, n: u64) -> Self {
        // SAFETY: the trait's contract (AVX-512F and VAES).
        unsafe {
            let n = n as i64;
            Zmm(_mm512_add_epi64(
                self.0,
                _mm512_set_epi64(0, n, 0, n, 0, n, 0, n),
            ))
        }
    }

    #[inline(always)]
    unsafe fn xor(self, key: Self) -> Self {
        // SAFETY: the trait's contract (AVX-512F and VAES).
        unsafe { Zmm(_mm512_xor_si512(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn round(self, key: Self) -> Self {
        // SAFETY: the trait's contract (AVX-512F and VAES).
        unsafe { Zmm(_mm512_aesenc_epi128(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn last_round(self, key: Self) -> Self {
        // SAFETY: the trait's contract (AVX-512F and VAES).
        unsafe { Zmm(_mm512_aesenclast_epi128(self.0, key.0)) }
    }

    #[inline(always)]
    unsafe fn store(self, out: *mut u8) {
        // SAFETY: the caller gives 64 writable bytes; `storeu` takes any alignment.
        unsafe { _mm512_storeu_si512(out.cast(), self.0) }
    }
}

/// Encrypts `block(counter + i)` into `out[i]` for every `i`, where
/// `block(c) = c (LE) || nonce (LE)`, `CHAINS` registers of `V` at a time and
/// the rest one block at a time.
///
/// # Safety
/// The CPU has `V`'s instructions and AES-NI.
#[inline(always)]
unsafe fn ctr<V: Blocks>(keys: &RoundKeys, counter: u64, nonce: u64, out: &mut [[u8; 16]]) {
    // SAFETY (every block below): the caller's CPU has V's and Xmm's
    // instructions; each store writes inside `out`, as noted there.
    unsafe {
        let k: [V; 11] = splat_all(keys);
        let mut next = V::counters(counter, nonce);
        let unit = CHAINS * V::BLOCKS;
        let done = (out.len() / unit * unit) as u64;
        let mut chunks = out.chunks_exact_mut(unit);
        for chunk in &mut chunks {
            let mut x: [V; CHAINS] =
                core::array::from_fn(|j| next.add((j * V::BLOCKS) as u64).xor(k[0]));
            for key in &k[1..10] {
                for v in &mut x {
                    *v = v.round(*key);
                }
            }
            for (j, v) in x.into_iter().enumerate() {
                // `chunk` holds CHAINS * BLOCKS blocks: register j's
                // BLOCKS blocks start at block j * BLOCKS.
                v.last_round(k[10])
                    .store(chunk[j * V::BLOCKS..].as_mut_ptr().cast());
            }
            next = next.add(unit as u64);
        }
        let k: [Xmm; 11] = splat_all(keys);
        let first = Xmm::counters(counter.wrapping_add(done), nonce);
        for (i, block) in chunks.into_remainder().iter_mut().enumerate() {
            let mut x = first.add(i as u64).xor(k[0]);
            for key in &k[1..10] {
                x = x.round(*key);
            }
            // `block` is 16 writable bytes.
            x.last_round(k[10]).store(block.as_mut_ptr());
        }
    }
}

/// Each round key in every block of a `V`. A loop, not `array::map`: the
/// map was compiled out of line, without the caller's target features, so
/// each broadcast became a call and its 896-byte frame the deepest point
/// of a thread's first id (docs/performance.md, "As a server feels it").
///
/// # Safety
/// The CPU has `V`'s instructions.
#[inline(always)]
unsafe fn splat_all<V: Blocks>(keys: &RoundKeys) -> [V; 11] {
    // SAFETY (both splats): the caller's CPU has V's instructions.
    let mut k = [unsafe { V::splat(&keys[0]) }; 11];
    for (k, key) in k.iter_mut().zip(keys) {
        *k = unsafe { V::splat(key) };
    }
    k
}

/// [`ctr`] on AES-NI.
#[target_feature(enable = "sse2,aes")]
pub(crate) fn ctr_aesni(keys: &RoundKeys, counter: u64, nonce: u64, out: &mut [[u8; 16]]) {
    // SAFETY: this function's features are Xmm's.
    unsafe { ctr::<Xmm>(keys, counter, nonce, out) }
}

/// [`ctr`] on 256-bit VAES.
#[target_feature(enable = "sse2,aes,avx,avx2,vaes")]
pub(crate) fn ctr_vaes256(keys: &RoundKeys, counter: u64, nonce: u64, out: &mut [[u8; 16]]) {
    // SAFETY: this function's features are Ymm's and Xmm's.
    unsafe { ctr::<Ymm>(keys, counter, nonce, out) }
}

/// [`ctr`] on 512-bit VAES.
#[target_feature(enable = "sse2,aes,avx512f,vaes")]
pub(crate) fn ctr_vaes512(keys: &RoundKeys, counter: u64, nonce: u64, out: &mut [[u8; 16]]) {
    // SAFETY: this function's features are Zmm's and Xmm's.
    unsafe { ctr::<Zmm>(keys, counter, nonce, out) }
}

/// The AES-128 key schedule on AES-NI, about 6 cycles a round of latency:
/// each round's `SubWord(RotWord(w3)) ^ rcon` comes from `PSHUFB` (the
/// rotated last word in all four columns, so `AESENCLAST`'s `ShiftRows`
/// moves nothing) and `AESENCLAST` (`SubBytes`, then XOR with the round
/// constant in every column); two shifted XORs make the running XOR of the
/// previous round key's words. `AESKEYGENASSIST`, the instruction made for
/// this, took 71 ns a schedule on the Xeon where this was measured (its
/// latency chains round to round), this 20-odd. It must match the portable
/// `rng/aes_ctr/schedule.rs`'s `expand`; once per batch with key erasure, so it is
/// on the refill path.
#[target_feature(enable = "sse2,ssse3,aes")]
pub(crate) fn expand_aesni(key: &[u8; 16]) -> RoundKeys {
    const RCON: [i32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];
    // Bytes 13, 14, 15, 12 (RotWord of the last word) in every column.
    let rot_last = _mm_set_epi8(
        12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13,
    );
    let mut out = [[0u8; 16]; 11];
    // SAFETY: `key` is 16 readable bytes; `loadu` takes any alignment.
    let mut k = unsafe { _mm_loadu_si128(key.as_ptr().cast()) };
    // SAFETY: `out[0]` is 16 writable bytes; `storeu` takes any alignment.
    unsafe { _mm_storeu_si128(out[0].as_mut_ptr().cast(), k) };
    for (o, rcon) in out[1..].iter_mut().zip(RCON) {
        let t = _mm_aesenclast_si128(_mm_shuffle_epi8(k, rot_last), _mm_set1_epi32(rcon));
        k = _mm_xor_si128(k, _mm_slli_si128::<4>(k));
        k = _mm_xor_si128(k, _mm_slli_si128::<8>(k));
        k = _mm_xor_si128(k, t);
        // SAFETY: `o` is 16 writable bytes; `storeu` takes any alignment.
        unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), k) };
    }
    out
}
