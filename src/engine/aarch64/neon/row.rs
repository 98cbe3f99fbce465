//! [`Row`] on NEON, which every aarch64 CPU has.

use std::arch::aarch64::*;

use crate::engine::row::{Lanes, Row};

/// The register a [`Row`] lives in.
pub(crate) type Simd = uint32x4_t;

impl Row for uint32x4_t {
    #[inline(always)]
    fn load(w: Lanes) -> Self {
        bytemuck::cast(w)
    }
    #[inline(always)]
    fn store(self) -> Lanes {
        bytemuck::cast(self)
    }
    #[inline(always)]
    fn add(self, y: Self) -> Self {
        // SAFETY: NEON is part of aarch64: every CPU this runs on has it.
        unsafe { vaddq_u32(self, y) }
    }
    #[inline(always)]
    fn xor(self, y: Self) -> Self {
        // SAFETY: NEON is part of aarch64: every CPU this runs on has it.
        unsafe { veorq_u32(self, y) }
    }
    #[inline(always)]
    fn rotate<const L: i32, const R: i32>(self) -> Self {
        // SAFETY: NEON is part of aarch64: every CPU this runs on has it.
        unsafe {
            // Shift left, then insert the bits shifted out from the right.
            vsriq_n_u32::<R>(vshlq_n_u32::<L>(self), self)
        }
    }
    #[inline(always)]
    fn turn<const N: i32>(self) -> Self {
        // SAFETY: NEON is part of aarch64: every CPU this runs on has it.
        unsafe { vextq_u32::<N>(self, self) }
    }
}
