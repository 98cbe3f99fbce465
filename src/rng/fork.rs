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

/// The tag of a value made under no process ([`Tagged::default`],
/// [`TaggedCell::stale`]): a value no fork word ever holds (tokens are
/// never 0 or this; a child's word reads 0 until a token is drawn), so a
/// stale value matches nothing, whatever it holds.
const STALE: u64 = u64::MAX;

/// `t` as a token: never 0 (a child's word before its first token) and
/// never [`STALE`].
fn as_token(t: u64) -> u64 {
    t.clamp(1, STALE - 1)
}

/// A fork word as it stands, 0 included (a child whose token nobody has
/// drawn yet): for a hot path that compares it with the tag of a value
/// (never 0) and calls [`token_in`] only when they differ.
#[inline]
pub(crate) fn current(w: &'static AtomicU64) -> u64 {
    w.load(Ordering::Relaxed)
}

/// The process's fork word (see `sys::fork_word`).
pub(crate) fn word() -> &'static AtomicU64 {
    sys::fork_word()
}

/// Makes every generator in the process reseed before its next id.
pub(crate) fn reseed_all() {
    replace_token(sys::fork_word(), fresh_token);
}

/// A value made under one process token: every cache of minted state
/// (claimed blocks of ids or counter values) is one of these, or a
/// [`TaggedCell`] where a thread-local slot holds it, so a fork or a
/// [`crate::reseed`] makes it stale in one place and one way.
/// `Tagged::default()` is tagged [`STALE`]: it matches no process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tagged<T> {
    token: u64,
    value: T,
}

impl<T: Default> Default for Tagged<T> {
    fn default() -> Self {
        Tagged {
            token: STALE,
            value: T::default(),
        }
    }
}

impl<T> Tagged<T> {
    /// `value`, made under `token`.
    #[inline]
    pub(crate) const fn new(token: u64, value: T) -> Self {
        debug_assert!(token != 0 && token != STALE, "not a token");
        Tagged { token, value }
    }

    /// The value to change in place, if it was made under `token`.
    #[inline]
    pub(crate) fn get_mut(&mut self, token: u64) -> Option<&mut T> {
        (self.token == token).then_some(&mut self.value)
    }

    /// The value whatever its tag: for an owner that checks the tag with
    /// [`Tagged::get_mut`] when a call starts and remakes a stale value
    /// there (a fork cannot fall inside the call: the child has only the
    /// forking thread).
    #[inline]
    pub(crate) fn value(&self) -> &T {
        &self.value
    }

    /// As [`Tagged::value`], to change.
    #[inline]
    pub(crate) fn value_mut(&mut self) -> &mut T {
        &mut self.value
    }

    /// Marks the value, remade in place, as made under `token`.
    #[inline]
    pub(crate) fn retag(&mut self, token: u64) {
        debug_assert!(token != 0 && token != STALE, "not a token");
        self.token = token;
    }
}

/// A [`Tagged`] value in a thread-local slot, its tag and value kept in
/// cells of their own: a cache's fast path reads the tag and the value and
/// writes back only the value (a `Cell<Tagged<T>>` copies the tag out and
/// back in on every use: ~7 instructions an ObjectId, callgrind).
#[derive(Debug)]
pub(crate) struct TaggedCell<T: Copy> {
    token: std::cell::Cell<u64>,
    value: std::cell::Cell<T>,
}

impl<T: Copy> TaggedCell<T> {
    /// A slot whose value belongs to no process (not filled yet): it
    /// matches no token, not even a new child's word of 0.
    pub(crate) const fn stale(value: T) -> Self {
        TaggedCell {
            token: std::cell::Cell::new(STALE),
            value: std::cell::Cell::new(value),
        }
    }

    /// The value, if it was made under `token` (the current one).
    #[inline]
    pub(crate) fn get(&self, token: u64) -> Option<T> {
        (self.token.get() == token).then(|| self.value.get())
    }

    /// Replaces the value, keeping its tag (after [`Self::get`] matched).
    #[inline]
    pub(crate) fn set(&self, value: T) {
        self.value.set(value);
    }

