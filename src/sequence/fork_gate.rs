//! A fork waits for this crate's SQLite calls in flight. SQLite's global
//! mutexes (its allocator's, its list of open files) are plain pthread
//! mutexes: a fork while another thread holds one (a `Sequence`'s prefetch
//! thread leasing, say) leaves it locked in the child, whose first SQLite
//! call then waits forever. So every SQLite call of the store passes the
//! gate, and a `pthread_atfork` prepare handler closes it and waits until
//! no call is inside; the parent and the child open it again after the
//! fork. A fork therefore waits for the calls in flight (at most a lease:
//! the busy timeout bounds one).
//!
//! The word: the count of calls inside, and [`CLOSED`] while a fork waits.

#[cfg(loom)]
use loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Set while a fork waits for the calls inside to leave.
const CLOSED: u64 = 1 << 63;

/// The gate's word (see the module docs).
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct ForkGate {
    word: AtomicU64,
}

impl ForkGate {
    /// An open gate with no call inside.
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        ForkGate {
            word: AtomicU64::new(0),
        }
    }

    /// An open gate with no call inside.
    #[cfg(loom)]
    pub fn new() -> Self {
        ForkGate {
            word: AtomicU64::new(0),
        }
    }

    /// Waits while a fork is pending, then counts the caller inside.
    pub fn enter(&self, mut wait: impl FnMut()) {
        let mut cur = self.word.load(Ordering::Acquire);
        loop {
            if cur & CLOSED != 0 {
                wait();
                cur = self.word.load(Ordering::Acquire);
                continue;
            }
            match self
                .word
                .compare_exchange(cur, cur + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return,
                Err(seen) => cur = seen,
            }
        }
    }

    /// Counts the caller out. Release: its SQLite calls (and the unlocks
    /// of SQLite's mutexes in them) happen before a fork that sees it out.
    pub fn leave(&self) {
        self.word.fetch_sub(1, Ordering::Release);
    }

    /// Closes the gate and waits until no call is inside (the prepare
    /// handler, on the forking thread). Without fork (Windows) nothing
    /// closes the gate.
    #[cfg_attr(not(any(loom, unix)), allow(dead_code))]
    pub fn close(&self, mut wait: impl FnMut()) {
        self.word.fetch_or(CLOSED, Ordering::AcqRel);
        while self.word.load(Ordering::Acquire) & !CLOSED != 0 {
            wait();
        }
    }

    /// Opens the gate (after the fork, in the parent and in the child).
    #[cfg_attr(not(any(loom, unix)), allow(dead_code))]
    pub fn open(&self) {
        self.word.fetch_and(!CLOSED, Ordering::Release);
    }

    /// Calls inside now (for the loom model).
    #[cfg(loom)]
    pub fn count(&self) -> u64 {
        self.word.load(Ordering::Acquire) & !CLOSED
    }
}

#[cfg(all(not(loom), feature = "rusqlite"))]
pub(super) use process::inside;

/// Whether the fork handlers are registered. Set after a registration, so
/// a caller that sees it set knows they are; a caller that sees it clear
/// registers them (again). Two threads at their first SQLite call may both
/// register: the handlers close and open the gate, which is idempotent, so
/// a second registration costs a second pair of calls per fork, nothing
/// more. Not a `std::sync::Once`: a fork while another thread was inside
/// `call_once` would leave the child's `Once` running for ever, and the
/// child's first SQLite call waiting on it.
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct Registered {
    done: AtomicBool,
}

impl Registered {
    /// Not registered yet.
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        Registered {
            done: AtomicBool::new(false),
        }
    }

    /// Not registered yet.
    #[cfg(loom)]
    pub fn new() -> Self {
        Registered {
            done: AtomicBool::new(false),
        }
    }

    /// Calls `register` unless a registration is known to have finished;
    /// returns after one has.
    pub fn ensure(&self, register: impl FnOnce()) {
        if !self.done.load(Ordering::Acquire) {
            register();
            self.done.store(true, Ordering::Release);
        }
    }
}

#[cfg(all(not(loom), feature = "rusqlite"))]
mod process {
    use super::{ForkGate, Registered};
    use crate::sequence::wait::Backoff;

    static GATE: ForkGate = ForkGate::new();
    static HANDLERS: Registered = Registered::new();

    /// A call through the gate, counted out when dropped (on a panic too).
    pub(crate) struct Inside(());

    impl Drop for Inside {
        fn drop(&mut self) {
            GATE.leave();
        }
    }

    /// Enters the process's gate for one SQLite call (the first use
    /// installs the fork handlers).
    pub(crate) fn inside() -> Inside {
        HANDLERS.ensure(install);
        let mut backoff = Backoff::default();
        GATE.enter(|| backoff.wait());
        Inside(())
    }

    #[cfg(unix)]
    fn install() {
        extern "C" fn prepare() {
            let mut backoff = Backoff::default();
            GATE.close(|| backoff.wait());
        }
        extern "C" fn after() {
            GATE.open();
        }
        // SAFETY: registers three functions without arguments; they only
        // touch the gate's atomic word and sleep, which is safe in a
        // prepare handler and after a fork in the child. Registered twice
        // (two first callers), they close and open the gate twice, which
        // leaves it as once does.
        unsafe { libc::pthread_atfork(Some(prepare), Some(after), Some(after)) };
    }

    #[cfg(not(unix))]
    fn install() {}
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// What a second registration of the handlers does at a fork: closing
    /// twice and opening twice leaves the gate as one of each does.
    #[test]
    fn closing_and_opening_twice_is_closing_and_opening_once() {
        let gate = ForkGate::new();
        gate.enter(|| unreachable!("the gate is open"));
        gate.leave();
        gate.close(|| unreachable!("no call is inside"));
        gate.close(|| unreachable!("no call is inside"));
        gate.open();
        gate.open();
        gate.enter(|| panic!("the gate stayed closed"));
        gate.leave();
        assert_eq!(gate.word.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn registers_until_a_registration_has_finished() {
        let handlers = Registered::new();
        let mut calls = 0;
        handlers.ensure(|| calls += 1);
        handlers.ensure(|| calls += 1);
        assert_eq!(calls, 1);
    }
}
