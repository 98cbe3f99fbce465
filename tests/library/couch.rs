//! CouchDB's `/_uuids` algorithms (`couch_uuids.erl`): lengths, alphabets,
//! field decoding, ordering, and the sequential counter's rules, checked on
//! minted ids.

use std::collections::HashSet;

use kuuid::couch::{Algorithm, Decoded, Format, ParseError, Uuids};

fn is_lower_hex(s: &str) -> bool {
    s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
}

fn is_base36(s: &str) -> bool {
    s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'z'))
}

fn micros_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_micros() as u64
}

#[test]
fn random_is_32_hex_and_never_repeats() {
    let ids = Uuids::new(Algorithm::Random).uuids(20_000).unwrap();
    let set: HashSet<&String> = ids.iter().collect();
    assert_eq!(set.len(), ids.len());
    for id in &ids {
        assert_eq!(id.len(), 32);
        assert!(is_lower_hex(id), "{id}");
    }
    // Every bit is random: each of the 32 positions takes all 16 digits.
    for pos in 0..32 {
        let digits: HashSet<u8> = ids.iter().map(|id| id.as_bytes()[pos]).collect();
        assert_eq!(digits.len(), 16, "position {pos}");
    }
}

/// `handle_call(create, _, {sequential, Pref, Seq})`: the counter starts at
/// 1..=4093 and steps by 1..=4093 under one prefix; once it is at or past
/// 0xfff000 after an id, a new prefix and a new start.
#[test]
fn sequential_follows_couchdbs_rules() {
    let ids = Uuids::new(Algorithm::Sequential);
    let minted = ids.uuids(200_000).unwrap();
    let fields: Vec<([u8; 13], u32)> = minted
        .iter()
        .map(|id| {
            assert_eq!(id.len(), 32);
            assert!(is_lower_hex(id), "{id}");
            match ids.decode(id).unwrap() {
                Decoded::Sequential { prefix, counter } => (prefix, counter),
                other => panic!("{other:?}"),
            }
        })
        .collect();
    let mut prefixes = 1;
    let mut steps = HashSet::new();
    for (w, ids) in fields.windows(2).zip(minted.windows(2)) {
        let ((p0, c0), (p1, c1)) = (w[0], w[1]);
        if c0 >= 0xfff000 {
            assert_ne!(p0, p1, "a new prefix after {}", ids[0]);
            assert!((1..=4093).contains(&c1), "new start {}", ids[1]);
            prefixes += 1;
        } else {
            assert_eq!(p0, p1, "{} then {}", ids[0], ids[1]);
            assert!(ids[0] < ids[1]);
            let step = c1 - c0;
            assert!((1..=4093).contains(&step), "step {step}");
            steps.insert(step);
        }
    }
    // ~8,190 ids a prefix on average: 200,000 ids see many prefixes, and the
    // steps spread over their range.
    assert!(prefixes > 10, "{prefixes} prefixes");
    assert!(steps.len() > 3000, "{} distinct steps", steps.len());
    assert!(steps.contains(&1) || steps.contains(&2));
}

/// The `utc_*` algorithms share one process-wide word, so their checks run
/// in one test, one after another (ids minted faster than one a
/// microsecond run ahead of the clock by design: a parallel test would
/// move this one's clock bound).
#[test]
fn utc_sequence() {
    utc_random_is_strictly_increasing_and_on_the_clock();
    utc_id_ends_with_its_suffix();
    two_threads_share_one_utc_sequence();
}

fn utc_random_is_strictly_increasing_and_on_the_clock() {
    let ids = Uuids::new(Algorithm::UtcRandom);
    let before = micros_now();
    let minted = ids.uuids(100_000).unwrap();
    let after = micros_now();
    let mut last = 0;
    for id in &minted {
        assert_eq!(id.len(), 32);
        assert!(is_lower_hex(id), "{id}");
        let Decoded::Utc { micros, suffix } = ids.decode(id).unwrap() else {
            panic!()
        };
        assert_eq!(suffix.len(), 18);
        assert!(micros > last, "{id}");
        last = micros;
    }
    let first = u64::from_str_radix(&minted[0][..14], 16).unwrap();
    assert!(first + 1000 >= before, "{first} vs {before}");
    // Counting on by one past a lagging clock cannot run ahead by more
    // than the number of ids.
    assert!(last <= after + minted.len() as u64, "{last} vs {after}");
}

/// CouchDB's `utc_id uuids are correct` (test/elixir/test/uuids_test.exs).
fn utc_id_ends_with_its_suffix() {
    let ids = Uuids::new(Algorithm::UtcId).utc_id_suffix("frog");
    let minted = ids.uuids(1000).unwrap();
    for w in minted.windows(2) {
        assert!(w[0] < w[1]);
    }
    for id in &minted {
        assert_eq!(id.len(), 14 + 4);
        assert_eq!(&id[14..], "frog");
        assert!(is_lower_hex(&id[..14]));
        let Decoded::Utc { micros, suffix } = ids.decode(id).unwrap() else {
            panic!()
        };
        assert_eq!(suffix, "frog");
        assert_eq!(format!("{micros:014x}"), id[..14]);
    }
}

