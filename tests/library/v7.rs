//! UUIDv7: RFC 9562's own example, npm 3.x's text layout, strict order across
//! threads, drift in a burst, and parsing.

use std::collections::HashSet;

use kuuid::{Uuid7, UuidParseError};

/// RFC 9562 Appendix A.6: `017F22E2-79B0-7CC3-98C4-DC0C0C07398F`, minted at
/// 2022-02-22 14:22:22.00 -05:00: field by field.
#[test]
fn rfc9562_example_field_by_field() {
    let id: Uuid7 = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F".parse().unwrap();
    assert_eq!(id.timestamp(), "2022-02-22T14:22:22-05:00".parse().unwrap());
    assert_eq!(id.timestamp().as_millis(), 0x017F_22E2_79B0);
    let v = id.to_u128();
    assert_eq!(v >> 76 & 0xf, 7, "ver");
    assert_eq!(v >> 64 & 0xfff, 0xCC3, "rand_a");
    assert_eq!(v >> 62 & 0b11, 0b10, "var");
    assert_eq!(v & ((1 << 62) - 1), 0x18C4_DC0C_0C07_398F, "rand_b");
    // Ours writes lowercase; both texts parse back to the same value.
    assert_eq!(id.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    assert_eq!(id.simple().to_string().parse::<Uuid7>(), Ok(id));
}

/// Every id minted here has version 7 and variant 10, and npm's `v7s` layout
/// (12 hex of ms, `7` at 12, the variant nibble at 16 in 8..b).
#[test]
fn every_id_has_the_version_variant_and_npm_layout() {
    let mut ids = vec![Uuid7::MIN; 10_000];
    kuuid::fill_v7(&mut ids);
    ids.extend((0..10_000).map(|_| kuuid::v7()));
    ids.extend((0..1_000).map(|i| kuuid::v7_at(i * 1_000_003u64).unwrap()));
    for id in &ids {
        let s = id.simple().to_string();
        assert_eq!(s.len(), 32);
        assert!(
            s.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
            "{s}"
        );
        assert_eq!(&s[12..13], "7", "{s}");
        assert!(matches!(&s[16..17], "8" | "9" | "a" | "b"), "{s}");
        assert_eq!(
            u64::from_str_radix(&s[..12], 16).unwrap(),
            id.timestamp().as_millis()
        );
        let h = id.to_string();
        assert_eq!(h.replace('-', ""), s);
        assert_eq!([8, 13, 18, 23].map(|i| &h[i..=i]), ["-"; 4]);
    }
}

/// Two threads mint 10^6 ids each: strictly increasing in mint order per
/// thread, no duplicates across them, and the union is one total order.
#[test]
fn two_threads_one_sequence() {
    const N: usize = 1_000_000;
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| (0..N).map(|_| kuuid::v7()).collect::<Vec<_>>());
        let b = s.spawn(|| {
            let mut ids = vec![Uuid7::MIN; N];
            for chunk in ids.chunks_mut(1000) {
                kuuid::fill_v7(chunk);
            }
            ids
        });
        (a.join().unwrap(), b.join().unwrap())
    });
    for ids in [&a, &b] {
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }
    let all: HashSet<Uuid7> = a.iter().chain(&b).copied().collect();
    assert_eq!(all.len(), 2 * N);
}

