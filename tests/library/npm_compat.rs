//! npm kuuid's own vectors, and sort order in every layout.

use kuuid::{
    AnyKuuid, Generator, Kuuid, Layout, Options, Precision, ShortKuuid, TimeOrder, Timestamp,
};

#[test]
fn npm_prefix_vectors() {
    assert_eq!(
        kuuid::prefix_at("2018-01-01T00:00:00Z").unwrap().as_str(),
        "001eVnWK"
    );
    assert_eq!(
        kuuid::prefix_at("2018-01-01T00:00:00.000Z")
            .unwrap()
            .as_str(),
        "001eVnWK"
    );
    assert_eq!(
        kuuid::prefix_at("1970-01-01T00:00:00.000Z")
            .unwrap()
            .as_str(),
        "00000000"
    );
    assert_eq!(
        kuuid::prefix_at("1971-01-01T00:00:00.000Z")
            .unwrap()
            .as_str(),
        "00028JxA"
    );
    assert_eq!(
        kuuid::prefix_at("1980-01-01T00:00:00.000Z")
            .unwrap()
            .as_str(),
        "000LLwUi"
    );
    assert_eq!(
        kuuid::prefix_at("2020-01-01T00:00:00.000Z")
            .unwrap()
            .as_str(),
        "001imRQe"
    );
    assert_eq!(
        kuuid::prefix_at("2170-01-01T00:00:00.000Z")
            .unwrap()
            .as_str(),
        "006t88C8"
    );
    assert_eq!(
        kuuid::prefix_at(1_514_764_800_000u64).unwrap().as_str(),
        "001eVnWK"
    );
    assert_eq!(
        kuuid::prefix_reverse_at("1970-01-01T00:00:00Z")
            .unwrap()
            .as_str(),
        "zzzzzzzz"
    );
    assert_eq!(
        kuuid::prefix_reverse_at("1970-01-01T00:00:01Z")
            .unwrap()
            .as_str(),
        "zzzzzzzy"
    );
    // The same instants through every input type.
    let st = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_514_764_800_000);
    assert_eq!(kuuid::prefix_at(st).unwrap().as_str(), "001eVnWK");
    assert_eq!(
        kuuid::prefix_at("1514764800000").unwrap().as_str(),
        "001eVnWK"
    );
    assert_eq!(
        kuuid::prefix_at("2018-01-01T01:00:00+01:00")
            .unwrap()
            .as_str(),
        "001eVnWK"
    );
}

#[test]
fn ids_carry_the_prefix_of_their_time() {
    let t = "2018-01-01T00:00:00Z";
    assert_eq!(
        kuuid::id_at(t).unwrap().prefix(),
        kuuid::prefix_at(t).unwrap()
    );
    assert_eq!(
        kuuid::idms_at(t).unwrap().prefix(),
        kuuid::prefixms_at(t).unwrap()
    );
    assert_eq!(
        kuuid::idr_at(t).unwrap().prefix(),
        kuuid::prefix_reverse_at(t).unwrap()
    );
    assert_eq!(
        kuuid::idmsr_at(t).unwrap().prefix(),
        kuuid::prefix_reverse_ms_at(t).unwrap()
    );
    // npm (since 1.0.1): ids(t) is id({timestamp: t, random: 2}), seconds;
    // `node -e "console.log(require('kuuid').ids(1514764800123))"` prints
    // 001eVnWK... (tests/library/npm_node.rs asks node itself when it can).
    assert_eq!(
        kuuid::ids_at(t).unwrap().prefix(),
        kuuid::prefix_at(t).unwrap()
    );
    assert_eq!(
        kuuid::ids_at(1_514_764_800_123u64)
            .unwrap()
            .prefix()
            .as_str(),
        "001eVnWK"
    );
    assert_eq!(
        kuuid::idsr_at(t).unwrap().prefix(),
        kuuid::prefix_reverse_at(t).unwrap()
    );
}

#[test]
fn timestamp_zero_is_1970_not_now() {
    assert_eq!(kuuid::id_at(0u64).unwrap().prefix().as_str(), "00000000");
    assert_eq!(kuuid::idr_at(0u64).unwrap().prefix().as_str(), "zzzzzzzz");
    let id = Options::new().at(0u64).id().unwrap();
    assert!(id.as_str().starts_with("00000000"));
}

