//! `kuuid inspect`: the time and fields of each id, in every format the
//! crate mints (the text alone tells which, except for 32 hex characters).

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use clap::Args;
use kuuid::couch::{Algorithm, Decoded, Format};
use kuuid::order::OrderKeyRef;
use kuuid::{AnyKuuid, Ksuid, Layout, ObjectId, Timestamp, TypeId, Ulid, Uuid7};

use crate::mint::IdFormat;
use crate::{Failure, LayoutArgs};

mod filter;
mod hints;
mod uuid;

use filter::{MAX_LINE, filter};
use hints::{kuuid_err, layout_hint};
use uuid::AnyUuid;

#[derive(Args)]
pub struct InspectArgs {
    #[command(flatten)]
    layout: LayoutArgs,
    /// The ids' format: kuuid (the only one --ms and --reverse apply to),
    /// v7, v7s, ulid, typeid, ksuid, objectid, couch-random, couch-sequential, couch-utc-random,
    /// couch-utc-id (14 hex digits of microseconds, then any suffix),
    /// uuid-v4 or couch-uuid-v7 (each UUID in its 36-character, 32-hex or
    /// 25-character base-36 text), order (an order key, as `kuuid
    /// between` prints: never told from the text), or objectid-legacy (an
    /// ObjectId read as the old layout: time, 3-byte machine, 2-byte
    /// process id, counter). Default: told from the text: 36
    /// characters with dashes are a UUID (version 4 is uuid-v4, 7 is v7;
    /// any other version or variant, nil and max are shown as uuid: kind,
    /// version, variant, and the time of v1 and v6), 24 hex
    /// an ObjectId, 25 of 0-9a-z CouchDB's base_36, 26 digits and capitals
    /// that read as one a ULID (a ULID in small letters needs this flag),
    /// a prefix, `_` and 26 more a TypeID, 27 a KSUID, other lengths a
    /// kuuid; 32 hex
    /// characters need this flag.
    #[arg(long, value_name = "F", hide_possible_values = true)]
    format: Option<IdFormat>,
    /// One JSON object per line: {"id","format","timestamp_ms","time",...}
    /// with the format's fields ("random" words for a kuuid).
    #[arg(long)]
    json: bool,
    /// Ids to read; `-`, or no ID at all, reads stdin as a line filter (each
    /// line's answer is written as soon as the line arrives; blank lines are
    /// skipped; lines over 4096 bytes are reported and skipped). An
    /// argument or line that is not an id (even one that is not UTF-8) is
    /// reported, with its line number, and the rest are still read.
    #[arg(value_name = "ID", value_parser = clap::value_parser!(OsString))]
    ids: Vec<OsString>,
}

pub fn run(a: &InspectArgs) -> Result<(), Failure> {
    let layout = a.layout.layout();
    if a.format.is_some_and(|f| f != IdFormat::Kuuid) && (a.layout.ms || a.layout.reverse) {
        return Err(Failure::Usage(
            "--ms and --reverse apply to kuuids only".to_owned(),
        ));
    }
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut bad = 0u64;
    let mut hinted = false;
    let mut report = |at: Option<usize>,
                      text: &[u8],
                      kuuid: Option<Result<AnyKuuid, kuuid::ParseError>>,
                      out: &mut dyn Write| {
        let fields = match kuuid {
            // Bulk-parsed as a kuuid: only 32 hex characters are in doubt.
            Some(Ok(id)) if a.format.is_some() || !(is_hex32(text) || is_ulid(text)) => {
                Ok(Fields::Kuuid(id))
            }
            Some(Err(e)) if a.format == Some(IdFormat::Kuuid) => Err(e.to_string()),
            _ if text.len() > MAX_LINE => Err(format!("longer than {MAX_LINE} bytes, skipped")),
            _ => read(text, a.format),
        };
        // Auto-detected: the flags for kuuid layouts cannot apply.
        let fields = fields.and_then(|f| match f {
            Fields::Kuuid(_) => Ok(f),
            _ if a.layout.ms || a.layout.reverse => Err(format!(
                "read as {}; --ms and --reverse apply to kuuids only",
                f.format_name(text)
            )),
            _ => Ok(f),
        });
        match fields {
            Ok(f) => {
                // A kuuid read in the wrong layout lands centuries ahead or
                // in 1970: say once, naming the flags that read it as a
                // time from 2000 to 9999.
                if let Fields::Kuuid(id) = &f
                    && !hinted
                    && let Some(hint) = layout_hint(id, a.layout.ms, a.layout.reverse)
                {
                    hinted = true;
                    crate::say(&format!("kuuid: hint: {id} {hint}"));
                }
                f.describe(text, layout, a.json, out)
            }
            Err(e) => {
                bad += 1;
                let at = at.map(|n| format!("line {n}: ")).unwrap_or_default();
                // A stream's overlong line is cut where it was caught: its
                // length is unknown (it said 65536 bytes of 100,000).
                let what = if at.is_empty() || text.len() <= MAX_LINE {
                    shown(text)
                } else {
                    let head = String::from_utf8_lossy(&text[..64]);
                    format!("{head:?}... (over {MAX_LINE} bytes)")
                };
                crate::say(&format!("kuuid: {at}invalid id {what}: {e}"));
                Ok(())
            }
        }
    };
    // Kuuid lines are validated in bulk; any other format goes line by line.
    let bulk = matches!(a.format, None | Some(IdFormat::Kuuid));
    if a.ids.is_empty() {
        filter(&mut io::stdin().lock(), bulk, &mut out, &mut report)?;
    }
    for id in &a.ids {
        let bytes = id.as_encoded_bytes();
        if bytes == b"-" {
            filter(&mut io::stdin().lock(), bulk, &mut out, &mut report)?;
        } else {
            report(
                None,
                bytes,
                bulk.then(|| AnyKuuid::parse_bytes(bytes)),
                &mut out,
            )?;
        }
    }
    out.flush()?;
    if bad > 0 {
        Err(Failure::Partial)
    } else {
        Ok(())
    }
}

