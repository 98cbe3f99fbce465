//! Id text back into prefix values and words: the batch decoder's
//! dispatch (one atomic function pointer, as for encoding) and its checked
//! entry point.

use std::sync::atomic::{AtomicPtr, Ordering};

#[cfg(feature = "internals")]
use super::IsaError;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
use super::aarch64;
#[cfg(target_arch = "x86_64")]
use super::x86_64;
use super::{EngineError, GROUP_LEN, Isa, PREFIX_LEN, batch_fits, isa, scalar};

/// Batch decoder of 4-group ids; returns how many leading ids were valid.
/// Callers guarantee: `text` has `(count - 1) * stride + 32` readable bytes,
/// `prefixes` `count` writable `u64`s, `words` `4 * count` writable `u32`s,
/// `count >= 1`, `stride >= 32`.
pub(super) type Decode4 = unsafe fn(*const u8, usize, usize, *mut u64, *mut u32) -> usize;

/// The 4-group decoder for a path on this CPU; out of line, as
/// `encode4_fn`.
#[inline(never)]
fn decode4_fn(isa: Isa) -> Decode4 {
    decode4_for(isa, true)
}

/// The 4-group decoder for a path; with `vbmi` false, as on a CPU without
/// VBMI: as the encoder, `Isa::Avx512` then decodes on AVX2's kernel, and
/// each arm's guard checks what its kernel needs.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub(super) fn decode4_for(isa: Isa, vbmi: bool) -> Decode4 {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Sse41 if x86_64::sse41::is_supported() => x86_64::sse41::decode4,
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if vbmi && x86_64::avx512::base62::is_supported() => {
            x86_64::avx512::base62::decode4
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 if x86_64::avx2::is_supported() => x86_64::avx2::decode4,
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Isa::Neon if aarch64::neon::is_supported() => aarch64::neon::decode4,
        _ => scalar::decode4_raw,
    }
}

static DECODE4: AtomicPtr<()> = AtomicPtr::new(detect_decode4 as *mut ());

/// First call: pick the path, store it, and run it.
///
/// # Safety
/// As [`Decode4`].
unsafe fn detect_decode4(
    text: *const u8,
    stride: usize,
    count: usize,
    prefixes: *mut u64,
    words: *mut u32,
) -> usize {
    let f = decode4_fn(isa());
    DECODE4.store(f as *mut (), Ordering::Relaxed);
    // SAFETY: forwarded unchanged from our caller, who upholds `Decode4`.
    unsafe { f(text, stride, count, prefixes, words) }
}

/// Checks a decode batch's shape; on success the `Decode4` contract holds.
fn check_decode_shape(
    text: &[u8],
    stride: usize,
    prefixes: &[u64],
    words: &[u32],
) -> Result<(), EngineError> {
    let count = prefixes.len();
    if count == 0 {
        return Ok(());
    }
    if stride < PREFIX_LEN + 4 * GROUP_LEN {
        return Err(EngineError::Shape("stride is shorter than an id"));
    }
    if words.len() / 4 < count {
        return Err(EngineError::Shape("too few words for count ids"));
    }
    if batch_fits(count, stride, PREFIX_LEN + 4 * GROUP_LEN, text.len()) {
        Ok(())
    } else {
        Err(EngineError::Shape("text too short for count ids"))
    }
}

/// Decodes `prefixes.len()` 32-character ids at `text[i * stride..]` on the
/// active path (`on` overrides it, as in [`encode_ids`]); returns how many
/// leading ids were valid (all of them, or the index of the first bad one).
///
/// # Panics
/// If the shape is wrong (a bug in this crate: every caller sizes its buffers).
pub(crate) fn decode_ids(
    on: Option<Isa>,
    text: &[u8],
    stride: usize,
    prefixes: &mut [u64],
    words: &mut [u32],
) -> usize {
    check_decode_shape(text, stride, prefixes, words).expect("engine batch shape");
    let count = prefixes.len();
    if count == 0 {
        return 0;
    }
    let f = match on {
        Some(isa) => decode4_fn(isa),
        None => {
            let ptr = DECODE4.load(Ordering::Relaxed);
            // SAFETY: DECODE4 only ever holds `detect_decode4` or a value of
            // `decode4_fn`, all of type `Decode4`, stored as `*mut ()`.
            unsafe { std::mem::transmute::<*mut (), Decode4>(ptr) }
        }
    };
    // SAFETY: check_decode_shape proved the `Decode4` contract.
    unsafe {
        f(
            text.as_ptr(),
            stride,
            count,
            prefixes.as_mut_ptr(),
            words.as_mut_ptr(),
        )
    }
}

#[cfg(feature = "internals")]
/// Decodes on a chosen path (for tests, fuzzing and benchmarks): validates
/// `prefixes.len()` 32-character ids laid out every `stride` bytes, writes
/// their prefix values and random words, and returns how many leading ids
/// were valid.
///
/// ```
/// use kuuid::engine::{decode_with, Isa};
/// let text = b"001eVnWK0000000000010000024gfFC3\n001eVnWK0000000000010000024gfFC4\n";
/// for isa in Isa::available() {
///     let (mut p, mut w) = ([0u64; 2], [0u32; 8]);
///     assert_eq!(decode_with(isa, text, 33, &mut p, &mut w)?, 1);
///     assert_eq!(&w[..4], &[0, 1, 2, u32::MAX]);
/// }
/// # Ok::<(), kuuid::engine::EngineError>(())
/// ```
pub fn decode_with(
    isa: Isa,
    text: &[u8],
    stride: usize,
    prefixes: &mut [u64],
    words: &mut [u32],
) -> Result<usize, EngineError> {
    if !isa.is_supported() {
        return Err(EngineError::Isa(IsaError::Unsupported(isa)));
    }
    check_decode_shape(text, stride, prefixes, words)?;
    Ok(decode_ids(Some(isa), text, stride, prefixes, words))
}
