//! A bench run as data: its figures, the JSON document (`--json`), a saved
//! run read back (`--baseline`), and the table.

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::machine::Header;
use super::name::Name;

/// The JSON document's schema name; a baseline of another one is refused.
pub const SCHEMA: &str = "kuuid-bench/1";

#[derive(Serialize, Deserialize)]
pub struct Report {
    pub schema: String,
    pub header: Header,
    pub figures: Vec<Figure>,
}

/// One measured figure: nanoseconds per item over the timed rounds.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Figure {
    /// A stable key, the same on every machine (`fill/avx2/fast`,
    /// `threads/avx2/id/2`, `limit/store/l2`): what a baseline is matched by.
    pub name: String,
    /// What one item is (`id`, `32-byte slot`, `16 random bytes`, `read`).
    pub per: String,
    pub threads: usize,
    /// Wall-clock nanoseconds per item, all threads together.
    pub ns_min: f64,
    pub ns_median: f64,
    pub ns_max: f64,
    /// Items per second from the median, all threads together.
    pub per_second: f64,
    /// The median over the 32-byte store's: how many stores of an id's size
    /// one id costs (bulk rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs_store: Option<f64>,
    /// Throughput over the same work on one thread (thread rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scaling: Option<f64>,
}

impl Figure {
    /// From per-round seconds for `items` items per round.
    pub fn new(name: Name, per: &str, threads: usize, secs: [f64; 3], items: u64) -> Figure {
        let ns = |s: f64| s * 1e9 / items as f64;
        Figure {
            name: name.to_string(),
            per: per.to_owned(),
            threads,
            ns_min: ns(secs[0]),
            ns_median: ns(secs[1]),
            ns_max: ns(secs[2]),
            per_second: items as f64 / secs[1],
            vs_store: None,
            scaling: None,
        }
    }
}

/// Reads a saved run; every way it can be wrong is one line.
pub fn load_baseline(path: &str) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--baseline {path}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("--baseline {path}: not JSON ({e})"))?;
    match value.get("schema").and_then(|s| s.as_str()) {
        Some(SCHEMA) => {}
        other => {
            return Err(format!(
                "--baseline {path}: not a kuuid bench report (schema {}, expected {SCHEMA:?})",
                other.map_or("missing".to_owned(), |s| format!("{s:?}"))
            ));
        }
    }
    serde_json::from_value(value).map_err(|e| format!("--baseline {path}: {e}"))
}

/// The header, then one line per figure; with a baseline, its median and
/// the speed-up (baseline time over this run's: above 1 is faster here).
pub fn print_table(
    out: &mut dyn Write,
    report: &Report,
    baseline: Option<&Report>,
) -> std::io::Result<()> {
    let h = &report.header;
    writeln!(
        out,
        "kuuid {} bench on {} ({} cores, {}){}",
        h.kuuid_version,
        h.cpu_label(),
        h.cores,
        h.target,
        h.date_suffix()
    )?;
    writeln!(out, "features: {}", h.features.join(" "))?;
    writeln!(
        out,
        "engine path: {} (available: {}); compiled for: {}",
        h.engine_path,
        h.engine_paths.join(", "),
        if h.target_features.is_empty() {
            "baseline".to_owned()
        } else {
            h.target_features.join(" ")
        }
    )?;
    writeln!(
        out,
        "{} ids per round, median of {} rounds{}",
        h.ids_per_round,
        h.rounds,
        if h.quick { " (--quick)" } else { "" }
    )?;
    if let Some(b) = baseline {
        writeln!(
            out,
            "baseline: kuuid {} on {} ({} cores){}",
            b.header.kuuid_version,
            b.header.cpu_label(),
            b.header.cores,
            b.header.date_suffix()
        )?;
    }
    write!(
        out,
        "{:<34} {:>3} {:>10} {:>11} {:>8} {:>8}",
        "figure", "thr", "ns/item", "M items/s", "x store", "scaling"
    )?;
    if baseline.is_some() {
        write!(out, " {:>11} {:>8}", "baseline ns", "speed-up")?;
    }
    writeln!(out)?;
    for f in &report.figures {
        let opt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.2}"));
        write!(
            out,
            "{:<34} {:>3} {:>10.3} {:>11.1} {:>8} {:>8}",
            f.name,
            f.threads,
            f.ns_median,
            f.per_second / 1e6,
            opt(f.vs_store),
            opt(f.scaling)
        )?;
        if let Some(b) = baseline {
            let former = super::name::former(&f.name);
            match b
                .figures
                .iter()
                .find(|g| g.name == f.name || Some(g.name.as_str()) == former)
            {
                Some(g) => write!(
                    out,
                    " {:>11.3} {:>8.2}",
                    g.ns_median,
                    g.ns_median / f.ns_median
                )?,
                None => write!(out, " {:>11} {:>8}", "-", "-")?,
            }
        }
        writeln!(out)?;
    }
    Ok(())
}
