//! The words a forked child must not inherit: one set per process, on a
//! page the kernel wipes in a forked child (Linux), else behind an atfork
//! handler that zeroes them.

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};

/// Set by the test-only switch before first use: no wipe-on-fork page and no
/// atfork handler, so a child keeps its parent's state (the negative control).
static GUARD_DISABLED: AtomicBool = AtomicBool::new(false);

/// Words that read 0 in a freshly forked child (see [`process_words`]).
/// Each word written on every id of its format has a cache line of its own,
/// so minting one format on one thread does not evict the fork token that
/// every other thread reads on every id.
#[derive(Debug)]
pub(crate) struct ProcessWords {
    /// The fork detector: the process token (`rng::fork`).
    pub(crate) token: AtomicU64,
    /// The second a running ticker last published; 0 when none runs, and in
    /// a child, which does not inherit the ticker's thread.
    pub(crate) ticked_secs: AtomicU64,
    /// The last UUIDv7 sequence value minted "now" (`formats::v7`); 0 in a
    /// child, which then starts its own sequence as a new process would.
    pub(crate) v7: CachePadded<AtomicU64>,
    /// The same for `idms_monotonic()` (`formats::kuuid_ordered`).
    pub(crate) kuuid_ms: CachePadded<AtomicU64>,
    /// The same for `ulid()` (`formats::ulid`).
    #[cfg(feature = "ulid")]
    pub(crate) ulid: CachePadded<AtomicU64>,
    /// The ObjectId state: the 5-byte process value and the 3-byte counter
    /// of the last ObjectId (`formats::objectid`); 0 until the first one,
    /// and in a child, which then draws its own value.
    pub(crate) object_id: CachePadded<AtomicU64>,
    /// CouchDB `sequential`: the last id's 13-byte prefix and 3-byte
    /// counter (`formats::couch`); 0 until the first, and in a child, which
    /// then draws its own prefix.
    #[cfg(feature = "couch")]
    pub(crate) couch_sequential: CachePadded<crate::word::SequentialWord>,
    /// CouchDB `utc_random`/`utc_id`: the last id's microseconds.
    #[cfg(feature = "couch")]
    pub(crate) couch_utc: CachePadded<AtomicU64>,
}

// The words must fit the one page `wipe_on_fork_page` maps.
const _: () = assert!(std::mem::size_of::<ProcessWords>() <= 4096);

impl ProcessWords {
    const fn zero() -> Self {
        ProcessWords {
            token: AtomicU64::new(0),
            ticked_secs: AtomicU64::new(0),
            v7: CachePadded::new(AtomicU64::new(0)),
            kuuid_ms: CachePadded::new(AtomicU64::new(0)),
            #[cfg(feature = "ulid")]
            ulid: CachePadded::new(AtomicU64::new(0)),
            object_id: CachePadded::new(AtomicU64::new(0)),
            #[cfg(feature = "couch")]
            couch_sequential: CachePadded::new(crate::word::SequentialWord::new()),
            #[cfg(feature = "couch")]
            couch_utc: CachePadded::new(AtomicU64::new(0)),
        }
    }

    #[cfg(unix)]
    fn clear(&self) {
        self.token.store(0, Ordering::Relaxed);
        self.ticked_secs.store(0, Ordering::Relaxed);
        self.v7.store(0, Ordering::Relaxed);
        self.kuuid_ms.store(0, Ordering::Relaxed);
        #[cfg(feature = "ulid")]
        self.ulid.store(0, Ordering::Relaxed);
        self.object_id.store(0, Ordering::Relaxed);
        #[cfg(feature = "couch")]
        self.couch_sequential.clear();
        #[cfg(feature = "couch")]
        self.couch_utc.store(0, Ordering::Relaxed);
    }
}

/// The words when no wipe-on-fork page could be had; the atfork child
/// handler zeroes them.
static FALLBACK_WORDS: ProcessWords = ProcessWords::zero();

/// The words in use: null until the first call of [`process_words`].
///
/// Not a `OnceLock`: a fork while another thread is inside its initializer
/// would leave the child's copy marked "running" with no thread to finish
/// it, and the child's first id would wait forever. Threads that race here
/// each make a page; one wins the exchange and the others unmap theirs.
static PROCESS_WORDS: AtomicPtr<ProcessWords> = AtomicPtr::new(std::ptr::null_mut());

#[cfg(unix)]
extern "C" fn zero_in_child() {
    // Runs in the child after fork(); only async-signal-safe work here
    // (atomic loads and stores).
    FALLBACK_WORDS.clear();
    let w = PROCESS_WORDS.load(Ordering::Acquire);
    // SAFETY: non-null values of PROCESS_WORDS point to `FALLBACK_WORDS` or
    // a page that is never unmapped once published.
    if let Some(w) = unsafe { w.as_ref() } {
        w.clear();
    }
}

