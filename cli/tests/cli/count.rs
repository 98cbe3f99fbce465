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
        assert!(err.contains("-n takes a whole number"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
