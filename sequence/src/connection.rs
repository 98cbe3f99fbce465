//! One PostgreSQL connection per process, shared by the threads that lease
//! (the SQLite store keeps its own, closed across fork: `sqlite/fork.rs`).

use std::sync::{Mutex, MutexGuard, TryLockError};

use super::wait::Backoff;
use kuuid::process::Owner;

/// A connection opened on first use and again in a forked child (a
/// connection must not cross a fork: both processes would talk on one
/// socket or file lock). Leases are rare (one per block), so one lock is
/// enough; threads that wait for it sleep ([`Backoff`]).
#[derive(Debug)]
pub(super) struct PerProcess<C> {
    /// Taken first by every caller: see [`Owner`].
    owner: Owner,
    /// The connection and the process that opened it. Only the owner locks
    /// it, so it is locked by another only in a forked child whose
    /// parent's thread held it at the fork.
    conn: Mutex<Option<(u32, C)>>,
}

impl<C> PerProcess<C> {
    pub(super) fn new() -> Self {
        PerProcess {
            owner: Owner::new(),
            conn: Mutex::new(None),
        }
    }

    /// The connection's lock, for the owner; `None` when a thread of the
    /// parent process held it at the fork (it will never let go here).
    fn lock(&self) -> Option<MutexGuard<'_, Option<(u32, C)>>> {
        match self.conn.try_lock() {
            Ok(guard) => Some(guard),
            // A panic while leasing left the connection as it was.
            Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// Runs `f` on this process's connection, opening it with `connect`
    /// first if needed. In a child whose parent forked while holding the
    /// connection, `f` runs on a connection of its own, opened for the call.
    pub(super) fn with<R, E>(
        &self,
        connect: impl Fn() -> Result<C, E>,
        f: impl Fn(&mut C) -> Result<R, E>,
    ) -> Result<R, E> {
        self.with_retry(connect, f, |_| false)
    }

    /// As [`with`](Self::with), and when `f` fails and `broken` says the
    /// connection is gone (the server restarted, the backend was killed),
    /// replaces it and runs `f` once more. `f` must be safe to run again
    /// after a failure whose outcome is unknown.
    ///
    /// A fork from a signal handler on this thread while `f` runs copies
    /// the call: what `f` returns in the copy (a reply the parent had
    /// already read, or one read off the parent's socket) is the parent's.
    /// The copy finds another process id when `f` returns, drops the
    /// result (a leased block is burned, never handed out twice), leaves
    /// the parent's connection open and runs `f` again on its own.
    pub(super) fn with_retry<R, E>(
        &self,
        connect: impl Fn() -> Result<C, E>,
        f: impl Fn(&mut C) -> Result<R, E>,
        broken: impl Fn(&mut C) -> bool,
    ) -> Result<R, E> {
        let mut pid = std::process::id();
        let mut backoff = Backoff::default();
        // Declared before the mutex guard, so released after it.
        let _owner = self.owner.hold(pid, || backoff.wait());
        // A copy made during `f` sets `pid` to its own id and says so.
        let copied = |pid: &mut u32| {
            let now = std::process::id();
            std::mem::replace(pid, now) != now
        };
        let Some(mut guard) = self.lock() else {
            loop {
                let mut conn = connect()?;
                let result = f(&mut conn);
                if !copied(&mut pid) {
                    return result;
                }
                // The connection is the parent's too: never closed here.
                std::mem::forget(conn);
            }
        };
        loop {
            let first = f(Self::ours(&mut guard, pid, &connect)?);
            if copied(&mut pid) {
                continue;
            }
            let conn = &mut guard.as_mut().expect("connected above").1;
            if first.is_ok() || !broken(conn) {
                return first;
            }
            *guard = None;
            let again = f(Self::ours(&mut guard, pid, &connect)?);
            if copied(&mut pid) {
                continue;
            }
            if again.is_err() && broken(&mut guard.as_mut().expect("connected above").1) {
                // The next call connects afresh.
                *guard = None;
            }
            return again;
        }
    }

    /// This process's connection in `guard`, opened if there is none.
    fn ours<'g, E>(
        guard: &'g mut MutexGuard<'_, Option<(u32, C)>>,
        pid: u32,
        connect: &impl Fn() -> Result<C, E>,
    ) -> Result<&'g mut C, E> {
        if !matches!(&**guard, Some((p, _)) if *p == pid) {
            // A parent's connection is leaked, not closed: closing would
            // speak for the parent (a Postgres client sends Terminate on
            // the shared socket; SQLite may checkpoint).
            if let Some(parents) = guard.take() {
                std::mem::forget(parents);
            }
            **guard = Some((pid, connect()?));
        }
        Ok(&mut guard.as_mut().expect("connected above").1)
    }
}
