//! Test-only (feature `__test-hooks`): a signal raised inside the next
//! lease, for the tests of a signal handler that forks there.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal the next lease raises (0: none).
static RAISE_IN_LEASE: AtomicI32 = AtomicI32::new(0);

/// Makes the next lease of this process raise `signal` on its own thread
/// (once): a SQLite lease between its `UPDATE` and its `COMMIT`, a
/// PostgreSQL lease just before it sends its `UPDATE`.
pub(crate) fn raise_in_lease(signal: i32) {
    RAISE_IN_LEASE.store(signal, Ordering::SeqCst);
}

/// Raises the signal [`raise_in_lease`] asked for, if any.
pub(super) fn in_lease() {
    let signal = RAISE_IN_LEASE.swap(0, Ordering::SeqCst);
    if signal != 0 {
        // SAFETY: raise(3) sends a signal to this thread; what the test's
        // handler does then is the test's point.
        unsafe { libc::raise(signal) };
    }
}
