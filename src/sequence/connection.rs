//! One database connection per process, shared by the threads that lease.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, TryLockError};

/// A connection opened on first use and again in a forked child (a
/// connection must not cross a fork: both processes would talk on one
/// socket or file lock). Leases are rare (one per block), so one mutex is
/// enough.
#[derive(Debug)]
pub(super) struct PerProcess<C> {
    conn: Mutex<Option<(u32, C)>>,
    /// The process id of the thread holding `conn`, or 0: a forked child
    /// can tell a lock its parent's thread held when it forked (and will
    /// never release here) from one a thread of its own holds.
    holder: AtomicU32,
}

impl<C> PerProcess<C> {
    pub(super) fn new() -> Self {
        PerProcess {
            conn: Mutex::new(None),
            holder: AtomicU32::new(0),
        }
    }

    /// Runs `f` on this process's connection, opening it with `connect`
    /// first if needed. In a child whose parent forked while holding the
    /// connection, `f` runs on a connection of its own, opened for the call.
    pub(super) fn with<R, E>(
        &self,
        connect: impl Fn() -> Result<C, E>,
        f: impl FnOnce(&mut C) -> Result<R, E>,
    ) -> Result<R, E> {
        let pid = std::process::id();
        let mut guard = loop {
            match self.conn.try_lock() {
                Ok(guard) => break guard,
                // A panic while leasing left the connection as it was.
                Err(TryLockError::Poisoned(p)) => break p.into_inner(),
                Err(TryLockError::WouldBlock) => {
                    let holder = self.holder.load(Ordering::Acquire);
                    if holder != 0 && holder != pid {
                        return f(&mut connect()?);
                    }
                    std::thread::yield_now();
                }
            }
        };
        self.holder.store(pid, Ordering::Release);
        let result = (|| {
            if !matches!(&*guard, Some((p, _)) if *p == pid) {
                // A parent's connection is leaked, not closed: closing
                // would speak for the parent (a Postgres client sends
                // Terminate on the shared socket; SQLite may checkpoint).
                if let Some(parents) = guard.take() {
                    std::mem::forget(parents);
                }
                *guard = Some((pid, connect()?));
            }
            let (_, conn) = guard.as_mut().expect("connected above");
            f(conn)
        })();
        self.holder.store(0, Ordering::Release);
        result
    }
}
