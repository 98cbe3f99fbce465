//! The SQLite stores' fork gate (`src/sequence/fork_gate.rs`) under every
//! interleaving loom explores. A fork is the prepare handler's bounded
//! wait, then a copy of the word (what the child finds), then the parent
//! handler; the child's first call decides from the word alone whether it
//! may use SQLite (adopt) or not (poisoned):
//!
//! - a copy that adopts never has a call inside (here a flag standing for
//!   a SQLite mutex held), whether the wait drained or ran out;
//! - calls that come while the gate is closed wait, then go in after it
//!   opens;
//! - of two first callers in a copy, exactly one adopts, and the other goes
//!   in only once the adoption is over.
#![cfg(loom)]

use kuuid_sequence::{Entry, ForkGate, Poisoned};
use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use loom::thread;

const PARENT: u32 = 7;
const CHILD: u32 = 8;

fn enter(gate: &ForkGate, pid: u32) -> Result<Entry, Poisoned> {
    gate.enter(|| pid, thread::yield_now).map(|(entry, p)| {
        assert_eq!(p, pid);
        entry
    })
}

/// A call through the gate that "holds a SQLite mutex" while inside.
fn call(gate: &ForkGate, held: &AtomicBool) {
    if enter(gate, PARENT).unwrap() == Entry::Adopt {
        gate.adopted(PARENT);
    }
    held.store(true, Ordering::Relaxed);
    held.store(false, Ordering::Relaxed);
    gate.leave(PARENT);
}

/// The forking thread: a wait of `rounds` looks at most, then the copy.
/// Returns whether the child adopted.
fn fork(gate: &ForkGate, held: &AtomicBool, rounds: usize) -> bool {
    let mut left = rounds;
    let drained = gate.close(PARENT, 0, || {
        left = left.saturating_sub(1);
        thread::yield_now();
        left > 0
    });
    let child = gate.copy();
    let held_at_fork = held.load(Ordering::Relaxed);
    gate.open(PARENT);
    let adopted = match enter(&child, CHILD) {
        Ok(entry) => {
            assert_eq!(entry, Entry::Adopt);
            assert!(!held_at_fork, "a copy adopted with a SQLite mutex held");
            true
        }
        Err(Poisoned) => {
            assert!(!drained, "the wait drained, yet the copy is poisoned");
            false
        }
    };
    if drained {
        assert!(adopted, "drained but not adopted");
    }
    adopted
}

#[test]
fn a_copy_that_adopts_never_has_a_call_inside() {
    loom::model(|| {
        let gate = Arc::new(ForkGate::new());
        let held = Arc::new(AtomicBool::new(false));
        let caller = {
            let (gate, held) = (gate.clone(), held.clone());
            thread::spawn(move || {
                call(&gate, &held);
                call(&gate, &held);
            })
        };
        fork(&gate, &held, 2);
        caller.join().unwrap();
        assert_eq!(gate.count(), 0);
    });
}

/// (Two waiters spin while the gate is closed: a run takes more steps
/// than loom's default allows, and two preemptions take too long to
/// explore, so this model takes one; the model above takes two.)
#[test]
fn two_callers_and_a_fork() {
    let mut model = loom::model::Builder::new();
    model.max_branches = 100_000;
    model.preemption_bound = Some(1);
    model.check(|| {
        let gate = Arc::new(ForkGate::new());
        let held = Arc::new(AtomicBool::new(false));
        let callers: Vec<_> = (0..2)
            .map(|_| {
                let (gate, held) = (gate.clone(), held.clone());
                thread::spawn(move || call(&gate, &held))
            })
            .collect();
        fork(&gate, &held, 3);
        for c in callers {
            c.join().unwrap();
        }
        assert_eq!(gate.count(), 0);
    });
}

/// A copy's first two callers race: one adopts, the other enters only
/// after the adoption ends.
#[test]
fn a_copy_adopts_once() {
    loom::model(|| {
        let parent = ForkGate::new();
        let held = AtomicBool::new(false);
        call(&parent, &held);
        let child = Arc::new(parent.copy());
        let adopting = Arc::new(AtomicBool::new(false));
        let adoptions = Arc::new(AtomicUsize::new(0));
        let first_call = {
            let (child, adopting, adoptions) = (child.clone(), adopting.clone(), adoptions.clone());
            move || {
                match enter(&child, CHILD).unwrap() {
                    Entry::Adopt => {
                        adoptions.fetch_add(1, Ordering::Relaxed);
                        adopting.store(true, Ordering::Relaxed);
                        adopting.store(false, Ordering::Relaxed);
                        child.adopted(CHILD);
                    }
                    Entry::Inside => {
                        assert!(!adopting.load(Ordering::Relaxed), "in during the adoption")
                    }
                }
                child.leave(CHILD);
            }
        };
        let other = thread::spawn(first_call.clone());
        first_call();
        other.join().unwrap();
        assert_eq!(adoptions.load(Ordering::Relaxed), 1);
        assert_eq!(child.count(), 0);
    });
}

/// The fork handlers' registration (`Registered`, not a `Once`, which a
/// fork could copy half-run): two first callers race; each returns only
/// after some registration has finished, and there are one or two.
#[test]
fn every_caller_returns_after_a_registration() {
    use kuuid_sequence::Registered;
    loom::model(|| {
        let handlers = Arc::new(Registered::new());
        let registered = Arc::new(AtomicUsize::new(0));
        let first_call = |handlers: &Registered, registered: &AtomicUsize| {
            handlers.ensure(|| {
                registered.fetch_add(1, Ordering::Relaxed);
            });
            assert!(
                registered.load(Ordering::Relaxed) >= 1,
                "returned before any registration finished"
            );
        };
        let other = {
            let (handlers, registered) = (handlers.clone(), registered.clone());
            thread::spawn(move || first_call(&handlers, &registered))
        };
        first_call(&handlers, &registered);
        other.join().unwrap();
        let n = registered.load(Ordering::Relaxed);
        assert!((1..=2).contains(&n), "{n} registrations");
    });
}
