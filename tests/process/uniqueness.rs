//! Never the same id twice, for every id source (the rows of
//! `tests/matrix`): two threads; a forked child whose first mint is the
//! forking thread, another thread, or a bulk call; two sibling children; a
//! raw `clone`; the wall clock stepped back; counters that wrap (ObjectId,
//! CouchDB `sequential`, the UUIDv7 and `idms_monotonic()` counters). Each cell gathers the ids of every process and finds no
//! repeat. `tests/unguarded/uniqueness_unguarded.rs` runs the same cells with the fork
//! guard off and finds repeats: the negative controls.
#![cfg(target_os = "linux")]

use crate::matrix;
#[cfg(any(feature = "rusqlite", feature = "postgres"))]
use crate::reopen::{self, Reopen};

use matrix::cells::{self, First};
use matrix::{Copy, Minted, Source, repeats, serial, sources};

/// Checks one cell's outcome for one source; returns what is wrong.
fn check(src: Source, parent: &Minted, copies: &[&Minted]) -> Option<String> {
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
        check_copies(src, Copy::RawClone, &p, &[&c])
    });
}

#[cfg(any(feature = "rusqlite", feature = "postgres"))]
/// The reopen cells (`tests/support/reopen.rs`), for the rows with a store.
fn reopen_cell(cell: &str, how: Reopen) {
    run(cell, |src| {
        let (p, copies) = reopen::reopen(src, how, matrix::scratch_dir())?;
        let refs: Vec<&Minted> = copies.iter().collect();
        check(src, &p, &refs)
    });
}

#[cfg(any(feature = "rusqlite", feature = "postgres"))]
#[test]
fn the_parent_reopens_its_store_after_a_fork() {
    reopen_cell("parent reopens", Reopen::InTheParent);
}

#[cfg(any(feature = "rusqlite", feature = "postgres"))]
#[test]
fn a_new_process_opens_the_store_after_a_fork() {
    reopen_cell("new process opens", Reopen::ByANewProcess);
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

/// Sorts `ids` and counts neighbours that are equal.
#[cfg(feature = "__test-hooks")]
fn sorted_repeats<T: Ord>(ids: &mut [T]) -> usize {
    ids.sort_unstable();
    ids.windows(2).filter(|w| w[0] == w[1]).count()
}

/// ObjectId's 3-byte counter wraps within one second (the clock held):
/// 2^24 + 4096 ids from one process, in bulk and single, repeat nothing
/// (the wrap carries into the 5-byte process value).
#[cfg(feature = "__test-hooks")]
#[test]
fn object_id_counter_wraps() {
    let _one_at_a_time = serial();
    let now = kuuid::Timestamp::now().as_millis();
    kuuid::__test_hooks::freeze(Some(now));
    let mut ids = vec![kuuid::ObjectId::default(); (1 << 24) + 2048];
    kuuid::fill_object_id(&mut ids);
    ids.extend((0..2048).map(|_| kuuid::object_id()));
    kuuid::__test_hooks::freeze(None);
    let second = ids[0].timestamp().as_secs();
    assert!(ids.iter().all(|i| i.timestamp().as_secs() == second));
    let wrapped = ids
        .iter()
        .filter(|i| i.as_bytes()[9..] == [0, 0, 0])
        .count();
    assert!(wrapped >= 1, "the counter never passed 0xFFFFFF");
    assert_eq!(
        sorted_repeats(&mut ids),
        0,
        "ObjectIds repeated across the wrap"
    );
}

/// UUIDv7's counter carries into the millisecond: the clock held at one
/// millisecond, 2^22 + 4096 ids (more than any millisecond holds) from
/// `fill_v7`, single `v7()` and a `V7Generator` stay strictly increasing
/// on this thread and repeat nothing, and run past the held millisecond.
#[cfg(feature = "__test-hooks")]
#[test]
fn v7_counter_carries() {
    let _one_at_a_time = serial();
    let held = kuuid::Timestamp::now().as_millis() + 10_000;
    kuuid::__test_hooks::freeze(Some(held));
    let mut bulk = vec![kuuid::Uuid7::MIN; 1 << 22];
    kuuid::fill_v7(&mut bulk);
    let mut ids = bulk;
    ids.extend((0..2048).map(|_| kuuid::v7()));
    let mut g = kuuid::V7Generator::new();
    let mut gen_ids = vec![kuuid::Uuid7::MIN; 1 << 22];
    g.fill(&mut gen_ids);
    gen_ids.extend((0..2048).map(|_| g.generate()));
    kuuid::__test_hooks::freeze(None);
    for (name, ids) in [("v7()", &ids), ("V7Generator", &gen_ids)] {
        let inversions = ids.windows(2).filter(|w| w[0] >= w[1]).count();
        assert_eq!(inversions, 0, "{name}: ids out of order across the carry");
        let last = ids.last().unwrap().timestamp().as_millis();
        assert!(
            last > held,
            "{name}: the counter never carried ({last} <= {held})"
        );
    }
    ids.extend(gen_ids);
    assert_eq!(
        sorted_repeats(&mut ids),
        0,
        "UUIDv7s repeated across the carry"
    );
}

/// `idms_monotonic()`'s counter carries into the millisecond as UUIDv7's
/// does: the clock held, 2^22 + 4096 ids in bulk and single stay strictly
/// increasing, repeat nothing, and run past the held millisecond.
#[cfg(feature = "__test-hooks")]
#[test]
fn idms_monotonic_counter_carries() {
    let _one_at_a_time = serial();
    let held = kuuid::Timestamp::now().as_millis() + 10_000;
    kuuid::__test_hooks::freeze(Some(held));
    let mut ids = vec![kuuid::Kuuid::default(); (1 << 22) + 2048];
    kuuid::fill_idms_monotonic(&mut ids);
    ids.extend((0..2048).map(|_| kuuid::idms_monotonic()));
    kuuid::__test_hooks::freeze(None);
    let inversions = ids.windows(2).filter(|w| w[0] >= w[1]).count();
    assert_eq!(inversions, 0, "ids out of order across the carry");
    let last = ids.last().unwrap().timestamp(kuuid::Layout::MILLIS);
    assert!(
        last.as_millis() > held,
        "the counter never carried ({last} <= {held})"
    );
    assert_eq!(sorted_repeats(&mut ids), 0, "ids repeated across the carry");
}

/// CouchDB `sequential` rolls its 26-hex-digit prefix over every ~8,000
/// ids: two threads and a bulk call, 36,000 ids, cross several rollovers
/// and repeat nothing.
#[test]
fn couch_sequential_rolls_over() {
    let src = Source::Couch(kuuid::couch::Algorithm::Sequential);
    let _one_at_a_time = serial();
    let handles: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(move || {
                let mut m = Minted::default();
                m.singles(src, 12_000);
                m
            })
        })
        .collect();
    let mut all = Minted::default();
    all.bulk(src, 12_000);
    for h in handles {
        all.extend(h.join().unwrap());
    }
    assert!(all.errors.is_empty(), "{:?}", all.errors);
    let prefixes: std::collections::HashSet<&[u8]> = all.ids.iter().map(|i| &i[..26]).collect();
    assert!(
        prefixes.len() >= 3,
        "only {} prefixes: no rollover",
        prefixes.len()
    );
    assert_eq!(repeats(src, &all.ids), 0);
}
