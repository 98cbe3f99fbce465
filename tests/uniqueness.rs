//! Never the same id twice, for every id source (the rows of
//! `tests/matrix`): two threads; a forked child whose first mint is the
//! forking thread, another thread, or a bulk call; two sibling children; a
//! raw `clone`. Each cell gathers the ids of every process and finds no
//! repeat. `tests/uniqueness_unguarded.rs` runs the same cells with the fork
//! guard off and finds repeats: the negative controls.
#![cfg(target_os = "linux")]

mod matrix;

use matrix::cells::{self, First};
use matrix::{Copy, Minted, Source, repeats, serial, sources};

/// Checks one cell's outcome for one source; returns what is wrong.
fn check(src: Source, parent: &Minted, copies: &[&Minted]) -> Option<String> {
    if !parent.errors.is_empty() {
        return Some(format!("{src:?}: the parent failed: {:?}", parent.errors));
    }
    let mut all = parent.ids.clone();
    for c in copies {
        if src.refuses_in_a_copy() {
            if c.errors.is_empty() {
                return Some(format!("{src:?}: a copy minted instead of refusing"));
            }
        } else if !c.errors.is_empty() {
            return Some(format!("{src:?}: a copy failed: {:?}", c.errors));
        }
        all.extend(c.ids.iter().cloned());
    }
    match repeats(src, &all) {
        0 => None,
        r => Some(format!("{src:?}: {r} repeated ids among {}", all.len())),
    }
}

fn run(cell: &str, f: impl Fn(Source) -> Option<String>) {
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
        check(src, &p, &[&c])
    });
}