    /// A new value, made under `token`.
    #[inline]
    pub(crate) fn renew(&self, token: u64, value: T) {
        self.token.set(token);
        self.value.set(value);
    }
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

/// A random non-zero token, or [`fallback_token`] if the OS has no
/// randomness. Also the fresh seed [`crate::reseed`] gives process words:
/// it never comes from a generator that a snapshot copied.
pub(crate) fn fresh_token() -> u64 {
    let mut b = [0u8; 8];
    let t = match getrandom::fill(&mut b) {
        Ok(()) => u64::from_le_bytes(b),
        Err(_) => fallback_token(),
    };
    as_token(t)
}

/// A token without OS randomness: the process id, the clock and a counter,
/// mixed. Siblings forked in the same millisecond inherit the same counter
/// and clock but never share a pid while both live; the counter separates
/// two tokens drawn in one process within one millisecond.
fn fallback_token() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mixed = mix(u64::from(std::process::id()) << 32 ^ n)
        ^ sys::unix_millis().wrapping_mul(0x9E37_79B9_7F4A_7C15);
    as_token(mixed)
}

/// A bijective 64-bit mixer (splitmix64's finalizer): distinct inputs stay
/// distinct.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tagged_tests {
    use super::*;

    #[test]
    fn a_tagged_value_serves_its_own_token_only() {
        let mut v = Tagged::<u32>::default();
        assert!(v.get_mut(1).is_none());
        v = Tagged::new(7, 5);
        assert_eq!(v.get_mut(8), None);
        *v.get_mut(7).unwrap() += 1;
        assert_eq!(v.get_mut(7), Some(&mut 6));
        assert!(v.get_mut(0).is_none());
        // Remade in place under a new token: that token only, from now on.
        v.retag(9);
        assert_eq!(v.get_mut(9), Some(&mut 6));
        assert!(v.get_mut(7).is_none());
    }

    /// A stale value holding something usable still serves no token: not
    /// a new child's word (0), not any token (a stale tag 0 matched a
    /// child's 0 before, and only a used-up value kept that harmless).
    #[test]
    fn a_stale_value_serves_no_token_whatever_it_holds() {
        let c = TaggedCell::stale((5u64, 10u64));
        let mut v = Tagged::<(u64, u64)>::default();
        *v.value_mut() = (5, 10);
        for token in [0, 1, 7, STALE - 1] {
            assert_eq!(c.get(token), None, "{token}");
            assert!(v.get_mut(token).is_none(), "{token}");
        }
        assert_eq!([0, 1, STALE, 42].map(as_token), [1, 1, STALE - 1, 42]);
    }

    #[test]
    fn a_tagged_cell_serves_its_own_token_only() {
        let c = TaggedCell::stale(5u32);
        assert_eq!(c.get(1), None);
        c.renew(7, 5);
        assert_eq!(c.get(8), None);
        c.set(c.get(7).unwrap() + 1);
        assert_eq!(c.get(7), Some(6));
        assert_eq!(c.get(0), None);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Two children forked back to back (in the same millisecond, with the
    /// same counter) draw different fallback tokens. Each child writes its
    /// token to a pipe and exits at once.
    #[test]
    fn sibling_children_draw_distinct_fallback_tokens() {
        let mut tokens = Vec::new();
        let mut fds = [0i32; 2];
        // SAFETY: a pipe of two fds we own.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let mut children = Vec::new();
        for _ in 0..2 {
            // SAFETY: the child only computes, writes to the pipe and calls
            // _exit: nothing that needs the other threads of the test harness.
            match unsafe { libc::fork() } {
                0 => {
                    let t = fallback_token().to_le_bytes();
                    // SAFETY: writes 8 bytes we own to our pipe; _exit ends the child.
                    unsafe {
                        libc::write(fds[1], t.as_ptr().cast(), 8);
                        libc::_exit(0);
                    }
                }
                pid => {
                    assert!(pid > 0, "fork failed");
                    children.push(pid);
                }
            }
        }
        for _ in 0..2 {
            let mut b = [0u8; 8];
            // SAFETY: reads 8 bytes into a buffer we own.
            let n = unsafe { libc::read(fds[0], b.as_mut_ptr().cast(), 8) };
            assert_eq!(n, 8);
            tokens.push(u64::from_le_bytes(b));
        }
        for pid in children {
            // SAFETY: reaps our own child.
            unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
        }
        // SAFETY: closes the fds we opened.
        unsafe {
            libc::close(fds[0]);
            libc::close(fds[1]);
        }
        assert_ne!(tokens[0], tokens[1]);
    }
}
