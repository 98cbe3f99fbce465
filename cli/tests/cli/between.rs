//! `kuuid between`: the library's keys, one per line or as JSON, with open
//! ends given as empty arguments, and bad bounds refused in one line.

use kuuid::order::{n_keys_between, n_keys_between_jittered};

use crate::common::{kuuid, stderr, stdout};

fn keys(a: Option<&str>, b: Option<&str>, n: usize) -> Vec<String> {
    n_keys_between(a, b, n)
        .unwrap()
        .into_iter()
        .map(|k| k.into_string())
        .collect()
}

/// The arguments after `between`, and the library call they stand for.
type Case<'a> = (&'a [&'a str], Option<&'a str>, Option<&'a str>, usize);

#[test]
fn prints_the_librarys_keys() {
    let cases: [Case; 5] = [
        (&[], None, None, 1),
        (&["a0", "a1", "-n", "5"], Some("a0"), Some("a1"), 5),
        (&["", "a0", "-n", "70"], None, Some("a0"), 70),
        (&["az", "", "--count", "3"], Some("az"), None, 3),
        (&["Zz"], Some("Zz"), None, 1),
    ];
    for (args, a, b, n) in cases {
        let mut all = vec!["between"];
        all.extend_from_slice(args);
        let o = kuuid(&all);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let printed: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
        assert_eq!(printed, keys(a, b, n), "{args:?}");
    }
    let o = kuuid(&["between", "a0", "a1", "-n", "3", "--json"]);
    let json: Vec<String> = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json, keys(Some("a0"), Some("a1"), 3));
}

/// The command makes its keys in batches of 64 Ki (issue 54: a closed
/// range, or only an upper end, made every key before writing one): with
/// an open upper end each batch after the last one's final key, between
/// two keys each a part of the bisection, below an upper end counted down
/// then made again from the lowest. The same keys as one library call, as
/// lines and as JSON, across batch edges.
#[test]
fn keys_past_a_batch_are_the_librarys() {
    const N: usize = 2 * 65536 + 5;
    let ends = [
        ("", ""),
        ("Zz", ""),
        ("a0", "a1"),
        ("a0V", "b00"),
        ("", "a0"),
        ("", "a0V"),
    ];
    let bound = |s: &'static str| (!s.is_empty()).then_some(s);
    for (lo, hi) in ends {
        let want = keys(bound(lo), bound(hi), N);
        let n = N.to_string();
        let o = kuuid(&["between", lo, hi, "-n", &n]);
        assert!(o.status.success(), "{}", stderr(&o));
        let printed: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
        assert!(
            printed == want,
            "{lo:?} {hi:?}: lines differ from the library's"
        );
        let o = kuuid(&["between", lo, hi, "-n", &n, "--json"]);
        let json: Vec<String> = serde_json::from_str(&stdout(&o)).unwrap();
        assert!(
            json == want,
            "{lo:?} {hi:?}: JSON differs from the library's"
        );
        for small in ["0", "1", "65536", "65537"] {
            let o = kuuid(&["between", lo, hi, "-n", small]);
            let printed: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
            let n: usize = small.parse().unwrap();
            assert!(
                printed == keys(bound(lo), bound(hi), n),
                "{lo:?} {hi:?} -n {small}"
            );
        }
    }
    let o = kuuid(&["between", "", "", "-n", "0", "--json"]);
    assert_eq!(stdout(&o), "[]\n");
    // A bad bound is refused, even for -n 0.
    for (lo, hi) in [("a1", "a0"), ("", "a0 "), ("x", "a1")] {
        let o = kuuid(&["between", lo, hi, "-n", "0"]);
        assert!(!o.status.success(), "{lo:?} {hi:?}");
    }
}

#[test]
fn jittered_keys_ascend_inside_the_bounds() {
    let o = kuuid(&["between", "a0", "a1", "-n", "50", "--jitter", "30"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let printed: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(printed.len(), 50);
    assert!(printed.windows(2).all(|w| w[0] < w[1]));
    assert!(
        printed
            .iter()
            .all(|k| "a0" < k.as_str() && k.as_str() < "a1")
    );
    // Jitter extends the plain keys.
    for (k, plain) in printed.iter().zip(keys(Some("a0"), Some("a1"), 50)) {
        assert!(k.starts_with(&plain), "{k} from {plain}");
    }
    let lib = n_keys_between_jittered(Some("a0"), Some("a1"), 50, 30).unwrap();
    assert_ne!(lib.iter().map(|k| k.as_str()).collect::<Vec<_>>(), printed);
}

#[test]
fn bad_bounds_are_one_line_and_exit_2() {
    for (args, says) in [
        (&["between", "a1", "a0"][..], "\"a1\" is not below B \"a0\""),
        (&["between", "a0 "], "invalid byte 0x20 at index 2"),
        (
            &["between", "", "b1"],
            "B \"b1\" is not an order key: head 'b'",
        ),
        (&["between", "a10"], "ends in '0'"),
        (&["between", "--jitter", "65"], "65 is not in 0..=64"),
    ] {
        let o = kuuid(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `inspect --format order` reads what `between` prints, splits each key
/// into its integer part and fraction, and reports a non-key by line.
#[test]
fn inspect_reads_order_keys_when_asked() {
    let o = kuuid(&["inspect", "--format", "order", "a0V", "b12", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["format"], "order");
    assert_eq!(
        (rows[0]["integer"].as_str(), rows[0]["fraction"].as_str()),
        (Some("a0"), Some("V"))
    );
    assert_eq!(
        (rows[1]["integer"].as_str(), rows[1]["fraction"].as_str()),
        (Some("b12"), Some(""))
    );
    let o = kuuid(&["inspect", "--format", "order", "a0", "a00", "Zz"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("\"a00\": not an order key"),
        "{}",
        stderr(&o)
    );
    // Never told from the text: a0V alone reads as a (short) kuuid or fails.
    let o = kuuid(&["inspect", "a0V"]);
    assert!(!stdout(&o).contains("order"), "{}", stdout(&o));
    // Not a format to mint.
    let o = kuuid(&["--format", "order"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("use kuuid between"), "{}", stderr(&o));
}
