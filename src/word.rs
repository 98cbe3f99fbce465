//! The process-wide lock-free words as traits: the ids' code runs on std's
//! atomics (and portable-atomic's, in `word128`), and the loom models in
//! `loom-tests/` run the very same functions on loom's. Every operation is relaxed: each
//! word is its own state machine, its modification order is the order of
//! what it hands out, and it guards no other data.

use std::sync::atomic::{AtomicU64, Ordering};

/// A 64-bit word: the UUIDv7 sequence, the ObjectId state, CouchDB
/// `utc_*`'s last microsecond.
#[doc(hidden)]
pub trait Word64 {
    /// The current value.
    fn load(&self) -> u64;
    /// Adds `n` (wrapping), returns the value before.
    fn fetch_add(&self, n: u64) -> u64;
    /// A strong compare-exchange; a failure returns the current value.
    fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64>;
    /// Stores `new`, returns the value before.
    fn swap(&self, new: u64) -> u64;
}

impl Word64 for AtomicU64 {
    #[inline]
    fn load(&self) -> u64 {
        self.load(Ordering::Relaxed)
    }
    #[inline]
    fn fetch_add(&self, n: u64) -> u64 {
        self.fetch_add(n, Ordering::Relaxed)
    }
    #[inline]
    fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64> {
        self.compare_exchange(current, new, Ordering::Relaxed, Ordering::Relaxed)
    }
    #[inline]
    fn swap(&self, new: u64) -> u64 {
        self.swap(new, Ordering::Relaxed)
    }
}

#[cfg(loom)]
impl Word64 for loom::sync::atomic::AtomicU64 {
    fn load(&self) -> u64 {
        self.load(Ordering::Relaxed)
    }
    fn fetch_add(&self, n: u64) -> u64 {
        self.fetch_add(n, Ordering::Relaxed)
    }
    fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64> {
        self.compare_exchange(current, new, Ordering::Relaxed, Ordering::Relaxed)
    }
    fn swap(&self, new: u64) -> u64 {
        self.swap(new, Ordering::Relaxed)
    }
}

#[cfg(feature = "couch")]
mod word128;
#[cfg(all(feature = "couch", feature = "__test-hooks"))]
pub(crate) use word128::FORCE_LOCKED;
#[cfg(feature = "couch")]
pub(crate) use word128::SequentialWord;
#[cfg(feature = "couch")]
pub use word128::Word128;
