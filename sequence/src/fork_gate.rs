//! The word that keeps a fork from copying a SQLite call in flight.
//!
//! SQLite's global mutexes (its allocator's, its list of open files) are
//! plain pthread mutexes, and its per-process lock tables describe
//! `fcntl` locks a child does not inherit. So a copy of the process may use
//! SQLite only if no call of this crate's stores was inside SQLite when it
//! was made, and only after it has closed every connection it inherited.
//! One word, shared by every SQLite store of the process, says both:
//!
//! - the process id of the process whose calls it counts (a copy, made by
//!   `fork` or a raw `clone`, reads its parent's id there);
//! - how many calls are inside;
//! - `CLOSED` while a fork's prepare handler waits for them to leave;
//! - `ADOPTING` while the first caller of a copy closes what the copy
//!   inherited (the others wait), and `UNADOPTED` until it has, when a
//!   fork claimed the word before any call;
//! - `POISONED` in a copy made while a call was inside: SQLite's locks may
//!   be held by a thread that does not exist there, so every call refuses.
//!
//! The prepare handler waits a bounded time (`close`'s `keep_waiting`); a
//! copy made while a call is still inside is poisoned rather than hung.

#[cfg(loom)]
use loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The low bits: calls inside.
const COUNT: u64 = (1 << 28) - 1;
/// The word was claimed by a fork's prepare handler before any call of
/// this process: the first call still adopts.
const UNADOPTED: u64 = 1 << 28;
/// A copy made while a call was inside: every call refuses.
const POISONED: u64 = 1 << 29;
/// The copy's first caller is closing what the copy inherited.
const ADOPTING: u64 = 1 << 30;
/// A fork waits for the calls inside to leave.
const CLOSED: u64 = 1 << 31;

fn owner(word: u64) -> u32 {
    (word >> 32) as u32
}

fn word(pid: u32, bits: u64) -> u64 {
    u64::from(pid) << 32 | bits
}

/// How a call got in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Entry {
    /// As one of the calls of this process.
    Inside,
    /// As the first call of this process (or of a copy): the caller closes
    /// what the process inherited, then calls [`ForkGate::adopted`]. It
    /// counts as inside meanwhile.
    Adopt,
}

/// This process is a copy made while a call was inside SQLite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct Poisoned;

/// The gate's word (see the module docs).
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct ForkGate {
    word: AtomicU64,
}

