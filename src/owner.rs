//! A lock a forked child can take over: one word that holds the owner's
//! process id, so that a child can tell a lock its parent's thread held at
//! the fork (that thread does not exist in the child and will never let
//! go) from one a thread of its own holds. The sequence's installers' lock
//! (`sequence/blocks.rs`), the per-process connection's
//! (`sequence/connection.rs`) and CouchDB `sequential`'s word where the CPU
//! has no 128-bit compare-and-swap (`word.rs`) are this lock.
//!
//! The id is written by the same compare-and-swap that takes the lock. With
//! the lock and the id in two words (the connection's used to be a mutex,
//! then a store of the id), a fork between the two steps, or between
//! clearing the id and unlocking, left the child a locked mutex with no
//! owner named, and the child waited forever for it.

#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicU64, Ordering};

/// The owner's process id, or 0 when free.
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct Owner {
    word: AtomicU64,
}

impl Owner {
    /// A free word.
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        Owner {
            word: AtomicU64::new(0),
        }
    }

    /// A free word.
    #[cfg(loom)]
    pub fn new() -> Self {
        Owner {
            word: AtomicU64::new(0),
        }
    }

    /// Takes the word for process `pid` (not 0), calling `wait` while a
    /// thread of this process holds it. A word that names another process
    /// was left by a parent's thread that the fork did not copy: it is
    /// taken over at once.
    pub fn acquire(&self, pid: u64, mut wait: impl FnMut()) {
        debug_assert_ne!(pid, 0);
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
    pub fn release(&self) {
        self.word.store(0, Ordering::Release);
    }

    /// [`acquire`](Self::acquire)s the word and frees it when the guard
    /// drops, also by a panic (a lock left held would make every other
    /// thread wait forever).
    pub fn hold(&self, pid: u64, wait: impl FnMut()) -> Held<'_> {
        self.acquire(pid, wait);
        Held(self)
    }
}

/// The word held: released when dropped.
#[doc(hidden)]
pub struct Held<'a>(&'a Owner);

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.0.release();
    }
}
