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
