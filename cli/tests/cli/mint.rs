//! The `kuuid` command line, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::child::BoundedOutput;
use crate::common;
use common::{kuuid, stderr, stdout};

fn kuuid_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Written from a thread while the output is read: a filter answers as
    // it reads, so writing all the input first would fill the output pipe
    // and wait forever.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = crate::child::output(child);
    // A child that stops reading (an error) closes the pipe: not ours to
    // report.
    let _ = writer.join();
    out
}

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

#[test]
fn inspect_text_json_and_stdin() {
    let id = "001eVnWK4gfFC300000000000100000z";
    let o = kuuid(&["inspect", id]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        format!("{id} kuuid 2018-01-01T00:00:00Z 4294967295 0 1 61\n")
    );
    let o = kuuid(&["inspect", "--json", id]);
    assert_eq!(
        stdout(&o),
        format!(
            "{{\"id\":\"{id}\",\"format\":\"kuuid\",\"timestamp_ms\":1514764800000,\"time\":\"2018-01-01T00:00:00Z\",\"random\":[4294967295,0,1,61]}}\n"
        )
    );
    // Every JSON line is valid JSON with the documented fields.
    let minted = stdout(&kuuid(&["-n", "50", "--ms", "--reverse", "--short"]));
    let o = kuuid_stdin(
        &["inspect", "--ms", "--reverse", "--json"],
        minted.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let now = kuuid::Timestamp::now().as_millis();
    for line in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["random"].as_array().unwrap().len(), 2);
        assert!(now.abs_diff(v["timestamp_ms"].as_u64().unwrap()) < 60_000);
        assert!(v["time"].as_str().unwrap().ends_with('Z'));
    }
    // Beyond year 9999 (seconds layout) "time" is null, not a wrong date.
    let o = kuuid(&["inspect", "--json", "zzzzzzzz000000"]);
    assert!(stdout(&o).contains("\"time\":null"), "{}", stdout(&o));
}

