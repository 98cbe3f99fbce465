//! SQLite across fork, for every store of the process.
//!
//! Two things SQLite keeps per process must not reach a copy of it (a
//! forked child, a raw `clone`) in use:
//!
//! - its global mutexes (allocator, list of open files): a copy made while
//!   a call was inside SQLite may find one locked by a thread it does not
//!   have, and wait forever;
//! - its lock tables (`unixInodeInfo`, the WAL's shared-memory node), which
//!   describe the `fcntl` locks of the connections that were open. A copy
//!   inherits the tables but not the locks: a connection it opened on the
//!   same file would take no real lock, and the parent, closing its own,
//!   would find itself the last user and delete the WAL the copy writes.
//!
//! So every SQLite call of the stores passes the gate (`fork_gate`). A
//! fork's prepare handler closes it and waits, at most [`FORK_WAIT`], for
//! the calls inside to leave; calls waiting for another process's lock see
//! it close and step out at once (the busy handler below), to go on after
//! the fork. The first call in a copy made with no call inside closes every
//! connection the copy inherited (they hold no lock there; closing one
//! releases nothing of the parent's) before any connection is opened, so
//! the copy's tables describe its own locks only. A copy made with a call
//! inside (the wait ran out, a raw clone) is poisoned: its calls fail with
//! [`Error::CopiedMidCall`] and it never calls SQLite, not even to close.
//!
//! A fork from a signal handler copies the very thread it interrupted, and
//! the copy returns into what that thread was doing: between a lease's
//! `UPDATE` and its `COMMIT`, the copy would go on to commit on the
//! parent's connection, holding none of its locks, and write its stale
//! snapshot into the `-shm` it shares with the parent (whose next lease
//! then hands out a block again). So a thread in the gate keeps every
//! blockable asynchronous signal blocked ([`Masked`]), from before it
//! enters until after it has left, except while the busy handler naps
//! waiting for another process's lock, before SQLite holds anything to
//! write with; a copy made in such a nap finds the gate closed and steps
//! out with `SQLITE_BUSY`. A signal that arrives inside waits until the
//! call is over: a fork from its handler then copies a finished call, and
//! the copy's call still refuses with [`Error::CopiedMidCall`] (what it
//! returned is the parent's).

use std::cell::Cell;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use super::super::error::Error;
use super::super::fork_gate::{Entry, ForkGate, Poisoned, Registered};
use super::super::wait::Backoff;
use super::Conn;

/// One store's connection, if open.
pub(super) type Slot = Mutex<Option<Conn>>;

/// The longest a fork waits for SQLite calls in flight; a copy made while
/// one is still inside is poisoned rather than delayed further.
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) const FORK_WAIT: Duration = Duration::from_millis(500);

static GATE: ForkGate = ForkGate::new();
static HANDLERS: Registered = Registered::new();
/// Every store's slot, so that a copy can close what it inherited. Locked
/// only inside the gate, so no fork copies it locked.
static SLOTS: Mutex<Vec<Weak<Slot>>> = Mutex::new(Vec::new());

thread_local! {
    /// How many gate passes this thread is inside (the prepare handler does
    /// not wait for its own thread).
    static DEPTH: Cell<u64> = const { Cell::new(0) };
    /// The thread's signal mask before its outermost pass, while it is
    /// inside: what the busy handler's naps open again.
    #[cfg(unix)]
    static OPEN_MASK: Cell<Option<libc::sigset_t>> = const { Cell::new(None) };
    /// When this thread's call stops waiting for another process's lock.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Set when the busy handler stopped waiting because a fork was.
    static STEPPED_OUT: Cell<bool> = const { Cell::new(false) };
}

/// A pass through the gate: counted out when dropped (on a panic too),
/// with the thread's asynchronous signals blocked from before it enters
/// until after it has left.
pub(super) struct Inside {
    pid: u32,
    // Dropped after `Drop::drop` has left the gate: a signal held back
    // until then runs its handler outside.
    _masked: Masked,
}

