//! What the hex batch encoders read: a value as `N` bytes. Its own file,
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
