//! The base62 engine: turns prefix bytes and random words into id text, and
//! back.
//!
//! `scalar` is the reference implementation; per-ISA paths (added beside it)
//! must produce byte-identical output and are tested against it.
//!
//! Data flows one way: `clock` and `layout` give the 8-byte prefix, `rng`
//! gives the words, and this module writes text into the caller's memory.

pub mod scalar;

/// The kuuid alphabet, in ASCII order so that byte order is numeric order.
pub const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Characters of the timestamp prefix.
pub const PREFIX_LEN: usize = 8;
/// Characters of one random group (one `u32`).
pub const GROUP_LEN: usize = 6;
/// `62^8`: every prefix value is below this.
pub const PREFIX_LIMIT: u64 = 62u64.pow(8);
/// The largest value a group may hold (`4gfFC3`).
pub const MAX_GROUP: u64 = u32::MAX as u64;

/// Encodes `count` ids into `out` with the given stride (see [`scalar::encode_ids`]).
#[inline]
pub(crate) fn encode_ids(
    prefix: &[u8; PREFIX_LEN],
    words: &[u32],
    groups: usize,
    out: &mut [u8],
    stride: usize,
    count: usize,
) {
    scalar::encode_ids(prefix, words, groups, out, stride, count);
}
