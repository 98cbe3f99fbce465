//! Fork safety: the process token.
//!
//! Every generator records the token it was seeded under. The token lives in
//! the OS's fork detector word (see `sys::fork_word`), which reads 0 in a
//! child process: the first generator there draws a fresh token, and every
//! generator that sees a token other than its own reseeds and drops any
//! pre-drawn randomness. The check costs one relaxed load per call.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::sys;

/// The current process token (never 0).
#[inline]
pub(crate) fn token() -> u64 {
    token_in(sys::fork_word())
}

/// The current token from a fork word the caller already holds (saves the
/// lazy-init check on hot paths).
#[inline]
pub(crate) fn token_in(w: &'static AtomicU64) -> u64 {
    token_of(w, fresh_token)
}

/// The process's fork word (see `sys::fork_word`).
pub(crate) fn word() -> &'static AtomicU64 {
    sys::fork_word()
}

/// Makes every generator in the process reseed before its next id.
pub(crate) fn reseed_all() {
    replace_token(sys::fork_word(), fresh_token);
}

/// What the token protocol needs from its word: the process's is a std
/// atomic in the wipe-on-fork page; `loom-tests/tests/fork_token.rs` runs
/// the same functions over loom's.
#[doc(hidden)]
pub trait TokenWord {
    /// A relaxed load: the token is a plain value, it guards no other data.
    fn load(&self) -> u64;
    /// A strong compare-exchange.
    fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64>;
}

impl TokenWord for AtomicU64 {
    #[inline]
    fn load(&self) -> u64 {
        self.load(Ordering::Relaxed)
    }
    fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64> {
        self.compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
    }
}

#[cfg(loom)]
impl TokenWord for loom::sync::atomic::AtomicU64 {
    fn load(&self) -> u64 {
        self.load(Ordering::Relaxed)
    }
    fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64> {
        self.compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
    }
}

/// The token in `w`. It reads 0 only in a new child: then the first thread
/// there installs a token from `fresh` and every other thread adopts that
/// one, so all generators in the child agree.
#[doc(hidden)]
#[inline]
pub fn token_of(w: &impl TokenWord, fresh: impl FnOnce() -> u64) -> u64 {
    match w.load() {
        0 => settle(w, fresh()),
        t => t,
    }
}

/// Installs `fresh` in a word that read 0, or adopts what another thread
/// installed first (a failed exchange from 0 means the word is not 0).
#[cold]
fn settle(w: &impl TokenWord, fresh: u64) -> u64 {
    match w.compare_exchange(0, fresh) {
        Ok(_) => fresh,
        Err(current) => current,
    }
}

/// Moves the token on ([`crate::reseed`]). If another thread moves it at the
/// same moment, its token serves as well: either way every generator sees a
/// token other than its own and reseeds.
#[doc(hidden)]
pub fn replace_token(w: &impl TokenWord, fresh: impl FnOnce() -> u64) {
    let old = w.load();
    let _ = w.compare_exchange(old, fresh());
}

/// A random non-zero token. If the OS has no randomness, the clock mixed
/// with a counter (the parent's token was random: a clash is a 2^-64 event).
fn fresh_token() -> u64 {
    static FALLBACK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut b = [0u8; 8];
    let t = match getrandom::fill(&mut b) {
        Ok(()) => u64::from_le_bytes(b),
        Err(_) => {
            sys::unix_millis().rotate_left(29)
                ^ FALLBACK.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
        }
    };
    t.max(1)
}
