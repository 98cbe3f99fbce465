//! Every kind of bad input gets its typed error, never a panic or a wrong id.

use kuuid::{
    AnyKuuid, Error, KeyRange, Kuuid, Kuuid1, Kuuid3, Layout, Options, ParseError, ShortKuuid,
    TimeError,
};
use proptest::prelude::*;

#[test]
fn wrong_lengths() {
    for n in [0usize, 1, 8, 13, 15, 19, 21, 31, 33, 64, 1000] {
        let s = "0".repeat(n);
        assert_eq!(
            s.parse::<Kuuid>(),
            Err(ParseError::Length {
                expected: &[32],
                found: n
            })
        );
        assert_eq!(
            s.parse::<ShortKuuid>(),
            Err(ParseError::Length {
                expected: &[20],
                found: n
            })
        );
        let any = s.parse::<AnyKuuid>();
        assert!(
            matches!(any, Err(ParseError::Length { found, .. }) if found == n),
            "{n}"
        );
    }
    assert_eq!(
        "0".repeat(20).parse::<Kuuid>().unwrap_err().to_string(),
        "length is 20 bytes, expected 32"
    );
    assert_eq!(
        "0".repeat(5).parse::<AnyKuuid>().unwrap_err().to_string(),
        "length is 5 bytes, expected 14, 20, 26 or 32"
    );
}

#[test]
fn every_invalid_byte_at_every_index_is_named() {
    let base = *b"001eVnWK4gfFC3000000000001000010";
    assert!(Kuuid::parse_bytes(&base).is_ok());
    for byte in 0u8..=255 {
        if byte.is_ascii_alphanumeric() {
            continue;
        }
        for index in 0..32 {
            let mut text = base;
            text[index] = byte;
            assert_eq!(
                Kuuid::parse_bytes(&text),
                Err(ParseError::InvalidByte { index, byte }),
                "byte {byte:#x} at {index}"
            );
            assert_eq!(
                AnyKuuid::parse_bytes(&text),
                Err(ParseError::InvalidByte { index, byte })
            );
        }
    }
    let err = Kuuid::parse_bytes(b"001eVnWK4gfFC30000000000010000\xc3\xa9").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid byte 0xc3 at index 30 (expected 0-9, A-Z or a-z)"
    );
    let err = "001eVnWK-gfFC3000000000001000010"
        .parse::<Kuuid>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid byte '-' at index 8 (expected 0-9, A-Z or a-z)"
    );
}

/// A bad byte reads the same in every format's error: what byte (quoted
/// when it prints, in hex when not), where, and what the format expected.
#[test]
fn a_bad_byte_is_worded_alike_in_every_format() {
    use kuuid::couch::{Algorithm, Format};
    let dash = [
        format!("-{}", "0".repeat(31))
            .parse::<Kuuid>()
            .unwrap_err()
            .to_string(),
        format!("-{}", "0".repeat(23))
            .parse::<kuuid::ObjectId>()
            .unwrap_err()
            .to_string(),
        format!("-{}", "0".repeat(31))
            .parse::<kuuid::Uuid7>()
            .unwrap_err()
            .to_string(),
        kuuid::couch::decode(
            &format!("-{}", "0".repeat(31)),
            Algorithm::Random,
            Format::Base16,
        )
        .unwrap_err()
        .to_string(),
    ];
    for message in &dash {
        assert!(
            message.starts_with("invalid byte '-' at index 0 (expected "),
            "{message}"
        );
    }
    let kuuid = "\n".repeat(32).parse::<Kuuid>().unwrap_err().to_string();
    let oid = "\n"
        .repeat(24)
        .parse::<kuuid::ObjectId>()
        .unwrap_err()
        .to_string();
    for message in [kuuid, oid] {
        assert!(
            message.starts_with("invalid byte 0x0a at index 0 "),
            "{message}"
        );
    }
}

#[test]
fn overflowing_groups_are_named_by_position() {
    for g in 0..4 {
        let mut text = *b"00000000000000000000000000000000";
        text[8 + 6 * g..14 + 6 * g].copy_from_slice(b"4gfFC4");
        assert_eq!(
            Kuuid::parse_bytes(&text),
            Err(ParseError::GroupOverflow { index: 8 + 6 * g })
        );
    }
    // The first fault in byte order wins.
    assert_eq!(
        Kuuid::parse_bytes(b"0000000050000000000000000000000-"),
        Err(ParseError::GroupOverflow { index: 8 })
    );
    assert_eq!(
        Kuuid::parse_bytes(b"0000000-50000000000000000000000-"),
        Err(ParseError::InvalidByte {
            index: 7,
            byte: b'-'
        })
    );
    assert_eq!(
        Kuuid3::parse_bytes(b"00000000000000000000zzzzzz"),
        Err(ParseError::GroupOverflow { index: 20 })
    );
}

