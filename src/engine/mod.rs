//! The base62 engine: turns prefix bytes and random words into id text, and
//! id text back into words.
//!
//! ```
//! use kuuid::engine::{Isa, isa};
//!
//! // Every path this CPU runs decodes the same ids.
//! let text = [kuuid::id(), kuuid::id()].map(|id| id.to_string()).concat();
//! for path in Isa::available() {
//!     let mut ids = [kuuid::Kuuid::default(); 2];
//!     kuuid::Kuuid::parse_many_with(path, text.as_bytes(), 32, &mut ids)?;
//!     assert_eq!(ids.map(|id| id.to_string()).concat(), text);
//! }
//! assert!(Isa::available().contains(&isa()));
//! # Ok::<(), kuuid::Error>(())
//! ```
//!
//! It is also the crate's one SIMD tree: every intrinsic lives here, by target, then instruction set, then algorithm
//! (after memchr's `src/arch/`; `tests/library/structure.rs` checks).
//!
//! Layout: `scalar` is the reference every other path is tested against;
//! here too the dispatchers (`encode_with`, `decode.rs`, `hex.rs`) and the
//! portable forms (`row.rs`: four lanes; `divide.rs`: the division
//! constants every path uses). Under them:
//!
//! - `x86_64/sse2/`: `hex.rs` (one id at a time), `row.rs` (ChaCha12),
//!   `key_digits.rs` (order keys), `xoshiro.rs` (the fast RNG on the
//!   `sse41` path);
//! - `x86_64/sse41/base62.rs` (encoder, beside the scalar table, and
//!   decoder);
//! - `x86_64/avx2/`: `base62.rs`, `hex.rs` (batches), `xoshiro.rs` (the
//!   fast RNG);
//! - `x86_64/avx512/`: `base62.rs` (with VBMI), `hex.rs`;
//! - `x86_64/aes_ctr.rs`: the secure RNG's kernel at AES-NI, 256- and
//!   512-bit VAES widths;
//! - `aarch64/neon/`: `base62.rs`, `hex.rs`, `row.rs`;
//!   `aarch64/aes_ctr.rs`.
//!
//! Dispatch has one form: a match on the [`Isa`] asked for, each SIMD arm
//! guarded by the CPU check of exactly what its kernel enables (which is
//! the arm's `SAFETY`), falling through to the portable kernel. An `Isa`
//! is a ceiling, never a promise a kernel relies on: `Isa::Avx512` without
//! VBMI takes AVX2's base62 kernels, without VAES AES-NI's. Base62's hot
//! entry points cache that choice for the process's path in an atomic
//! function pointer that starts at a `detect` routine, so later calls are
//! one relaxed load and an indirect call per batch.
//!
//! The per-path entry points (`encode_with`, `decode_with`, `hex_with`,
//! `hex_one_by_one`, `scalar`) are for kuuid's own benches, fuzz targets,
//! tests and `kuuid bench`: they sit behind feature `internals`, with no
//! stability promise. [`Isa`] and the path a process runs ([`isa`]) are
//! the public part.
//!
//! Data flows one way: `clock` and `layout` give the 8-byte prefix, `rng`
//! gives the words, and this module writes text into the caller's memory.

use std::sync::atomic::{AtomicPtr, Ordering};

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
// CouchDB ids in base 36 (`couch::Format::Base36`).
#[cfg(feature = "couch")]
pub(crate) mod base36;
// Crockford's base32 (ULID, TypeID).
#[cfg(any(feature = "ulid", feature = "typeid"))]
pub(crate) mod base32;
// Base62 of 160 bits (KSUID).
#[cfg(feature = "ksuid")]
pub(crate) mod base62_160;
pub(crate) mod bytes;
mod decode;
pub(crate) mod divide;
mod error;
pub(crate) mod hex;
#[cfg(feature = "internals")]
mod hex_batch;
mod isa;
pub(crate) mod row;
#[cfg(feature = "internals")]
#[cfg_attr(docsrs, doc(cfg(feature = "internals")))]
pub mod scalar;
#[cfg(not(feature = "internals"))]
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

