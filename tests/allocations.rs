//! Allocations where the docs promise none: the buffer forms of the order
//! key functions once their `KeyBuf` has grown, an owned `OrderKey` of up
//! to 8 bytes, and a thread's first id. A counting global allocator, so its own test binary (the
//! allocator is process-wide); it counts only on a thread that asks.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use kuuid::order::{KeyBuf, key_between, key_between_into, n_keys_between_into, rebalance_into};

// The order benches' 501 typical bounds (keys of 2 to 7 bytes).
#[path = "../benches/shared/order_pairs.rs"]
mod order_pairs;
use order_pairs::typical_pairs;

thread_local! {
    /// Set while this thread counts.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Allocations and reallocations this thread made while counting.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

struct Counting;

fn count() {
    // `try_with`: no panic if a thread-local is asked for while the
    // thread's locals are being torn down (these two have no destructor).
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

// SAFETY: every call forwards to `System` with the caller's arguments; the
// count touches two `Cell`s of plain integers, which neither allocates nor
// frees.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    ALLOCS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    ALLOCS.with(Cell::get)
}

/// `key_between_into` allocates nothing once the buffer has grown; the
/// `n`-key forms allocate nothing per key (the bisection takes one scratch
/// buffer a call), so 5000 keys cost what 50 do.
#[test]
fn order_buffer_forms_allocate_nothing_per_key() {
    let pairs = typical_pairs();
    let mut buf = KeyBuf::new();
    let between_each = |buf: &mut KeyBuf| {
        buf.clear();
        for (a, b) in &pairs {
            key_between_into(a.as_deref(), b.as_deref(), buf).unwrap();
        }
    };
    // The first fill grows the buffer: the control that the count works.
    let growing = allocations(|| between_each(&mut buf));
    assert!(
        growing > 0,
        "the counter saw no allocation while a buffer grew"
    );
    let again = allocations(|| between_each(&mut buf));
    assert_eq!(again, 0, "{again} allocations refilling a grown KeyBuf");

    type Form = fn(usize, &mut KeyBuf);
    let forms: [(&str, Form); 4] = [
        ("n_keys_between_into(None, None)", |n, buf| {
            n_keys_between_into(None, None, n, buf).unwrap()
        }),
        ("n_keys_between_into(None, a0)", |n, buf| {
            n_keys_between_into(None, Some("a0"), n, buf).unwrap()
        }),
        ("n_keys_between_into(a0, a1)", |n, buf| {
            n_keys_between_into(Some("a0"), Some("a1"), n, buf).unwrap()
        }),
        ("rebalance_into", |n, buf| rebalance_into(n, buf).unwrap()),
    ];
    for (name, form) in forms {
        let mut buf = KeyBuf::new();
        form(5000, &mut buf);
        let mut at = |n| {
            buf.clear();
            allocations(|| form(n, &mut buf))
        };
        let (few, many) = (at(50), at(5000));
        assert_eq!(
            few, many,
            "{name}: {few} allocations for 50 keys, {many} for 5000"
        );
        assert!(many <= 1, "{name}: {many} allocations a call");
    }
}

#[test]
fn owned_keys_of_up_to_8_bytes_allocate_nothing() {
    let pairs = typical_pairs();
    let mut longest = 0;
    let n = allocations(|| {
        for (a, b) in &pairs {
            let k = key_between(a.as_deref(), b.as_deref()).unwrap();
            longest = longest.max(k.as_bytes().len());
            std::hint::black_box(k);
        }
    });
    assert!(longest <= 8, "a typical key of {longest} bytes");
    assert_eq!(n, 0, "{n} allocations for {} keys", pairs.len());
    // A key of 9 bytes or more lives on the heap: the control.
    let long = allocations(|| {
        std::hint::black_box(key_between(Some("a0zzzzzzzz"), Some("a1")).unwrap());
    });
    assert!(long > 0, "a key of more than 8 bytes made no allocation");
}

/// A thread's first `id()` (and first `object_id()`) allocates nothing:
/// the look-ahead's buffers come with its second id, so a thread that
/// mints one id keeps no heap (`benches/server.rs`'s KiB a thread). The
/// later ids of `id()` do allocate them: the control. (A first `v7()` in
/// a new millisecond draws twice, a counter start and its random bits,
/// and the second draw fills the pool.)
#[test]
fn a_threads_first_id_allocates_nothing() {
    type Mint = fn();
    let sources: [(&str, Mint, bool); 2] = [
        (
            "id",
            || {
                std::hint::black_box(kuuid::id());
            },
            true,
        ),
        (
            "object_id",
            || {
                std::hint::black_box(kuuid::object_id());
            },
            false,
        ),
    ];
    // Process-wide state (the fork word, ObjectId's process value) is
    // set up here, on this thread, as a server's main thread would.
    for (_, mint, _) in sources {
        mint();
    }
    for (name, mint, buffers) in sources {
        let (first, later) = std::thread::spawn(move || {
            let first = allocations(mint);
            let later = allocations(|| (0..100).for_each(|_| mint()));
            (first, later)
        })
        .join()
        .expect("a minting thread");
        assert_eq!(
            first, 0,
            "{name}: a thread's first id allocated {first} times"
        );
        if buffers {
            assert!(
                later > 0,
                "{name}: 100 more ids allocated nothing (the control)"
            );
        }
    }
}
