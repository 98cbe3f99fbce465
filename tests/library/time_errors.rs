//! Times that cannot be: past a field's range, unparseable text, RFC
//! 3339's edges. Each a typed error, never a panic or a wrong time.

use kuuid::{Layout, TimeError, TimeField, Timestamp};

#[test]
fn times_out_of_range() {
    assert_eq!(
        kuuid::id_at("1969-12-31T23:59:59.999Z"),
        Err(TimeError::BeforeEpoch)
    );
    // A bare integer literal infers as milliseconds (u64).
    assert_eq!(
        kuuid::id_at(1514764800000).unwrap().prefix(),
        kuuid::id_at("2018-01-01T00:00:00Z").unwrap().prefix()
    );
    assert_eq!(kuuid::id_at("-1"), Err(TimeError::BeforeEpoch));
    let before = std::time::UNIX_EPOCH - std::time::Duration::from_millis(1);
    assert_eq!(kuuid::id_at(before), Err(TimeError::BeforeEpoch));
    // The last representable instant of each precision, and one past it.
    let max = 62u64.pow(8) - 1;
    assert!(kuuid::idms_at(max).is_ok());
    assert_eq!(
        kuuid::idms_at(max + 1),
        Err(TimeError::OutOfRange {
            field: TimeField::KuuidMillis,
            millis: max + 1
        })
    );
    assert_eq!(
        kuuid::prefix_reverse_ms_at(max).unwrap().as_str(),
        "00000000"
    );
    assert!(kuuid::id_at(max * 1000 + 999).is_ok());
    assert_eq!(
        kuuid::prefix_at(max * 1000 + 999).unwrap().as_str(),
        "zzzzzzzz"
    );
    assert_eq!(
        kuuid::id_at((max + 1) * 1000),
        Err(TimeError::OutOfRange {
            field: TimeField::KuuidSeconds,
            millis: (max + 1) * 1000
        })
    );
    assert!(matches!(
        kuuid::id_at(u64::MAX),
        Err(TimeError::OutOfRange { .. })
    ));
    assert!(Timestamp::from_secs(u64::MAX / 999).is_none());
}

/// A time past a format's range reads the same in every format: the time,
/// the format's last time (RFC 3339 where it has one), and whose it is.
#[test]
fn a_time_past_the_range_names_the_last_time_alike() {
    use kuuid::couch::{Algorithm, Uuids};
    let max = 62u64.pow(8) - 1;
    let cases = [
        (
            kuuid::idms_at(max + 1).unwrap_err().to_string(),
            max + 1,
            "8888-",
        ),
        (
            kuuid::id_at((max + 1) * 1000).unwrap_err().to_string(),
            (max + 1) * 1000,
            "62^8 - 1 seconds",
        ),
        (
            kuuid::v7_at(1u64 << 48).unwrap_err().to_string(),
            1 << 48,
            "281474976710655 ms",
        ),
        (
            kuuid::object_id_at((1u64 << 32) * 1000)
                .unwrap_err()
                .to_string(),
            (1 << 32) * 1000,
            "2106-02-07T06:28:15Z",
        ),
        (
            Uuids::new(Algorithm::UtcRandom)
                .at(1u64 << 48)
                .unwrap_err()
                .to_string(),
            1 << 48,
            "4253-05-31T",
        ),
    ];
    for (message, millis, last) in cases {
        let head = format!("time {millis} ms since 1970 is past ");
        assert!(message.starts_with(&head), "{message}");
        assert!(message[head.len()..].starts_with(last), "{message}");
        assert!(message.contains(", the last "), "{message}");
    }
}

#[test]
fn unparseable_times() {
    for bad in [
        "",
        " ",
        "yesterday",
        "2018-1-01",
        "2018-02-30",
        "2018-13-01T00:00:00Z",
        "2018-01-01T00:00:00",
        "18446744073709551616",
        "1e9",
        "0x10",
        "--1",
        "+5",
    ] {
        match bad.parse::<Timestamp>() {
            Err(TimeError::Syntax { input, .. }) => assert_eq!(input, bad),
            other => panic!("{bad:?} gave {other:?}"),
        }
    }
}

/// RFC 3339 reaches the last second of 9999 in UTC (and back to text);
/// a leap second is a typed error, not :59.
#[test]
fn rfc3339_edges() {
    for text in [
        "9999-12-30T22:00:01Z",
        "9999-12-31T23:59:59Z",
        "9999-12-31T23:59:59.999Z",
        "1970-01-01T00:00:00Z",
        "2018-01-01T01:00:00+01:00",
    ] {
        let t: Timestamp = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let back: Timestamp = t.to_rfc3339().unwrap().parse().unwrap();
        assert_eq!(back, t, "{text}");
    }
    let t: Timestamp = "9999-12-31T23:59:59Z".parse().unwrap();
    assert_eq!(t.as_secs(), 253_402_300_799);
    assert!(Layout::SECONDS.prefix(t).is_ok());
    assert_eq!(
        Timestamp::from_millis(253_402_300_800_000).to_rfc3339(),
        None
    );
    assert!(matches!(
        "2018-01-01T00:00:60Z".parse::<Timestamp>(),
        Err(TimeError::LeapSecond { .. })
    ));
    assert!(matches!(
        "1969-12-31T23:59:59Z".parse::<Timestamp>(),
        Err(TimeError::BeforeEpoch)
    ));
    // A date alone is midnight UTC, as the CLI and JavaScript read it
    // (issue 63, item 16: the library refused what the CLI took).
    assert_eq!(
        "2018-01-01".parse::<Timestamp>(),
        "2018-01-01T00:00:00Z".parse::<Timestamp>()
    );
    assert!(kuuid::id_at("2018-01-01").is_ok());
}