/// 10^7 ids in a burst keep to the clock: none is later than the clock
/// after the burst (the counter never spills into the next millisecond).
#[test]
fn a_burst_stays_on_the_clock() {
    let before = kuuid::Timestamp::now().as_millis();
    let mut ids = vec![Uuid7::MIN; 10_000_000];
    kuuid::fill_v7(&mut ids);
    let after = kuuid::Timestamp::now().as_millis();
    let (first, last) = (
        ids[0].timestamp().as_millis(),
        ids[ids.len() - 1].timestamp().as_millis(),
    );
    // The coarse clock may lag the precise one by a tick (up to 4 ms).
    assert!(first + 10 >= before, "{first} vs {before}");
    assert!(last <= after, "{last} is past the clock {after}");
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn parse_errors_say_what_and_where() {
    let good = kuuid::v7().to_string();
    assert_eq!(
        good[..35].parse::<Uuid7>(),
        Err(UuidParseError::Length {
            expected: &[36, 32, 38, 45],
            found: 35
        })
    );
    // `good` with one byte replaced, parsed.
    let with = |index: usize, byte: u8| {
        let mut t = good.clone().into_bytes();
        t[index] = byte;
        String::from_utf8(t).unwrap().parse::<Uuid7>()
    };
    assert_eq!(
        with(8, b'x'),
        Err(UuidParseError::InvalidByte {
            index: 8,
            byte: b'x'
        })
    );
    assert_eq!(
        with(30, b'g'),
        Err(UuidParseError::InvalidByte {
            index: 30,
            byte: b'g'
        })
    );
    assert_eq!(with(19, b'c'), Err(UuidParseError::Variant { found: 0xc }));
    assert_eq!(with(14, b'4'), Err(UuidParseError::Version { found: 4 }));
    assert_eq!(
        "00000000000040008000000000000000".parse::<Uuid7>(),
        Err(UuidParseError::Version { found: 4 })
    );
    assert_eq!(
        good.to_uppercase().parse::<Uuid7>().unwrap().to_string(),
        good
    );
    let past = kuuid::v7_at(1u64 << 48).unwrap_err();
    assert_eq!(
        past,
        kuuid::TimeError::OutOfRange {
            field: kuuid::TimeField::Uuid7,
            millis: 1 << 48
        }
    );
    assert!(past.to_string().contains("48-bit timestamp"), "{past}");
    assert!(!past.to_string().contains("prefix"), "{past}");
    assert_eq!(
        "a".parse::<Uuid7>().unwrap_err().to_string(),
        "length is 1 byte, expected 36, 32, 38 or 45"
    );
    assert!(kuuid::v7_at((1u64 << 48) - 1).is_ok());
}

/// `V7Generator`: each generator strictly increasing, all ids unique across
/// two threads minting at once, and every id within the clock's reach.
#[test]
fn generators_on_two_threads_are_unique_and_each_ordered() {
    const N: usize = 1_000_000;
    let before = kuuid::Timestamp::now().as_millis();
    let sides: Vec<Vec<kuuid::Uuid7>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut g = kuuid::V7Generator::new();
                    (0..N).map(|_| g.generate()).collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let after = kuuid::Timestamp::now().as_millis();
    for side in &sides {
        assert!(side.windows(2).all(|w| w[0] < w[1]));
        for id in [side[0], side[N - 1]] {
            let t = id.timestamp().as_millis();
            // The coarse clock lags the precise one by up to a tick.
            assert!(
                t + 10 >= before && t <= after,
                "{t} not in {before}..={after}"
            );
        }
    }
    let mut all: Vec<kuuid::Uuid7> = sides.concat();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 2 * N);
}

/// The value types mint themselves as the free functions do (issue 44):
/// `at(t)` gives the time `try_*` gives, `now()` takes its place in the
/// same order and claims as the free function.
#[test]
fn value_types_mint_like_the_free_functions() {
    use kuuid::{Kuuid, ObjectId, ShortKuuid, Uuid7};
    let t = "2024-05-06T07:08:09.123Z";
    assert_eq!(
        Uuid7::at(t).unwrap().timestamp(),
        kuuid::v7_at(t).unwrap().timestamp()
    );
    assert_eq!(
        ObjectId::at(t).unwrap().timestamp(),
        kuuid::object_id_at(t).unwrap().timestamp()
    );
    assert_eq!(
        Kuuid::at(t).unwrap().prefix(),
        kuuid::id_at(t).unwrap().prefix()
    );
    assert_eq!(
        ShortKuuid::at(t).unwrap().prefix(),
        kuuid::ids_at(t).unwrap().prefix()
    );
    // Out of range fails alike.
    assert_eq!(
        Uuid7::at(u64::MAX).is_err(),
        kuuid::v7_at(u64::MAX).is_err()
    );
    assert!(ObjectId::at("2106-02-07T06:28:16Z").is_err());
    assert!(Kuuid::at("1969-12-31T23:59:59Z").is_err());
    // now(): one sequence with v7(), distinct ObjectIds, distinct kuuids.
    let (a, b, c) = (kuuid::v7(), Uuid7::now(), kuuid::v7());
    assert!(a < b && b < c);
    assert_ne!(ObjectId::now(), ObjectId::now());
    assert_ne!(Kuuid::now(), Kuuid::now());
    assert_eq!(ShortKuuid::now().as_str().len(), 20);
}

