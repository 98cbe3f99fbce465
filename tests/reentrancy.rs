//! User code that runs inside a minting call and mints again: a global
//! allocator that calls `kuuid::id()` on the allocations the per-thread state
//! makes, and a thread-local destructor that mints after kuuid's own
//! per-thread state is gone. Both must get valid, distinct ids and leave the
//! thread's state whole (no second `&mut`, no leak, no abort).
//!
//! Its own test binary: the allocator is process-wide.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use kuuid::Kuuid;

#[path = "support/child.rs"]
mod child;
use child::BoundedOutput;

/// Allocations of this size or more mint an id from inside the allocator
/// (the per-thread generator's buffers start at 256 bytes of words and 512
/// of encoded ids, and double as the thread mints).
const MINT_AT: usize = 256;

/// Large blocks allocated and freed while armed: a leaked generator shows
/// as a difference.
static LARGE_ALLOCS: AtomicUsize = AtomicUsize::new(0);
static LARGE_FREES: AtomicUsize = AtomicUsize::new(0);
static NESTED: Mutex<Vec<Kuuid>> = Mutex::new(Vec::new());

thread_local! {
    /// Set on the threads under test (other tests run beside them): count
    /// large blocks.
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// And mint from inside the allocator.
    static MINTS: Cell<bool> = const { Cell::new(false) };
    /// Set while this thread's allocator hook runs: the hook itself must not
    /// recurse through the Vec it pushes to.
    static IN_HOOK: Cell<bool> = const { Cell::new(false) };
}

struct Minting;

// SAFETY: every call forwards to `System` with the caller's arguments; the
// hook only mints an id and records it, which never frees the block.
unsafe impl GlobalAlloc for Minting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= MINT_AT && ARMED.with(Cell::get) {
            LARGE_ALLOCS.fetch_add(1, Ordering::Relaxed);
            if MINTS.with(Cell::get) && !IN_HOOK.with(|h| h.replace(true)) {
                let id = kuuid::id();
                if let Ok(mut v) = NESTED.try_lock() {
                    v.push(id);
                }
                IN_HOOK.with(|h| h.set(false));
            }
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() >= MINT_AT && ARMED.with(Cell::get) {
            LARGE_FREES.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Minting = Minting;

/// Runs a thread that mints 600 ids, counting its large blocks (and minting
/// from the allocator if `mints`); returns its ids and (allocated, freed).
fn mint_on_a_thread(mints: bool) -> (Vec<Kuuid>, usize, usize) {
    let (a0, f0) = (
        LARGE_ALLOCS.load(Ordering::SeqCst),
        LARGE_FREES.load(Ordering::SeqCst),
    );
    let ids = std::thread::spawn(move || {
        let mut ids: Vec<Kuuid> = Vec::with_capacity(600);
        ARMED.with(|a| a.set(true));
        MINTS.with(|m| m.set(mints));
        for _ in 0..600 {
            ids.push(kuuid::id());
        }
        ids
    })
    .join()
    .unwrap();
    let (a1, f1) = (
        LARGE_ALLOCS.load(Ordering::SeqCst),
        LARGE_FREES.load(Ordering::SeqCst),
    );
    (ids, a1 - a0, f1 - f0)
}

/// A thread whose generator is created inside the allocator hook: the
/// nested call is served without building a second per-thread state (the
/// same large blocks as a thread whose allocator does not mint; before the
/// fix the nested call built a second generator in the same slot, under the
/// outer call's `&mut`, and one of the two leaked), every block is freed
/// when the thread ends, and all ids are valid and distinct.
#[test]
fn an_allocator_that_mints_gets_ids_and_nothing_leaks() {
    NESTED.lock().unwrap().reserve(1024);
    let _serial = SERIAL.lock().unwrap();
    let (_, control_allocs, _) = mint_on_a_thread(false);
    let (outer, allocs, frees) = mint_on_a_thread(true);
    let nested = NESTED.lock().unwrap().clone();
    assert!(
        !nested.is_empty(),
        "the hook never minted: the test lost its point"
    );
    assert_eq!(
        allocs, control_allocs,
        "minting from the allocator built more state"
    );
    assert_eq!(allocs, frees, "large blocks leaked");
    let mut all: Vec<Kuuid> = outer.iter().chain(&nested).copied().collect();
    for id in &all {
        assert_eq!(id.as_str().parse::<Kuuid>(), Ok(*id));
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), outer.len() + nested.len());
}

/// The counters are shared: one counting test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

struct MintsOnDrop(std::sync::mpsc::Sender<Kuuid>);

impl Drop for MintsOnDrop {
    fn drop(&mut self) {
        let id = kuuid::id();
        let _ = self.0.send(id);
    }
}

/// A thread-local destructor that runs after kuuid's per-thread state was
/// destroyed mints anyway (before the fix: a panic in a destructor, and the
/// process aborted).
#[test]
fn a_thread_local_destructor_can_mint() {
    thread_local! {
        static LATE: RefCell<Option<MintsOnDrop>> = const { RefCell::new(None) };
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // Registered first, so destroyed after kuuid's state (destructors
        // run in reverse order of registration).
        LATE.with(|l| *l.borrow_mut() = Some(MintsOnDrop(tx)));
        let _ = kuuid::id();
    })
    .join()
    .unwrap();
    let id = rx.recv().expect("the destructor ran and minted");
    assert_eq!(id.as_str().parse::<Kuuid>(), Ok(id));
}

/// With every new thread refused (a huge `RUST_MIN_STACK`, in a child
/// process of this test binary running on its main thread), `Ticker::start`
/// fails and leaves nothing published: the seconds clock is not frozen.
#[test]
fn a_ticker_that_cannot_start_publishes_nothing() {
    if std::env::var_os("KUUID_TICKER_CHILD").is_some() {
        let started = kuuid::clock::Ticker::start();
        assert!(started.is_err(), "the OS was expected to refuse the thread");
        assert!(!kuuid::clock::Ticker::is_running());
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "a_ticker_that_cannot_start_publishes_nothing",
            "--test-threads=1",
            "--nocapture",
        ])
        .env("KUUID_TICKER_CHILD", "1")
        .env("RUST_MIN_STACK", "70368744177664")
        .bounded_output()
        .unwrap();
    assert!(
        out.status.success(),
        "child failed:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
