//! `kuuid inspect` (cli/src/inspect.rs) fed what is not a stream of lines.

use std::process::{Command, Stdio};

use crate::child::output;
use crate::common::stderr;

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