#[test]
fn options_and_parts_errors() {
    assert_eq!(
        Options::new().random(0).id(),
        Err(Error::Groups { found: 0 })
    );
    assert_eq!(
        Options::new().random(5).id(),
        Err(Error::Groups { found: 5 })
    );
    let err = Options::new().at("nope").id().unwrap_err();
    assert!(matches!(&err, Error::Time(TimeError::Syntax { input, .. }) if input == "nope"));
    // The message says what a time may be, not what the parser saw.
    assert_eq!(
        err.to_string(),
        r#""nope" is not a time: give RFC 3339 (2018-01-01T00:00:00Z, any offset, years 1970 to 9999), a date alone (2018-01-01, midnight UTC) or integer milliseconds since 1970 (1514764800000; also for years past 9999)"#
    );
    assert!(matches!(
        kuuid::try_rand(5),
        Err(Error::Groups { found: 5 })
    ));
    let p = kuuid::prefix_at(0u64).unwrap();
    assert_eq!(
        Kuuid::from_parts(p, &[1, 2, 3]),
        Err(Error::WordCount {
            expected: 4,
            found: 3
        })
    );
    assert_eq!(
        Kuuid1::from_parts(p, &[]),
        Err(Error::WordCount {
            expected: 1,
            found: 0
        })
    );
    assert_eq!(
        kuuid::id().encode_to(&mut [0u8; 10]),
        Err(Error::BufferTooSmall {
            needed: 32,
            found: 10
        })
    );
    assert_eq!(
        KeyRange::new(Layout::SECONDS, 2000u64, 1000u64),
        Err(Error::InvertedRange)
    );
    assert!(matches!(
        KeyRange::new(Layout::MILLIS, 0u64, u64::MAX),
        Err(Error::Time(TimeError::OutOfRange { .. }))
    ));
    let mut g = kuuid::Generator::fast();
    let err = g.write_lines(0, 1, std::io::sink()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}

proptest! {
    /// Arbitrary bytes never panic, and what parses re-encodes to itself.
    #[test]
    fn arbitrary_bytes_parse_or_fail_cleanly(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        if let Ok(id) = AnyKuuid::parse_bytes(&bytes) {
            prop_assert_eq!(id.as_bytes(), &bytes[..]);
            let words = id.random_words();
            let len = id.len();
            let again = match len {
                14 => AnyKuuid::from(Kuuid1::from_parts(id.prefix(), &words).unwrap()),
                20 => AnyKuuid::from(ShortKuuid::from_parts(id.prefix(), &words).unwrap()),
                26 => AnyKuuid::from(Kuuid3::from_parts(id.prefix(), &words).unwrap()),
                _ => AnyKuuid::from(Kuuid::from_parts(id.prefix(), &words).unwrap()),
            };
            prop_assert_eq!(again, id);
        }
    }

    /// Alphabet-only text of every id length: parses exactly when each group
    /// is at most `4gfFC3`, and agrees with the typed parsers.
    #[test]
    fn alphabet_text_parses_iff_groups_fit(s in "[0-9A-Za-z]{8}([0-5][0-9A-Za-z]{5}){1,4}") {
        let fits = s.as_bytes()[8..].chunks(6).all(|g| g <= b"4gfFC3".as_slice());
        let any = AnyKuuid::parse_bytes(s.as_bytes());
        prop_assert_eq!(any.is_ok(), fits);
        if s.len() == 32 {
            prop_assert_eq!(s.parse::<Kuuid>().is_ok(), fits);
        }
        if let Err(ParseError::GroupOverflow { index }) = any {
            prop_assert!(&s.as_bytes()[index..index + 6] > b"4gfFC3".as_slice());
        }
    }

    /// Parts -> text -> parts is the identity, and the time reads back.
    #[test]
    fn parts_roundtrip(words in any::<[u32; 4]>(), ms in 0u64..62u64.pow(8), rev: bool, msp: bool) {
        let layout = Layout::from_flags(msp, rev);
        let prefix = layout.prefix(ms).unwrap();
        let id = Kuuid::from_parts(prefix, &words).unwrap();
        let back: Kuuid = id.as_str().parse().unwrap();
        prop_assert_eq!(&*back.random_words(), &words[..]);
        let expect = if msp { ms } else { ms / 1000 * 1000 };
        prop_assert_eq!(back.timestamp(layout).as_millis(), expect);
    }

    /// Byte order of ids is numeric order of (prefix, words).
    #[test]
    fn byte_order_is_numeric_order(a in any::<(u32, [u32; 4])>(), b in any::<(u32, [u32; 4])>()) {
        let p = |v: u32| Layout::MILLIS.prefix(u64::from(v)).unwrap();
        let ia = Kuuid::from_parts(p(a.0), &a.1).unwrap();
        let ib = Kuuid::from_parts(p(b.0), &b.1).unwrap();
        prop_assert_eq!(ia.cmp(&ib), a.cmp(&b));
    }
}

/// A stride shorter than an id is an error even with no ids to parse
/// (before the fix a stride of 0 divided by zero).
#[test]
fn parse_many_refuses_a_short_stride_always() {
    let text = kuuid::id().to_string();
    for stride in [0, 1, 31] {
        let err = Kuuid::parse_many(text.as_bytes(), stride, &mut []).unwrap_err();
        assert_eq!(err.index, 0);
        assert!(matches!(err.error, kuuid::ParseError::Length { found, .. } if found == stride));
        if stride < 14 {
            let err = kuuid::Kuuid1::parse_many(b"", stride, &mut []).unwrap_err();
            assert_eq!(err.index, 0);
        }
    }
    assert!(Kuuid::parse_many(text.as_bytes(), 32, &mut []).is_ok());
}

/// `Generator` is `Send` and `Sync`, as its docs now say.
#[test]
fn generator_is_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<kuuid::Generator>();
}