impl ForkGate {
    /// A gate no process has entered.
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        ForkGate {
            word: AtomicU64::new(0),
        }
    }

    /// A gate no process has entered.
    #[cfg(loom)]
    pub fn new() -> Self {
        ForkGate {
            word: AtomicU64::new(0),
        }
    }

    /// Counts the caller in for process `pid()` (not 0), calling `wait`
    /// while a fork or an adoption is under way. `pid` is asked again after
    /// each wait: a thread copied into a child mid-wait finds its new id.
    /// Returns how it got in and the process id it got in under.
    pub fn enter(
        &self,
        pid: impl Fn() -> u32,
        mut wait: impl FnMut(),
    ) -> Result<(Entry, u32), Poisoned> {
        let mut me = pid();
        let mut cur = self.word.load(Ordering::Acquire);
        loop {
            let (next, entry) = if owner(cur) != me {
                // First call of this process: a copy, or the first ever.
                if cur & (COUNT | POISONED) != 0 {
                    // Made while a call was inside (or a copy of such a copy).
                    match self.word.compare_exchange(
                        cur,
                        word(me, POISONED),
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    ) {
                        Ok(_) => return Err(Poisoned),
                        Err(seen) => {
                            cur = seen;
                            continue;
                        }
                    }
                }
                (word(me, ADOPTING | 1), Entry::Adopt)
            } else if cur & POISONED != 0 {
                return Err(Poisoned);
            } else if cur & (CLOSED | ADOPTING) != 0 {
                wait();
                me = pid();
                cur = self.word.load(Ordering::Acquire);
                continue;
            } else if cur & UNADOPTED != 0 {
                (word(me, ADOPTING | 1), Entry::Adopt)
            } else {
                (cur + 1, Entry::Inside)
            };
            match self
                .word
                .compare_exchange(cur, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Ok((entry, me)),
                Err(seen) => cur = seen,
            }
        }
    }

    /// Ends an adoption: the other callers of process `pid` may go in.
    pub fn adopted(&self, pid: u32) {
        self.update(pid, |w| w & !ADOPTING);
    }

    /// Counts a caller of process `pid` out. Release: its SQLite calls
    /// (and the unlocks of SQLite's mutexes in them) happen before a fork
    /// that sees it out. In a copy (the word names another process) the
    /// count is the parent's image and is left alone.
    pub fn leave(&self, pid: u32) {
        self.update(pid, |w| w - 1);
    }

    /// The prepare handler, on the forking thread of process `pid`, which
    /// is itself inside `own` times (a fork from a signal handler that
    /// interrupted a call): closes the gate and waits while more than `own`
    /// calls are inside, for as long as `keep_waiting` says. Returns
    /// whether no call at all is inside, so that a copy made now can use
    /// SQLite (else it will be poisoned). Without fork (Windows) nothing
    /// calls it.
    #[cfg_attr(not(any(loom, unix)), allow(dead_code))]
    pub fn close(&self, pid: u32, own: u64, mut keep_waiting: impl FnMut() -> bool) -> bool {
        let mut cur = self.word.load(Ordering::Acquire);
        loop {
            let next = if owner(cur) == pid {
                cur | CLOSED
            } else if cur & (COUNT | POISONED) == 0 {
                // No call of this process yet: claim the word, so that a
                // first call racing the fork waits for it too.
                word(pid, CLOSED | UNADOPTED)
            } else {
                // A copy made with a call inside, not told yet: its copies
                // are poisoned too, and there is nothing to wait for.
                return false;
            };
            match self
                .word
                .compare_exchange(cur, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => break,
                Err(seen) => cur = seen,
            }
        }
        loop {
            let cur = self.word.load(Ordering::Acquire);
            if cur & COUNT <= own {
                return cur & COUNT == 0;
            }
            if !keep_waiting() {
                return false;
            }
        }
    }

    /// Opens the gate again (the parent, after the fork).
    #[cfg_attr(not(any(loom, unix)), allow(dead_code))]
    pub fn open(&self, pid: u32) {
        self.update(pid, |w| w & !CLOSED);
    }

    /// Whether a fork waits for the calls inside (they should leave soon).
    pub fn closing(&self) -> bool {
        self.word.load(Ordering::Acquire) & CLOSED != 0
    }

    /// `f` of the word if it is process `pid`'s.
    fn update(&self, pid: u32, f: impl Fn(u64) -> u64) {
        let mut cur = self.word.load(Ordering::Acquire);
        while owner(cur) == pid {
            match self
                .word
                .compare_exchange(cur, f(cur), Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return,
                Err(seen) => cur = seen,
            }
        }
    }

    /// Calls inside now (for the loom model).
    #[cfg(loom)]
    pub fn count(&self) -> u64 {
        self.word.load(Ordering::Acquire) & COUNT
    }

    /// The word as a copy of the process would find it (for the loom
    /// model, which has no fork).
    #[cfg(loom)]
    pub fn copy(&self) -> Self {
        ForkGate {
            word: AtomicU64::new(self.word.load(Ordering::Acquire)),
        }
    }
}

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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const PARENT: u32 = 100;
    const CHILD: u32 = 101;

    /// Enters as `pid` where a call must wait once, `then` ending what it
    /// waits for; returns how it got in and how many times it waited.
    fn enter_after_a_wait(
        gate: &ForkGate,
        pid: u32,
        then: impl Fn(),
    ) -> (Result<(Entry, u32), Poisoned>, u32) {
        let mut waits = 0;
        let got = gate.enter(
            || pid,
            || {
                waits += 1;
                then();
            },
        );
        (got, waits)
    }

    fn enter(gate: &ForkGate, pid: u32) -> Result<Entry, Poisoned> {
        gate.enter(|| pid, || unreachable!("nothing to wait for"))
            .map(|(entry, p)| {
                assert_eq!(p, pid);
                entry
            })
    }

    /// What a second registration of the handlers does at a fork: closing
    /// twice and opening twice leaves the gate as one of each does.
    #[test]
    fn closing_and_opening_twice_is_closing_and_opening_once() {
        let gate = ForkGate::new();
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Adopt));
        gate.adopted(PARENT);
        gate.leave(PARENT);
        assert!(gate.close(PARENT, 0, || unreachable!("no call is inside")));
        assert!(gate.close(PARENT, 0, || unreachable!("no call is inside")));
        assert!(gate.closing(), "a second close opened the gate");
        gate.open(PARENT);
        gate.open(PARENT);
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Inside));
        gate.leave(PARENT);
        assert_eq!(gate.word.load(Ordering::Relaxed), word(PARENT, 0));
    }

    /// A copy made with no call inside adopts (once); one made with a call
    /// inside is poisoned for good, and so is a copy of it.
    #[test]
    fn a_copy_adopts_or_is_poisoned() {
        let gate = ForkGate::new();
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Adopt));
        gate.adopted(PARENT);
        gate.leave(PARENT);
        let clean = ForkGate {
            word: AtomicU64::new(gate.word.load(Ordering::Relaxed)),
        };
        assert_eq!(enter(&clean, CHILD), Ok(Entry::Adopt));
        clean.adopted(CHILD);
        assert_eq!(enter(&clean, CHILD), Ok(Entry::Inside));

        assert_eq!(enter(&gate, PARENT), Ok(Entry::Inside));
        let copied = ForkGate {
            word: AtomicU64::new(gate.word.load(Ordering::Relaxed)),
        };
        assert_eq!(enter(&copied, CHILD), Err(Poisoned));
        assert_eq!(enter(&copied, CHILD), Err(Poisoned));
        let grandchild = ForkGate {
            word: AtomicU64::new(copied.word.load(Ordering::Relaxed)),
        };
        assert_eq!(enter(&grandchild, CHILD + 1), Err(Poisoned));
    }

    /// The prepare handler gives up when told to, and does not wait for
    /// the forking thread's own call.
    #[test]
    fn a_fork_waits_a_bounded_time_and_never_for_itself() {
        let gate = ForkGate::new();
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Adopt));
        gate.adopted(PARENT);
        let mut rounds = 0;
        assert!(!gate.close(PARENT, 0, || {
            rounds += 1;
            rounds < 3
        }));
        assert_eq!(rounds, 3);
        gate.open(PARENT);
        assert!(!gate.close(PARENT, 1, || unreachable!("its own call only")));
        gate.open(PARENT);
    }

    /// The prepare handler waits for every call inside (two here) to leave,
    /// and says the gate is closing meanwhile.
    #[test]
    fn a_fork_waits_for_every_call_inside() {
        let gate = ForkGate::new();
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Adopt));
        gate.adopted(PARENT);
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Inside));
        assert!(!gate.closing());
        let mut rounds = 0;
        assert!(gate.close(PARENT, 0, || {
            assert!(gate.closing());
            rounds += 1;
            gate.leave(PARENT);
            true
        }));
        assert_eq!(rounds, 2);
        // A call that comes while the gate is closed waits for it to open.
        let got = enter_after_a_wait(&gate, PARENT, || gate.open(PARENT));
        assert_eq!(got, (Ok((Entry::Inside, PARENT)), 1));
        assert!(!gate.closing());
    }

    /// A fork before the process's first call claims the word: a first call
    /// racing it waits, and still adopts, in the parent as in the copy.
    #[test]
    fn a_fork_before_any_call_leaves_the_first_call_adopting() {
        let gate = ForkGate::new();
        assert!(gate.close(PARENT, 0, || unreachable!("no call is inside")));
        let copy = ForkGate {
            word: AtomicU64::new(gate.word.load(Ordering::Relaxed)),
        };
        assert_eq!(enter(&copy, CHILD), Ok(Entry::Adopt));
        let got = enter_after_a_wait(&gate, PARENT, || gate.open(PARENT));
        assert_eq!(got, (Ok((Entry::Adopt, PARENT)), 1));
        // Inside and adopting: the process's other calls wait.
        assert_eq!(
            gate.word.load(Ordering::Relaxed),
            word(PARENT, ADOPTING | 1)
        );
    }

    /// While the first caller adopts, the process's other calls wait.
    #[test]
    fn other_calls_wait_for_the_adoption() {
        let gate = ForkGate::new();
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Adopt));
        let got = enter_after_a_wait(&gate, PARENT, || gate.adopted(PARENT));
        assert_eq!(got, (Ok((Entry::Inside, PARENT)), 1));
        assert_eq!(gate.word.load(Ordering::Relaxed), word(PARENT, 2));
    }

    /// A copy made with a call inside that forks before its first call:
    /// nothing to wait for, and the copy's copy is poisoned too.
    #[test]
    fn a_poisoned_copy_forks_without_waiting() {
        let gate = ForkGate::new();
        assert_eq!(enter(&gate, PARENT), Ok(Entry::Adopt));
        let copy = ForkGate {
            word: AtomicU64::new(gate.word.load(Ordering::Relaxed)),
        };
        assert!(!copy.close(CHILD, 0, || unreachable!("nothing of its own")));
        copy.open(CHILD);
        let grandchild = ForkGate {
            word: AtomicU64::new(copy.word.load(Ordering::Relaxed)),
        };
        assert_eq!(enter(&grandchild, CHILD + 1), Err(Poisoned));
        assert_eq!(enter(&copy, CHILD), Err(Poisoned));
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
