//! The counters that wrap or carry, in kuuid's id sources (ObjectId's,
//! UUIDv7's, ULID's, `idms_monotonic()`'s, CouchDB `sequential`'s): each run past
//! its wrap repeats nothing. The rest of the matrix is `uniqueness.rs`.
#![cfg(target_os = "linux")]

use crate::matrix::{Minted, Source, repeats, serial};

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

/// One process-wide sequence's carry, the clock held at one millisecond:
/// 2^22 + 2048 ids (more than any millisecond holds) from a bulk call then
/// single ids, and the same from a generator's fill then its single ids,
/// stay strictly increasing, repeat nothing, and run past the held
/// millisecond.
#[cfg(feature = "__test-hooks")]
struct Carry<T, B, S, G, H> {
    min: T,
    bulk: B,
    single: S,
    gen_bulk: G,
    gen_single: H,
}

#[cfg(feature = "__test-hooks")]
fn counter_carries<T, B, S, G, H>(
    name: &str,
    millis: impl Fn(&T) -> u64,
    mut c: Carry<T, B, S, G, H>,
) where
    T: Ord + Copy + std::fmt::Debug,
    B: FnMut(&mut [T]),
    S: FnMut() -> T,
    G: FnMut(&mut [T]),
    H: FnMut() -> T,
{
    let _one_at_a_time = serial();
    let held = kuuid::Timestamp::now().as_millis() + 10_000;
    kuuid::__test_hooks::freeze(Some(held));
    let mut ids = vec![c.min; 1 << 22];
    (c.bulk)(&mut ids);
    ids.extend((0..2048).map(|_| (c.single)()));
    let mut gen_ids = vec![c.min; 1 << 22];
    (c.gen_bulk)(&mut gen_ids);
    gen_ids.extend((0..2048).map(|_| (c.gen_single)()));
    kuuid::__test_hooks::freeze(None);
    for (what, ids) in [("the free functions", &ids), ("a generator", &gen_ids)] {
        let inversions = ids.windows(2).filter(|w| w[0] >= w[1]).count();
        assert_eq!(
            inversions, 0,
            "{name}, {what}: ids out of order across the carry"
        );
        let last = millis(ids.last().unwrap());
        assert!(
            last > held,
            "{name}, {what}: the counter never carried ({last} <= {held})"
        );
    }
    ids.extend(gen_ids);
    assert_eq!(
        sorted_repeats(&mut ids),
        0,
        "{name}: repeated across the carry"
    );
}

/// UUIDv7's counter carries into the millisecond (`fill_v7`, `v7()`, a
/// `V7Generator`).
#[cfg(feature = "__test-hooks")]
#[test]
fn v7_counter_carries() {
    let g = std::cell::RefCell::new(kuuid::V7Generator::new());
    counter_carries(
        "UUIDv7",
        |id: &kuuid::Uuid7| id.timestamp().as_millis(),
        Carry {
            min: kuuid::Uuid7::MIN,
            bulk: kuuid::fill_v7,
            single: kuuid::v7,
            gen_bulk: |ids: &mut [kuuid::Uuid7]| g.borrow_mut().fill(ids),
            gen_single: || g.borrow_mut().generate(),
        },
    );
}

/// ULID's counter carries as UUIDv7's does (`fill_ulid`, `ulid()`, a
/// `UlidGenerator`): the spec's monotonic mode would fail there instead.
#[cfg(feature = "__test-hooks")]
#[test]
fn ulid_counter_carries() {
    let g = std::cell::RefCell::new(kuuid::UlidGenerator::new());
    counter_carries(
        "ULID",
        |id: &kuuid::Ulid| id.timestamp().as_millis(),
        Carry {
            min: kuuid::Ulid::MIN,
            bulk: kuuid::fill_ulid,
            single: kuuid::ulid,
            gen_bulk: |ids: &mut [kuuid::Ulid]| g.borrow_mut().fill(ids),
            gen_single: || g.borrow_mut().generate(),
        },
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
