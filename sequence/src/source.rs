//! Where blocks of values come from: the trait a [`Sequence`] leases
//! through.
//!
//! [`Sequence`]: super::Sequence

use std::sync::Arc;

use super::error::Error;

/// Where a [`Sequence`](super::Sequence) leases its blocks.
///
/// `lease(len)` returns the first of `len` values that from then on belong
/// to the caller alone, and only once that is durable: a value it returns
/// must never be returned again, even by another process or after a crash.
///
/// ```
/// use kuuid_sequence::{BlockSource, Counter, MemoryCounters};
/// let c = Counter::new(MemoryCounters::new(), "n");
/// assert_eq!(c.lease(10)?, 1);
/// assert_eq!(c.lease(10)?, 11);
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
pub trait BlockSource: Send + Sync + 'static {
    /// Leases `len` values (at least 1) and returns the first.
    ///
    /// ```
    /// use kuuid_sequence::{BlockSource, Counter, MemoryCounters};
    /// let c = Counter::new(MemoryCounters::new(), "n");
    /// let (a, b) = (c.lease(3)?, c.lease(3)?);
    /// assert_eq!(b - a, 3, "the values a..a+3 are the first caller's alone");
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    fn lease(&self, len: u64) -> Result<u64, Error>;

    /// Whether a [`Sequence`](super::Sequence) should lease the next block on a background
    /// thread (yes for a database: a round trip is worth a thread's
    /// wake-up; no for memory, where waking the thread costs more than the
    /// lease).
    ///
    /// ```
    /// use kuuid_sequence::{BlockSource, Counter, MemoryCounters};
    /// assert!(!Counter::new(MemoryCounters::new(), "n").prefetch_in_background());
    /// ```
    fn prefetch_in_background(&self) -> bool {
        true
    }
}

/// A shared source: several sequences (or a sequence and its owner) can
/// hold one.
impl<S: BlockSource + ?Sized> BlockSource for Arc<S> {
    fn lease(&self, len: u64) -> Result<u64, Error> {
        (**self).lease(len)
    }

    fn prefetch_in_background(&self) -> bool {
        (**self).prefetch_in_background()
    }
}