impl Inside {
    /// Enters the gate (the first use installs the fork handlers; the first
    /// pass of a process closes what it inherited).
    pub(super) fn enter() -> Result<Self, Error> {
        // Before anything else: a copy made by a handler from here on
        // would return into this pass.
        let masked = Masked::block();
        HANDLERS.ensure(install);
        // Counted before entering: a signal handler that forks in between
        // must not wait for this thread.
        DEPTH.with(|d| d.set(d.get() + 1));
        let mut backoff = Backoff::default();
        match GATE.enter(std::process::id, || backoff.wait()) {
            Err(Poisoned) => {
                DEPTH.with(|d| d.set(d.get() - 1));
                Err(Error::CopiedMidCall)
            }
            Ok((entry, pid)) => {
                let inside = Inside {
                    pid,
                    _masked: masked,
                };
                if entry == Entry::Adopt {
                    close_inherited(pid);
                    GATE.adopted(pid);
                }
                Ok(inside)
            }
        }
    }

    /// The process the pass was made in.
    pub(super) fn pid(&self) -> u32 {
        self.pid
    }

    /// Leaves the gate, then lets the signals held back meanwhile run;
    /// returns whether this process is still the one that entered. A copy
    /// made by a signal handler on this thread (during a nap, or as the
    /// signals run) finds another id, and must not use what its call
    /// returned: it is the parent's.
    pub(super) fn leave(self) -> bool {
        let pid = self.pid;
        drop(self);
        std::process::id() == pid
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        // A thread copied mid-call stays counted in the copy, which is
        // poisoned for good: what its call did there is not to be trusted.
        if std::process::id() == self.pid {
            GATE.leave(self.pid);
        }
        DEPTH.with(|d| d.set(d.get() - 1));
    }
}

/// The thread's blockable asynchronous signals, blocked while alive; the
/// mask it had before is put back when dropped. Synchronous faults
/// (`SIGSEGV`, `SIGBUS`, `SIGFPE`, `SIGILL`, `SIGTRAP`, `SIGSYS`) stay
/// open: blocked, the kernel would end the process on one instead of
/// running its handler. `SIGKILL` and `SIGSTOP` cannot be blocked.
struct Masked {
    #[cfg(unix)]
    before: libc::sigset_t,
    #[cfg(unix)]
    outermost: bool,
}

impl Masked {
    #[cfg(unix)]
    fn block() -> Self {
        // SAFETY: sigset_t is plain data that sigfillset/sigdelset fill in
        // whole; pthread_sigmask changes this thread's mask only and
        // writes the old one into `before`, which we own. A handler that
        // runs before the mask takes effect finds no pass of ours begun.
        let before = unsafe {
            let mut all: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            for fault in [
                libc::SIGSEGV,
                libc::SIGBUS,
                libc::SIGFPE,
                libc::SIGILL,
                libc::SIGTRAP,
                libc::SIGSYS,
            ] {
                libc::sigdelset(&mut all, fault);
            }
            let mut before: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut before);
            before
        };
        let outermost = OPEN_MASK.with(|m| m.get().is_none());
        if outermost {
            OPEN_MASK.with(|m| m.set(Some(before)));
        }
        Masked { before, outermost }
    }

    #[cfg(not(unix))]
    fn block() -> Self {
        Masked {}
    }
}

#[cfg(unix)]
impl Drop for Masked {
    fn drop(&mut self) {
        if self.outermost {
            OPEN_MASK.with(|m| m.set(None));
        }
        // SAFETY: puts back the mask this thread had; a handler held back
        // runs now, after the pass has left the gate.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.before, std::ptr::null_mut()) };
    }
}

/// Sleeps `d` with the thread's signals open again (a call waiting for
/// another process's lock holds nothing a copy could write with), then
/// blocks them again; returns whether the call may try again, `false` when
/// a fork waits (in a copy made meanwhile, always: its gate stays closed).
pub(super) fn nap(d: Duration) -> bool {
    #[cfg(unix)]
    {
        // Outside a pass (no mask saved) there is nothing to open.
        let Some(open) = OPEN_MASK.with(Cell::get) else {
            std::thread::sleep(d);
            return !step_out();
        };
        // SAFETY: sigset_t is plain data; pthread_sigmask sets this
        // thread's mask to the one it had before the pass and writes the
        // blocked one into `held`, which we own. A handler that runs now
        // finds no SQLite call of this thread holding anything.
        let held = unsafe {
            let mut held: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_SETMASK, &open, &mut held);
            held
        };
        std::thread::sleep(d);
        // SAFETY: blocks the signals again, before SQLite goes on.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &held, std::ptr::null_mut()) };
    }
    #[cfg(not(unix))]
    std::thread::sleep(d);
    !step_out()
}

/// A pass through the gate that does nothing (test hook): a fork waits for
/// it as for a call that never ends.
#[cfg(feature = "__test-hooks")]
pub(crate) fn hold() -> Result<impl Drop, Error> {
    Inside::enter()
}

