//! Monotonic mode: every id sorts after the previous one from its generator,
//! in every layout and length, now or at a fixed time, single or bulk.

use std::str::FromStr;

use kuuid::{Generator, Id, Layout, TimeOrder};

fn check<const LEN: usize>(layout: Layout, fixed: bool) {
    let mut g = Generator::secure().with_layout(layout).monotonic();
    if fixed {
        g = g.at(1_514_764_800_000u64).unwrap();
    }
    let mut ids: Vec<Id<LEN>> = std::iter::repeat_n(Id::default(), 200_000).collect();
    // Bulk, then single ids continuing the same sequence.
    g.fill_ids(&mut ids[..150_000]);
    for slot in &mut ids[150_000..] {
        *slot = g.generate_id();
    }
    let ordered = |a: &Id<LEN>, b: &Id<LEN>| match layout.order {
        TimeOrder::Forward => a < b,
        TimeOrder::Reverse => a > b,
    };
    for (i, w) in ids.windows(2).enumerate() {
        assert!(
            ordered(&w[0], &w[1]),
            "{layout:?} len {LEN} at {i}: {} then {}",
            w[0],
            w[1]
        );
    }
    // Unless the random part overflowed, the time is the real one.
    if fixed && LEN == 32 {
        assert!(
            ids.iter()
                .all(|id| id.timestamp(layout).as_secs() == 1_514_764_800)
        );
    }
}

#[test]
fn strictly_ordered_in_every_layout_and_length() {
    for layout in [
        Layout::SECONDS,
        Layout::MILLIS,
        Layout::SECONDS_REVERSE,
        Layout::MILLIS_REVERSE,
    ] {
        for fixed in [false, true] {
            check::<32>(layout, fixed);
            check::<20>(layout, fixed);
            check::<14>(layout, fixed);
        }
    }
}

#[test]
fn monotonic_ids_stay_random_enough_to_be_unique_across_generators() {
    // Two monotonic generators at the same fixed time: their sequences start
    // at independent random points and must not collide.
    let mut a = Generator::secure().monotonic().at(0u64).unwrap();
    let mut b = Generator::secure().monotonic().at(0u64).unwrap();
    let mut ids = vec![kuuid::Kuuid::default(); 200_000];
    a.fill(&mut ids[..100_000]);
    b.fill(&mut ids[100_000..]);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 200_000);
}

/// A change of layout starts the walk afresh at now (before the fix a
/// seconds walk carried into a ms-reverse layout minted ids dated 8888, and
/// ms into seconds ~57,000 years ahead).
#[test]
fn a_new_layout_starts_afresh() {
    let now = kuuid::Timestamp::now().as_millis();
    for (from, to) in [
        (Layout::SECONDS, Layout::MILLIS_REVERSE),
        (Layout::MILLIS, Layout::SECONDS),
        (Layout::MILLIS_REVERSE, Layout::MILLIS),
    ] {
        let mut g = Generator::fast().with_layout(from).monotonic();
        let _ = g.generate();
        let mut g = g.with_layout(to);
        let t = g.generate().timestamp(to).as_millis();
        assert!(t.abs_diff(now) < 60_000, "{from:?} -> {to:?}: {t} vs {now}");
    }
}

/// Mixing lengths on one generator: each id is whole (no zeroed groups from
/// a shorter walk), sorts after the one before, and the prefix moves by at
/// most one unit per change of length.
#[test]
fn mixed_lengths_keep_order_and_whole_ids() {
    let mut g = Generator::fast().monotonic().at(1_000_000u64).unwrap();
    let mut last = String::new();
    for i in 0..50 {
        let id = if i % 2 == 0 {
            g.generate_id::<14>().to_string()
        } else {
            g.generate().to_string()
        };
        assert!(id > last, "{last} then {id}");
        if id.len() == 32 {
            // A fresh walk: every group random, none zero-filled from the
            // one-group walk before it.
            assert!(
                !id.as_bytes()[8..].chunks(6).any(|g| g == b"000000"),
                "{id}"
            );
        }
        last = id;
    }
    let prefix = kuuid::Kuuid::from_str(&last).unwrap().prefix().value();
    assert!(prefix <= 1_000 + 50, "{prefix}");
}

/// At the end of the prefix range a one-group walk runs out: the fallible
/// methods say so, in bulk and single, and never return an out-of-order id.
#[test]
fn the_end_of_the_range_is_a_typed_error() {
    let end = 62u64.pow(8) - 1;
    let mut g = Generator::fast()
        .with_layout(Layout::MILLIS)
        .monotonic()
        .at(end)
        .unwrap();
    let mut ids = vec![kuuid::Kuuid1::default(); 1 << 16];
    let mut last: Option<kuuid::Kuuid1> = None;
    let mut failed = false;
    for _ in 0..128 {
        match g.try_fill_ids(&mut ids) {
            Ok(()) => {
                for id in &ids {
                    assert!(last.is_none_or(|l| l < *id));
                    last = Some(*id);
                }
            }
            Err(e) => {
                assert_eq!(e, kuuid::Error::MonotonicExhausted);
                failed = true;
                break;
            }
        }
    }
    assert!(failed, "2^23 one-group ids at the last ms must run out");
    assert_eq!(
        g.try_generate_id::<14>(),
        Err(kuuid::Error::MonotonicExhausted)
    );
}
