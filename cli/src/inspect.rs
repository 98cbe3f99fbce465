//! `kuuid inspect`: the time and random words of each id.

use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Write};

use clap::Args;
use kuuid::{AnyKuuid, Layout};

use crate::{Failure, LayoutArgs};

#[derive(Args)]
pub struct InspectArgs {
    #[command(flatten)]
    layout: LayoutArgs,
    /// One JSON object per line: {"id","timestamp_ms","time","random"}.
    #[arg(long)]
    json: bool,
    /// Ids to read (default: one per line from stdin; blank lines are skipped).
    /// An argument that is not an id (even one that is not UTF-8) is
    /// reported, and the rest are still read.
    #[arg(value_name = "ID", value_parser = clap::value_parser!(OsString))]
    ids: Vec<OsString>,
}

pub fn run(a: &InspectArgs) -> Result<(), Failure> {
    let layout = a.layout.layout();
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut bad = 0u64;
    let mut report = |text: &[u8],
                      result: Result<AnyKuuid, kuuid::ParseError>,
                      out: &mut dyn Write| {
        match result {
            Ok(id) => describe(&id, layout, a.json, out),
            Err(e) => {
                bad += 1;
                crate::say(&format!("kuuid: invalid id {}: {e}", shown(text)));
                Ok(())
            }
        }
    };
    if a.ids.is_empty() {
        // Read in large chunks; parse the complete lines of each (runs of
        // 32-character lines are validated in bulk), carry the partial last line.
        let mut input = io::stdin().lock();
        let mut buf: Vec<u8> = Vec::with_capacity(1 << 20);
        loop {
            let chunk = input.fill_buf()?;
            let eof = chunk.is_empty();
            buf.extend_from_slice(chunk);
            let n = chunk.len();
            input.consume(n);
            let complete = if eof {
                buf.len()
            } else {
                match buf.iter().rposition(|&b| b == b'\n') {
                    Some(p) if buf.len() >= 1 << 16 => p + 1,
                    _ => continue,
                }
            };
            for line in kuuid::parse_lines(&buf[..complete]) {
                report(line.text, line.id, &mut out)?;
            }
            buf.drain(..complete);
            if eof {
                break;
            }
        }
    } else {
        for id in &a.ids {
            let bytes = id.as_encoded_bytes();
            report(bytes, AnyKuuid::parse_bytes(bytes), &mut out)?;
        }
    }
    out.flush()?;
    if bad > 0 {
        Err(Failure::Partial)
    } else {
        Ok(())
    }
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
            r#"{{"id":"{id}","timestamp_ms":{},"time":{time},"random":[{}]}}"#,
            t.as_millis(),
            random.join(",")
        )
    } else {
        let random: Vec<String> = words.iter().map(u32::to_string).collect();
        writeln!(out, "{id} {t} {}", random.join(" "))
    }
}
