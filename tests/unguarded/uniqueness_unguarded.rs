//! The matrix of `tests/process/uniqueness.rs` (its rows: kuuid's id
//! sources here, kuuid-sequence's counters in its tests, which run this
//! file too) with the fork guard off (a test-only
//! switch: no wipe-on-fork page, no atfork handler), as in a copy of the
//! process that cannot know it was copied (a restored VM snapshot).
//!
//! - The negative controls: every fork cell finds repeats for every source
//!   that keeps state (so each cell can fail), except where the source is
//!   the OS's or the database's.
//! - Restored clones that call `kuuid::reseed()` repeat nothing; the same
//!   clones without it repeat (the control).
#![cfg(target_os = "linux")]

use crate::matrix;

use crate::common::guard_off;
use kuuid::couch::Algorithm;
use matrix::cells::{self, First};
use matrix::{Copy, Minted, Source, repeats, serial, sources};

/// Sources whose copies surely repeat when nothing tells them they were
/// copied: all but `utc_id`, whose suffix differs per process here, and,
/// when another thread mints first (`other_thread_first`), CouchDB
/// `sequential`: that thread's fresh random steps move the shared word
/// differently in each copy, so the copies' counters then collide only by
/// chance (the cells where the copied thread mints first cover it).
fn repeats_without_the_guard(src: Source, other_thread_first: bool) -> bool {
    match src {
        Source::Couch(Algorithm::UtcId) => false,
        Source::Couch(Algorithm::Sequential) => !other_thread_first,
        _ => true,
    }
}

pub(crate) fn all_ids(parent: &Minted, copies: &[&Minted]) -> Vec<Vec<u8>> {
    let mut all = parent.ids.clone();
    for c in copies {
        all.extend(c.ids.iter().cloned());
    }
    all
}

/// How many times a control runs a cell for a source before it calls the
/// cell blind for it. A monotonic walk starts afresh at each new second
/// (`src/kuuid/monotonic.rs`), so when a second boundary falls between the copy
/// and one side's next id, parent and copy walk from different points and
/// repeat nothing (a few runs of this binary in a hundred on a loaded
/// machine, in any fork cell: a second boundary has to fall in the copy's
/// few milliseconds).
/// Three tries make that chance negligible, while a cell that cannot see
/// a repeat still fails all three (seen by hand with the test clock moved
/// a second between the copy and the parent's next id).
pub(crate) const TRIES: usize = 3;

/// A negative control: the cell must find repeats.
fn control(cell: &str, other_thread_first: bool, f: impl Fn(Source) -> (Minted, Vec<Minted>)) {
    guard_off();
    let _one_at_a_time = serial();
    let mut blind = Vec::new();
    let sure = |&s: &Source| repeats_without_the_guard(s, other_thread_first);
    for src in sources().into_iter().filter(sure) {
        let found = (0..TRIES).any(|_| {
            let (p, copies) = f(src);
            let refs: Vec<&Minted> = copies.iter().collect();
            repeats(src, &all_ids(&p, &refs)) > 0
        });
        if !found {
            blind.push(format!("{src:?}"));
        }
    }
    assert!(
        blind.is_empty(),
        "{cell}: with the guard off these found no repeat in {TRIES} tries, so the cell cannot fail for them: {}",
        blind.join(", ")
    );
}

#[test]
fn controls_fork_then_the_forking_thread() {
    control("fork (a)", false, |src| {
        let (p, c) = cells::copy(src, Copy::Fork, First::ForkingThread);
        (p, vec![c])
    });
}

#[test]
fn controls_fork_then_another_thread_first() {
    control("fork (b)", true, |src| {
        let (p, c) = cells::copy(src, Copy::Fork, First::OtherThread);
        (p, vec![c])
    });
}

#[test]
fn controls_fork_then_a_bulk_call_first() {
    control("fork (c)", false, |src| {
        let (p, c) = cells::copy(src, Copy::Fork, First::Bulk);
        (p, vec![c])
    });
}

#[test]
fn controls_sibling_children() {
    control("siblings", false, cells::siblings);
}

#[test]
fn controls_raw_clone() {
    control("raw clone", false, |src| {
        let (p, c) = cells::copy(src, Copy::RawClone, First::ForkingThread);
        (p, vec![c])
    });
}

#[cfg(feature = "__test-hooks")]
#[test]
fn controls_clock_stepped_back() {
    // The child's first mint is another thread's, as in fork (b).
    control("clock step back", true, |src| {
        let (p, copies, _) = cells::clock_step_back(src);
        (p, copies)
    });
}

#[test]
fn controls_restored_clones_without_reseed() {
    control("restored clones, no reseed", false, |src| {
        cells::restored_clones(src, false)
    });
}

/// Two restored copies that call `reseed()` repeat nothing, with each other
/// or with the snapshot's ids; a source that cannot be shared by copies
/// (in-memory counters) refuses instead.
#[test]
fn restored_clones_that_reseed_repeat_nothing() {
    guard_off();
    let _one_at_a_time = serial();
    let mut failures = Vec::new();
    for src in sources() {
        if src == Source::Couch(Algorithm::UtcId) {
            // Unique per suffix only; restored copies share the suffix
            // unless the application gives each its own.
            continue;
        }
        let (p, copies) = cells::restored_clones(src, true);
        for c in &copies {
            let refused = !c.errors.is_empty();
            if refused != src.refuses_in_a_copy() {
                failures.push(format!("{src:?}: copy errors {:?}", c.errors));
            }
        }
        let refs: Vec<&Minted> = copies.iter().collect();
        let r = repeats(src, &all_ids(&p, &refs));
        if r != 0 {
            failures.push(format!("{src:?}: {r} repeated ids"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
