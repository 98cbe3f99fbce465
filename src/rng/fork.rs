//! Fork safety: the process token.
//!
//! Every generator records the token it was seeded under. The token lives in
//! the OS's fork detector word (see `sys::fork_word`), which reads 0 in a
//! child process: the first generator there draws a fresh token, and every
//! generator that sees a token other than its own reseeds and drops any
//! pre-drawn randomness. The check costs one relaxed load per call.

use std::sync::atomic::Ordering;

use crate::sys;

/// The current process token (never 0).
#[inline]
pub(crate) fn token() -> u64 {
    token_in(sys::fork_word())
}

/// The current token from a fork word the caller already holds (saves the
/// lazy-init check on hot paths).
#[inline]
pub(crate) fn token_in(w: &'static std::sync::atomic::AtomicU64) -> u64 {
    match w.load(Ordering::Relaxed) {
        0 => renew(0),
        t => t,
    }
}

/// The process's fork word (see `sys::fork_word`).
pub(crate) fn word() -> &'static std::sync::atomic::AtomicU64 {
    sys::fork_word()
}

/// Replaces a token of `old` (0 in a new child) with a fresh one; if another
/// thread already did, uses theirs.
#[cold]
fn renew(old: u64) -> u64 {
    let w = sys::fork_word();
    let fresh = fresh_token();
    match w.compare_exchange(old, fresh, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => fresh,
        Err(current) if current != 0 => current,
        Err(_) => renew(0),
    }
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

/// Makes every generator in the process reseed before its next id.
pub(crate) fn reseed_all() {
    let w = sys::fork_word();
    let old = w.load(Ordering::Relaxed);
    if w.compare_exchange(old, fresh_token(), Ordering::AcqRel, Ordering::Relaxed)
        .is_err()
    {
        // Someone else renewed it at the same moment: that serves too.
    }
}