/// Process-wide words that read 0 in every child process: they live in a
/// page marked `MADV_WIPEONFORK` (Linux 4.14+; the kernel zeroes it in any
/// child, also one made by a raw `clone` that skips atfork handlers), and a
/// `pthread_atfork` child handler zeroes them as well (the fallback where
/// madvise is refused, or the OS has no wipe-on-fork).
#[inline]
pub(crate) fn process_words() -> &'static ProcessWords {
    let w = PROCESS_WORDS.load(Ordering::Acquire);
    // SAFETY: as in `zero_in_child`: published pointers stay valid for the
    // rest of the process.
    match unsafe { w.as_ref() } {
        Some(w) => w,
        None => init_process_words(),
    }
}

#[cold]
fn init_process_words() -> &'static ProcessWords {
    let mine: &'static ProcessWords = if GUARD_DISABLED.load(Ordering::Relaxed) {
        &FALLBACK_WORDS
    } else {
        // Registered before the words are published, so no fork can see
        // them without the handler; racing threads may each register it,
        // and zeroing twice is harmless.
        #[cfg(unix)]
        {
            // SAFETY: registers a plain function pointer; it is never unregistered.
            unsafe { libc::pthread_atfork(None, None, Some(zero_in_child)) };
        }
        wipe_on_fork_page().unwrap_or(&FALLBACK_WORDS)
    };
    publish(&PROCESS_WORDS, mine)
}

/// Publishes `mine` in `slot` unless another thread did first; a page that
/// lost is unmapped (the static fallback never is). Returns the words in use.
fn publish(slot: &AtomicPtr<ProcessWords>, mine: &'static ProcessWords) -> &'static ProcessWords {
    let ptr = std::ptr::from_ref(mine).cast_mut();
    match slot.compare_exchange(
        std::ptr::null_mut(),
        ptr,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) {
        Ok(_) => mine,
        Err(winner) => {
            if !std::ptr::eq(mine, &FALLBACK_WORDS) {
                unmap_page(ptr);
            }
            // SAFETY: the winner's pointer was published and stays valid.
            unsafe { &*winner }
        }
    }
}

/// The fork detector's word (see [`process_words`]).
#[inline]
pub(crate) fn fork_word() -> &'static AtomicU64 {
    &process_words().token
}

/// One wipe-on-fork page, mapped once per process and never unmapped.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn wipe_on_fork_page() -> Option<&'static ProcessWords> {
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
    // SAFETY: the page is zeroed (all-zero atomics are valid `ProcessWords`),
    // 4096-byte aligned (it needs at most 128, `CachePadded`'s), 4096 bytes
    // long (it needs less: asserted above),
    // readable and writable, and lives for the rest of the process: a
    // `&'static ProcessWords` to its start is valid. Only atomic operations
    // touch it.
    Some(unsafe { &*page.cast::<ProcessWords>() })
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn wipe_on_fork_page() -> Option<&'static ProcessWords> {
    None
}

/// Unmaps a page from [`wipe_on_fork_page`] that lost the race to be
/// published (no reference to it was ever handed out).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn unmap_page(page: *mut ProcessWords) {
    // SAFETY: `page` is a page this thread mapped and never published.
    unsafe { libc::munmap(page.cast(), 4096) };
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn unmap_page(_page: *mut ProcessWords) {}

/// Turns the fork guard off for this process (test-only: the negative
/// control). Must run before the first id; returns false if too late.
#[cfg(feature = "__test-hooks")]
pub(crate) fn disable_fork_guard() -> bool {
    GUARD_DISABLED.store(true, Ordering::Relaxed);
    PROCESS_WORDS.load(Ordering::Acquire).is_null()
}

