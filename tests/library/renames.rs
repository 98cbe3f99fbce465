//! Renamed items: each old name still works for one release (deprecated)
//! and does what its new name does (CHANGELOG.md lists them).

#![allow(deprecated)]

use kuuid::{Generator, Layout, ObjectId, Timestamp};

/// The old names of the `_at` functions still work for one release, and
/// give what the new ones give.
#[test]
fn the_old_try_names_still_mint_at_a_time() {
    let t = "2024-05-06T07:08:09.123Z";
    assert_eq!(
        kuuid::try_id(t).unwrap().prefix(),
        kuuid::id_at(t).unwrap().prefix()
    );
    assert_eq!(
        kuuid::try_idms(t).unwrap().prefix(),
        kuuid::idms_at(t).unwrap().prefix()
    );
    assert_eq!(
        kuuid::try_idr(t).unwrap().prefix(),
        kuuid::idr_at(t).unwrap().prefix()
    );
    assert_eq!(
        kuuid::try_idmsr(t).unwrap().prefix(),
        kuuid::idmsr_at(t).unwrap().prefix()
    );
    assert_eq!(
        kuuid::try_ids(t).unwrap().prefix(),
        kuuid::ids_at(t).unwrap().prefix()
    );
    assert_eq!(
        kuuid::try_idsr(t).unwrap().prefix(),
        kuuid::idsr_at(t).unwrap().prefix()
    );
    assert_eq!(
        kuuid::try_v7(t).unwrap().timestamp(),
        kuuid::v7_at(t).unwrap().timestamp()
    );
    assert_eq!(
        kuuid::try_v7s(t).unwrap().to_string()[..12],
        kuuid::v7s_at(t).unwrap().to_string()[..12]
    );
    assert_eq!(
        kuuid::try_object_id(t).unwrap().timestamp(),
        kuuid::object_id_at(t).unwrap().timestamp()
    );
    assert_eq!(kuuid::try_prefix(t).unwrap(), kuuid::prefix_at(t).unwrap());
    assert_eq!(
        kuuid::try_prefixms(t).unwrap(),
        kuuid::prefixms_at(t).unwrap()
    );
    assert_eq!(
        kuuid::try_prefix_reverse(t).unwrap(),
        kuuid::prefix_reverse_at(t).unwrap()
    );
    assert_eq!(
        kuuid::try_prefix_reverse_ms(t).unwrap(),
        kuuid::prefix_reverse_ms_at(t).unwrap()
    );
    assert_eq!(
        kuuid::Options::new().timestamp(t).prefix().unwrap(),
        kuuid::Options::new().at(t).prefix().unwrap()
    );
}

#[test]
fn the_old_fill_name_fills_object_ids() {
    let mut ids = vec![ObjectId::default(); 300];
    kuuid::fill_object_ids(&mut ids);
    let set: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(set.len(), ids.len());
    assert!(!set.contains(&ObjectId::default()));
}

/// `with_layout` keeps a time set by `at` (it cleared it once, silently)
/// and encodes it under the new layout, in either order of the calls.
#[test]
fn a_new_layout_keeps_the_time_set_by_at() {
    let t = "2018-01-01T00:00:00.123Z";
    for layout in [
        Layout::SECONDS,
        Layout::MILLIS,
        Layout::SECONDS_REVERSE,
        Layout::MILLIS_REVERSE,
    ] {
        let want = layout.prefix(t).unwrap();
        let mut after = Generator::fast().at(t).unwrap().with_layout(layout);
        let mut before = Generator::fast().with_layout(layout).at(t).unwrap();
        assert_eq!(after.generate().prefix(), want, "{layout:?}");
        assert_eq!(before.generate().prefix(), want, "{layout:?}");
    }
}

