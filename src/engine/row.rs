//! Four 32-bit lanes side by side (ChaCha's rows, `rng/chacha.rs`): the
//! portable form, and the register every CPU of the target has (SSE2 on
//! x86-64, NEON on aarch64; `x86_64/sse2/row.rs`, `aarch64/neon/row.rs`).

/// Four words, portable.
pub(crate) type Lanes = [u32; 4];

#[cfg(target_arch = "aarch64")]
pub(crate) use super::aarch64::neon::row::Simd;
#[cfg(target_arch = "x86_64")]
pub(crate) use super::x86_64::sse2::row::Simd;
/// No vector register: the portable form.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) type Simd = Lanes;

/// Four words side by side, in a register where the CPU has one that
/// every CPU of the target has (SSE2 on x86-64, NEON on aarch64).
pub(crate) trait Row: Copy {
    fn load(w: Lanes) -> Self;
    fn store(self) -> Lanes;
    fn add(self, y: Self) -> Self;
    fn xor(self, y: Self) -> Self;
    /// Left by `L` bits (`L + R = 32`).
    fn rotate<const L: i32, const R: i32>(self) -> Self;
    /// Lane `i` takes lane `i + N` (mod 4).
    fn turn<const N: i32>(self) -> Self;
}

impl Row for Lanes {
    fn load(w: Lanes) -> Self {
        w
    }
    fn store(self) -> Lanes {
        self
    }
    fn add(self, y: Self) -> Self {
        [0, 1, 2, 3].map(|i| self[i].wrapping_add(y[i]))
    }
    fn xor(self, y: Self) -> Self {
        [0, 1, 2, 3].map(|i| self[i] ^ y[i])
    }
    fn rotate<const L: i32, const R: i32>(self) -> Self {
        self.map(|w| w.rotate_left(L as u32))
    }
    fn turn<const N: i32>(self) -> Self {
        [0, 1, 2, 3].map(|i| self[(i + N as usize) % 4])
    }
}
