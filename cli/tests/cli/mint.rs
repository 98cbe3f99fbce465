//! The mint command, `kuuid [-n N] [--format F] ...` (cli/src/mint.rs):
//! every format, layout and engine path, run as a user would.

use std::process::Command;

use crate::child::BoundedOutput;
use crate::common::{kuuid, kuuid_stdin, stderr, stdout};

#[test]
fn mints_n_ids_one_per_line() {
    let o = kuuid(&["-n", "10000"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10_000);
    let mut uniq: Vec<&str> = lines.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(uniq.len(), 10_000);
    for l in &lines {
        l.parse::<kuuid::Kuuid>().unwrap();
    }
    assert_eq!(stdout(&kuuid(&[])).lines().count(), 1);
    assert_eq!(stdout(&kuuid(&["-n", "0"])), "");
}

#[test]
fn layout_and_size_flags() {
    let o = kuuid(&["-n", "3", "--at", "2018-01-01T00:00:00Z"]);
    assert!(
        stdout(&o)
            .lines()
            .all(|l| l.starts_with("001eVnWK") && l.len() == 32)
    );
    let o = kuuid(&["--reverse", "--at", "1000ms"]);
    assert!(stdout(&o).starts_with("zzzzzzzy"));
    let o = kuuid(&["--ms", "--at", "1514764800000"]);
    assert!(stdout(&o).starts_with("0QfQsjKa"));
    let o = kuuid(&["--short", "--fast", "-n", "5"]);
    assert!(stdout(&o).lines().all(|l| l.len() == 20));
    for k in 1..=4 {
        let o = kuuid(&["--random", &k.to_string(), "-n", "2"]);
        assert!(stdout(&o).lines().all(|l| l.len() == 8 + 6 * k));
    }
}

#[test]
fn engine_path_is_named_and_can_be_forced() {
    let v = stdout(&kuuid(&["--version"]));
    assert!(
        v.contains(&format!("engine path: {}", kuuid::engine::isa())),
        "{v}"
    );
    let run = |isa: &str, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kuuid"))
            .env("KUUID_ISA", isa)
            .args(args)
            .bounded_output()
            .unwrap()
    };
    for isa in kuuid::engine::Isa::available() {
        let o = run(isa.name(), &["--version"]);
        assert!(
            stdout(&o).contains(&format!("engine path: {isa}")),
            "{}",
            stdout(&o)
        );
        // Forced paths mint valid ids.
        let o = run(isa.name(), &["-n", "100", "--fast"]);
        for l in stdout(&o).lines() {
            l.parse::<kuuid::Kuuid>().unwrap();
        }
    }
    for bad in ["mmx", "sse3"] {
        let o = run(bad, &[]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert_eq!(stderr(&o).lines().count(), 1);
        assert!(stderr(&o).contains("KUUID_ISA"), "{}", stderr(&o));
    }
    for isa in [kuuid::engine::Isa::Avx512, kuuid::engine::Isa::Neon] {
        if !isa.is_supported() {
            let o = run(isa.name(), &[]);
            assert_eq!(o.status.code(), Some(2));
            assert!(stderr(&o).contains("cannot run"), "{}", stderr(&o));
        }
    }
}

#[test]
fn monotonic_output_is_strictly_ordered() {
    for (args, forward) in [
        (&["--monotonic"][..], true),
        (&["--monotonic", "--reverse", "--ms"], false),
    ] {
        let mut all = vec!["-n", "50000", "--at", "2018-01-01T00:00:00Z"];
        all.extend_from_slice(args);
        let out = stdout(&kuuid(&all));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 50_000);
        assert!(
            lines
                .windows(2)
                .all(|w| if forward { w[0] < w[1] } else { w[0] > w[1] }),
            "{args:?}"
        );
    }
}