/// A kept time that the new layout cannot hold is an error from
/// `try_with_layout` and a panic (documented) from `with_layout`.
#[test]
fn a_kept_time_past_the_new_layouts_range_is_an_error() {
    let far = Timestamp::from_secs(62u64.pow(8) / 1000 + 1).unwrap();
    let g = Generator::fast().at(far).unwrap();
    assert!(g.try_with_layout(Layout::MILLIS).is_err());
    let g = Generator::fast().at(far).unwrap();
    assert!(g.try_with_layout(Layout::SECONDS_REVERSE).is_ok());
    let g = Generator::fast().at(far).unwrap();
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        g.with_layout(Layout::MILLIS);
    }));
    assert!(panicked.is_err());
}

/// `CopiedCounters` (a unit struct) answers as a type and as a value.
#[test]
fn the_old_copied_counters_name_is_the_same_error() {
    use kuuid::sequence::{CopiedCounters, CopiedCountersError};
    let boxed: Box<dyn std::error::Error> = Box::new(CopiedCountersError);
    assert!(boxed.downcast_ref::<CopiedCounters>().is_some());
    assert_eq!(CopiedCounters, CopiedCountersError);
}

/// `sequence::Layout` and its errors under their old names are the
/// `Sharding` types; `ShardedCounter::layout` is `sharding`.
#[test]
fn the_old_counter_layout_names_are_the_sharding_ones() {
    use kuuid::sequence::{
        Layout, LayoutMismatch, LayoutParseError, MemoryCounters, ShardedCounter, Sharding,
        ShardingMismatchError, ShardingParseError,
    };
    let old: Layout = "sharded 2x10".parse().unwrap();
    let new: Sharding = "sharded 2x10".parse().unwrap();
    assert_eq!(old, new);
    let e: LayoutParseError = "nope".parse::<Layout>().unwrap_err();
    assert_eq!(
        e,
        ShardingParseError {
            found: "nope".into()
        }
    );
    let m: LayoutMismatch = ShardingMismatchError {
        name: "n".into(),
        stored: "single".into(),
        requested: Sharding::Single,
    };
    assert!(m.to_string().contains("single"));
    let c = ShardedCounter::new(MemoryCounters::new(), "n", 2, 10).unwrap();
    assert_eq!(c.layout(), c.sharding());
    assert_eq!(
        c.sharding(),
        Sharding::Sharded {
            shards: 2,
            range: 10
        }
    );
}

/// `couch::Uuids::mint`, `mint_into` and `mint_into_bytes` are
/// `generate`, `generate_into` and `generate_into_bytes`: the same text
/// from two configurations fixed at one time (a `utc_id`, whose text is
/// all time and suffix), in turn through the old and the new names.
#[test]
fn the_old_couch_mint_names_are_generate() {
    use kuuid::couch::{Algorithm, Uuids};
    let fixed = || {
        Uuids::new(Algorithm::UtcId)
            .at(1_577_836_800_123)
            .unwrap()
            .utc_id_suffix("n1")
    };
    let (old, new) = (fixed(), fixed());
    for _ in 0..3 {
        assert_eq!(old.mint().unwrap(), new.generate().unwrap());
        let (mut a, mut b) = (String::new(), String::new());
        old.mint_into(&mut a).unwrap();
        new.generate_into(&mut b).unwrap();
        assert_eq!(a, b);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        old.mint_into_bytes(&mut a).unwrap();
        new.generate_into_bytes(&mut b).unwrap();
        assert_eq!(a, b);
    }
}

/// `kuuid::Order` is `kuuid::TimeOrder` (beside the `order` module of
/// order keys, the old name read as theirs): the same type, variants and
/// all.
#[test]
fn the_old_order_name_is_time_order() {
    let old: kuuid::Order = kuuid::Order::Reverse;
    let new: kuuid::TimeOrder = old;
    assert_eq!(new, kuuid::TimeOrder::Reverse);
    assert_eq!(Layout::SECONDS_REVERSE.order, kuuid::Order::Reverse);
    assert_eq!(kuuid::Order::default(), kuuid::TimeOrder::Forward);
}
