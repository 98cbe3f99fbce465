//! A lock a forked child can take over: one word that holds the owner's
//! process id, so that a child can tell a lock its parent's thread held at
//! the fork (that thread does not exist in the child and will never let
//! go) from one a thread of its own holds. CouchDB `sequential`'s word
//! where the CPU has no 128-bit compare-and-swap (`word.rs`) and, in
//! kuuid-sequence, the block installers' lock and the per-process
//! connection's are this lock.
//!
//! The id is written by the same compare-and-swap that takes the lock. With
//! the lock and the id in two words (the connection's used to be a mutex,
//! then a store of the id), a fork between the two steps, or between
//! clearing the id and unlocking, left the child a locked mutex with no
//! owner named, and the child waited forever for it.

use std::sync::atomic::Ordering;

/// The atomic an [`Owner`] is made of: std's in a build, loom's under the
/// loom models (which run this very code), std's always for a word that
/// lives in the process words (`word.rs`: a static, which loom's atomics
/// cannot be).
#[doc(hidden)]
pub trait OwnerAtomic {
    /// A strong compare-exchange.
    fn compare_exchange(
        &self,
        current: u64,
        new: u64,
        ok: Ordering,
        err: Ordering,
    ) -> Result<u64, u64>;
    /// A store.
    fn store(&self, v: u64, order: Ordering);
}

/// The impl for an atomic type with std's method names (std's and loom's).
macro_rules! owner_atomic {
    ($atomic:ty) => {
        impl OwnerAtomic for $atomic {
            #[inline]
            fn compare_exchange(
                &self,
                current: u64,
                new: u64,
                ok: Ordering,
                err: Ordering,
            ) -> Result<u64, u64> {
                <$atomic>::compare_exchange(self, current, new, ok, err)
            }
            #[inline]
            fn store(&self, v: u64, order: Ordering) {
                <$atomic>::store(self, v, order);
            }
        }
    };
}

owner_atomic!(std::sync::atomic::AtomicU64);
#[cfg(loom)]
owner_atomic!(loom::sync::atomic::AtomicU64);

/// The atomic of an [`Owner`] made by [`Owner::new`].
#[cfg(loom)]
#[doc(hidden)]
pub type DefaultAtomic = loom::sync::atomic::AtomicU64;
/// The atomic of an [`Owner`] made by [`Owner::new`].
#[cfg(not(loom))]
#[doc(hidden)]
pub type DefaultAtomic = std::sync::atomic::AtomicU64;

/// A lock a copy of the process can take over: one word that holds the
/// holder's process id (plus one), or 0 when free. A thread of this
/// process that finds the word held by this process waits; one that finds
/// another process's id knows the holder was its parent's thread, which a
/// `fork()` did not copy and which will never let go, and takes the lock
/// at once. The id is written by the same compare-and-swap that takes the
/// lock, so no fork can fall between the two.
///
/// A lock for short critical sections (the callers' own waiting is the
/// `wait` closure, called between tries): a thread that holds it across a
/// `fork()` leaves the parent's copy held, never the child's.
///
/// ```
/// use kuuid::process::Owner;
/// static LOCK: Owner = Owner::new();
///
/// let me = std::process::id();
/// {
///     let _held = LOCK.hold(me, std::thread::yield_now);
///     // ... alone among this process's threads ...
/// }
/// // A word left held by another process (a parent's thread that a fork
/// // did not copy) is taken over without waiting.
/// LOCK.acquire(me.wrapping_add(1), || {});
/// LOCK.acquire(me, || unreachable!("another process's hold"));
/// LOCK.release();
/// ```
#[derive(Debug, Default)]
pub struct Owner<A = DefaultAtomic> {
    word: A,
}

impl Owner {
    /// A free word.
    ///
    /// ```
    /// static LOCK: kuuid::process::Owner = kuuid::process::Owner::new();
    /// LOCK.acquire(std::process::id(), || unreachable!("free"));
    /// LOCK.release();
    /// ```
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        Owner {
            word: DefaultAtomic::new(0),
        }
    }

    /// A free word.
    #[cfg(loom)]
    pub fn new() -> Self {
        Owner {
            word: DefaultAtomic::new(0),
        }
    }
}