/// `--format ulid` prints ULIDs in strictly increasing order across the
/// CLI's output chunks, and `inspect` tells them from 26-character kuuids.
#[test]
fn ulids_are_ordered_and_told_apart() {
    let out = stdout(&kuuid(&["--format", "ulid", "-n", "20000"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20_000);
    assert!(lines.windows(2).all(|w| w[0] < w[1]));
    let short = stdout(&kuuid(&["--random", "3", "-n", "3"]));
    let text = format!("{}{short}", &out[..27 * 3]);
    let o = kuuid_stdin(&["inspect", "--json"], text.as_bytes());
    let formats: Vec<String> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["format"].to_string())
        .collect();
    assert_eq!(
        formats,
        ["\"ulid\""; 3]
            .into_iter()
            .chain(["\"kuuid\""; 3])
            .collect::<Vec<_>>()
    );
}

/// A million short monotonic ids stay within a unit of the clock (before
/// the fix: 7.7 days ahead in seconds, 11 minutes in milliseconds).
#[test]
fn short_monotonic_ids_keep_to_the_clock() {
    for (flags, unit_ms) in [(&[][..], 1000u64), (&["--ms"][..], 1)] {
        let before = kuuid::Timestamp::now().as_millis();
        let mut args = vec!["--random", "1", "--monotonic", "-n", "1000000", "--fast"];
        args.extend_from_slice(flags);
        let o = kuuid(&args);
        assert!(o.status.success());
        let after = kuuid::Timestamp::now().as_millis();
        let last = stdout(&o).lines().last().unwrap().to_owned();
        let layout = kuuid::Layout::from_flags(unit_ms == 1, false);
        let t = last
            .parse::<kuuid::Kuuid1>()
            .unwrap()
            .timestamp(layout)
            .as_millis();
        assert!(t + unit_ms >= before, "{last}: {t} before {before}");
        assert!(
            t <= after + unit_ms,
            "{last}: {t} is past {after} + {unit_ms} ms"
        );
    }
}

/// Every `--format`: the right length and alphabet on every line, no
/// repeats, `--json` as CouchDB's `/_uuids` body, and `inspect` reading
/// each one back (with `--format` where 32 hex characters are ambiguous)
/// with a time within a minute of now where the format has one.
#[test]
fn every_format_mints_and_reads_back() {
    let hex = |s: &str| s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    // (format, extra flags, length, alphabet check, inspect needs --format, has time)
    type Case<'a> = (&'a str, &'a [&'a str], usize, fn(&str) -> bool, bool, bool);
    let cases: [Case; 15] = [
        (
            "kuuid",
            &[],
            32,
            |s| s.bytes().all(|c| c.is_ascii_alphanumeric()),
            false,
            true,
        ),
        ("v7", &[], 36, |s| s.as_bytes()[14] == b'7', false, true),
        ("v7s", &[], 32, |s| s.as_bytes()[12] == b'7', true, true),
        ("objectid", &[], 24, |_| true, false, true),
        (
            "ulid",
            &[],
            26,
            |s| s.parse::<kuuid::Ulid>().is_ok_and(|u| u.to_string() == s),
            false,
            true,
        ),
        (
            "typeid",
            &["--prefix", "user"],
            31,
            |s| s.starts_with("user_") && s.parse::<kuuid::TypeId>().is_ok(),
            false,
            true,
        ),
        (
            "ksuid",
            &[],
            27,
            |s| s.parse::<kuuid::Ksuid>().is_ok(),
            false,
            true,
        ),
        ("couch-random", &[], 32, |_| true, true, false),
        ("couch-sequential", &[], 32, |_| true, true, false),
        ("couch-utc-random", &[], 32, |_| true, true, true),
        (
            "couch-utc-id",
            &["--suffix", "frog"],
            18,
            |s| s.ends_with("frog"),
            true,
            true,
        ),
        (
            "uuid-v4",
            &[],
            32,
            |s| s.as_bytes()[12] == b'4',
            true,
            false,
        ),
        (
            "uuid-v4",
            &["--couch-format", "rfc9562"],
            36,
            |s| s.as_bytes()[14] == b'4',
            false,
            false,
        ),
        (
            "uuid-v4",
            &["--couch-format", "base_36"],
            25,
            |_| true,
            false,
            false,
        ),
        (
            "couch-uuid-v7",
            &["--couch-format", "base_36"],
            25,
            |_| true,
            false,
            true,
        ),
    ];
    let now = kuuid::Timestamp::now().as_millis();
    for (format, extra, len, check, needs_format, has_time) in cases {
        // 10,000: more than one 4,096-id chunk and one 64 KiB write.
        let mut args = vec!["--format", format, "-n", "10000"];
        args.extend_from_slice(extra);
        let o = kuuid(&args);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 10000, "{format}");
        let mut uniq = lines.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), 10000, "{format}");
        for l in &lines {
            assert_eq!(l.len(), len, "{format} {l}");
            assert!(check(l), "{format} {l}");
            if ![25, 26, 27, 31].contains(&len) && format != "kuuid" && format != "couch-utc-id" {
                assert!(hex(&l.replace('-', "")), "{format} {l}");
            }
        }
        // --json: CouchDB's body.
        args.push("--json");
        let body: serde_json::Value = serde_json::from_str(&stdout(&kuuid(&args))).unwrap();
        assert_eq!(body["uuids"].as_array().unwrap().len(), 10000, "{format}");
        // inspect reads them back.
        let mut inspect = vec!["inspect", "--json"];
        if needs_format {
            inspect.extend(["--format", format]);
        }
        let o = kuuid_stdin(&inspect, out.as_bytes());
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        for (line, id) in stdout(&o).lines().zip(&lines) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["id"], *id);
            let t = v["timestamp_ms"].as_u64();
            assert_eq!(t.is_some(), has_time, "{format}: {line}");
            if let Some(t) = t {
                assert!(t.abs_diff(now) < 60_000, "{format}: {line}");
            }
        }
    }
}

