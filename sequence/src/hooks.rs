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

/// The signal the next lease raises once its reply is in (0: none).
static RAISE_AFTER_REPLY: AtomicI32 = AtomicI32::new(0);

/// Makes the next lease of this process raise `signal` on its own thread
/// (once) after its statement has returned, still inside the store's
/// call: a PostgreSQL lease once the `UPDATE`'s reply has arrived, a SQLite
/// lease after its `COMMIT` (where signals are held back until the call
/// leaves the fork gate).
pub fn raise_after_lease_reply(signal: i32) {
    RAISE_AFTER_REPLY.store(signal, Ordering::SeqCst);
}

/// Raises the signal [`raise_in_lease`] asked for, if any.
pub(crate) fn in_lease() {
    raise(&RAISE_IN_LEASE);
}

/// Raises the signal [`raise_after_lease_reply`] asked for, if any.
pub(crate) fn after_lease_reply() {
    raise(&RAISE_AFTER_REPLY);
}

fn raise(armed: &AtomicI32) {
    let signal = armed.swap(0, Ordering::SeqCst);
    if signal != 0 {
        // SAFETY: raise(3) sends a signal to this thread; what the test's
        // handler does then is the test's point.
        unsafe { libc::raise(signal) };
    }
}

/// Whether asynchronous signals were blocked on the leasing thread when the
/// last SQLite lease of this process was about to commit (`None` before
/// any): a contended lease naps with them open, and must commit with them
/// blocked again (issue 63, item 5).
#[cfg(all(unix, any(feature = "sqlite", feature = "sqlite-system")))]
pub fn sqlite_commit_masked() -> Option<bool> {
    match COMMIT_MASKED.load(Ordering::SeqCst) {
        0 => None,
        v => Some(v == 2),
    }
}

/// 0: no lease yet; 1: a lease committed with `SIGUSR1` open; 2: blocked.
#[cfg(all(unix, any(feature = "sqlite", feature = "sqlite-system")))]
static COMMIT_MASKED: AtomicI32 = AtomicI32::new(0);

/// Records the thread's mask for [`sqlite_commit_masked`].
#[cfg(all(unix, any(feature = "sqlite", feature = "sqlite-system")))]
pub(crate) fn before_commit() {
    // SAFETY: sigset_t is plain data; with a null new set,
    // pthread_sigmask only writes the current mask into `cur`, which we
    // own, and sigismember only reads it.
    let blocked = unsafe {
        let mut cur: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut cur);
        libc::sigismember(&cur, libc::SIGUSR1) == 1
    };
    COMMIT_MASKED.store(if blocked { 2 } else { 1 }, Ordering::SeqCst);
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
