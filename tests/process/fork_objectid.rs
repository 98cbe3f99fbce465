//! ObjectId and fork (the spec's test plan): a child's 5-byte process value
//! differs from its parent's, and no id repeats.
//! `tests/unguarded/fork_objectid_negative.rs` is the control.
#![cfg(target_os = "linux")]

use crate::common;

use common::{Shared, fork_and_wait, raw_clone_and_wait};
use kuuid::ObjectId;

#[test]
fn a_child_draws_its_own_process_value() {
    let _one_at_a_time = crate::common::serial();
    const N: usize = 10_000;
    let shared = Shared::new(2, N);
    let parent_before = kuuid::object_id();
    fork_and_wait(|| shared.write_raw(0, N, || *kuuid::object_id().as_bytes()));
    raw_clone_and_wait(|| shared.write_raw(1, N, || *kuuid::object_id().as_bytes()));
    let parent_after: Vec<ObjectId> = (0..N).map(|_| kuuid::object_id()).collect();
    let value = |id: &ObjectId| id.as_bytes()[4..9].to_vec();
    let mut all: Vec<ObjectId> = parent_after.clone();
    for slot in 0..2 {
        let child: Vec<ObjectId> = shared
            .slot_raw(slot)
            .into_iter()
            .map(ObjectId::from_bytes)
            .collect();
        assert_ne!(value(&child[0]), value(&parent_before), "slot {slot}");
        all.extend(child);
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 3 * N);
}

/// What the ObjectId process word promises inside one process, each part
/// a mutant of `formats/objectid/state.rs` survived before: bulk ids count
/// on from the one word (consecutive within a claim, increasing across
/// claims and calls), single ids carry the clock's second and given ones
/// their time, and `kuuid::reseed()` moves the word to a fresh value.
#[test]
fn the_process_word_counts_on_and_reseed_moves_it() {
    let _one_at_a_time = crate::common::serial();
    let state = |id: &ObjectId| u64::from_be_bytes(id.as_bytes()[4..12].try_into().unwrap());
    let mut a = vec![ObjectId::default(); 16 * 256];
    let mut b = vec![ObjectId::default(); 16 * 256];
    kuuid::fill_object_id(&mut a);
    kuuid::fill_object_id(&mut b);
    for (name, ids) in [("first fill", &a), ("second fill", &b)] {
        for (i, w) in ids.windows(2).enumerate() {
            let (x, y) = (state(&w[0]), state(&w[1]));
            // One claim per 256: consecutive inside, onward across.
            if (i + 1) % 256 == 0 {
                assert!(
                    y > x,
                    "{name}: claim {} went back: {x:#x} -> {y:#x}",
                    i / 256
                );
            } else {
                assert_eq!(y, x + 1, "{name}: id {i}");
            }
        }
    }
    assert!(state(&b[0]) > state(&a[a.len() - 1]));

    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let single = kuuid::object_id();
    let after = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // The coarse clock may lag a tick behind the precise one.
    let secs = single.timestamp().as_secs();
    assert!(
        before - 1 <= secs && secs <= after,
        "{secs} not in {before}..={after}"
    );
    let given = kuuid::object_id_at("2020-02-02T02:02:02Z").unwrap();
    assert_eq!(given.timestamp().to_string(), "2020-02-02T02:02:02Z");

    let last = state(&b[b.len() - 1]);
    kuuid::reseed();
    let mut c = vec![ObjectId::default(); 1];
    kuuid::fill_object_id(&mut c);
    // A fresh 64-bit value: within 2^40 above the old one by chance once
    // in 2^24 runs; counting on from it would be a distance of 1.
    assert!(
        state(&c[0]).wrapping_sub(last) > 1 << 40,
        "reseed() left the word counting on: {last:#x} -> {:#x}",
        state(&c[0])
    );
}
