//! CouchDB `sequential`'s 128-bit word (feature `couch`): the trait its
//! claim runs on (loom's model implements it too) and the process word,
//! lock-free where the CPU has a 128-bit compare-and-swap.

use std::sync::atomic::{AtomicU64, Ordering};

/// A 128-bit word: CouchDB `sequential`'s prefix and counter. loom has no
/// 128-bit atomic; its model implements this over a loom mutex, whose
/// compare-exchange is as indivisible as the hardware's.
#[doc(hidden)]
pub trait Word128 {
    /// The current value.
    fn load(&self) -> u128;
    /// A strong compare-exchange; a failure returns the current value.
    fn compare_exchange(&self, current: u128, new: u128) -> Result<u128, u128>;
}

impl Word128 for portable_atomic::AtomicU128 {
    #[inline]
    fn load(&self) -> u128 {
        self.load(Ordering::Relaxed)
    }
    #[inline]
    fn compare_exchange(&self, current: u128, new: u128) -> Result<u128, u128> {
        self.compare_exchange(current, new, Ordering::Relaxed, Ordering::Relaxed)
    }
}

/// CouchDB `sequential`'s word in the process words: one lock-free 128-bit
/// atomic where the CPU has a 128-bit compare-and-swap (`cmpxchg16b` on
/// x86-64, LSE or LL/SC pairs on aarch64), else two halves under an
/// [`Owner`](crate::owner::Owner) lock, which a copy of the process takes
/// over from a thread it does not have. (portable-atomic's own fallback, a
/// global spin lock outside the process words, would leave a child forked
/// while another thread held it spinning for ever; x86-64 CPUs and VM
/// models without `cmpxchg16b`, as QEMU's `qemu64`, take this path.)
#[derive(Debug)]
pub(crate) struct SequentialWord {
    atomic: portable_atomic::AtomicU128,
    lock: crate::owner::Owner<AtomicU64>,
    high: AtomicU64,
    low: AtomicU64,
}

impl SequentialWord {
    pub(crate) const fn new() -> Self {
        SequentialWord {
            atomic: portable_atomic::AtomicU128::new(0),
            lock: crate::owner::Owner::process_wide(),
            high: AtomicU64::new(0),
            low: AtomicU64::new(0),
        }
    }

    /// Sets the word to `v` (0: a new process's word).
    pub(crate) fn store(&self, v: u128) {
        if lock_free_u128() {
            self.atomic.store(v, Ordering::Relaxed);
        } else {
            let _held = self.hold();
            self.write(v);
        }
    }

    /// Zeroes every part, lock included (the atfork child handler: only
    /// atomic stores, safe after a fork).
    #[cfg_attr(not(unix), allow(dead_code))]
    pub(crate) fn clear(&self) {
        self.atomic.store(0, Ordering::Relaxed);
        self.high.store(0, Ordering::Relaxed);
        self.low.store(0, Ordering::Relaxed);
        self.lock.release();
    }

    /// The lock, for this process.
    fn hold(&self) -> crate::owner::Held<'_, AtomicU64> {
        self.lock.hold(std::process::id(), std::thread::yield_now)
    }

    fn read(&self) -> u128 {
        u128::from(self.high.load(Ordering::Relaxed)) << 64
            | u128::from(self.low.load(Ordering::Relaxed))
    }

    fn write(&self, v: u128) {
        self.high.store((v >> 64) as u64, Ordering::Relaxed);
        self.low.store(v as u64, Ordering::Relaxed);
    }

    /// Holds the locked path's lock until the guard drops (test hook: a
    /// fork while another thread holds it).
    #[cfg(feature = "__test-hooks")]
    pub(crate) fn hold_lock(&self) -> impl Drop + '_ {
        self.hold()
    }
}

impl Word128 for SequentialWord {
    #[inline]
    fn load(&self) -> u128 {
        if lock_free_u128() {
            return self.atomic.load(Ordering::Relaxed);
        }
        let _held = self.hold();
        self.read()
    }

    #[inline]
    fn compare_exchange(&self, current: u128, new: u128) -> Result<u128, u128> {
        if lock_free_u128() {
            return self.atomic.compare_exchange(
                current,
                new,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        let _held = self.hold();
        let seen = self.read();
        if seen != current {
            return Err(seen);
        }
        self.write(new);
        Ok(seen)
    }
}

/// Whether 128-bit atomics are lock-free on this CPU (portable-atomic's
/// detection, once per process), unless a test forces the locked path.
#[inline]
fn lock_free_u128() -> bool {
    #[cfg(feature = "__test-hooks")]
    if FORCE_LOCKED.load(Ordering::Relaxed) {
        return false;
    }
    portable_atomic::AtomicU128::is_lock_free()
}

/// Test hook: the locked path whatever the CPU has.
#[cfg(feature = "__test-hooks")]
pub(crate) static FORCE_LOCKED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[cfg(test)]
mod tests {
    use super::*;

    /// The locked path's compare-exchange and load, as the atomic's.
    #[test]
    fn the_locked_halves_behave_as_one_word() {
        let w = SequentialWord::new();
        let _held = w.hold();
        drop(_held);
        let _g = w.hold();
        assert_eq!(w.read(), 0);
        w.write(u128::MAX - 5);
        assert_eq!(w.read(), u128::MAX - 5);
        drop(_g);
        let w = SequentialWord::new();
        // Through the trait, on whichever path this CPU takes.
        assert_eq!(Word128::compare_exchange(&w, 0, 1 << 100 | 7), Ok(0));
        assert_eq!(Word128::compare_exchange(&w, 0, 9), Err(1 << 100 | 7));
        assert_eq!(Word128::load(&w), 1 << 100 | 7);
    }
}
