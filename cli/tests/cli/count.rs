//! `-n` (cli/src/count.rs) on every command that takes it: `1e6` and
//! `10^6` are counts, and `-1` is refused with what `-n` takes (it used to
//! be "unexpected argument '-1' found").

use crate::common::{kuuid, stderr, stdout};

#[test]
fn every_n_reads_exponents_and_says_what_it_takes() {
    let o = kuuid(&["-n", "2e1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 20);
    let o = kuuid(&["between", "", "", "-n", "10^1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 10);
    for args in [
        &["-n", "-1"][..],
        &["between", "a0", "a1", "-n", "-1"],
        &["seq", "--db", "sqlite:unused.db", "--name", "x", "-n", "-1"],
        &["-n", "1.5"],
    ] {
        let o = kuuid(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("a count is a whole number"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // Every flag that counts reads 1e3 (they gave Rust's raw "invalid
    // digit found in string"), and says its limit alike.
    let seq = |flags: &[&'static str]| {
        let mut args = vec!["seq", "--db", "sqlite:unused.db", "--name", "x"];
        args.extend_from_slice(flags);
        args
    };
    for args in [
        vec!["bench", "-n", "1e30"],
        seq(&["--block", "1e30"]),
        seq(&["--shards", "1e30", "--shard-size", "1"]),
        seq(&["--shards", "1", "--shard-size", "1e30"]),
        vec!["-n", "1e30"],
        vec!["between", "", "", "-n", "1e30"],
    ] {
        let o = kuuid(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("\"1e30\" is past the largest count here, "),
            "{args:?}: {err}"
        );
        assert!(!err.contains("invalid digit"), "{args:?}: {err}");
    }
    let o = kuuid(&["bench", "-n", "1e9"]);
    assert!(
        stderr(&o).contains("past the largest count here, 4194304"),
        "{}",
        stderr(&o)
    );
    // --jitter says its own range.
    let o = kuuid(&["between", "a0", "a1", "--jitter=-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("0..=64"), "{}", stderr(&o));
}

/// Issue 63, item 16: `-1` on every numeric flag gets what a count (or a
/// time, or a timeout) is, not clap's "unexpected argument"; `1e2` reads
/// on every counting flag; a too-large count says one thing however it is
/// written.
#[test]
fn every_numeric_flag_reads_its_own_negative_and_exponent() {
    let seq = |flags: &[&'static str]| {
        let mut args = vec!["seq", "--db", "sqlite:unused.db", "--name", "x"];
        args.extend_from_slice(flags);
        args
    };
    for (args, says) in [
        (seq(&["--block", "-1"]), "is not a count"),
        (
            seq(&["--shards", "-1", "--shard-size", "1"]),
            "is not a count",
        ),
        (seq(&["--digits", "-1"]), "is not a count"),
        (seq(&["--busy-timeout", "-1"]), "seconds from 0"),
        (vec!["bench", "--rounds", "-1"], "is not a count"),
        (vec!["bench", "--threads", "-1"], "is not a count"),
        (vec!["--random", "-1"], "is not a count"),
        (vec!["between", "--jitter", "-1"], "not in 0..=64"),
        (vec!["--at", "-1"], "before 1970"),
        (vec!["prefix", "--at", "-1"], "before 1970"),
        // Accepted, so the next fault is what is reported.
        (vec!["bench", "--rounds", "1e2", "--isa", "nope"], "--isa"),
        (
            vec!["-n", "99999999999999999999999"],
            "is past the largest count here",
        ),
    ] {
        let o = kuuid(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// Issue 63, item 16: `help --help`, `range --json`, and a TIME error
/// that lists every form the command takes.
#[test]
fn help_range_json_and_time_forms() {
    let o = kuuid(&["help", "--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Usage:"), "{}", stdout(&o));
    let o = kuuid(&[
        "range",
        "--json",
        "--from",
        "2018-01-01",
        "--to",
        "2019-01-01",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("{\"startkey\":\"001eVnWK\""),
        "{}",
        stdout(&o)
    );
    let o = kuuid(&["--at", "yesterday"]);
    let err = stderr(&o);
    for form in ["RFC 3339", "date alone", "Ns or @N", "Nms", "bare N"] {
        assert!(err.contains(form), "{form}: {err}");
    }
}