#[cfg(all(feature = "internals", any(feature = "ulid", feature = "typeid")))]
#[cfg_attr(docsrs, doc(cfg(feature = "internals")))]
pub use base32::{base32_decode_with, base32_with};
#[cfg(all(feature = "internals", feature = "ksuid"))]
#[cfg_attr(docsrs, doc(cfg(feature = "internals")))]
pub use base62_160::base62_160_with;
pub(crate) use decode::decode_ids;
#[cfg(feature = "internals")]
#[cfg_attr(docsrs, doc(cfg(feature = "internals")))]
pub use decode::decode_with;
pub use error::EngineError;
#[cfg(feature = "internals")]
#[cfg_attr(docsrs, doc(cfg(feature = "internals")))]
pub use hex_batch::{HexShape, hex_one_by_one, hex_with};
pub use isa::{Isa, IsaError, isa};

/// The kuuid alphabet, in ASCII order so that byte order is numeric order.
///
/// ```
/// use kuuid::engine::ALPHABET;
///
/// assert!(ALPHABET.is_sorted());
/// assert_eq!(kuuid::Kuuid1::from_parts(kuuid::prefix(), &[61])?.random_str(), "00000z");
/// assert_eq!(ALPHABET[61], b'z');
/// # Ok::<(), kuuid::Error>(())
/// ```
pub const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The alphabet padded to 64 bytes for one-register table lookups (`vpermb`,
/// `tbl`): digits are always below 62, so the padding is never read.
#[allow(dead_code)] // used by the SIMD paths only
pub(crate) const ALPHABET64: [u8; 64] = {
    let mut t = [b'0'; 64];
    let mut i = 0;
    while i < 62 {
        t[i] = ALPHABET[i];
        i += 1;
    }
    t
};

/// Characters of the timestamp prefix.
///
/// ```
/// assert_eq!(kuuid::prefix().as_str().len(), kuuid::engine::PREFIX_LEN);
/// ```
pub const PREFIX_LEN: usize = 8;
/// Characters of one random group (one `u32`).
///
/// ```
/// use kuuid::engine::{GROUP_LEN, PREFIX_LEN};
///
/// assert_eq!(kuuid::id().random_str().len(), 4 * GROUP_LEN);
/// assert_eq!(kuuid::ids().as_str().len(), PREFIX_LEN + 2 * GROUP_LEN);
/// ```
pub const GROUP_LEN: usize = 6;
/// Characters of the longest id (4 groups), the unit the batch encoder writes.
///
/// ```
/// assert_eq!(kuuid::id().as_str().len(), kuuid::engine::MAX_ID_LEN);
/// ```
pub const MAX_ID_LEN: usize = PREFIX_LEN + GROUP_LEN * 4;
/// `62^8`: every prefix value is below this.
///
/// ```
/// use kuuid::{Kuuid, Layout};
///
/// // The largest prefix, `zzzzzzzz`, is PREFIX_LIMIT - 1 seconds after 1970.
/// let last: Kuuid = "zzzzzzzz000000000000000000000000".parse()?;
/// assert_eq!(last.timestamp(Layout::SECONDS).as_secs(), kuuid::engine::PREFIX_LIMIT - 1);
/// # Ok::<(), kuuid::ParseError>(())
/// ```
pub const PREFIX_LIMIT: u64 = 62u64.pow(8);
/// The largest value a group may hold (`4gfFC3`).
///
/// ```
/// use kuuid::Kuuid1;
///
/// let top: Kuuid1 = "000000004gfFC3".parse()?;
/// assert_eq!(u64::from(top.random_words()[0]), kuuid::engine::MAX_GROUP);
/// assert!("000000004gfFC4".parse::<Kuuid1>().is_err());
/// # Ok::<(), kuuid::ParseError>(())
/// ```
pub const MAX_GROUP: u64 = u32::MAX as u64;

/// Batch encoder of 4-group ids. Callers guarantee: `words` has `4 * count`
/// readable `u32`s, `out` has `(count - 1) * stride + 32` writable bytes,
/// `stride >= 32`.
type Encode4 = unsafe fn(&[u8; PREFIX_LEN], *const u32, *mut u8, usize, usize);

/// The 4-group encoder for a path on this CPU. Out of line, and
/// [`encode_ids`] always inline: with the guards inlined into it,
/// `encode_ids` was left out of line and its callers paid its shape checks
/// unfolded (+1.9 instructions an id in the instruction gate's `id_1000`;
/// docs/performance.md, "Measurements behind the code").
#[inline(never)]
fn encode4_fn(isa: Isa) -> Encode4 {
    encode4_for(isa, true)
}

/// The 4-group encoder for a path; with `vbmi` false, as on a CPU without
/// VBMI (Skylake-X, Cascade Lake), where `Isa::Avx512` encodes on AVX2's
/// kernel, which the tier implies. Each arm's guard checks what its kernel
/// needs, so the kernel returned runs on this CPU whatever `isa` says.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn encode4_for(isa: Isa, vbmi: bool) -> Encode4 {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if vbmi && x86_64::avx512::base62::is_supported() => {
            x86_64::avx512::base62::encode4
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => x86_64::avx2::encode4,
        #[cfg(target_arch = "x86_64")]
        Isa::Sse41 if x86_64::sse41::is_supported() => x86_64::sse41::encode4,
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if aarch64::neon::is_supported() => aarch64::neon::encode4,
        _ => scalar::encode4_raw,
    }
}