impl Owner<std::sync::atomic::AtomicU64> {
    /// A free word on std's atomic whatever the build: for a static
    /// (CouchDB `sequential`'s lock).
    #[cfg(feature = "couch")]
    pub(crate) const fn process_wide() -> Self {
        Owner {
            word: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

impl<A: OwnerAtomic> Owner<A> {
    /// Takes the word for process `pid` (this process's
    /// `std::process::id()`), calling `wait` while a thread of this process
    /// holds it. A word that names another process was left by a parent's
    /// thread that the fork did not copy: it is taken over at once.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use kuuid::process::Owner;
    ///
    /// static LOCK: Owner = Owner::new();
    /// let me = std::process::id();
    /// LOCK.acquire(me, || {});
    /// let waited = AtomicBool::new(false);
    /// std::thread::scope(|s| {
    ///     // Another thread of this process waits until the holder lets go.
    ///     let other = s.spawn(|| {
    ///         LOCK.acquire(me, || waited.store(true, Ordering::Relaxed));
    ///         LOCK.release();
    ///     });
    ///     while !waited.load(Ordering::Relaxed) {
    ///         std::thread::yield_now();
    ///     }
    ///     LOCK.release();
    ///     other.join().unwrap();
    /// });
    /// ```
    pub fn acquire(&self, pid: u32, mut wait: impl FnMut()) {
        // Plus one: any u32 is a process id, and 0 means free.
        let pid = u64::from(pid) + 1;
        let mut seen = 0;
        loop {
            match self
                .word
                .compare_exchange(seen, pid, Ordering::Acquire, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(now) if now == pid => {
                    wait();
                    seen = 0;
                }
                // Free (0) or another process's: try again from what is there.
                Err(now) => seen = now,
            }
        }
    }

    /// Frees the word (its holder calls this).
    ///
    /// ```
    /// static LOCK: kuuid::process::Owner = kuuid::process::Owner::new();
    /// let me = std::process::id();
    /// LOCK.acquire(me, || {});
    /// LOCK.release();
    /// LOCK.acquire(me, || unreachable!("released above"));
    /// # LOCK.release();
    /// ```
    pub fn release(&self) {
        self.word.store(0, Ordering::Release);
    }

    /// [`acquire`](Self::acquire)s the word and frees it when the guard
    /// drops, also by a panic (a lock left held would make every other
    /// thread wait forever).
    ///
    /// ```
    /// static LOCK: kuuid::process::Owner = kuuid::process::Owner::new();
    /// let me = std::process::id();
    /// let caught = std::panic::catch_unwind(|| {
    ///     let _held = LOCK.hold(me, || {});
    ///     panic!("inside the critical section");
    /// });
    /// assert!(caught.is_err());
    /// // The panic dropped the guard: the word is free.
    /// let _held = LOCK.hold(me, || unreachable!("freed by the unwind"));
    /// ```
    pub fn hold(&self, pid: u32, wait: impl FnMut()) -> Held<'_, A> {
        self.acquire(pid, wait);
        Held(self)
    }
}

/// The word held by [`Owner::hold`]: released when dropped.
///
/// ```
/// static LOCK: kuuid::process::Owner = kuuid::process::Owner::new();
/// let me = std::process::id();
/// let held: kuuid::process::Held<'_> = LOCK.hold(me, || {});
/// drop(held);
/// LOCK.acquire(me, || unreachable!("dropped above"));
/// # LOCK.release();
/// ```
#[must_use = "the lock is released when the guard is dropped"]
pub struct Held<'a, A: OwnerAtomic = DefaultAtomic>(&'a Owner<A>);

impl<A: OwnerAtomic> Drop for Held<'_, A> {
    fn drop(&mut self) {
        self.0.release();
    }
}

// Each property the sequence's and the couch word's locks rest on, one
// thread and no timing: the wait closure stands for the other holder.
#[cfg(all(test, not(loom)))]
mod tests {
    use super::Owner;
    use std::cell::Cell;

    #[test]
    fn a_held_word_makes_its_own_process_wait() {
        let owner = Owner::new();
        owner.acquire(7u32, || panic!("a free word was waited for"));
        let waits = Cell::new(0);
        owner.acquire(7u32, || {
            waits.set(waits.get() + 1);
            // The other holder lets go.
            owner.release();
        });
        assert_eq!(waits.get(), 1);
    }

    #[test]
    fn another_process_word_is_taken_over_without_waiting() {
        let owner = Owner::new();
        // A parent's thread held it at the fork: the child is pid 8.
        owner.acquire(7u32, || {});
        owner.acquire(8, || panic!("waited for a thread the copy does not have"));
        let waits = Cell::new(0);
        owner.acquire(8, || {
            waits.set(waits.get() + 1);
            owner.release();
        });
        assert_eq!(waits.get(), 1, "the child holds it now");
    }

    #[test]
    fn release_and_the_guard_free_the_word() {
        let owner = Owner::new();
        owner.acquire(7u32, || {});
        owner.release();
        owner.acquire(7u32, || panic!("release left the word held"));
        owner.release();
        drop(owner.hold(7, || {}));
        owner.acquire(7u32, || panic!("the guard left the word held"));
    }
}