#[test]
fn uuids_in_every_format() {
    for algorithm in [Algorithm::UuidV4, Algorithm::UuidV7] {
        let version = if algorithm == Algorithm::UuidV4 { 4 } else { 7 };
        for format in Format::ALL {
            let ids = Uuids::new(algorithm).format(format);
            let before = std::time::SystemTime::now();
            let minted = ids.uuids(5_000).unwrap();
            let set: HashSet<&String> = minted.iter().collect();
            assert_eq!(set.len(), minted.len());
            for id in &minted {
                assert_eq!(id.len(), format.len(), "{id}");
                let Decoded::Uuid { value } = ids.decode(id).unwrap() else {
                    panic!()
                };
                // Read back by the uuid crate, from the value.
                let u = uuid::Uuid::from_u128(value);
                assert_eq!(u.get_version_num(), version);
                assert_eq!(u.get_variant(), uuid::Variant::RFC4122);
                match format {
                    Format::Base16 => {
                        assert!(is_lower_hex(id));
                        assert_eq!(*id, u.simple().to_string());
                    }
                    Format::Rfc9562 => assert_eq!(*id, u.hyphenated().to_string()),
                    Format::Base36 => assert!(is_base36(id), "{id}"),
                }
                if algorithm == Algorithm::UuidV7 {
                    let t = ids.decode(id).unwrap().timestamp().unwrap();
                    let (secs, _) = u.get_timestamp().unwrap().to_unix();
                    assert_eq!(t.as_secs(), secs);
                    let since = t
                        .to_system_time()
                        .unwrap()
                        .duration_since(before - std::time::Duration::from_millis(1));
                    assert!(since.is_ok(), "{id} before the clock");
                }
            }
        }
    }
}

/// `base_36` is the value in base 36, left-padded to 25: checked against an
/// independent conversion (u128's digits by repeated division) on minted
/// values and at the edges.
#[test]
fn base_36_is_the_value_padded_to_25() {
    let reference = |mut v: u128| {
        let mut digits = Vec::new();
        while v > 0 {
            digits.push(std::char::from_digit((v % 36) as u32, 36).unwrap());
            v /= 36;
        }
        let s: String = digits.into_iter().rev().collect();
        format!("{s:0>25}")
    };
    let mut values = vec![0, 1, 35, 36, u128::MAX];
    let v4 = Uuids::new(Algorithm::UuidV4).format(Format::Base16);
    for _ in 0..1000 {
        values.push(u128::from_str_radix(&v4.generate().unwrap(), 16).unwrap());
    }
    for v in values {
        let mut s = String::new();
        Format::Base36.encode_into(v, &mut s);
        assert_eq!(s, reference(v));
    }
    let mut max = String::new();
    Format::Base36.encode_into(u128::MAX, &mut max);
    assert_eq!(max, "f5lxx1zz5pnorynqglhzmsp33");
}

#[test]
fn minting_at_a_time() {
    let t = 1_577_836_800_123u64; // 2020-01-01T00:00:00.123Z
    let utc = Uuids::new(Algorithm::UtcRandom).at(t).unwrap();
    let minted = utc.uuids(3).unwrap();
    for (i, id) in minted.iter().enumerate() {
        let Decoded::Utc { micros, .. } = utc.decode(id).unwrap() else {
            panic!()
        };
        assert_eq!(micros, t * 1000 + i as u64);
    }
    let epoch = Uuids::new(Algorithm::UtcId).at(0u64).unwrap();
    assert_eq!(
        epoch.uuids(2).unwrap(),
        ["00000000000000", "00000000000001"]
    );
    let v7 = Uuids::new(Algorithm::UuidV7).at(t).unwrap();
    let id = v7.generate().unwrap();
    assert_eq!(v7.decode(&id).unwrap().timestamp().unwrap().as_millis(), t);
    assert_eq!(
        Uuids::new(Algorithm::Sequential).at(t).unwrap_err(),
        kuuid::couch::Error::NoTime {
            algorithm: Algorithm::Sequential
        }
    );
    // 14 hex digits of microseconds end in 4253; 9999 is past them.
    let e = Uuids::new(Algorithm::UtcId)
        .at("9999-12-31T23:59:59.999Z")
        .unwrap_err();
    assert!(
        matches!(
            e,
            kuuid::couch::Error::Time(kuuid::TimeError::OutOfRange {
                field: kuuid::TimeField::CouchUtc,
                ..
            })
        ),
        "{e}"
    );
    // The last microsecond that fits, then the next id is past it.
    let last = Uuids::new(Algorithm::UtcId)
        .at(((1u64 << 56) - 1) / 1000)
        .unwrap();
    let n = ((1u64 << 56) - 1) % 1000 + 1;
    for _ in 0..n {
        assert_eq!(last.generate().unwrap().len(), 14);
    }
    assert!(matches!(
        last.generate(),
        Err(kuuid::couch::Error::Time(kuuid::TimeError::OutOfRange {
            field: kuuid::TimeField::CouchUtc,
            ..
        }))
    ));
}

