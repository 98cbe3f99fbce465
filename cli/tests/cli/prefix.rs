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