/// Whether the test-only switch above was thrown.
#[cfg(feature = "__test-hooks")]
pub(crate) fn fork_guard_disabled() -> bool {
    GUARD_DISABLED.load(Ordering::Relaxed)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::word::Word128;

    /// Runs `check` in a copy of this process made by `fork()` (atfork
    /// handlers run) or by a raw `clone(SIGCHLD)` system call (they do not)
    /// and returns what it said. The copy only loads atomics and calls
    /// `_exit`: nothing that needs the test harness's other threads.
    fn in_copy(raw: bool, check: impl FnOnce() -> bool) -> bool {
        let pid = if raw {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            // SAFETY: clone without CLONE_VM and with a null stack is a fork
            // that skips libc's handlers; the copy keeps to `check` and `_exit`.
            unsafe {
                libc::syscall(
                    libc::SYS_clone,
                    libc::SIGCHLD as libc::c_long,
                    0usize,
                    0usize,
                    0usize,
                    0usize,
                ) as libc::pid_t
            }
            #[cfg(not(any(target_os = "linux", target_os = "android")))]
            unreachable!("raw clone is a Linux system call")
        } else {
            // SAFETY: as above; the copy keeps to `check` and `_exit`.
            unsafe { libc::fork() }
        };
        if pid == 0 {
            let code = if check() { 0 } else { 1 };
            // SAFETY: ends the copy without running the harness's exit code.
            unsafe { libc::_exit(code) };
        }
        assert!(pid > 0, "fork failed");
        let mut status = 0;
        // SAFETY: reaps our own child.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    }

    /// The plain 64-bit words of `w` (the 128-bit one aside).
    fn words(w: &ProcessWords) -> [&AtomicU64; 7] {
        [
            &w.token,
            &w.ticked_secs,
            &w.v7,
            &w.kuuid_ms,
            &w.ulid,
            &w.object_id,
            &w.couch_utc,
        ]
    }

    fn fill(w: &ProcessWords) {
        for (i, a) in words(w).into_iter().enumerate() {
            a.store(i as u64 + 1, Ordering::Relaxed);
        }
        w.couch_sequential.store(7);
    }

    fn all_zero(w: &ProcessWords) -> bool {
        words(w).iter().all(|a| a.load(Ordering::Relaxed) == 0) && w.couch_sequential.load() == 0
    }

    #[test]
    fn one_set_of_words_for_the_process() {
        let w = process_words();
        assert!(std::ptr::eq(w, process_words()));
        assert!(std::ptr::eq(fork_word(), &w.token));
        #[cfg(any(target_os = "linux", target_os = "android"))]
        assert!(
            !std::ptr::eq(w, &FALLBACK_WORDS),
            "Linux has wipe-on-fork pages"
        );
    }

    /// Whether this kernel applies `MADV_WIPEONFORK`, tried on a page of
    /// the test's own: qemu's user-mode emulation (the aarch64 gate)
    /// accepts the advice and ignores it.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn kernel_wipes_on_fork() -> bool {
        // SAFETY: a private anonymous page of our own, advised, read in a
        // copy of the process, then unmapped; nothing else refers to it.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return false;
            }
            let word = &*p.cast::<AtomicU64>();
            word.store(1, Ordering::Relaxed);
            let wiped = libc::madvise(p, 4096, libc::MADV_WIPEONFORK) == 0
                && in_copy(true, || word.load(Ordering::Relaxed) == 0);
            libc::munmap(p, 4096);
            wiped
        }
    }

    /// The kernel zeroes the page in a copy that runs no atfork handler.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_wipe_on_fork_page_reads_zero_in_a_raw_clone() {
        if !kernel_wipes_on_fork() {
            eprintln!("skipped: this kernel (or emulator) does not apply MADV_WIPEONFORK");
            return;
        }
        let page = wipe_on_fork_page().expect("a wipe-on-fork page");
        fill(page);
        assert!(!all_zero(page));
        assert!(in_copy(true, || all_zero(page)));
        assert!(!in_copy(true, || !all_zero(page)), "the check can fail");
        assert!(!all_zero(page), "the parent keeps its words");
    }

    /// The fallback words, which no page protects, are zeroed by the child
    /// handler that the first call of `process_words` registers.
    #[test]
    fn the_child_handler_zeroes_the_fallback_words() {
        process_words();
        fill(&FALLBACK_WORDS);
        let forked = in_copy(false, || all_zero(&FALLBACK_WORDS));
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let cloned = in_copy(true, || all_zero(&FALLBACK_WORDS));
        FALLBACK_WORDS.clear();
        assert!(forked);
        #[cfg(any(target_os = "linux", target_os = "android"))]
        assert!(!cloned, "the negative control: a raw clone runs no handler");
    }

    /// Two threads' pages race to be published: the first stays, the other
    /// is unmapped, and the static fallback is never unmapped. Checked in a
    /// copy of the process, where no other thread can map the freed address.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn the_page_that_loses_the_race_is_unmapped() {
        fn mapped(p: &ProcessWords) -> bool {
            // SAFETY: msync only asks the kernel about the range.
            unsafe {
                libc::msync(
                    std::ptr::from_ref(p).cast_mut().cast(),
                    4096,
                    libc::MS_ASYNC,
                ) == 0
            }
        }
        assert!(in_copy(false, || {
            let slot = AtomicPtr::new(std::ptr::null_mut());
            let (Some(first), Some(second)) = (wipe_on_fork_page(), wipe_on_fork_page()) else {
                return false;
            };
            std::ptr::eq(publish(&slot, first), first)
                && std::ptr::eq(publish(&slot, second), first)
                && std::ptr::eq(publish(&slot, &FALLBACK_WORDS), first)
                && mapped(first)
                && !mapped(second)
        }));
    }
}
