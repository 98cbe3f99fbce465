//! The command line's arguments (cli/src/main.rs): bad ones exit 2 with
//! one line, times are read strictly, help and version succeed.

use crate::common::{kuuid, kuuid_stdin, stderr, stdout};

#[test]
fn bad_arguments_exit_2_with_one_line() {
    for args in [
        &["--random", "5"][..],
        &["--random", "0"],
        &["--random", "2", "--short"],
        &["-n", "-1"],
        &["-n", "lots"],
        &["--at", "yesterday"],
        &["--at", "1969-12-31T23:59:59Z"],
        &["--ms", "--at", "999999999999999999"],
        &["--bogus"],
        &["prefix", "--at", "-5"],
        &["range", "--from", "2020-01-01T00:00:00Z"],
        &["range", "--from", "2000ms", "--to", "1000ms"],
        &[
            "range",
            "--from",
            "0ms",
            "--to",
            "5ms",
            "--key-prefix",
            "user",
        ],
        &[
            "range",
            "--from",
            "0ms",
            "--to",
            "5ms",
            "--key-prefix",
            "v7",
        ],
        &["inspect", "--nope"],
    ] {
        let o = kuuid(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("kuuid: "), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_version_succeed() {
    assert!(kuuid(&["--help"]).status.success());
    let v = kuuid(&["--version"]);
    assert!(v.status.success());
    assert!(stdout(&v).starts_with("kuuid "));
}

/// A missing required argument is named in the one line.
#[test]
fn a_missing_argument_is_named() {
    let o = kuuid(&["range", "--from", "0ms"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--to"), "{err}");
}

/// The last second RFC 3339 can write is accepted; a leap second is refused.
#[test]
fn rfc3339_to_the_end_of_9999_and_no_leap_seconds() {
    let o = kuuid(&["-n", "1", "--at", "9999-12-31T23:59:59Z"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let id = stdout(&o);
    let back = kuuid_stdin(&["inspect"], id.as_bytes());
    assert!(
        stdout(&back).contains("9999-12-31T23:59:59Z"),
        "{}",
        stdout(&back)
    );
    let o = kuuid(&["prefix", "--at", "2018-01-01T00:00:60Z"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("leap second"), "{}", stderr(&o));
}

/// No silent 1970: a bare integer that would mean a time before 1973 is
/// refused with a hint (it is more likely seconds: `--at $(date +%s)`
/// minted in January 1970 before); seconds with a unit, GNU date's `@N`
/// and explicit milliseconds all mean what they say.
#[test]
fn a_bare_integer_before_1973_is_refused_and_units_are_read() {
    let secs = "1514764800";
    let o = kuuid(&["--at", secs]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("before 1973") && err.contains("1514764800s"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
    // Seconds, said three ways, give the same prefix as the date.
    let by_date = stdout(&kuuid(&["prefix", "--at", "2018-01-01T00:00:00Z"]));
    for t in [
        "1514764800s",
        "@1514764800",
        "1514764800000ms",
        "1514764800000",
    ] {
        let o = kuuid(&["prefix", "--at", t]);
        assert!(o.status.success(), "{t}: {}", stderr(&o));
        assert_eq!(stdout(&o), by_date, "{t}");
    }
    // 1970 itself, asked for in so many words.
    let o = kuuid(&["prefix", "--at", "1000ms"]);
    assert_eq!(stdout(&o), "00000001\n");
    for bad in ["12s3", "@x", "1.5s", "ms"] {
        let o = kuuid(&["prefix", "--at", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
}