fn is_hex32(text: &[u8]) -> bool {
    text.len() == 32 && text.iter().all(u8::is_ascii_hexdigit)
}

/// A ULID as ULIDs are written (digits and capitals): a kuuid of 26
/// characters has small letters but for about 1 in 50,000.
fn is_ulid(text: &[u8]) -> bool {
    !text.iter().any(u8::is_ascii_lowercase) && Ulid::parse_bytes(text).is_ok()
}

/// What an id holds, by format.
enum Fields<'a> {
    Kuuid(AnyKuuid),
    V7(Uuid7),
    Ulid(Ulid),
    TypeId(TypeId),
    Ksuid(Ksuid),
    ObjectId(ObjectId),
    /// Read with the legacy layout (`--format objectid-legacy`).
    ObjectIdLegacy(ObjectId),
    Couch(Algorithm, Decoded<'a>),
    Order(OrderKeyRef<'a>),
    /// A UUID of another version or variant (v1, v6, v8, nil, max, ...).
    Uuid(AnyUuid),
}

/// Reads `text` in `format`, or in the format its shape tells.
fn read(text: &[u8], format: Option<IdFormat>) -> Result<Fields<'_>, String> {
    // A UUID braced (`{...}`) or as a URN (`urn:uuid:...`), as uuid and
    // `Uuid7`'s parser read them: the 36 characters inside.
    let text = match (text.len(), text) {
        (38, [b'{', inner @ .., b'}']) => inner,
        (45, _) if text[..9].eq_ignore_ascii_case(b"urn:uuid:") => &text[9..],
        _ => text,
    };
    let utf8 = || std::str::from_utf8(text).map_err(|_| "not UTF-8".to_owned());
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let uuid_format = || match text.len() {
        36 => Format::Rfc9562,
        25 => Format::Base36,
        _ => Format::Base16,
    };
    let format = match format {
        Some(f) => f,
        None => match text.len() {
            32 if is_hex32(text) => {
                return Err("32 hex characters could be a kuuid, v7s, couch-random, \
                            couch-sequential, couch-utc-random, uuid-v4 or couch-uuid-v7: \
                            say which with --format"
                    .to_owned());
            }
            24 => IdFormat::Objectid,
            26 if is_ulid(text) => IdFormat::Ulid,
            27 => IdFormat::Ksuid,
            28.. if text.contains(&b'_') && TypeId::parse_bytes(text).is_ok() => IdFormat::Typeid,
            36 if AnyUuid::parse(text)
                .is_some_and(|u| !(u.is_rfc() && matches!(u.version(), 4 | 7))) =>
            {
                return Ok(Fields::Uuid(AnyUuid::parse(text).expect("parsed above")));
            }
            36 | 25 => {
                // A UUID: its version says which.
                let value = kuuid::couch::decode(utf8()?, Algorithm::UuidV4, uuid_format());
                match value {
                    Err(kuuid::couch::ParseError::Version { found: 7, .. }) => {
                        if text.len() == 36 {
                            IdFormat::V7
                        } else {
                            IdFormat::CouchUuidV7
                        }
                    }
                    Err(kuuid::couch::ParseError::Version { found, .. }) => {
                        return Err(format!("UUID version is {found}, expected 4 or 7"));
                    }
                    _ => IdFormat::UuidV4,
                }
            }
            _ => IdFormat::Kuuid,
        },
    };
    Ok(match format {
        IdFormat::Kuuid => {
            Fields::Kuuid(AnyKuuid::parse_bytes(text).map_err(|e| kuuid_err(text, &e))?)
        }
        IdFormat::V7 | IdFormat::V7s => Fields::V7(utf8()?.parse().map_err(|e| err(&e))?),
        IdFormat::Ulid => Fields::Ulid(Ulid::parse_bytes(text).map_err(|e| err(&e))?),
        IdFormat::Typeid => Fields::TypeId(TypeId::parse_bytes(text).map_err(|e| err(&e))?),
        IdFormat::Ksuid => Fields::Ksuid(Ksuid::parse_bytes(text).map_err(|e| err(&e))?),
        IdFormat::Objectid => Fields::ObjectId(utf8()?.parse().map_err(|e| err(&e))?),
        IdFormat::ObjectidLegacy => Fields::ObjectIdLegacy(utf8()?.parse().map_err(|e| err(&e))?),
        IdFormat::Order => {
            let text = utf8()?;
            Fields::Order(OrderKeyRef::parse(text).map_err(|e| format!("not an order key: {e}"))?)
        }
        f => {
            let algorithm = f.couch().expect("every other format is CouchDB's");
            let d = kuuid::couch::decode(utf8()?, algorithm, uuid_format()).map_err(|e| {
                // In 8-4-4-4-12 text, say which of a dash and a digit was due.
                match e {
                    kuuid::couch::ParseError::InvalidByte { index, byte }
                        if uuid_format() == Format::Rfc9562 =>
                    {
                        let due = if [8, 13, 18, 23].contains(&index) {
                            "a dash: 8-4-4-4-12 hex digits"
                        } else {
                            "a hex digit: 8-4-4-4-12 hex digits"
                        };
                        format!(
                            "invalid byte {:?} at index {index} (expected {due})",
                            byte as char
                        )
                    }
                    e => err(&e),
                }
            })?;
            Fields::Couch(algorithm, d)
        }
    })
}

