//! Which process's thread may use a per-process connection: a lock word
//! that holds the owner's process id, so that a forked child can tell a
//! lock its parent's thread held at the fork (that thread does not exist in
//! the child and will never let go) from one a thread of its own holds.
//!
//! The id is written by the same compare-and-swap that takes the lock. With
//! the lock and the id in two words (a mutex, then a store of the id), a
//! fork between the two steps, or between clearing the id and unlocking,
//! left the child a locked mutex with no owner named, and the child waited
//! forever for it (seen once in CI: a child hung in the PostgreSQL
//! sequence's fork cell, `tests/unguarded`).

#[cfg(loom)]
use loom::sync::atomic::{AtomicU32, Ordering};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicU32, Ordering};

/// The owner's process id, or 0 when free.
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct Owner {
    word: AtomicU32,
}

impl Owner {
    /// A free word.
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        Owner {
            word: AtomicU32::new(0),
        }
    }

    /// A free word.
    #[cfg(loom)]
    pub fn new() -> Self {
        Owner {
            word: AtomicU32::new(0),
        }
    }

    /// Takes the word for process `pid` (not 0), calling `wait` while a
    /// thread of this process holds it. A word that names another process
    /// was left by a parent's thread that the fork did not copy: it is
    /// taken over at once.
    pub fn acquire(&self, pid: u32, mut wait: impl FnMut()) {
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
}
