//! Each thread's run of claimed values per sequence, in the thread's own
//! storage (std `thread_local!`), tagged with the process token it was
//! claimed under so that a forked child never reuses its parent's.
//!
//! Not the `thread_local` crate: it numbers threads under one process-wide
//! mutex, taken at each thread's first use and at its exit, and a fork
//! while another thread holds it leaves the child that mutex locked, so the
//! child's first value on a new thread waits forever (docs/performance.md,
//! "Measurements behind the code").

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

/// A thread's run of values, `next..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    pub(super) next: u64,
    pub(super) end: u64,
}

/// A sequence's key to its runs: an id never given twice in a process, and
/// a liveness handle, so that threads drop the runs of dropped sequences.
#[derive(Debug)]
pub(super) struct Key {
    id: u64,
    alive: Arc<()>,
}

/// One thread's run for one sequence.
struct Entry {
    id: u64,
    alive: Weak<()>,
    token: u64,
    run: Run,
}

thread_local! {
    /// This thread's runs: one per sequence it has used (a few).
    static RUNS: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

impl Key {
    pub(super) fn new() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Key {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            alive: Arc::new(()),
        }
    }

    /// Takes the next value of this thread's run, if it has one claimed
    /// under `token` with values left.
    #[inline]
    pub(super) fn take_one(&self, token: u64) -> Option<u64> {
        self.with_entry(token, |run| {
            (run.next < run.end).then(|| {
                run.next += 1;
                run.next - 1
            })
        })
        .flatten()
    }

    /// This thread's run under `token`, if any.
    pub(super) fn get(&self, token: u64) -> Option<Run> {
        self.with_entry(token, |run| *run)
    }

    /// Makes `run` this thread's run, claimed under `token`. Where the
    /// thread's storage is gone (a call from a thread-local destructor) or
    /// in use (an allocator that mints while this one allocates), the run
    /// is dropped: its values become a gap, never a repeat.
    pub(super) fn put(&self, token: u64, run: Run) {
        let _ = RUNS.try_with(|runs| {
            let Ok(mut runs) = runs.try_borrow_mut() else {
                return;
            };
            if let Some(e) = runs.iter_mut().find(|e| e.id == self.id) {
                e.token = token;
                e.run = run;
                return;
            }
            runs.retain(|e| e.alive.strong_count() > 0);
            runs.push(Entry {
                id: self.id,
                alive: Arc::downgrade(&self.alive),
                token,
                run,
            });
        });
    }

    /// `f` on this thread's run under `token`; `None` if there is none (or
    /// the storage is gone or in use).
    #[inline]
    fn with_entry<R>(&self, token: u64, f: impl FnOnce(&mut Run) -> R) -> Option<R> {
        RUNS.try_with(|runs| {
            let mut runs = runs.try_borrow_mut().ok()?;
            let e = runs.iter_mut().find(|e| e.id == self.id)?;
            (e.token == token).then(|| f(&mut e.run))
        })
        .ok()
        .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_per_key_per_token_and_per_thread() {
        let (a, b) = (Key::new(), Key::new());
        assert_eq!(a.take_one(1), None);
        a.put(1, Run { next: 10, end: 12 });
        b.put(1, Run { next: 50, end: 51 });
        assert_eq!(a.take_one(2), None, "another token's run is not handed out");
        assert_eq!(
            (a.take_one(1), a.take_one(1), a.take_one(1)),
            (Some(10), Some(11), None)
        );
        assert_eq!(b.take_one(1), Some(50));
        std::thread::scope(|s| {
            s.spawn(|| assert_eq!(a.get(1), None, "another thread's run"));
        });
    }

    #[test]
    fn a_dropped_keys_runs_are_pruned() {
        let a = Key::new();
        a.put(1, Run { next: 1, end: 2 });
        drop(a);
        let b = Key::new();
        b.put(1, Run { next: 1, end: 2 });
        RUNS.with(|r| assert_eq!(r.borrow().len(), 1));
    }
}