impl Fields<'_> {
    /// The `--format` name of what `text` was read as.
    fn format_name(&self, text: &[u8]) -> &'static str {
        match self {
            Fields::Kuuid(_) => "kuuid",
            // The 32-character text is the simple form.
            Fields::V7(_) if text.len() == 32 => "v7s",
            Fields::V7(_) => "v7",
            Fields::Ulid(_) => "ulid",
            Fields::TypeId(_) => "typeid",
            Fields::Ksuid(_) => "ksuid",
            Fields::ObjectId(_) => "objectid",
            Fields::ObjectIdLegacy(_) => "objectid-legacy",
            Fields::Order(_) => "order",
            Fields::Uuid(_) => "uuid",
            Fields::Couch(algorithm, _) => match algorithm {
                Algorithm::Random => "couch-random",
                Algorithm::Sequential => "couch-sequential",
                Algorithm::UtcRandom => "couch-utc-random",
                Algorithm::UtcId => "couch-utc-id",
                Algorithm::UuidV4 => "uuid-v4",
                _ => "couch-uuid-v7",
            },
        }
    }

    fn describe(
        &self,
        text: &[u8],
        layout: Layout,
        json: bool,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let (format, time, fields): (&str, Option<Timestamp>, Vec<(&str, String)>) = match self {
            Fields::Kuuid(id) => return describe(id, layout, json, out),
            // The 32-character text is the simple form.
            Fields::V7(id) => (
                self.format_name(text),
                Some(id.timestamp()),
                // RFC 9562's field, true of any UUIDv7; the 22-bit counter
                // (rand_a and rand_b's top 10 bits) is kuuid's layout, and
                // another generator's id holds no counter there.
                vec![
                    ("rand_a", (id.counter() >> 10).to_string()),
                    ("kuuid_counter", id.counter().to_string()),
                ],
            ),
            // The 80 bits after the time, as 20 hex digits.
            Fields::Ulid(id) => (
                "ulid",
                Some(id.timestamp()),
                vec![("random", quoted(&format!("{:020x}", id.random())))],
            ),
            // The UUID's time where it is a UUIDv7.
            Fields::TypeId(id) => (
                "typeid",
                id.uuid7().ok().map(|u| u.timestamp()),
                vec![
                    ("prefix", quoted(id.prefix().as_str())),
                    ("uuid", quoted(&dashed_hex(id.uuid_bytes()))),
                ],
            ),
            Fields::Ksuid(id) => {
                let payload: String = id.payload().iter().map(|x| format!("{x:02x}")).collect();
                (
                    "ksuid",
                    Some(id.timestamp()),
                    vec![("payload", quoted(&payload))],
                )
            }
            Fields::ObjectId(id) => {
                let b = id.as_bytes();
                let process: String = b[4..9].iter().map(|x| format!("{x:02x}")).collect();
                let counter = u32::from_be_bytes([0, b[9], b[10], b[11]]);
                (
                    self.format_name(text),
                    Some(id.timestamp()),
                    vec![
                        ("process", quoted(&process)),
                        ("counter", counter.to_string()),
                    ],
                )
            }
            // The layout before the 2018 spec: time | machine | pid | counter.
            Fields::ObjectIdLegacy(id) => {
                let b = id.as_bytes();
                let machine: String = b[4..7].iter().map(|x| format!("{x:02x}")).collect();
                let pid = u16::from_be_bytes([b[7], b[8]]);
                let counter = u32::from_be_bytes([0, b[9], b[10], b[11]]);
                (
                    self.format_name(text),
                    Some(id.timestamp()),
                    vec![
                        ("machine", quoted(&machine)),
                        ("pid", pid.to_string()),
                        ("counter", counter.to_string()),
                    ],
                )
            }
            Fields::Order(key) => {
                let (integer, fraction) = key.as_str().split_at(key.integer_len());
                (
                    "order",
                    None,
                    vec![("integer", quoted(integer)), ("fraction", quoted(fraction))],
                )
            }
            Fields::Uuid(u) => {
                let (time, fields) = u.fields();
                ("uuid", time, fields)
            }
            Fields::Couch(_, d) => {
                let fields = match *d {
                    Decoded::Sequential { prefix, counter } => {
                        let p: String = prefix.iter().map(|x| format!("{x:02x}")).collect();
                        vec![("prefix", quoted(&p)), ("counter", counter.to_string())]
                    }
                    Decoded::Utc { micros, suffix } => {
                        vec![("micros", micros.to_string()), ("suffix", quoted(suffix))]
                    }
                    Decoded::Uuid { value } => {
                        vec![("version", ((value >> 76) & 0xf).to_string())]
                    }
                    _ => vec![],
                };
                (self.format_name(text), d.timestamp(), fields)
            }
        };
        let id = String::from_utf8_lossy(text);
        if json {
            let mut line = format!("{{\"id\":{},\"format\":\"{format}\"", quoted(&id));
            if let Some(t) = time {
                let rfc = t
                    .to_rfc3339()
                    .map_or_else(|| "null".to_owned(), |s| quoted(&s));
                line += &format!(",\"timestamp_ms\":{},\"time\":{rfc}", t.as_millis());
            }
            for (k, v) in &fields {
                line += &format!(",\"{k}\":{v}");
            }
            writeln!(out, "{line}}}")
        } else {
            let t = time.map_or_else(|| "-".to_owned(), |t| t.to_string());
            let mut line = format!("{id} {format} {t}");
            for (k, v) in &fields {
                line += &format!(" {k}={v}");
            }
            writeln!(out, "{line}")
        }
    }
}