/// Issue 20, items 6 and 7: what inspect and the time flags say.
#[test]
fn inspect_and_time_messages_say_what_to_do() {
    // A time past year 9999 is not printed as a date, and one hint (not
    // one per line) names the flags that read reverse or ms kuuids.
    let reverse = stdout(&kuuid(&["-n", "3", "--reverse"]));
    let o = kuuid_stdin(&["inspect"], reverse.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    for line in stdout(&o).lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields[1], "kuuid", "{line}");
        assert!(line.contains(" ms since 1970 (past year 9999) "), "{line}");
        assert!(!line.contains('+'), "{line}");
    }
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("try --reverse or --ms"), "{err}");
    let o = kuuid_stdin(&["inspect", "--reverse"], reverse.as_bytes());
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));

    // --ms and --reverse on an id that is not a kuuid are refused per line.
    let oid = stdout(&kuuid(&["--format", "objectid", "-n", "1"]));
    let o = kuuid(&["inspect", "--ms", oid.trim()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("read as objectid; --ms and --reverse apply to kuuids only"),
        "{}",
        stderr(&o)
    );

    // This CLI's own couch-utc-id output: the error names the flag, and
    // the flag reads it. (A utc_id whose 9th hex digit is 0-3 is also a
    // valid 14-character kuuid; this one, minted here once, is not.)
    let o = kuuid(&["inspect", "066103dd771dc2"]);
    assert!(
        stderr(&o).contains("(a CouchDB utc_id? use --format couch-utc-id)"),
        "{}",
        stderr(&o)
    );
    let utc = stdout(&kuuid(&["--format", "couch-utc-id", "-n", "20"]));
    let o = kuuid_stdin(&["inspect", "--format", "couch-utc-id"], utc.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 20);

    // A UUID of another version.
    let o = kuuid(&["inspect", "017f22e2-79b0-1cc3-98c4-dc0c0c07398f"]);
    assert!(
        stderr(&o).contains("UUID version is 1, expected 4 or 7"),
        "{}",
        stderr(&o)
    );
    // One byte is "1 byte".
    let o = kuuid(&["inspect", "a"]);
    assert!(stderr(&o).contains("length is 1 byte,"), "{}", stderr(&o));

    // --at says what a time may be, not what the parser saw.
    for at in ["10000-01-01T00:00:00Z", "1e3"] {
        let o = kuuid(&["--at", at]);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(err.contains("is not a time: give RFC 3339"), "{err}");
        assert!(!err.contains("parse") && !err.contains("digit"), "{err}");
    }
    // v7 past its range names the 48-bit limit.
    let o = kuuid(&["--format", "v7", "--at", "281474976710656"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("48-bit") && !err.contains("prefix"), "{err}");

    // clap's tip survives the one-line error.
    let o = kuuid(&["--formt", "v7"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("(a similar argument exists: '--format')"),
        "{}",
        stderr(&o)
    );

    // inspect's --format help names only flags inspect takes.
    let help = stdout(&kuuid(&["inspect", "--help"]));
    assert!(help.contains("couch-utc-id"), "{help}");
    assert!(
        !help.contains("--couch-format") && !help.contains("--suffix"),
        "{help}"
    );
}

#[test]
fn inspect_reports_bad_ids_and_continues() {
    let input =
        b"abc\n001eVnWK4gfFC4000000000000000000\n\n001eVnWK4gfFC3000000000000000000\n\xff\xfe\n";
    let o = kuuid_stdin(&["inspect"], input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 1);
    let err = stderr(&o);
    assert!(
        err.contains("invalid id \"abc\": length is 3 bytes"),
        "{err}"
    );
    assert!(
        err.contains("random group at index 8 is above 4gfFC3"),
        "{err}"
    );
    assert!(err.contains("length is 2 bytes"), "{err}");
    assert_eq!(err.lines().count(), 3);
}

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

#[test]
fn closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(["-n", "100000000", "--fast"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 4096];
    std::io::Read::read_exact(&mut out, &mut buf).unwrap();
    drop(out);
    let o = crate::child::output(child);
    assert!(o.status.success());
    assert!(o.stderr.is_empty());
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

/// Runs `kuuid args` with stdout on `/dev/full` (Linux has one).
#[cfg(target_os = "linux")]
fn kuuid_to_full(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(args)
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    crate::child::output(child)
}

/// Every command that prints reports a full disk in one line and exits 1
/// (before the fix: a panic, exit 101, and a backtrace).
#[test]
#[cfg(target_os = "linux")]
fn a_full_disk_is_one_line_and_exit_1() {
    for args in [
        &["prefix"][..],
        &["range", "--from", "0ms", "--to", "1000ms"],
        &["--help"],
        &["--version"],
        &["-n", "10"],
        &["inspect", "00000000000000"],
        &["between", "-n", "10"],
        &["--format", "v7", "-n", "10"],
        &["--format", "objectid", "-n", "10000"],
        &["--format", "v7s", "-n", "10", "--json"],
    ] {
        let o = kuuid_to_full(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("No space left"), "{args:?}: {err}");
    }
}

/// Started with stdout closed, a command says so and exits 1 instead of
/// writing into nothing and reporting success.
#[test]
#[cfg(target_os = "linux")]
fn closed_stdout_is_an_error() {
    let o = Command::new("sh")
        .args(["-c", &format!("'{}' -n 5 >&-", env!("CARGO_BIN_EXE_kuuid"))])
        .bounded_output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("standard output is closed"));
    // /dev/null opened by the shell, write-only or read-write (as Python's
    // subprocess.DEVNULL and daemon(3) open it), is not "closed".
    for redirect in [">/dev/null", "1<>/dev/null"] {
        let o = Command::new("sh")
            .args([
                "-c",
                &format!("'{}' -n 5 {redirect}", env!("CARGO_BIN_EXE_kuuid")),
            ])
            .bounded_output()
            .unwrap();
        assert!(o.status.success(), "{redirect}: {}", stderr(&o));
    }
    // And from a Rust parent: Stdio::null() opens /dev/null read-write.
    let child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(["-n", "5"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = crate::child::output(child);
    assert!(o.status.success(), "Stdio::null(): {}", stderr(&o));
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

/// A bad argument (not UTF-8, or huge) is reported, cut short, and the good
/// ids around it are still described; exit 1.
#[test]
#[cfg(unix)]
fn inspect_reports_bad_arguments_and_goes_on() {
    use std::os::unix::ffi::OsStrExt;
    let good = kuuid::id().to_string();
    // Under Linux's 128 KiB limit for one argument.
    let huge = "a".repeat(100_000);
    let o = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .arg("inspect")
        .arg(&good)
        .arg(std::ffi::OsStr::from_bytes(b"\xff"))
        .arg(&huge)
        .arg(&good)
        .bounded_output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.len() < 1000,
        "the huge id was echoed: {} bytes",
        err.len()
    );
    assert!(err.contains(&format!("({} bytes)", huge.len())), "{err}");
    // The same cut for a 10 MB line on stdin.
    let line = format!("{good}\n{}\n", "b".repeat(10 << 20));
    let o = kuuid_stdin(&["inspect"], line.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stderr.len() < 1000, "{} bytes on stderr", o.stderr.len());
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
    let cases: [Case; 12] = [
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
            if len != 25 && format != "kuuid" && format != "couch-utc-id" {
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
}

#[test]
fn inspect_asks_which_format_32_hex_characters_are() {
    let v7s = stdout(&kuuid(&["--format", "v7s"]));
    let o = kuuid_stdin(&["inspect"], v7s.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--format"), "{}", stderr(&o));
    assert!(stderr(&o).contains("couch-uuid-v7"), "{}", stderr(&o));
    let o = kuuid_stdin(&["inspect", "--format", "v7s"], v7s.as_bytes());
    assert!(o.status.success());
    assert!(stdout(&o).contains(" v7s "), "{}", stdout(&o));
    let o = kuuid_stdin(&["inspect", "--format", "v7s", "--json"], v7s.as_bytes());
    assert!(stdout(&o).contains(r#""format":"v7s""#), "{}", stdout(&o));
    // A kuuid given as the wrong format is an error, not a wrong reading.
    let id = "001eVnWK4gfFC300000000000100000z";
    let o = kuuid(&["inspect", "--format", "objectid", id]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("expected 24"), "{}", stderr(&o));
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

/// `inspect` on stdin is a line filter: the answer to a line comes out
/// while stdin is still open (as under `tail -f log | kuuid inspect`).
#[test]
fn inspect_answers_each_line_as_it_arrives() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .args(["inspect", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let child = crate::child::Watched::new(child);
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    for id in ["001eVnWK4gfFC3000000000000000000", "001eVnWK000000"] {
        writeln!(stdin, "{id}").unwrap();
        stdin.flush().unwrap();
        // Bounded: a filter answers at once; one that waits for more input
        // (or for EOF) never does while stdin stays open.
        let answer = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no answer to {id} while stdin is open"));
        assert!(answer.contains(id), "{answer}");
    }
    drop(stdin);
    assert!(child.wait().success());
    reader.join().unwrap();
}

/// A line over 4096 bytes is reported by its number as soon as 4097 of its
/// bytes are in, its rest is skipped, and the lines after it are read; a
/// bad line's error names its line; `-` reads stdin among arguments.
#[test]
fn inspect_numbers_lines_and_skips_overlong_ones() {
    let good = "001eVnWK4gfFC3000000000000000000";
    let input = format!("{good}\n\nnope\n{}\n{good}\n", "z".repeat(16 << 20));
    let o = kuuid_stdin(&["inspect"], input.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("line 3: invalid id \"nope\""), "{err}");
    assert!(err.contains("line 4: invalid id"), "{err}");
    assert!(err.contains("longer than 4096 bytes, skipped"), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    // `-` among arguments: the arguments before, stdin, the ones after.
    let o = kuuid_stdin(
        &["inspect", good, "-", "bad"],
        format!("{good}\n").as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2);
    let err = stderr(&o);
    assert!(
        err.contains("invalid id \"bad\"") && !err.contains("line"),
        "{err}"
    );
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
