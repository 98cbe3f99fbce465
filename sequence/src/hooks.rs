//! Test-only (feature `__test-hooks`): a signal raised inside the next
//! lease, for the tests of a signal handler that forks there.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal the next lease raises (0: none).
static RAISE_IN_LEASE: AtomicI32 = AtomicI32::new(0);

/// Makes the next lease of this process raise `signal` on its own thread
/// (once): a SQLite lease between its `UPDATE` and its `COMMIT`, a
/// PostgreSQL lease just before it sends its `UPDATE`.
pub fn raise_in_lease(signal: i32) {
    RAISE_IN_LEASE.store(signal, Ordering::SeqCst);
}

/// Raises the signal [`raise_in_lease`] asked for, if any.
pub(crate) fn in_lease() {
    let signal = RAISE_IN_LEASE.swap(0, Ordering::SeqCst);
    if signal != 0 {
        // SAFETY: raise(3) sends a signal to this thread; what the test's
        // handler does then is the test's point.
        unsafe { libc::raise(signal) };
    }
}

/// How many times a SQLite store's call has gone to sleep waiting for
/// another connection's lock, in this process so far.
#[cfg(any(feature = "sqlite", feature = "sqlite-system"))]
pub fn sqlite_busy_waits() -> u64 {
    crate::sqlite::busy_waits()
}

/// Enters the SQLite stores' fork gate and stays inside until the guard
/// drops, as a call that never ends would: a fork waits its bounded time,
/// and the child is poisoned.
#[cfg(any(feature = "sqlite", feature = "sqlite-system"))]
pub fn hold_sqlite_gate() -> Result<impl Drop, crate::Error> {
    crate::sqlite::hold()
}

/// The server setting `name` on `store`'s own connection (the one its
/// leases use).
#[cfg(feature = "postgres")]
pub fn postgres_setting(
    store: &crate::PostgresCounters,
    name: &str,
) -> Result<String, crate::BoxError> {
    store.setting(name)
}