/// 16 bytes as a UUID's 8-4-4-4-12 hex text.
fn dashed_hex(b: &[u8; 16]) -> String {
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// `s` as a JSON string (quotes, backslashes, control characters escaped).
fn quoted(s: &str) -> String {
    let mut out = Vec::with_capacity(s.len() + 2);
    crate::output::json_string(s.as_bytes(), &mut out);
    String::from_utf8(out).expect("escaping keeps UTF-8")
}

/// Bad input as it goes into a message: quoted, escaped, and cut after 64
/// bytes (with the full length), so a 10 MB line does not flood stderr.
fn shown(text: &[u8]) -> String {
    const MAX: usize = 64;
    let head = String::from_utf8_lossy(&text[..text.len().min(MAX)]);
    if text.len() > MAX {
        format!("{head:?}... ({} bytes)", text.len())
    } else {
        format!("{head:?}")
    }
}

fn describe(id: &AnyKuuid, layout: Layout, json: bool, out: &mut dyn Write) -> io::Result<()> {
    let t = id.timestamp(layout);
    let words = id.random_words();
    if json {
        let time = t
            .to_rfc3339()
            .map_or_else(|| "null".to_owned(), |s| format!("\"{s}\""));
        let random: Vec<String> = words.iter().map(u32::to_string).collect();
        writeln!(
            out,
            r#"{{"id":"{id}","format":"kuuid","timestamp_ms":{},"time":{time},"random":[{}]}}"#,
            t.as_millis(),
            random.join(",")
        )
    } else {
        let random: Vec<String> = words.iter().map(u32::to_string).collect();
        writeln!(out, "{id} kuuid {t} {}", random.join(" "))
    }
}
