//! The allocator of the test binaries that copy the process: the system's,
//! made safe for a raw `clone`, which runs none of the fork handlers glibc
//! uses to take and reset its malloc locks around `fork()`. A copy made
//! while some thread held such a lock inherits it held by a thread it does
//! not have, and its first malloc from that arena waits forever. Seen twice
//! in ~50 runs of `tests/unguarded` on a loaded 2-core machine: a
//! `controls_raw_clone` child blocked in `realloc` on glibc's `main_arena`,
//! while the harness was starting the next test's thread (gdb on the child
//! and the parent).
//!
//! Two parts:
//! - a gate: while [`closed`] makes the copy, no thread is inside the
//!   allocator, so no allocation through Rust holds a glibc lock then;
//! - the copy allocates from a region of its own ([`REGION`]), never from
//!   glibc: glibc takes the same locks for itself (creating or ending a
//!   thread), outside any gate.
//!
//! Left: glibc's own allocations in a copy (a copy that starts a thread,
//! as a sequence's prefetch does) can still meet a lock glibc held for
//! itself at the copy; the tests run one at a time, which keeps that rare.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering::SeqCst};

/// Calls inside the system allocator right now.
static INSIDE: AtomicUsize = AtomicUsize::new(0);
/// Set while a copy is being made: calls wait at the gate.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// Set in a copy made by [`closed`]: allocate from [`REGION`].
static IN_COPY: AtomicBool = AtomicBool::new(false);
/// Address space reserved (not committed) in the parent before its first
/// copy and never written there: each copy's private view of it starts as
/// zero pages. A copy that needs more than this gets a null pointer and
/// aborts (a loud failure, not a hang).
static REGION: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
const REGION_LEN: usize = 1 << 30;
/// Bytes of [`REGION`] the copy has handed out.
static USED: AtomicUsize = AtomicUsize::new(0);

/// Runs `f` (a call into the system allocator) with the gate open. `INSIDE`
/// is raised before `CLOSED` is read, and [`closed`] sets `CLOSED` before
/// it reads `INSIDE` (all sequentially consistent): either the caller sees
/// the gate closed and backs out, or the copier sees the caller inside
/// and waits for it.
#[inline]
fn through<T>(f: impl FnOnce() -> T) -> T {
    loop {
        INSIDE.fetch_add(1, SeqCst);
        if !CLOSED.load(SeqCst) {
            break;
        }
        INSIDE.fetch_sub(1, SeqCst);
        while CLOSED.load(SeqCst) {
            std::thread::yield_now();
        }
    }
    let r = f();
    INSIDE.fetch_sub(1, SeqCst);
    r
}

/// Runs `copy`, a raw `clone` that returns 0 in the copy, once no thread is
/// inside the allocator, holding every other thread's calls at the gate
/// until it returns. In the copy, every later allocation comes from the
/// copy's own region. `copy` must not allocate (it would wait for itself).
pub fn closed(copy: impl FnOnce() -> libc::pid_t) -> libc::pid_t {
    reserve_region();
    // One copier at a time.
    while CLOSED.swap(true, SeqCst) {
        std::thread::yield_now();
    }
    // The calls under way end in bounded time: none waits on this thread.
    while INSIDE.load(SeqCst) != 0 {
        std::thread::yield_now();
    }
    let pid = copy();
    if pid == 0 {
        USED.store(0, SeqCst);
        IN_COPY.store(true, SeqCst);
    }
    CLOSED.store(false, SeqCst);
    pid
}

fn reserve_region() {
    if !REGION.load(SeqCst).is_null() {
        return;
    }
    // SAFETY: a fresh anonymous private mapping, not yet used by anything;
    // checked below.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            REGION_LEN,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    assert_ne!(
        p,
        libc::MAP_FAILED,
        "reserving the copies' allocation region"
    );
    if REGION
        .compare_exchange(std::ptr::null_mut(), p.cast(), SeqCst, SeqCst)
        .is_err()
    {
        // Another thread reserved it first.
        // SAFETY: our own mapping, never handed out.
        unsafe { libc::munmap(p, REGION_LEN) };
    }
}

/// `layout.size()` bytes from the copy's region, or null when it is used up.
/// Memory is never reused: a copy lives for one cell.
fn from_region(layout: Layout) -> *mut u8 {
    let base = REGION.load(SeqCst);
    let mut used = USED.load(SeqCst);
    loop {
        let start = (base as usize + used).next_multiple_of(layout.align()) - base as usize;
        let Some(end) = start
            .checked_add(layout.size())
            .filter(|&e| e <= REGION_LEN)
        else {
            return std::ptr::null_mut();
        };
        match USED.compare_exchange_weak(used, end, SeqCst, SeqCst) {
            // SAFETY: `start + size <= REGION_LEN`: inside the mapping.
            Ok(_) => return unsafe { base.add(start) },
            Err(now) => used = now,
        }
    }
}

pub struct CloneSafe;

// SAFETY: outside a copy every call is forwarded unchanged to the system
// allocator (the gate only delays it). In a copy, blocks come from the
// copy's region, aligned and disjoint (one atomic bump), and are never
// freed; blocks the parent allocated are copied from on `realloc` and
// left alone on `dealloc` (freeing them would call into glibc).
unsafe impl GlobalAlloc for CloneSafe {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if IN_COPY.load(SeqCst) {
            return from_region(layout);
        }
        // SAFETY: the caller's contract, forwarded.
        through(|| unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if IN_COPY.load(SeqCst) {
            let p = from_region(layout);
            if !p.is_null() {
                // SAFETY: `p` has `layout.size()` bytes of our own.
                unsafe { p.write_bytes(0, layout.size()) };
            }
            return p;
        }
        // SAFETY: as above.
        through(|| unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if IN_COPY.load(SeqCst) {
            return;
        }
        // SAFETY: as above.
        through(|| unsafe { System.dealloc(ptr, layout) })
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if IN_COPY.load(SeqCst) {
            // SAFETY: the caller's contract: `new_size` with `layout`'s
            // alignment is a valid layout.
            let new =
                from_region(unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) });
            if !new.is_null() {
                // SAFETY: `ptr` has `layout.size()` readable bytes, `new`
                // has `new_size`, and they do not overlap (`new` is fresh).
                unsafe { std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size)) };
            }
            return new;
        }
        // SAFETY: as above.
        through(|| unsafe { System.realloc(ptr, layout, new_size) })
    }
}

#[global_allocator]
static ALLOC: CloneSafe = CloneSafe;
