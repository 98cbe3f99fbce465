//! `kuuid prefix` and `kuuid range` (cli/src/prefix.rs, range.rs).

use crate::common::{kuuid, stdout};

#[test]
fn prefix_and_range() {
    assert_eq!(
        stdout(&kuuid(&["prefix", "--at", "2018-01-01T00:00:00Z"])),
        "001eVnWK\n"
    );
    assert_eq!(
        stdout(&kuuid(&[
            "prefix",
            "--reverse",
            "--at",
            "1970-01-01T00:00:01Z"
        ])),
        "zzzzzzzy\n"
    );
    assert_eq!(
        stdout(&kuuid(&["prefix", "--ms", "--at", "1514764800000"])),
        "0QfQsjKa\n"
    );
    assert_eq!(stdout(&kuuid(&["prefix"])).trim().len(), 8);
    let o = kuuid(&[
        "range",
        "--from",
        "2018-01-01T00:00:00Z",
        "--to",
        "2020-01-01T00:00:00Z",
    ]);
    assert_eq!(
        stdout(&o),
        "{\"startkey\":\"001eVnWK\",\"endkey\":\"001imRQezzzzzzzzzzzzzzzzzzzzzzzz\"}\n"
    );
    let o = kuuid(&["range", "--reverse", "--from", "0ms", "--to", "1000ms"]);
    assert_eq!(
        stdout(&o),
        "{\"startkey\":\"zzzzzzzy\",\"endkey\":\"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"}\n"
    );
    // A type prefix goes before both keys, escaped in the JSON.
    let o = kuuid(&[
        "range",
        "--ms",
        "--from",
        "5ms",
        "--to",
        "9ms",
        "--key-prefix",
        "us\"er:",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let want = kuuid::KeyRange::new(kuuid::Layout::MILLIS, 5u64, 9u64)
        .unwrap()
        .with_prefix("us\"er:");
    assert_eq!(json["startkey"], want.startkey());
    assert_eq!(json["endkey"], want.endkey());
}

/// TIME as npm kuuid's `new Date(t)` reads text (issue 54): a date alone
/// is midnight UTC, the same as its RFC 3339 spelling; a date and time
/// with no offset (local time to JavaScript) is refused, saying so.
#[test]
fn a_date_alone_is_midnight_utc_and_a_zoneless_time_is_refused() {
    for (date, rfc) in [
        ("2018-01-01", "2018-01-01T00:00:00Z"),
        ("1999-12-31", "1999-12-31T00:00:00Z"),
    ] {
        let alone = kuuid(&["prefix", "--ms", "--at", date]);
        assert!(alone.status.success(), "{}", crate::common::stderr(&alone));
        assert_eq!(
            stdout(&alone),
            stdout(&kuuid(&["prefix", "--ms", "--at", rfc]))
        );
    }
    for zoneless in [
        "2018-01-01T00:00:00",
        "2018-01-01 10:00:00",
        "2018-01-01T10:00",
    ] {
        let o = kuuid(&["prefix", "--at", zoneless]);
        assert_eq!(o.status.code(), Some(2), "{zoneless}");
        let err = crate::common::stderr(&o);
        assert!(err.contains("has no time zone"), "{zoneless}: {err}");
    }
    let o = kuuid(&["prefix", "--at", "2018-13-01"]);
    assert!(crate::common::stderr(&o).contains("\"2018-13-01\" is not a date"));
}
