//! Never the same id twice, for every row of the matrix
//! (`tests/support/matrix.rs`; kuuid's id sources here, kuuid-sequence's
//! counters in its own tests, which run this file too): two threads; a
//! forked child whose first mint is the forking thread, another thread, or
//! a bulk call; two sibling children; a raw `clone`; the wall clock
//! stepped back. Each cell gathers the ids of every process and finds no
//! repeat. `tests/unguarded/uniqueness_unguarded.rs` runs the same cells
//! with the fork guard off and finds repeats: the negative controls.
//! Counters that wrap: `wraps.rs`; stores reopened after a fork:
//! kuuid-sequence's `reopen_cells.rs`.
#![cfg(target_os = "linux")]

use crate::matrix;

use matrix::cells::{self, First};
use matrix::{Copy, Minted, Source, repeats, serial, sources};

/// Checks one cell's outcome for one source; returns what is wrong.
pub(crate) fn check(src: Source, parent: &Minted, copies: &[&Minted]) -> Option<String> {
    check_copies(src, Copy::Fork, parent, copies)
}

/// As [`check`], for copies made by `how`.
fn check_copies(src: Source, how: Copy, parent: &Minted, copies: &[&Minted]) -> Option<String> {
    if !parent.errors.is_empty() {
        return Some(format!("{src:?}: the parent failed: {:?}", parent.errors));
    }
    let mut all = parent.ids.clone();
    for c in copies {
        let allowed = |e: &String| src.may_refuse(how).is_some_and(|m| e.starts_with(m));
        if src.refuses_in_a_copy() {
            if c.errors.is_empty() {
                return Some(format!("{src:?}: a copy minted instead of refusing"));
            }
        } else if !c.errors.iter().all(allowed) {
            return Some(format!("{src:?}: a copy failed: {:?}", c.errors));
        }
        all.extend(c.ids.iter().cloned());
    }
    match repeats(src, &all) {
        0 => None,
        r => Some(format!("{src:?}: {r} repeated ids among {}", all.len())),
    }
}

pub(crate) fn run(cell: &str, f: impl Fn(Source) -> Option<String>) {
    let _one_at_a_time = serial();
    let failures: Vec<String> = sources().into_iter().filter_map(f).collect();
    assert!(failures.is_empty(), "{cell}:\n{}", failures.join("\n"));
}

#[test]
fn two_threads() {
    run("two threads", |src| check(src, &cells::threads(src), &[]));
}

#[test]
fn fork_then_the_forking_thread() {
    run("fork (a)", |src| {
        let (p, c) = cells::copy(src, Copy::Fork, First::ForkingThread);
        check(src, &p, &[&c])
    });
}

#[test]
fn fork_then_another_thread_first() {
    run("fork (b)", |src| {
        let (p, c) = cells::copy(src, Copy::Fork, First::OtherThread);
        check(src, &p, &[&c])
    });
}

#[test]
fn fork_then_a_bulk_call_first() {
    run("fork (c)", |src| {
        let (p, c) = cells::copy(src, Copy::Fork, First::Bulk);
        check(src, &p, &[&c])
    });
}

#[test]
fn sibling_children() {
    run("siblings", |src| {
        let (p, kids) = cells::siblings(src);
        check(src, &p, &[&kids[0], &kids[1]])
    });
}

#[test]
fn raw_clone() {
    run("raw clone", |src| {
        let (p, c) = cells::copy(src, Copy::RawClone, First::ForkingThread);
        check_copies(src, Copy::RawClone, &p, &[&c])
    });
}

/// The wall clock steps back (1.5 s, then an hour) while a parent, its
/// threads and a child forked after the step mint: no repeat, and sources
/// documented as ordered stay ordered on the thread that saw the steps.
#[cfg(feature = "__test-hooks")]
#[test]
fn clock_stepped_back() {
    run("clock step back", |src| {
        let (p, copies, order) = cells::clock_step_back(src);
        let refs: Vec<&Minted> = copies.iter().collect();
        if let Some(fault) = check(src, &p, &refs) {
            return Some(fault);
        }
        let inversions = order.windows(2).filter(|w| w[0] >= w[1]).count();
        (src.ordered_on_a_thread() && inversions != 0)
            .then(|| format!("{src:?}: {inversions} ids not after the one before"))
    });
}