static ENCODE4: AtomicPtr<()> = AtomicPtr::new(detect_encode4 as *mut ());

/// First call: pick the path, store it, and run it.
///
/// # Safety
/// As [`Encode4`].
unsafe fn detect_encode4(
    prefix: &[u8; PREFIX_LEN],
    words: *const u32,
    out: *mut u8,
    stride: usize,
    count: usize,
) {
    let f = encode4_fn(isa());
    ENCODE4.store(f as *mut (), Ordering::Relaxed);
    // SAFETY: forwarded unchanged from our caller, who upholds `Encode4`.
    unsafe { f(prefix, words, out, stride, count) }
}

/// Whether `count >= 1` ids of `len` bytes at `stride` fit in `available`
/// bytes (no overflow on the way).
fn batch_fits(count: usize, stride: usize, len: usize, available: usize) -> bool {
    (count - 1)
        .checked_mul(stride)
        .and_then(|n| n.checked_add(len))
        .is_some_and(|need| need <= available)
}

/// Checks the shape of a batch; on success the `Encode4` contract holds.
fn check_shape(
    words: &[u32],
    groups: usize,
    out: &[u8],
    stride: usize,
    count: usize,
) -> Result<(), EngineError> {
    if !(1..=4).contains(&groups) {
        return Err(EngineError::Shape("groups must be 1 to 4"));
    }
    let len = PREFIX_LEN + GROUP_LEN * groups;
    if count == 0 {
        return Ok(());
    }
    if stride < len {
        return Err(EngineError::Shape("stride is shorter than an id"));
    }
    if words.len() / groups < count {
        return Err(EngineError::Shape("too few words for count ids"));
    }
    if batch_fits(count, stride, len, out.len()) {
        Ok(())
    } else {
        Err(EngineError::Shape("output too short for count ids"))
    }
}

/// Puts `prefix` in front of an encoded id's random characters (its first 8
/// bytes) by merging in a register, so the id leaves in two whole 16-byte
/// halves. Storing the 8 bytes over the copied id instead makes a caller that
/// reads it back in 16-byte loads (any 32-byte copy) span an 8-byte and a
/// 16-byte store, which the CPU cannot forward: a ~15-cycle stall per id
/// whenever the minting call is not inlined (`Generator::generate`: 14.1 ->
/// 10.5 ns, `cargo bench --bench hot_path -- single`). LLVM splits a
/// portable u128 merge back into 8-byte stores, hence the intrinsics.
#[inline(always)]
pub(crate) fn put_prefix(id: &mut [u8; MAX_ID_LEN], prefix: &[u8; PREFIX_LEN]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cvtsi64_si128, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi64,
            _mm_unpacklo_epi64,
        };
        // SAFETY: SSE2 is part of the x86-64 baseline; the load and the
        // store touch `id[..16]`, which `id` owns, unaligned access allowed.
        unsafe {
            let head = _mm_loadu_si128(id.as_ptr().cast::<__m128i>());
            let p = _mm_cvtsi64_si128(i64::from_le_bytes(*prefix));
            let merged = _mm_unpacklo_epi64(p, _mm_unpackhi_epi64(head, head));
            _mm_storeu_si128(id.as_mut_ptr().cast::<__m128i>(), merged);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        id[..PREFIX_LEN].copy_from_slice(prefix);
    }
}

