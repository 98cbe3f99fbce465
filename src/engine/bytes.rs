//! What the hex batch encoders read (a value as `N` bytes) and where they
//! write (the head of a wider slot). Its own file,
//! below both the dispatch in `hex.rs` and the per-ISA encoders it calls,
//! so that neither imports the other back.

/// A value the batch encoders read as `N` bytes (arrays, and the id types
/// above the engine, which implement it without the engine knowing them).
pub(crate) trait Bytes<const N: usize> {
    /// The bytes, in text order.
    fn bytes(&self) -> &[u8; N];
}

impl<const N: usize> Bytes<N> for [u8; N] {
    #[inline(always)]
    fn bytes(&self) -> &[u8; N] {
        self
    }
}

/// A value the batch decoders write as `N` bytes.
#[cfg(any(feature = "ulid", feature = "typeid"))]
#[cfg_attr(not(any(feature = "ulid", feature = "internals")), allow(dead_code))]
pub(crate) trait BytesMut<const N: usize> {
    /// The bytes, in text order, to overwrite.
    fn bytes_mut(&mut self) -> &mut [u8; N];
}

#[cfg(any(feature = "ulid", feature = "typeid"))]
impl<const N: usize> BytesMut<N> for [u8; N] {
    #[inline(always)]
    fn bytes_mut(&mut self) -> &mut [u8; N] {
        self
    }
}

/// The first `N` bytes of a `W`-byte output slot, where a batch encoder
/// writes a text (`W >= N`, checked at compile time by the callers'
/// `const` assertions, so the `expect` compiles away).
#[inline(always)]
pub(crate) fn head<const N: usize, const W: usize>(slot: &mut [u8; W]) -> &mut [u8; N] {
    slot.first_chunk_mut::<N>().expect("a slot holds its text")
}
