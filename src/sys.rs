//! The OS interface: the cheap clocks and the fork detector. Every `unsafe`
//! call into the OS lives here (SIMD's lives in `engine/`).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Whole seconds since 1970 from `time(2)`: a vDSO read of the kernel's
/// coarse clock on Linux (~2 ns, against ~25 ns for a full
/// `clock_gettime`). It can lag the precise clock by up to one tick (1-4 ms)
/// at a second boundary. 0 if the clock reads before 1970.
#[inline]
pub(crate) fn unix_secs() -> u64 {
    #[cfg(unix)]
    {
        // SAFETY: time(2) with a null pointer only returns the time.
        let t = unsafe { libc::time(std::ptr::null_mut()) };
        u64::try_from(t).unwrap_or(0)
    }
    #[cfg(not(unix))]
    {
        unix_millis() / 1000
    }
}

/// Milliseconds since 1970 from the precise wall clock
/// (`clock_gettime(CLOCK_REALTIME)` on Linux). 0 if it reads before 1970.
#[inline]
pub(crate) fn unix_millis() -> u64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec, which we own.
        if unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) } == 0 {
            // u64 arithmetic: SystemTime's u128 `as_millis` costs more than the read.
            return match u64::try_from(ts.tv_sec) {
                Ok(s) => s.saturating_mul(1000) + ts.tv_nsec as u64 / 1_000_000,
                Err(_) => 0,
            };
        }
    }
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Set by the test-only switch before first use: no wipe-on-fork page and no
/// atfork handler, so a child keeps its parent's state (the negative control).
static GUARD_DISABLED: AtomicBool = AtomicBool::new(false);

/// The fork detector's word when no wipe-on-fork page could be had; the
/// atfork child handler zeroes it.
static FALLBACK_WORD: AtomicU64 = AtomicU64::new(0);

/// The word that reads 0 in a freshly forked child.
static FORK_WORD: OnceLock<&'static AtomicU64> = OnceLock::new();

extern "C" fn zero_in_child() {
    // Runs in the child after fork(); only async-signal-safe work here.
    FALLBACK_WORD.store(0, Ordering::Relaxed);
    if let Some(w) = FORK_WORD.get() {
        w.store(0, Ordering::Relaxed);
    }
}

/// A process-wide word that reads 0 in every child process: it lives in a
/// page marked `MADV_WIPEONFORK` (Linux 4.14+; the kernel zeroes it in any
/// child, also one made by a raw `clone` that skips atfork handlers), and a
/// `pthread_atfork` child handler zeroes it as well (the fallback where
/// madvise is refused, or the OS has no wipe-on-fork).
pub(crate) fn fork_word() -> &'static AtomicU64 {
    FORK_WORD.get_or_init(|| {
        if GUARD_DISABLED.load(Ordering::Relaxed) {
            return &FALLBACK_WORD;
        }
        #[cfg(unix)]
        {
            // SAFETY: registers a plain function pointer; it is never unregistered.
            unsafe { libc::pthread_atfork(None, None, Some(zero_in_child)) };
        }
        wipe_on_fork_word().unwrap_or(&FALLBACK_WORD)
    })
}

/// One wipe-on-fork page, mapped once per process and never unmapped.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn wipe_on_fork_word() -> Option<&'static AtomicU64> {
    // SAFETY: an anonymous private mapping of one page; on failure nothing
    // is kept.
    let page = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if page == libc::MAP_FAILED {
        return None;
    }
    // SAFETY: `page` is the page we just mapped.
    if unsafe { libc::madvise(page, 4096, libc::MADV_WIPEONFORK) } != 0 {
        // SAFETY: unmapping the page we mapped; nothing refers to it.
        unsafe { libc::munmap(page, 4096) };
        return None;
    }
    // SAFETY: the page is zeroed, 4096-byte aligned (so aligned for
    // AtomicU64), readable and writable, and lives for the rest of the
    // process: a `&'static AtomicU64` to its first word is valid. Only
    // atomic operations touch it.
    Some(unsafe { &*page.cast::<AtomicU64>() })
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn wipe_on_fork_word() -> Option<&'static AtomicU64> {
    None
}

/// Turns the fork guard off for this process (test-only: the negative
/// control). Must run before the first id; returns false if too late.
pub(crate) fn disable_fork_guard() -> bool {
    GUARD_DISABLED.store(true, Ordering::Relaxed);
    FORK_WORD.get().is_none()
}