/// Puts `prefix` and the first group's digits (`group`, the low 48 bits,
/// as [`scalar::group_bits`] makes them) in front of an encoded id's other
/// three groups, in one 16-byte store, for the reason [`put_prefix`] gives.
#[inline(always)]
pub(crate) fn put_head(id: &mut [u8; MAX_ID_LEN], prefix: &[u8; PREFIX_LEN], group: u64) {
    const DIGITS: u64 = (1 << 48) - 1;
    let mut word = [0u8; 8];
    word.copy_from_slice(&id[PREFIX_LEN..PREFIX_LEN + 8]);
    let high = u64::from_le_bytes(word) & !DIGITS | group & DIGITS;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_set_epi64x, _mm_storeu_si128};
        // SAFETY: SSE2 is part of the x86-64 baseline; the store touches
        // `id[..16]`, which `id` owns, unaligned access allowed.
        unsafe {
            let head = _mm_set_epi64x(high as i64, i64::from_le_bytes(*prefix));
            _mm_storeu_si128(id.as_mut_ptr().cast::<__m128i>(), head);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        id[..PREFIX_LEN].copy_from_slice(prefix);
        id[PREFIX_LEN..PREFIX_LEN + 8].copy_from_slice(&high.to_le_bytes());
    }
}

/// A 32-byte id from its prefix and four groups' digits (each the low 48
/// bits of a word, as [`scalar::group_bits`] makes them), built in registers
/// and left in two 16-byte halves, for the reason [`put_prefix`] gives.
#[inline(always)]
pub(crate) fn assemble_id(prefix: &[u8; PREFIX_LEN], g: [u64; 4]) -> [u8; MAX_ID_LEN] {
    let words = [
        u64::from_le_bytes(*prefix),
        g[0] | g[1] << 48,
        g[1] >> 16 | g[2] << 32,
        g[2] >> 32 | g[3] << 16,
    ];
    let mut id = [0u8; MAX_ID_LEN];
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_set_epi64x, _mm_storeu_si128};
        let [w0, w1, w2, w3] = words.map(|w| w as i64);
        // SAFETY: SSE2 is part of the x86-64 baseline; the stores write
        // `id[..16]` and `id[16..]`, which `id` owns, unaligned allowed.
        unsafe {
            _mm_storeu_si128(id.as_mut_ptr().cast::<__m128i>(), _mm_set_epi64x(w1, w0));
            _mm_storeu_si128(
                id.as_mut_ptr().add(16).cast::<__m128i>(),
                _mm_set_epi64x(w3, w2),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        for (chunk, w) in id.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
    }
    id
}

/// Encodes `count` ids into `out` (id `i` at `out[i * stride..]`) on the
/// active path; bytes between ids are left alone.
///
/// # Panics
/// If the shape is wrong (a bug in this crate: every caller sizes its buffers).
/// `on` picks a path the caller has checked is supported; `None` uses the
/// process-wide choice through the dispatch pointer.
#[inline(always)]
pub(crate) fn encode_ids(
    on: Option<Isa>,
    prefix: &[u8; PREFIX_LEN],
    words: &[u32],
    groups: usize,
    out: &mut [u8],
    stride: usize,
    count: usize,
) {
    check_shape(words, groups, out, stride, count).expect("engine batch shape");
    if groups == 4 && count > 0 {
        let f = match on {
            Some(isa) => {
                debug_assert!(isa.is_supported());
                encode4_fn(isa)
            }
            None => {
                let ptr = ENCODE4.load(Ordering::Relaxed);
                // SAFETY: ENCODE4 only ever holds `detect_encode4` or a value of
                // `encode4_fn`, all of type `Encode4`, stored as `*mut ()`.
                unsafe { std::mem::transmute::<*mut (), Encode4>(ptr) }
            }
        };
        // SAFETY: check_shape proved the `Encode4` contract for these slices.
        unsafe { f(prefix, words.as_ptr(), out.as_mut_ptr(), stride, count) }
    } else {
        scalar::encode_ids(prefix, words, groups, out, stride, count);
    }
}