#[test]
fn formats_at_a_given_time() {
    for (format, extra) in [
        ("v7", &[][..]),
        ("v7s", &[]),
        ("objectid", &[]),
        ("ulid", &[]),
        ("typeid", &["--prefix", "a_b"]),
        ("couch-utc-random", &[]),
        ("couch-utc-id", &["--suffix=-n1"]),
        ("couch-uuid-v7", &["--couch-format", "rfc9562"]),
    ] {
        let mut args = vec![
            "--format",
            format,
            "--at",
            "2020-01-01T00:00:01Z",
            "-n",
            "5",
        ];
        args.extend_from_slice(extra);
        let o = kuuid(&args);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        let o = kuuid_stdin(&["inspect", "--format", format, "--json"], &o.stdout);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        for line in stdout(&o).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["time"], "2020-01-01T00:00:01Z", "{format}: {line}");
        }
    }
    // utc_* at a time count on by a microsecond an id.
    let out = stdout(&kuuid(&[
        "--format",
        "couch-utc-id",
        "--at",
        "0ms",
        "-n",
        "3",
    ]));
    assert_eq!(out, "00000000000000\n00000000000001\n00000000000002\n");
}

#[test]
fn misplaced_format_flags_are_refused() {
    for (args, flag) in [
        (&["--format", "v7", "--monotonic"][..], "--monotonic"),
        (&["--format", "objectid", "--ms"], "--ms"),
        (&["--format", "ulid", "--prefix", "user"], "--prefix"),
        (&["--format", "couch-random", "--random", "2"], "--random"),
        (
            &["--format", "v7", "--couch-format", "base_36"],
            "--couch-format",
        ),
        (&["--format", "couch-random", "--suffix", "x"], "--suffix"),
    ] {
        let o = kuuid(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(flag), "{err}");
    }
    let o = kuuid(&["--format", "couch-sequential", "--at", "0ms"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("carry no time"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let o = kuuid(&["--format", "snowflake"]);
    assert_eq!(o.status.code(), Some(2));
    // A prefix the TypeID spec refuses: where and why, before any output.
    let o = kuuid(&["--format", "typeid", "--prefix", "user_"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--prefix: invalid byte '_' at index 4"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    // A suffix with a line break would split each id over two lines.
    for suffix in ["a\nb", "\r", "x\ty"] {
        let o = kuuid(&["--format", "couch-utc-id", "--suffix", suffix, "-n", "2"]);
        assert_eq!(o.status.code(), Some(2), "{suffix:?}");
        assert!(
            stderr(&o).contains("--suffix holds a control character"),
            "{}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
    }
}

/// `--format v7/v7s --at T -n N` prints ids at T in strictly increasing
/// order, across the CLI's output chunks too (each id had a random
/// counter start before), and all at T's millisecond.
#[test]
fn v7_at_a_time_is_ordered() {
    for format in ["v7", "v7s"] {
        let o = kuuid(&[
            "--format",
            format,
            "--at",
            "2024-05-01T12:00:00.123Z",
            "-n",
            "20000",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 20_000);
        assert!(
            lines.windows(2).all(|w| w[0] < w[1]),
            "{format}: out of order"
        );
        for l in [lines[0], lines[19_999]] {
            let ms = u64::from_str_radix(&l.replace('-', "")[..12], 16).unwrap();
            assert_eq!(ms, 1_714_564_800_123, "{l}");
        }
    }
}

/// At the last millisecond a UUIDv7 holds, the ids run until its counter
/// is used up, in order, then the command fails in one line (issue 63,
/// item 8: the counter wrapped and `sort -c` found disorder at line
/// 3937410, exit 0).
#[test]
fn v7_at_the_last_millisecond_ends_in_an_error() {
    let o = kuuid(&["--format", "v7s", "--at", "281474976710655", "-n", "5e6"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no later UUIDv7 exists"), "{err}");
    let lines: Vec<&[u8]> = o
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "out of order");
    // The counter starts below 2^21 of its 2^22 values; the CLI prints
    // whole chunks, so less may be printed than was left.
    assert!(
        lines.len() > 1 << 20 && lines.len() < 1 << 22,
        "{}",
        lines.len()
    );
    assert!(lines.iter().all(|l| l.starts_with(b"ffffffffffff7")));
}
