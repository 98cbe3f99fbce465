//! [`Row`] on SSE2, which every x86-64 CPU has.

use std::arch::x86_64::*;

use crate::engine::row::{Lanes, Row};

/// The register a [`Row`] lives in.
pub(crate) type Simd = __m128i;

// `bytemuck` moves words in and out of registers without a pointer.
impl Row for __m128i {
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
        // SAFETY: SSE2 is part of x86-64: every CPU this runs on has it.
        unsafe { _mm_add_epi32(self, y) }
    }
    #[inline(always)]
    fn xor(self, y: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64: every CPU this runs on has it.
        unsafe { _mm_xor_si128(self, y) }
    }
    #[inline(always)]
    fn rotate<const L: i32, const R: i32>(self) -> Self {
        // SAFETY: SSE2 is part of x86-64: every CPU this runs on has it.
        unsafe { _mm_or_si128(_mm_slli_epi32::<L>(self), _mm_srli_epi32::<R>(self)) }
    }
    #[inline(always)]
    fn turn<const N: i32>(self) -> Self {
        // SAFETY: SSE2 is part of x86-64: every CPU this runs on has it.
        unsafe {
            match N {
                1 => _mm_shuffle_epi32::<0b00_11_10_01>(self),
                2 => _mm_shuffle_epi32::<0b01_00_11_10>(self),
                _ => _mm_shuffle_epi32::<0b10_01_00_11>(self),
            }
        }
    }
}
