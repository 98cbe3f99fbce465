//! Range keys select exactly the ids minted in the interval, in every layout
//! and id length, by raw byte order (as CouchDB `_all_docs` compares `_id`).

use kuuid::{AnyKuuid, Generator, KeyRange, Layout, Options};
use proptest::prelude::*;

const LAYOUTS: [Layout; 4] = [
    Layout::SECONDS,
    Layout::MILLIS,
    Layout::SECONDS_REVERSE,
    Layout::MILLIS_REVERSE,
];

fn mint(layout: Layout, t: u64, groups: usize) -> AnyKuuid {
    Options::new()
        .at(t)
        .millisecond(layout.precision == kuuid::Precision::Millis)
        .reverse(layout.order == kuuid::TimeOrder::Reverse)
        .random(groups)
        .id()
        .unwrap()
}

proptest! {
    #[test]
    fn keys_cover_exactly_the_interval(
        from in 0u64..4_000_000_000_000,
        len in 0u64..5_000_000,
        probe in 0u64..4_010_000_000_000,
        groups in 1usize..=4,
        li in 0usize..4,
    ) {
        let layout = LAYOUTS[li];
        let to = from + len;
        let r = KeyRange::new(layout, from, to).unwrap();
        let unit = if layout.precision == kuuid::Precision::Seconds { 1000 } else { 1 };
        let inside = from / unit <= probe / unit && probe / unit <= to / unit;
        let id = mint(layout, probe, groups);
        prop_assert_eq!(r.contains(id.as_str()), inside, "{:?} {} {} {} {}", layout, from, to, probe, id);
    }
}

#[test]
fn interval_edges_with_extreme_random_parts() {
    for layout in LAYOUTS {
        let (from, to) = (1_514_764_800_000u64, 1_514_764_860_999u64);
        let r = KeyRange::new(layout, from, to).unwrap();
        let unit = if layout.precision == kuuid::Precision::Seconds {
            1000
        } else {
            1
        };
        for (t, inside) in [
            (from, true),
            (to, true),
            (from - unit, false),
            (to + unit, false),
        ] {
            let p = layout.prefix(t).unwrap();
            for words in [[0u32; 4], [u32::MAX; 4]] {
                let id = kuuid::Kuuid::from_parts(p, &words).unwrap();
                assert_eq!(r.contains(id.as_str()), inside, "{layout:?} {t} {id}");
            }
        }
        // A bulk-minted batch at `from` lies inside.
        let mut ids = vec![kuuid::Kuuid::default(); 1000];
        Generator::fast()
            .with_layout(layout)
            .at(from)
            .unwrap()
            .fill(&mut ids);
        assert!(ids.iter().all(|id| r.contains(id.as_str())));
    }
}

proptest! {
    /// A type prefix selects that type's ids of the interval and nothing of
    /// another type, whatever the neighbouring types and times.
    #[test]
    fn prefixed_keys_cover_exactly_one_type_and_interval(
        from in 0u64..4_000_000_000_000,
        len in 0u64..5_000_000,
        probe in 0u64..4_010_000_000_000,
        li in 0usize..4,
        other in prop::sample::select(vec!["user", "user:x:", "usera:", "users:", "order:", "", "user;"]),
    ) {
        let layout = LAYOUTS[li];
        let to = from + len;
        let r = KeyRange::new(layout, from, to).unwrap().with_prefix("user:");
        let unit = if layout.precision == kuuid::Precision::Seconds { 1000 } else { 1 };
        let inside = from / unit <= probe / unit && probe / unit <= to / unit;
        let id = mint(layout, probe, 4);
        prop_assert_eq!(r.contains(&format!("user:{id}")), inside);
        // `user:x:` can share the range only where a time prefix starts
        // with `x`, past any time `KeyRange` accepts here.
        prop_assert!(!r.contains(&format!("{other}{id}")), "{} {}", other, id);
    }

    /// The JSON form parses back to the keys, whatever the prefix holds.
    #[test]
    fn prefixed_json_escapes_the_prefix(prefix in any::<String>()) {
        let r = KeyRange::new(Layout::MILLIS, 0u64, 1u64).unwrap().with_prefix(&prefix);
        let json: serde_json::Value = serde_json::from_str(&r.to_string()).unwrap();
        prop_assert_eq!(json["startkey"].as_str(), Some(r.startkey()));
        prop_assert_eq!(json["endkey"].as_str(), Some(r.endkey()));
        prop_assert!(r.startkey().starts_with(&prefix) && r.endkey().starts_with(&prefix));
    }
}
