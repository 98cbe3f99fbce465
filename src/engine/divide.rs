//! The base62 division constants, named once: every path (scalar, SSE4.1,
//! AVX2, AVX-512, NEON) divides by 62 and by 62^2 with these, and
//! `tests/library/exhaustive.rs` and `engine_paths.rs` check them over
//! every `u32` (see `../shared/design/base62-engine.md`).

/// `62^2`: one "pair" of base62 digits.
pub(crate) const PAIR: u64 = 3844;

/// `ceil(2^55 / 62^4)`: `((x * M4) >> 23) + 1` is `x / 62^4` as a 32.32
/// fixed-point number, exact for every `u32` (the `+ 1` is required).
pub(crate) const M4: u64 = 2_438_276_784;

/// `ceil(2^34 / 3844)`: `(r * DIV3844) >> 34` is `r / 3844` for every
/// `r < 3844^2`, the remainder a word leaves under its first pair (the
/// SSE4.1 encoder, whose first pair is `(x * M4) >> 55`).
#[cfg(any(target_arch = "x86_64", test))]
pub(crate) const DIV3844: u64 = 4_469_269;

/// `y / 62 = (y * DIV62) >> 18` for every `y < 3844`: a 16-bit
/// multiply-high, then a shift by 2 (the x86-64 paths).
#[cfg(any(target_arch = "x86_64", test))]
pub(crate) const DIV62: u16 = 4229;

/// `(y << 8) + (y / 62) * COMBINE = (y % 62) << 8 | y / 62` (mod 2^16):
/// both digits of a pair in one 16-bit word with one multiply-add (the
/// SIMD paths).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", test))]
pub(crate) const COMBINE: u16 = 1u16.wrapping_sub(62 * 256);

/// NEON: `y / 62 = sqdmulh_s16(y, NEON_DIV62) >> 5` for every `y < 3844`.
#[cfg(any(target_arch = "aarch64", test))]
pub(crate) const NEON_DIV62: i16 = 16913;

/// NEON: `x / 3844 = sqdmulh_s32(x >> 2, NEON_DIV3844) >> 9` for every `u32`.
#[cfg(any(target_arch = "aarch64", test))]
pub(crate) const NEON_DIV3844: i32 = 1_144_132_808;

#[cfg(test)]
mod tests {
    use super::*;

    /// The x86-64 paths' pair split: `hi = (y * DIV62) >> 18`, then one
    /// multiply-add by `COMBINE` gives `lo << 8 | hi`, for every pair.
    #[test]
    fn pair_split_constants_are_exact() {
        for y in 0..PAIR as u32 {
            let hi = (y * u32::from(DIV62)) >> 18;
            assert_eq!(hi, y / 62, "y = {y}");
            let word = (y << 8).wrapping_add(hi.wrapping_mul(u32::from(COMBINE))) as u16;
            assert_eq!(word, (((y % 62) << 8) | (y / 62)) as u16, "y = {y}");
        }
    }

    /// The SSE4.1 encoder's split of a word: the first pair by `M4` shifted
    /// by 55, the second by `DIV3844`, for every remainder, and for the
    /// first pair at every boundary (every u32 goes through the kernel in
    /// `tests/library/engine_paths.rs`).
    #[test]
    fn sse41_split_constants_are_exact() {
        const P2: u64 = PAIR * PAIR;
        for r in 0..P2 {
            assert_eq!((r * DIV3844) >> 34, r / PAIR, "r = {r}");
        }
        for a in 0..=u64::from(u32::MAX) / P2 {
            for x in [
                a * P2,
                (a * P2).saturating_sub(1),
                (a * P2 + P2 - 1).min(u32::MAX.into()),
            ] {
                assert_eq!((x * M4) >> 55, x / P2, "x = {x}");
            }
        }
    }

    /// `sqdmulh` as NEON computes it: `(2 * a * b) >> bits`, saturated.
    fn sqdmulh(a: i64, b: i64, bits: u32) -> i64 {
        ((2 * a * b) >> bits).min((1 << (bits - 1)) - 1)
    }

    /// The NEON path's division constants, checked here so the proof runs on
    /// every host (and again natively under qemu via the path tests).
    #[test]
    fn neon_division_constants_are_exact() {
        for y in 0..PAIR as i64 {
            assert_eq!(
                sqdmulh(y, i64::from(NEON_DIV62), 16) >> 5,
                y / 62,
                "y = {y}"
            );
        }
        let step = if cfg!(debug_assertions) { 997 } else { 1 };
        let mut x = 0u64;
        while x <= u64::from(u32::MAX) {
            let q = sqdmulh((x >> 2) as i64, i64::from(NEON_DIV3844), 32) >> 9;
            assert_eq!(q as u64, x / PAIR, "x = {x}");
            x += step;
        }
    }
}