/// The crate's rule for causes: an error's Display is the whole message,
/// and `source()` gives only what it did not print, so that an anyhow or
/// eyre report (each level's Display, then "Caused by" each source) says
/// every cause once. Checked on every error type that wraps another
/// (kuuid-sequence's, with their database errors, in its own tests).
#[test]
fn a_report_says_each_cause_once() {
    use crate::report::says_each_cause_once as check;
    // kuuid::Error over each kind it wraps.
    check(&Error::from("0".repeat(5).parse::<Kuuid>().unwrap_err()));
    check(&Error::from("nope".parse::<kuuid::Uuid7>().unwrap_err()));
    check(&Error::from("nope".parse::<kuuid::ObjectId>().unwrap_err()));
    check(&kuuid::id_at("not a time").unwrap_err());
    // CouchDB's, order keys'.
    check(
        &kuuid::couch::Uuids::new(kuuid::couch::Algorithm::UtcRandom)
            .at(u64::MAX)
            .unwrap_err(),
    );
    check(&kuuid::order::key_between(Some("a0"), Some("!")).unwrap_err());
}

/// Every public error converts into `kuuid::Error` (so `?` carries it), and
/// the umbrella prints it as it prints itself (the order key and CouchDB id
/// texts say what they are not).
#[test]
fn every_public_error_converts_into_the_umbrella() {
    fn into<E: Into<Error> + std::fmt::Display>(e: E) -> (String, Error) {
        (e.to_string(), e.into())
    }
    let cases = [
        into(kuuid::order::key_between(Some("a1"), Some("a0")).unwrap_err()),
        into("".parse::<kuuid::order::OrderKey>().unwrap_err()),
        into("snowflake".parse::<kuuid::couch::Algorithm>().unwrap_err()),
        into(
            kuuid::couch::decode("abc", kuuid::couch::Algorithm::Random, Default::default())
                .unwrap_err(),
        ),
        into("mmx".parse::<kuuid::engine::Isa>().unwrap_err()),
        into(Kuuid::parse_many(&[b'!'; 32], 32, &mut [Kuuid::default()]).unwrap_err()),
        into("0".parse::<Kuuid>().unwrap_err()),
        into(TimeError::BeforeEpoch),
    ];
    for (text, e) in &cases {
        assert!(
            e.to_string().ends_with(text.as_str()),
            "{e} does not carry {text:?}"
        );
    }
    // Each lands in its own variant.
    assert!(matches!(cases[0].1, Error::Order(_)));
    assert!(matches!(cases[1].1, Error::OrderKey(_)));
    assert!(matches!(cases[2].1, Error::Couch(_)));
    assert!(matches!(cases[3].1, Error::CouchParse(_)));
    assert!(matches!(cases[4].1, Error::Isa(_)));
    assert!(matches!(cases[5].1, Error::Many(_)));
    assert!(matches!(cases[6].1, Error::Parse(_)));
    assert!(matches!(cases[7].1, Error::Time(_)));
}

/// Equality: field by field (kuuid::Error holds no database's error, so
/// every variant has an equality of its own).
#[test]
fn umbrella_equality() {
    let a = Error::from("0".parse::<Kuuid>().unwrap_err());
    assert_eq!(a, a.clone());
    assert_eq!(a, Error::from("1".parse::<Kuuid>().unwrap_err()));
    let k = Error::from(kuuid::order::OrderError::NotAscending);
    assert_eq!(k, Error::Order(kuuid::order::OrderError::NotAscending));
    assert_ne!(
        k,
        Error::Order(kuuid::order::OrderError::TooMany { found: 1 })
    );
    assert_ne!(k, a);
    assert_eq!(Error::InvertedRange, Error::InvertedRange);
    assert_ne!(Error::Groups { found: 5 }, Error::Groups { found: 6 });
}
