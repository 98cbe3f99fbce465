//! The owner word (`src/sequence/owner.rs`: the sequence's installers' lock
//! and the connection's) under every interleaving loom explores: threads of
//! one process never hold it together, also when they race to take over a
//! word a fork left naming the parent, and a forked child takes a word its
//! parent's thread held at the fork without waiting for that thread.
#![cfg(loom)]

use kuuid::process::Owner;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, Ordering};
use loom::thread;

const PARENT: u32 = 7;
const CHILD: u32 = 9;

/// Holds the word for `pid` around a critical section that must be alone.
fn hold(owner: &Owner, inside: &AtomicBool, pid: u32) {
    owner.acquire(pid, thread::yield_now);
    assert!(!inside.swap(true, Ordering::Relaxed), "two holders at once");
    inside.store(false, Ordering::Relaxed);
    owner.release();
}

#[test]
fn threads_of_one_process_take_turns() {
    loom::model(|| {
        let owner = Arc::new(Owner::new());
        let inside = Arc::new(AtomicBool::new(false));
        let other = {
            let (owner, inside) = (owner.clone(), inside.clone());
            thread::spawn(move || {
                hold(&owner, &inside, PARENT);
                hold(&owner, &inside, PARENT);
            })
        };
        hold(&owner, &inside, PARENT);
        other.join().unwrap();
    });
}

#[test]
fn a_childs_threads_race_to_take_over_the_parents_word() {
    loom::model(|| {
        // The fork copied the word while a parent's thread held it.
        let owner = Arc::new(Owner::new());
        owner.acquire(PARENT, || unreachable!("the word is free"));
        let inside = Arc::new(AtomicBool::new(false));
        let other = {
            let (owner, inside) = (owner.clone(), inside.clone());
            thread::spawn(move || hold(&owner, &inside, CHILD))
        };
        hold(&owner, &inside, CHILD);
        other.join().unwrap();
    });
}

#[test]
fn a_child_never_waits_for_the_parents_holder() {
    loom::model(|| {
        let owner = Owner::new();
        owner.acquire(PARENT, || unreachable!("the word is free"));
        // The child's only thread: a wait here would be forever.
        owner.acquire(CHILD, || {
            panic!("waited for a thread the child does not have")
        });
        owner.release();
    });
}
