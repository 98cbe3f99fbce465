//! One database connection per process, shared by the threads that lease.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use super::wait::Backoff;

/// A connection opened on first use and again in a forked child (a
/// connection must not cross a fork: both processes would talk on one
/// socket or file lock). Leases are rare (one per block), so one mutex is
/// enough; threads that wait for it sleep ([`Backoff`]).
#[derive(Debug)]
pub(super) struct PerProcess<C> {
    conn: Mutex<Option<(u32, C)>>,
    /// The process id of the thread holding `conn`, or 0: a forked child
    /// can tell a lock its parent's thread held when it forked (and will
    /// never release here) from one a thread of its own holds.
    holder: AtomicU32,
}

/// Clears [`PerProcess::holder`] when the call ends, also by a panic.
struct Holding<'a>(&'a AtomicU32);

impl Drop for Holding<'_> {
    fn drop(&mut self) {
        self.0.store(0, Ordering::Release);
    }
}

/// The lock, or `None` when a thread of the parent process held it at the
/// fork (it will never let go in this child).
type Locked<'a, C> = Option<MutexGuard<'a, Option<(u32, C)>>>;

impl<C> PerProcess<C> {
    pub(super) fn new() -> Self {
        PerProcess {
            conn: Mutex::new(None),
            holder: AtomicU32::new(0),
        }
    }

    fn lock(&self, pid: u32) -> Locked<'_, C> {
        let mut backoff = Backoff::default();
        loop {
            match self.conn.try_lock() {
                Ok(guard) => return Some(guard),
                // A panic while leasing left the connection as it was.
                Err(TryLockError::Poisoned(p)) => return Some(p.into_inner()),
                Err(TryLockError::WouldBlock) => {
                    let holder = self.holder.load(Ordering::Acquire);
                    if holder != 0 && holder != pid {
                        return None;
                    }
                    backoff.wait();
                }
            }
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
    pub(super) fn with_retry<R, E>(
        &self,
        connect: impl Fn() -> Result<C, E>,
        f: impl Fn(&mut C) -> Result<R, E>,
        broken: impl Fn(&mut C) -> bool,
    ) -> Result<R, E> {
        let pid = std::process::id();
        let Some(mut guard) = self.lock(pid) else {
            return f(&mut connect()?);
        };
        self.holder.store(pid, Ordering::Release);
        let _holding = Holding(&self.holder);
        let first = f(Self::ours(&mut guard, pid, &connect)?);
        let conn = &mut guard.as_mut().expect("connected above").1;
        if first.is_ok() || !broken(conn) {
            return first;
        }
        *guard = None;
        let again = f(Self::ours(&mut guard, pid, &connect)?);
        if again.is_err() && broken(&mut guard.as_mut().expect("connected above").1) {
            // The next call connects afresh.
            *guard = None;
        }
        again
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
