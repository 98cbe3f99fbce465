//! The counters that wrap or carry, in kuuid's id sources (ObjectId's,
//! UUIDv7's, `idms_monotonic()`'s, CouchDB `sequential`'s): each run past
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