/// One id at `t` ms in `layout`.
fn at(layout: Layout, t: u64) -> Kuuid {
    Generator::fast()
        .with_layout(layout)
        .at(t)
        .unwrap()
        .generate()
}

/// Ids minted at increasing times sort by time (forward) or against it
/// (reverse); ids within one unit share the prefix.
#[test]
fn every_layout_sorts_as_npm_does() {
    let times: Vec<u64> = vec![
        0,
        1,
        999,
        1000,
        1001,
        59_999,
        60_000,
        1_514_764_800_000,
        1_514_764_800_001,
        1_514_764_801_000,
        1_577_836_800_000,
        4_102_444_800_000,
        62u64.pow(8) - 1,
    ];
    for layout in [
        Layout::SECONDS,
        Layout::MILLIS,
        Layout::SECONDS_REVERSE,
        Layout::MILLIS_REVERSE,
    ] {
        let unit = match layout.precision {
            Precision::Seconds => 1000,
            Precision::Millis => 1,
        };
        for pair in times.windows(2) {
            let (t0, t1) = (pair[0], pair[1]);
            let (a, b) = (at(layout, t0), at(layout, t1));
            if t0 / unit == t1 / unit {
                assert_eq!(a.prefix(), b.prefix(), "{layout:?} {t0} {t1}");
            } else if layout.order == TimeOrder::Forward {
                assert!(a < b, "{layout:?} {t0} {t1}");
            } else {
                assert!(a > b, "{layout:?} {t0} {t1}");
            }
            assert_eq!(a.timestamp(layout).as_millis(), t0 / unit * unit);
        }
    }
}

#[test]
fn random_groups_never_exceed_the_u32_range() {
    let mut ids = vec![Kuuid::default(); 200_000];
    Generator::secure().fill(&mut ids);
    for id in &ids {
        for g in id.random_str().as_bytes().chunks(6) {
            assert!(g <= b"4gfFC3".as_slice(), "{id}");
        }
        // And the text is what the words encode.
        let again = Kuuid::from_parts(id.prefix(), &id.random_words()).unwrap();
        assert_eq!(&again, id);
    }
    let mut short = vec![ShortKuuid::default(); 1000];
    Generator::fast().fill_ids(&mut short);
    assert!(short.iter().all(|s| s.as_str().len() == 20));
}

#[test]
fn options_cover_every_npm_combination() {
    for random in 1..=4 {
        for reverse in [false, true] {
            for ms in [false, true] {
                let o = Options::new()
                    .at("2018-01-01T00:00:00.123Z")
                    .random(random)
                    .reverse(reverse)
                    .millisecond(ms);
                let id: AnyKuuid = o.id().unwrap();
                assert_eq!(id.len(), 8 + 6 * random);
                assert_eq!(id.prefix(), o.prefix().unwrap());
                let expect_ms = if ms {
                    1_514_764_800_123
                } else {
                    1_514_764_800_000
                };
                assert_eq!(id.timestamp(o.layout()), Timestamp::from_millis(expect_ms));
            }
        }
    }
}

#[test]
fn free_functions_are_unique_and_well_formed() {
    let mut seen = std::collections::HashSet::new();
    for _ in 0..10_000 {
        assert!(seen.insert(kuuid::id().to_string()));
        assert!(seen.insert(kuuid::rand().to_string()));
    }
    assert_eq!(kuuid::idms().as_str().len(), 32);
    assert_eq!(kuuid::idr().as_str().len(), 32);
    assert_eq!(kuuid::idmsr().as_str().len(), 32);
    assert_eq!(kuuid::ids().as_str().len(), 20);
    assert_eq!(kuuid::idsr().as_str().len(), 20);
    // Now-ids read back as now (within a minute).
    let now = Timestamp::now().as_secs();
    let t = kuuid::idr().timestamp(Layout::SECONDS_REVERSE).as_secs();
    assert!(now.abs_diff(t) < 60, "{now} {t}");
}
