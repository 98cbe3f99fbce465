//! The SQLite store's fork gate (`src/sequence/fork_gate.rs`) under every
//! interleaving loom explores: when a fork's prepare handler has closed the
//! gate, no call is inside, and a call's work (here a flag standing for a
//! SQLite mutex it holds) is seen finished; calls that come while the gate
//! is closed wait and then go in after it opens.
#![cfg(loom)]

use kuuid::sequence::ForkGate;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, Ordering};
use loom::thread;

/// A call through the gate that "holds a SQLite mutex" while inside.
fn call(gate: &ForkGate, held: &AtomicBool) {
    gate.enter(thread::yield_now);
    held.store(true, Ordering::Relaxed);
    held.store(false, Ordering::Relaxed);
    gate.leave();
}

#[test]
fn a_fork_never_copies_a_call_inside() {
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
        // The forking thread: prepare, "fork", parent handler.
        gate.close(thread::yield_now);
        assert_eq!(gate.count(), 0, "a call inside at the fork");
        assert!(!held.load(Ordering::Relaxed), "a mutex held at the fork");
        gate.open();
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
        let held: Arc<[AtomicBool; 2]> = Arc::new([AtomicBool::new(false), AtomicBool::new(false)]);
        let callers: Vec<_> = (0..2)
            .map(|i| {
                let (gate, held) = (gate.clone(), held.clone());
                thread::spawn(move || call(&gate, &held[i]))
            })
            .collect();
        gate.close(thread::yield_now);
        assert_eq!(gate.count(), 0, "a call inside at the fork");
        assert!(
            held.iter().all(|h| !h.load(Ordering::Relaxed)),
            "a mutex held at the fork"
        );
        gate.open();
        for c in callers {
            c.join().unwrap();
        }
        assert_eq!(gate.count(), 0);
    });
}

/// The fork handlers' registration (`Registered`, not a `Once`, which a
/// fork could copy half-run): two first callers race; each returns only
/// after some registration has finished, and there are one or two.
#[test]
fn every_caller_returns_after_a_registration() {
    use kuuid::sequence::Registered;
    use loom::sync::atomic::AtomicUsize;
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