/// `generate_into_bytes` writes what `generate_into` writes: the same text from
/// two configurations fixed at one time, and for every algorithm and
/// format, ids minted alternately through both that decode and continue
/// one sequence.
#[test]
fn bytes_and_strings_carry_the_same_text() {
    let t = 1_577_836_800_123u64;
    let fixed = || {
        [
            Uuids::new(Algorithm::UtcId)
                .at(t)
                .unwrap()
                .utc_id_suffix("n1"),
            Uuids::new(Algorithm::UtcRandom).at(t).unwrap(),
        ]
    };
    for (a, b) in fixed().iter().zip(fixed()) {
        for _ in 0..3 {
            let mut bytes = Vec::new();
            b.generate_into_bytes(&mut bytes).unwrap();
            let text = a.generate().unwrap();
            if a.algorithm() == Algorithm::UtcId {
                assert_eq!(bytes, text.as_bytes());
            } else {
                // The random part differs; the time part does not.
                assert_eq!(bytes[..14], text.as_bytes()[..14]);
            }
        }
    }
    for algorithm in Algorithm::ALL {
        for format in Format::ALL {
            let ids = Uuids::new(algorithm).format(format).utc_id_suffix("n1");
            let mut minted = Vec::new();
            for i in 0..2_000 {
                if i % 2 == 0 {
                    minted.push(ids.generate().unwrap());
                } else {
                    let mut bytes = b"keep".to_vec();
                    ids.generate_into_bytes(&mut bytes).unwrap();
                    let text = bytes.strip_prefix(b"keep").expect("appended");
                    minted.push(String::from_utf8(text.to_vec()).unwrap());
                }
            }
            for id in &minted {
                ids.decode(id)
                    .unwrap_or_else(|e| panic!("{algorithm:?} {format:?} {id}: {e}"));
            }
            let set: HashSet<&String> = minted.iter().collect();
            assert_eq!(set.len(), minted.len(), "{algorithm:?} {format:?}");
            if matches!(algorithm, Algorithm::UtcRandom | Algorithm::UtcId) {
                assert!(minted.windows(2).all(|w| w[0] < w[1]), "{algorithm:?}");
            }
        }
    }
}

#[test]
fn bad_text_gets_a_typed_error() {
    use kuuid::couch::decode;
    let hex32 = "0123456789abcdef0123456789abcdef";
    assert_eq!(
        decode(&hex32[..31], Algorithm::Random, Format::Base16),
        Err(ParseError::Length {
            expected: &[32],
            found: 31
        })
    );
    assert_eq!(
        decode(
            &hex32.replace('5', "g"),
            Algorithm::Sequential,
            Format::Base16
        ),
        Err(ParseError::InvalidByte {
            index: 5,
            byte: b'g'
        })
    );
    assert_eq!(
        decode(
            &hex32.replace('f', "x"),
            Algorithm::UtcRandom,
            Format::Base16
        ),
        Err(ParseError::InvalidByte {
            index: 15,
            byte: b'x'
        })
    );
    assert_eq!(
        decode("0123", Algorithm::UtcId, Format::Base16),
        Err(ParseError::TooShort { min: 14, found: 4 })
    );
    assert_eq!(
        decode(hex32, Algorithm::UuidV4, Format::Base16),
        Err(ParseError::Version {
            found: 0xc,
            expected: 4
        })
    );
    assert_eq!(
        decode(
            "01234567-89ab-7def-0123-456789abcdef",
            Algorithm::UuidV7,
            Format::Rfc9562
        ),
        Err(ParseError::Variant { found: 0 })
    );
    assert_eq!(
        decode(
            "f5lxx1zz5pnorynqglhzmsp34",
            Algorithm::UuidV7,
            Format::Base36
        ),
        Err(ParseError::Overflow)
    );
    assert!("uuid_v1".parse::<Algorithm>().is_err());
    assert!("base_64".parse::<Format>().is_err());
    for a in Algorithm::ALL {
        assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
    }
}

/// Two threads share the process's `utc_random` sequence: together their
/// ids never repeat and each thread's are increasing.
fn two_threads_share_one_utc_sequence() {
    let ids = Uuids::new(Algorithm::UtcId).utc_id_suffix("x");
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| ids.uuids(100_000).unwrap());
        let b = s.spawn(|| ids.uuids(100_000).unwrap());
        (a.join().unwrap(), b.join().unwrap())
    });
    for side in [&a, &b] {
        assert!(side.windows(2).all(|w| w[0] < w[1]));
    }
    let set: HashSet<&String> = a.iter().chain(&b).collect();
    assert_eq!(set.len(), 200_000);
}
