//! The hex encoder in batches on a chosen path, and one value at a time on
//! the single-id path (feature `internals`): the entry points the tests,
//! the fuzz targets and the benches drive the hex kernels through.

use super::{EngineError, Isa, IsaError, hex};

/// The texts the batch hex encoder writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexShape {
    /// 16 bytes -> 32 lowercase hex digits (UUID without dashes, CouchDB
    /// `base_16`).
    Simple,
    /// 16 bytes -> 36 characters, 8-4-4-4-12 (RFC 9562).
    Hyphenated,
    /// 12 bytes -> 24 lowercase hex digits (MongoDB ObjectId).
    ObjectId,
}

impl HexShape {
    /// Bytes in and characters out per value.
    ///
    /// ```
    /// assert_eq!(kuuid::engine::HexShape::Hyphenated.sizes(), (16, 36));
    /// ```
    pub const fn sizes(self) -> (usize, usize) {
        match self {
            HexShape::Simple => (16, 32),
            HexShape::Hyphenated => (16, 36),
            HexShape::ObjectId => (12, 24),
        }
    }
}

/// Hex-encodes the values packed in `src` into `out` (values and texts
/// back to back) on a chosen path, for tests, fuzzing and benchmarks;
/// returns how many. `src` must hold whole values and `out` room for their
/// texts.
///
/// ```
/// use kuuid::engine::{hex_with, HexShape, Isa};
/// let src = [0xabu8; 16];
/// let mut out = [0u8; 36];
/// for isa in Isa::available() {
///     assert_eq!(hex_with(isa, HexShape::Hyphenated, &src, &mut out)?, 1);
///     assert_eq!(&out, b"abababab-abab-abab-abab-abababababab");
/// }
/// # Ok::<(), kuuid::engine::EngineError>(())
/// ```
pub fn hex_with(
    isa: Isa,
    shape: HexShape,
    src: &[u8],
    out: &mut [u8],
) -> Result<usize, EngineError> {
    if !isa.is_supported() {
        return Err(EngineError::Isa(IsaError::Unsupported(isa)));
    }
    let count = hex_count(shape, src, out)?;
    let out = &mut out[..count * shape.sizes().1];
    match shape {
        HexShape::Simple => {
            hex::encode16(isa, src.as_chunks::<16>().0, out.as_chunks_mut::<32>().0)
        }
        HexShape::Hyphenated => {
            hex::encode16_dashed(isa, src.as_chunks::<16>().0, out.as_chunks_mut::<36>().0)
        }
        HexShape::ObjectId => {
            hex::encode12(isa, src.as_chunks::<12>().0, out.as_chunks_mut::<24>().0)
        }
    }
    Ok(count)
}

/// Hex-encodes the values packed in `src` into `out` one at a time on the
/// single-id path (the SSE2 or SWAR code behind `Uuid7`'s and `ObjectId`'s
/// text), for tests and fuzzing; returns how many. As [`hex_with`], without
/// a path to choose.
///
/// ```
/// use kuuid::engine::{hex_one_by_one, HexShape};
/// let mut out = [0u8; 48];
/// assert_eq!(hex_one_by_one(HexShape::ObjectId, &[0x0f; 24], &mut out)?, 2);
/// assert_eq!(&out[..24], b"0f0f0f0f0f0f0f0f0f0f0f0f");
/// # Ok::<(), kuuid::engine::EngineError>(())
/// ```
pub fn hex_one_by_one(shape: HexShape, src: &[u8], out: &mut [u8]) -> Result<usize, EngineError> {
    let count = hex_count(shape, src, out)?;
    let (size, len) = shape.sizes();
    for (v, text) in src.chunks_exact(size).zip(out.chunks_exact_mut(len)) {
        match shape {
            HexShape::Simple => text.copy_from_slice(&hex::simple(be128(v))),
            HexShape::Hyphenated => text.copy_from_slice(&hex::hyphenated(be128(v))),
            HexShape::ObjectId => {
                text.copy_from_slice(&hex::hex24(v.try_into().expect("12-byte chunk")))
            }
        }
    }
    Ok(count)
}

/// How many values `src` packs, if it holds whole ones and `out` has room
/// for their texts.
fn hex_count(shape: HexShape, src: &[u8], out: &[u8]) -> Result<usize, EngineError> {
    let (size, len) = shape.sizes();
    if !src.len().is_multiple_of(size) {
        return Err(EngineError::Shape("source is not whole values"));
    }
    let count = src.len() / size;
    if out.len() / len < count {
        return Err(EngineError::Shape("output too short for the texts"));
    }
    Ok(count)
}

/// A 16-byte chunk as a big-endian `u128`.
fn be128(v: &[u8]) -> u128 {
    u128::from_be_bytes(v.try_into().expect("16-byte chunk"))
}
