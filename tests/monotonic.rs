//! Monotonic mode: every id sorts after the previous one from its generator,
//! in every layout and length, now or at a fixed time, single or bulk.

use kuuid::{Generator, Id, Layout, Order};

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
        Order::Forward => a < b,
        Order::Reverse => a > b,
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
