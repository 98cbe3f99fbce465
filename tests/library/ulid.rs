//! ULIDs against the `ulid` crate (3.0), compiled in: the same text for
//! every value, the same reading of every text both accept, and the one
//! place they part (a first character above `7`, which the spec refuses
//! and the crate reads with its top bits dropped). npm `ulid` is in
//! `servers/node_ulid.rs`.

use kuuid::{Ulid, UlidParseError};

/// 128-bit values: the edges of every 5-bit digit and a spread.
fn values() -> Vec<u128> {
    let mut v = vec![0u128, 1, u128::MAX, u128::MAX - 1, 1 << 127];
    v.extend((0..128).map(|b| 1u128 << b));
    v.extend((0..128).map(|b| (1u128 << b) - 1));
    let mut x = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    v.extend((0..2000).map(|_| u128::from(next()) << 64 | u128::from(next())));
    v
}

#[test]
fn the_same_text_for_every_value() {
    let values = values();
    for &v in &values {
        let ours = Ulid::from_u128(v);
        let theirs = ulid::Ulid(v);
        assert_eq!(ours.to_string(), theirs.to_string(), "{v:#x}");
        assert_eq!(ours.timestamp().as_millis(), theirs.timestamp_ms());
        assert_eq!(ours.random(), theirs.random());
        assert_eq!(ours.as_bytes(), &theirs.to_bytes());
    }
    eprintln!("ulid crate: {} values, the same text", values.len());
}

/// Every text both read gives one value, in either case; every byte at
/// every position of a few ids is read alike by both, except a first
/// character above `7`.
#[test]
fn both_read_every_text_alike_but_an_overflow() {
    let (mut agreed, mut overflows) = (0, 0);
    for &v in values().iter().take(40) {
        let text = Ulid::from_u128(v).to_string().into_bytes();
        for i in 0..26 {
            for b in 0..=255u8 {
                let mut t = text.clone();
                t[i] = b;
                let ours = Ulid::parse_bytes(&t);
                let Ok(s) = std::str::from_utf8(&t) else {
                    assert!(ours.is_err(), "{t:?}");
                    continue;
                };
                let theirs = ulid::Ulid::from_string(s);
                match (ours, theirs) {
                    (Ok(a), Ok(b)) => assert_eq!(a.to_u128(), b.0, "{s}"),
                    (Err(UlidParseError::Overflow { first }), Ok(b)) => {
                        // The crate drops the bits above 128: another id.
                        assert!(first > b'7' && i == 0, "{s}");
                        assert_ne!(b.to_string().as_bytes()[0], first, "{s}");
                        overflows += 1;
                    }
                    (Err(_), Err(_)) => {}
                    (a, b) => panic!("{s}: ours {a:?}, the crate's {b:?}"),
                }
                agreed += 1;
            }
        }
    }
    eprintln!("ulid crate: {agreed} texts read alike, {overflows} overflows the crate wraps");
    assert!(overflows > 0);
}

#[test]
fn minted_ids_read_back_in_the_crate() {
    let mut ids = vec![Ulid::MIN; 1000];
    kuuid::fill_ulid(&mut ids);
    ids.push(kuuid::ulid());
    ids.push(kuuid::ulid_at("2016-07-30T23:54:10.259Z").unwrap());
    for id in ids {
        let theirs: ulid::Ulid = id.to_string().parse().unwrap();
        assert_eq!(theirs.0, id.to_u128());
        assert_eq!(theirs.timestamp_ms(), id.timestamp().as_millis());
        let back: Ulid = theirs.to_string().parse().unwrap();
        assert_eq!(back, id);
    }
}

#[test]
fn errors_say_what_and_where() {
    let e = "01ARZ3NDEKTSV4RRFFQ69G5FAU".parse::<Ulid>().unwrap_err();
    assert_eq!(
        e,
        UlidParseError::InvalidByte {
            index: 25,
            byte: b'U'
        }
    );
    assert!(e.to_string().contains("index 25"), "{e}");
    let e = "Z1ARZ3NDEKTSV4RRFFQ69G5FAV".parse::<Ulid>().unwrap_err();
    assert!(e.to_string().contains("above '7'"), "{e}");
    let e = "".parse::<Ulid>().unwrap_err();
    assert_eq!(
        e,
        UlidParseError::Length {
            expected: &[26],
            found: 0
        }
    );
    // A UUIDv7's bytes are a ULID; a ULID's are a UUIDv7 only when shaped so.
    let v7 = kuuid::v7();
    assert_eq!(kuuid::Uuid7::try_from(Ulid::from(v7)), Ok(v7));
}

/// A batch reads as one `parse` after another (on the process's path,
/// which `KUUID_ISA` forces): the same values, and the first bad text's
/// own error at its index, a short last text a length error.
#[test]
fn parse_many_is_parse_one_after_another() {
    let ids: Vec<Ulid> = values().into_iter().map(Ulid::from_u128).collect();
    let mut text = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let t = id.to_string();
        text.extend_from_slice(if i % 3 == 0 { t.to_lowercase() } else { t }.as_bytes());
        text.extend_from_slice(b"\r\n");
    }
    let mut back = vec![Ulid::MIN; ids.len()];
    Ulid::parse_many(&text, 28, &mut back).unwrap();
    assert_eq!(back, ids);
    // The last line without its line end is still whole; one byte less is not.
    let mut back = vec![Ulid::MIN; ids.len()];
    Ulid::parse_many(&text[..text.len() - 2], 28, &mut back).unwrap();
    let short = Ulid::parse_many(&text[..text.len() - 3], 28, &mut back).unwrap_err();
    assert_eq!(short.index, ids.len() - 1);
    assert_eq!(
        short.error,
        UlidParseError::Length {
            expected: &[26],
            found: 25
        }
    );
    // Each kind of fault, at every index of a short batch.
    for at in 0..5 {
        for (pos, byte) in [(0, b'8'), (25, b'U'), (12, b'-'), (3, 0xc3)] {
            let mut t = text[..5 * 28].to_vec();
            t[at * 28 + pos] = byte;
            let mut out = [Ulid::MIN; 5];
            let e = Ulid::parse_many(&t, 28, &mut out).unwrap_err();
            let one = Ulid::parse_bytes(&t[at * 28..at * 28 + 26]).unwrap_err();
            assert_eq!((e.index, e.error), (at, one));
            assert_eq!(out[..at], ids[..at]);
            assert!(
                e.to_string()
                    .starts_with(&format!("id {at} of the batch: "))
            );
        }
    }
    // A stride shorter than a ULID, even for no ids; no ids from no text.
    let e = Ulid::parse_many(&text, 25, &mut []).unwrap_err();
    assert_eq!(e.index, 0);
    assert_eq!(Ulid::parse_many(b"", 26, &mut []), Ok(()));
    let e = Ulid::parse_many(b"", 26, &mut [Ulid::MIN]).unwrap_err();
    assert_eq!(
        e.error,
        UlidParseError::Length {
            expected: &[26],
            found: 0
        }
    );
}