/// `encode_*` returns the text as `&mut str`, as uuid's encoders do: a
/// caller can change it in place (here to uppercase) without a copy.
#[test]
fn encoded_text_can_be_changed_in_place() {
    let id = kuuid::v7();
    let mut buf = [0u8; 36];
    let text = id.encode_hyphenated(&mut buf);
    text.make_ascii_uppercase();
    assert_eq!(&buf[..], id.to_string().to_uppercase().as_bytes());
    let oid = kuuid::object_id();
    let mut buf = [0u8; 24];
    oid.encode_hex(&mut buf).make_ascii_uppercase();
    assert_eq!(&buf[..], oid.to_string().to_uppercase().as_bytes());
}

/// The braced and URN texts (issue 63, item 12), against the uuid crate's
/// own parser and formatter: every text uuid writes for an id, kuuid reads
/// as that id; each byte changed in turn, both refuse or both read the same
/// id (the version check aside, which uuid does not make).
#[test]
fn braced_and_urn_texts_read_as_uuid_reads_them() {
    for _ in 0..200 {
        let id = kuuid::v7();
        let theirs = uuid::Uuid::from_bytes(*id.as_bytes());
        let texts = [
            theirs.hyphenated().to_string(),
            theirs.simple().to_string(),
            theirs.braced().to_string(),
            theirs.urn().to_string(),
            format!("{theirs:X}"),
            theirs.braced().to_string().to_uppercase(),
            theirs.urn().to_string().to_uppercase(),
        ];
        for text in &texts {
            assert_eq!(text.parse::<Uuid7>(), Ok(id), "{text}");
        }
        assert_eq!(id.braced().to_string(), texts[2]);
        assert_eq!(id.urn().to_string(), texts[3]);
        assert_eq!(format!("{id:X}"), texts[4]);
        assert_eq!(format!("{id:x}"), texts[0]);
        for text in &texts[2..4] {
            for i in 0..text.len() {
                for byte in [b'-', b'{', b'}', b'g', b'0', b'U', b':'] {
                    let mut t = text.clone().into_bytes();
                    t[i] = byte;
                    let t = String::from_utf8(t).unwrap();
                    let ours = t.parse::<Uuid7>().ok().map(|u| u.to_u128());
                    let uuids = uuid::Uuid::parse_str(&t).ok().map(|u| u.as_u128());
                    match (ours, uuids) {
                        (Some(a), Some(b)) => assert_eq!(a, b, "{t}"),
                        (None, None) => {}
                        // uuid reads any version; kuuid only 7.
                        (None, Some(b)) => assert!(Uuid7::from_u128(b).is_err(), "{t}"),
                        (Some(_), None) => panic!("kuuid read {t:?}, uuid refused it"),
                    }
                }
            }
        }
    }
    // Where the fault is: the closing brace, the URN's prefix.
    let braced = kuuid::Uuid7::MIN.braced().to_string();
    let bad = format!("{}]", &braced[..37]);
    assert_eq!(
        bad.parse::<Uuid7>(),
        Err(UuidParseError::InvalidByte {
            index: 37,
            byte: b']'
        })
    );
    let urn = kuuid::Uuid7::MIN
        .urn()
        .to_string()
        .replace("uuid:", "uuix:");
    assert_eq!(
        urn.parse::<Uuid7>(),
        Err(UuidParseError::InvalidByte {
            index: 7,
            byte: b'x'
        })
    );
}