/// Records a new store's slot (inside the gate).
pub(super) fn register(slot: &Arc<Slot>, _inside: &Inside) {
    let mut slots = SLOTS.lock().unwrap_or_else(PoisonError::into_inner);
    slots.retain(|s| s.strong_count() > 0);
    slots.push(Arc::downgrade(slot));
}

/// Whether kuuid's fork guard is off: only in the negative controls of
/// the tests (feature `__test-hooks`, which passes it on to kuuid's), where
/// the SQLite store must act as it once did, with no guard.
pub(super) fn fork_guard_disabled() -> bool {
    #[cfg(feature = "__test-hooks")]
    return kuuid::__test_hooks::fork_guard_disabled();
    #[cfg(not(feature = "__test-hooks"))]
    false
}

/// Closes every connection opened by another process (the one this
/// process was copied from), before this process opens any.
fn close_inherited(pid: u32) {
    if fork_guard_disabled() {
        // The negative control: keep them, as the store once did.
        return;
    }
    let mut slots = SLOTS.lock().unwrap_or_else(PoisonError::into_inner);
    slots.retain(|s| s.strong_count() > 0);
    for slot in slots.iter().filter_map(Weak::upgrade) {
        // Free: no call was inside when the process was copied.
        if let Ok(mut conn) = slot.try_lock()
            && conn.as_ref().is_some_and(|c| c.pid != pid)
            && let Some(c) = conn.take()
        {
            c.close();
        }
    }
}

/// Runs `f` with `deadline` as the thread's busy deadline; returns what
/// `f` returned and whether the busy handler stepped out for a fork.
pub(super) fn with_deadline<R>(deadline: Instant, f: impl FnOnce() -> R) -> (R, bool) {
    STEPPED_OUT.with(|s| s.set(false));
    DEADLINE.with(|d| d.set(Some(deadline)));
    let r = f();
    DEADLINE.with(|d| d.set(None));
    (r, STEPPED_OUT.with(Cell::take))
}

/// Whether a fork waits, so a call waiting for a lock should step out
/// (noted for [`with_deadline`]).
pub(super) fn step_out() -> bool {
    let closing = GATE.closing();
    if closing {
        STEPPED_OUT.with(|s| s.set(true));
    }
    closing
}

/// SQLite's busy handler on every store connection: waits for another
/// process's lock until the thread's deadline, in short sleeps, and steps
/// out at once when a fork waits (SQLite then fails the call with
/// `SQLITE_BUSY`, and the store tries again after the fork).
pub(super) fn busy(count: i32) -> bool {
    if step_out() {
        return false;
    }
    let Some(deadline) = DEADLINE.with(Cell::get) else {
        return false;
    };
    let now = Instant::now();
    if now >= deadline {
        return false;
    }
    #[cfg(feature = "__test-hooks")]
    BUSY_WAITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // Short: a fork waits at most this long for the call to see it.
    let pause = Duration::from_millis(match count {
        0 => 1,
        1 => 2,
        _ => 5,
    });
    nap(pause.min(deadline - now))
}

/// Naps taken by [`busy`] (the tests wait for a lease to be waiting).
#[cfg(feature = "__test-hooks")]
static BUSY_WAITS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Naps taken by [`busy`] in this process so far.
#[cfg(feature = "__test-hooks")]
pub(crate) fn busy_waits() -> u64 {
    BUSY_WAITS.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(unix)]
fn install() {
    extern "C" fn prepare() {
        let pid = std::process::id();
        let own = DEPTH.try_with(Cell::get).unwrap_or(0);
        let start = Instant::now();
        let mut backoff = Backoff::default();
        GATE.close(pid, own, || {
            let more = start.elapsed() < FORK_WAIT;
            if more {
                backoff.wait();
            }
            more
        });
    }
    extern "C" fn parent() {
        GATE.open(std::process::id());
    }
    // SAFETY: registers two functions without arguments; they read the
    // process id, the clock and a thread-local counter, touch the gate's
    // atomic word and sleep: safe in a prepare handler, also when the fork
    // comes from a signal handler. Registered twice (two first callers),
    // they close and open the gate twice, which leaves it as once does.
    // The child needs no handler: its first call finds another process's
    // id in the word (as a raw clone's does).
    unsafe { libc::pthread_atfork(Some(prepare), Some(parent), None) };
}

#[cfg(not(unix))]
fn install() {}