#[cfg(feature = "internals")]
#[cfg_attr(docsrs, doc(cfg(feature = "internals")))]
/// Encodes on a chosen path (for tests, fuzzing and benchmarks); the same
/// contract as the internal batch encoder, checked.
///
/// ```
/// use kuuid::engine::{encode_with, Isa};
/// let words = [0, 1, 2, u32::MAX];
/// let mut out = [0u8; 32];
/// for isa in Isa::available() {
///     encode_with(isa, b"001eVnWK", &words, 4, &mut out, 32, 1)?;
///     assert_eq!(&out, b"001eVnWK0000000000010000024gfFC3");
/// }
/// # Ok::<(), kuuid::engine::EngineError>(())
/// ```
pub fn encode_with(
    isa: Isa,
    prefix: &[u8; PREFIX_LEN],
    words: &[u32],
    groups: usize,
    out: &mut [u8],
    stride: usize,
    count: usize,
) -> Result<(), EngineError> {
    if !isa.is_supported() {
        return Err(EngineError::Isa(IsaError::Unsupported(isa)));
    }
    check_shape(words, groups, out, stride, count)?;
    if groups == 4 && count > 0 {
        // SAFETY: the path is supported on this CPU, and check_shape proved
        // the `Encode4` contract.
        unsafe { encode4_fn(isa)(prefix, words.as_ptr(), out.as_mut_ptr(), stride, count) }
    } else {
        scalar::encode_ids(prefix, words, groups, out, stride, count);
    }
    Ok(())
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// `Isa::Avx512` names AVX-512 F+BW; on a CPU of that tier without VBMI
    /// (Skylake-X, Cascade Lake) base62 must take AVX2's kernels, not the
    /// `vpermb` ones it cannot run, and whatever runs agrees with scalar.
    #[test]
    fn avx512_without_vbmi_takes_avx2s_base62_kernels() {
        use std::ptr::fn_addr_eq;
        let (avx2_e, avx2_d) = (
            x86_64::avx2::encode4 as Encode4,
            x86_64::avx2::decode4 as decode::Decode4,
        );
        // Without VBMI: AVX2's, where the CPU has AVX2 (else scalar). With
        // it allowed: AVX2's only where this CPU lacks VBMI.
        let avx2 = x86_64::avx2::is_supported();
        let no_vbmi = avx2 && !x86_64::avx512::base62::is_supported();
        assert_eq!(fn_addr_eq(encode4_for(Isa::Avx512, false), avx2_e), avx2);
        assert_eq!(
            fn_addr_eq(decode::decode4_for(Isa::Avx512, false), avx2_d),
            avx2
        );
        assert_eq!(fn_addr_eq(encode4_for(Isa::Avx512, true), avx2_e), no_vbmi);
        assert_eq!(
            fn_addr_eq(decode::decode4_for(Isa::Avx512, true), avx2_d),
            no_vbmi
        );

        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let words: Vec<u32> = (0..4 * 64)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u32
            })
            .collect();
        let prefix = *b"001eVnWK";
        let mut want = vec![0u8; 32 * 64];
        // SAFETY: 64 ids: 256 words, 64 * 32 bytes at stride 32.
        unsafe { scalar::encode4_raw(&prefix, words.as_ptr(), want.as_mut_ptr(), 32, 64) };
        for isa in Isa::available() {
            for vbmi in [false, true] {
                let mut out = vec![0u8; 32 * 64];
                // SAFETY: as above; `isa` runs here and the kernel chosen
                // for it without VBMI needs at most what it needs.
                unsafe {
                    encode4_for(isa, vbmi)(&prefix, words.as_ptr(), out.as_mut_ptr(), 32, 64)
                };
                assert_eq!(out, want, "{isa}, vbmi {vbmi}");
                let (mut p, mut w) = (vec![0u64; 64], vec![0u32; 4 * 64]);
                // SAFETY: 64 texts of 32 bytes; 64 prefixes, 256 words.
                let valid = unsafe {
                    decode::decode4_for(isa, vbmi)(
                        out.as_ptr(),
                        32,
                        64,
                        p.as_mut_ptr(),
                        w.as_mut_ptr(),
                    )
                };
                assert_eq!((valid, &w), (64, &words), "{isa}, vbmi {vbmi}");
            }
        }
    }
}
