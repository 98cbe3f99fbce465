//! `kuuid inspect` (cli/src/inspect/) fed what is not a stream of lines.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::child::{BoundedOutput, output};
use crate::common::{kuuid, kuuid_stdin, stderr, stdout};

/// Standard input that cannot be read (a directory) is named as such, in
/// one line, exit 1; it used to say only "Is a directory (os error 21)".
#[test]
fn unreadable_standard_input_is_named() {
    let dir = std::fs::File::open(std::env::temp_dir()).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_kuuid"))
        .arg("inspect")
        .stdin(Stdio::from(dir))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = output(child);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with("kuuid: error: standard input: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `order` is an inspect format only: the minting `--format` list in
/// `kuuid --help` leaves it out, and `inspect --format order` reads a key.
#[test]
fn order_is_listed_for_inspect_only() {
    let help = crate::common::stdout(&crate::common::kuuid(&["--help"]));
    assert!(help.contains("- objectid:"), "{help}");
    assert!(!help.contains("- order:"), "{help}");
    let o = crate::common::kuuid(&["inspect", "--format", "order", "a0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(crate::common::stdout(&o).starts_with("a0 order"));
}

/// `--format objectid-legacy` shows the old layout's fields, each read
/// back from the bytes that made the id; minting it is refused.
#[test]
fn a_legacy_object_id_shows_machine_pid_and_counter() {
    let bytes: [u8; 12] = std::array::from_fn(|i| (0x5a + 37 * i) as u8);
    let id = kuuid::ObjectId::from_bytes(bytes);
    let text = id.to_string();
    let o = crate::common::kuuid(&["inspect", "--json", "--format", "objectid-legacy", &text]);
    assert!(o.status.success(), "{}", stderr(&o));
    let line = crate::common::stdout(&o);
    let machine: String = bytes[4..7].iter().map(|b| format!("{b:02x}")).collect();
    let pid = u16::from_be_bytes([bytes[7], bytes[8]]);
    let counter = u32::from_be_bytes([0, bytes[9], bytes[10], bytes[11]]);
    for field in [
        "\"format\":\"objectid-legacy\"".to_owned(),
        format!("\"timestamp_ms\":{}", id.timestamp().as_millis()),
        format!("\"machine\":\"{machine}\""),
        format!("\"pid\":{pid}"),
        format!("\"counter\":{counter}"),
    ] {
        assert!(line.contains(&field), "{field} in {line}");
    }
    let o = crate::common::kuuid(&["--format", "objectid-legacy"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("for inspect"), "{}", stderr(&o));
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
    assert!(
        err.contains("past year 9999; read with --reverse it is 20"),
        "{err}"
    );
    let o = kuuid_stdin(&["inspect", "--reverse"], reverse.as_bytes());
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // The other way (issue 63, item 11): a seconds kuuid read with --ms is
    // in January 1970, and the hint says so, naming the flags that read it.
    let plain = stdout(&kuuid(&["-n", "3"]));
    let o = kuuid_stdin(&["inspect", "--ms"], plain.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(" 1970-01-"), "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("before 2000; read without --ms and --reverse it is 20"),
        "{err}"
    );
    let o = kuuid_stdin(&["inspect"], plain.as_bytes());
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

    // A UUID or an ObjectId a character short is told as what it nearly
    // is (both were told only the kuuid lengths; the ObjectId got the
    // utc_id hint alone).
    let o = kuuid(&["inspect", "017f22e2-79b0-7cc3-98c4-dc0c0c07398"]);
    assert!(
        stderr(&o).contains("(a UUID? it has 36 characters"),
        "{}",
        stderr(&o)
    );
    let o = kuuid(&["inspect", "507f1f77bcf86cd79943901"]);
    assert!(
        stderr(&o).contains("(an ObjectId? it has 24 hex digits"),
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

    // A UUID of another version, read as a format that names one.
    let o = kuuid(&[
        "inspect",
        "--format",
        "uuid-v4",
        "017f22e2-79b0-1cc3-98c4-dc0c0c07398f",
    ]);
    assert!(stderr(&o).contains("version"), "{}", stderr(&o));
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
    // Its length is not known when it is skipped: not claimed.
    assert!(err.contains("... (over 4096 bytes)"), "{err}");
    assert!(!err.contains("65536 bytes"), "{err}");
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

/// Every UUID is read (issue 54: v1, v6, v8, nil and max were refused with
/// "UUID version is 1, expected 4 or 7"). RFC 9562's Appendix A examples:
/// its v1 (A.1), v6 (A.5) and v7 (A.6) are the same instant, which the RFC
/// gives as 2022-02-22 14:22:22 at GMT-05:00; its v8 (B.1) carries no
/// time the RFC defines.
#[test]
fn every_uuid_shows_its_kind_version_variant_and_time() {
    let field = |json: &serde_json::Value, k: &str| json[k].clone();
    let read = |text: &str| -> serde_json::Value {
        let o = kuuid(&["inspect", "--json", text]);
        assert!(o.status.success(), "{text}: {}", stderr(&o));
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    let v1 = read("C232AB00-9414-11EC-B3C8-9F6BDECED846");
    let v6 = read("1EC9414C-232A-6B00-B3C8-9F6BDECED846");
    let v7 = read("017F22E2-79B0-7CC3-98C4-DC0C0C07398F");
    // 14:22:22 at GMT-05:00, in milliseconds since 1970.
    let rfc_ms = "2022-02-22T14:22:22-05:00"
        .parse::<kuuid::Timestamp>()
        .unwrap()
        .as_millis();
    for (name, u) in [("v1", &v1), ("v6", &v6), ("v7", &v7)] {
        assert_eq!(field(u, "timestamp_ms"), rfc_ms, "{name}: {u}");
    }
    for (name, u) in [("v1", &v1), ("v6", &v6)] {
        assert_eq!(field(u, "format"), "uuid", "{name}");
        assert_eq!(field(u, "kind"), name);
        assert_eq!(field(u, "variant"), "rfc9562");
        // Whole seconds at 100 ns: the ticks are exact.
        assert_eq!(field(u, "unix_100ns"), rfc_ms * 10_000);
        // A.1 and A.5 share the clock sequence and node.
        assert_eq!(field(u, "clock_seq"), field(&v1, "clock_seq"));
        assert_eq!(field(u, "node"), field(&v1, "node"));
    }
    for (text, kind, version) in [
        ("2489E9AD-2EE2-8E00-8EC9-32D5F69181C0", "v8", 8),
        ("00000000-0000-0000-0000-000000000000", "nil", 0),
        ("ffffffff-ffff-ffff-ffff-ffffffffffff", "max", 15),
        ("5df41881-3aed-3515-88a7-2f4a814cf09e", "v3", 3),
    ] {
        let u = read(text);
        assert_eq!(field(&u, "kind"), kind, "{text}");
        assert_eq!(field(&u, "version"), version, "{text}");
        assert!(u.get("timestamp_ms").is_none(), "{text}: {u}");
    }
    // Versions 4 and 7 keep their own formats.
    assert_eq!(field(&v7, "format"), "v7");
    let v4 = read("919108f7-52d1-4320-9bac-f847db4148a8");
    assert_eq!(field(&v4, "format"), "uuid-v4");
}

/// A UUIDv7 braced or as a URN reads as the id inside (issue 63, item 12),
/// as `Uuid7`'s parser and uuid's read them.
#[test]
fn braced_and_urn_uuids_read_as_the_id_inside() {
    let id = kuuid::v7();
    let plain = kuuid(&["inspect", &id.to_string()]);
    let fields = stdout(&plain);
    let fields = fields.split_once(' ').unwrap().1;
    // RFC 9562's rand_a, and the counter named as kuuid's layout's (issue
    // 63, item 16: a foreign v7's rand_a was labelled `counter=`).
    let rand_a = id.counter() >> 10;
    assert!(fields.contains(&format!(" rand_a={rand_a} ")), "{fields}");
    assert!(
        fields.contains(" kuuid_counter=") && !fields.contains(" counter="),
        "{fields}"
    );
    for text in [
        id.braced().to_string(),
        id.urn().to_string(),
        id.urn()
            .to_string()
            .to_uppercase()
            .replace("URN:UUID:", "Urn:Uuid:"),
    ] {
        let o = kuuid(&["inspect", &text]);
        assert!(o.status.success(), "{text}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("{text} {fields}"), "{text}");
    }
}
