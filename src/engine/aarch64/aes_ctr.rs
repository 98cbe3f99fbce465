//! The counter-mode kernel on the ARMv8 crypto extension: eight blocks
//! encrypted side by side (`AESE`+`AESMC` pairs, which cores fuse, have a
//! latency of a few cycles), each stored once into the caller's buffer.

use core::arch::aarch64::*;

/// The eleven AES-128 round keys, as bytes (`rng/aes_ctr`'s schedule).
pub(crate) type RoundKeys = [[u8; 16]; 11];

/// Blocks encrypted side by side.
const CHAINS: usize = 8;

/// Encrypts `block(counter + i)` into `out[i]` for every `i`, where
/// `block(c) = c (LE) || nonce (LE)`.
#[target_feature(enable = "neon,aes")]
pub(crate) fn ctr(keys: &RoundKeys, counter: u64, nonce: u64, out: &mut [[u8; 16]]) {
    // SAFETY: `keys[r]` is 16 readable bytes.
    let k: [uint8x16_t; 11] = keys.each_ref().map(|key| unsafe { vld1q_u8(key.as_ptr()) });
    // Lane 0 the counter, lane 1 the nonce: little-endian bytes, as the
    // other paths lay a block out.
    // SAFETY: two readable u64s.
    let first = unsafe { vld1q_u64([counter, nonce].as_ptr()) };
    // SAFETY: as above.
    let step = |n: u64| unsafe { vld1q_u64([n, 0].as_ptr()) };
    let encrypt = |c: uint64x2_t| {
        let mut x = vreinterpretq_u8_u64(c);
        // AESE is AddRoundKey, SubBytes and ShiftRows; AESMC is MixColumns.
        for key in &k[..9] {
            x = vaesmcq_u8(vaeseq_u8(x, *key));
        }
        veorq_u8(vaeseq_u8(x, k[9]), k[10])
    };
    let mut next = first;
    let mut chunks = out.chunks_exact_mut(CHAINS);
    for chunk in &mut chunks {
        let x: [uint8x16_t; CHAINS] =
            core::array::from_fn(|j| encrypt(vaddq_u64(next, step(j as u64))));
        for (block, v) in chunk.iter_mut().zip(x) {
            // SAFETY: `block` is 16 writable bytes.
            unsafe { vst1q_u8(block.as_mut_ptr(), v) };
        }
        next = vaddq_u64(next, step(CHAINS as u64));
    }
    for (i, block) in chunks.into_remainder().iter_mut().enumerate() {
        // SAFETY: `block` is 16 writable bytes.
        unsafe { vst1q_u8(block.as_mut_ptr(), encrypt(vaddq_u64(next, step(i as u64)))) };
    }
}
