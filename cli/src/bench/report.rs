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
    /// The median in core cycles, at the clock measured in the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles: Option<f64>,
    /// With `--repeat`: the passes' medians' (max - min) over the median.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_spread: Option<f64>,
}

/// A figure whose rounds spread (max - min) by more than this share of
/// its median is marked noisy in the table.
pub const NOISY_SPREAD: f64 = 0.10;

impl Figure {
    /// (max - min) / median, within the rounds, or between the passes'
    /// medians where that is larger.
    pub fn spread(&self) -> f64 {
        let within = (self.ns_max - self.ns_min) / self.ns_median;
        self.pass_spread.map_or(within, |p| p.max(within))
    }
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
            cycles: None,
            pass_spread: None,
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
/// the speed-up (baseline time over this run's: above 1 is faster here), in
/// nanoseconds and, where both runs measured their clock, in cycles.
pub fn print_table(
    out: &mut dyn Write,
    report: &Report,
    baseline: Option<&Report>,
) -> std::io::Result<()> {
    let h = &report.header;
    print_header(out, h)?;
    if let Some(b) = baseline {
        writeln!(
            out,
            "baseline: kuuid {} on {} ({} cores){}",
            b.header.kuuid_version,
            b.header.cpu_label(),
            b.header.cores,
            b.header.date_suffix()
        )?;
        for d in differences(h, &b.header) {
            writeln!(out, "baseline differs: {d}")?;
        }
    }
    let cycles_too = baseline.is_some_and(|b| b.header.ghz.is_some()) && h.ghz.is_some();
    write!(
        out,
        "{:<34} {:>3} {:>10} {:>9} {:>9} {:>8} {:>11} {:>8} {:>8}",
        "figure", "thr", "ns/item", "min", "max", "cycles", "M items/s", "x store", "scaling"
    )?;
    if baseline.is_some() {
        write!(out, " {:>11} {:>8}", "baseline ns", "speed-up")?;
    }
    if cycles_too {
        write!(out, " {:>8}", "cyc x")?;
    }
    writeln!(out)?;
    let mut noisy = 0;
    for f in &report.figures {
        let opt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.2}"));
        let mark = if f.spread() > NOISY_SPREAD {
            noisy += 1;
            " *"
        } else {
            ""
        };
        write!(
            out,
            "{:<34} {:>3} {:>10.3} {:>9.3} {:>9.3} {:>8} {:>11.1} {:>8} {:>8}",
            f.name,
            f.threads,
            f.ns_median,
            f.ns_min,
            f.ns_max,
            f.cycles.map_or("-".to_owned(), |c| format!("{c:.1}")),
            f.per_second / 1e6,
            opt(f.vs_store),
            opt(f.scaling)
        )?;
        if let Some(b) = baseline {
            let former = super::name::former(&f.name);
            let g = b
                .figures
                .iter()
                .find(|g| g.name == f.name || Some(g.name.as_str()) == former);
            match g {
                Some(g) => write!(
                    out,
                    " {:>11.3} {:>8.2}",
                    g.ns_median,
                    g.ns_median / f.ns_median
                )?,
                None => write!(out, " {:>11} {:>8}", "-", "-")?,
            }
            if cycles_too {
                match g.and_then(|g| g.cycles.or_else(|| Some(g.ns_median * b.header.ghz?))) {
                    Some(c) => write!(out, " {:>8.2}", c / f.cycles.unwrap_or(f64::NAN))?,
                    None => write!(out, " {:>8}", "-")?,
                }
            }
        }
        writeln!(out, "{mark}")?;
    }
    if noisy > 0 {
        writeln!(
            out,
            "* {noisy} figure(s) spread (max - min) by more than {:.0} % of the median over the \
             rounds or between the passes: noise; take them with --repeat 5, or again on an \
             idle machine",
            NOISY_SPREAD * 100.0
        )?;
    }
    Ok(())
}

/// The machine, the build, the clock, the load, and a warning when busy.
fn print_header(out: &mut dyn Write, h: &Header) -> std::io::Result<()> {
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
    let or_unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "unknown".into());
    writeln!(
        out,
        "clock: {}; caches: {}; hypervisor: {}; built by {}, profile {}",
        h.ghz.map_or("not measured".to_owned(), |g| format!(
            "{g:.2} GHz (dependent adds)"
        )),
        if h.caches.is_empty() {
            "unknown".to_owned()
        } else {
            h.caches.join(" ")
        },
        h.hypervisor.as_deref().unwrap_or("none"),
        or_unknown(&h.rustc),
        or_unknown(&h.profile),
    )?;
    let load = |l: Option<[f64; 3]>| {
        l.map_or("unknown".to_owned(), |[a, b, c]| {
            format!("{a:.2} {b:.2} {c:.2}")
        })
    };
    writeln!(
        out,
        "load: {} at the start, {} at the end; steal over the run: {}",
        load(h.load_start),
        load(h.load_end),
        h.steal_pct
            .map_or("unknown".to_owned(), |s| format!("{s:.1} %"))
    )?;
    if let Some(why) = h.busy() {
        writeln!(
            out,
            "warning: the machine was busy ({why}): figures may read high and vary"
        )?;
    }
    let kib = |b: u64| {
        if b >= 1 << 20 {
            format!("{} MiB", b >> 20)
        } else {
            format!("{} KiB", b >> 10)
        }
    };
    if !h.floor_bytes.is_empty() {
        let floors: Vec<String> = h
            .floor_bytes
            .iter()
            .map(|(level, b)| format!("{level} {}", kib(*b)))
            .collect();
        writeln!(out, "store floors' buffers: {}", floors.join(", "))?;
    }
    writeln!(
        out,
        "{} ids per round, median of {} rounds{}{}",
        h.ids_per_round,
        h.rounds,
        if h.repeat > 1 {
            format!(", median of {} whole passes", h.repeat)
        } else {
            String::new()
        },
        if h.quick { " (--quick)" } else { "" }
    )
}

/// Where a baseline's run is not like this one, one line each: what a
/// ratio between the two then mixes in.
fn differences(here: &Header, there: &Header) -> Vec<String> {
    let mut d = Vec::new();
    let mode = |q| if q { "--quick" } else { "a full run" };
    if here.quick != there.quick {
        d.push(format!(
            "{} here, {} there",
            mode(here.quick),
            mode(there.quick)
        ));
    }
    if here.ids_per_round != there.ids_per_round {
        d.push(format!(
            "-n {} here, {} there (other buffer sizes, other caches)",
            here.ids_per_round, there.ids_per_round
        ));
    }
    if here.rounds != there.rounds {
        d.push(format!(
            "{} rounds here, {} there",
            here.rounds, there.rounds
        ));
    }
    if here.repeat != there.repeat {
        d.push(format!(
            "{} passes here, {} there",
            here.repeat, there.repeat
        ));
    }
    if here.kuuid_version != there.kuuid_version {
        d.push(format!(
            "kuuid {} here, {} there",
            here.kuuid_version, there.kuuid_version
        ));
    }
    if here.engine_paths != there.engine_paths {
        d.push(format!(
            "paths {} here, {} there",
            here.engine_paths.join(", "),
            there.engine_paths.join(", ")
        ));
    }
    if here.profile != there.profile && there.profile.is_some() {
        d.push(format!(
            "profile {} here, {} there",
            here.profile.as_deref().unwrap_or("?"),
            there.profile.as_deref().unwrap_or("?")
        ));
    }
    match (here.ghz, there.ghz) {
        // Beyond the clock measurement's own few percent.
        (Some(a), Some(b)) if (a / b - 1.0).abs() > 0.03 => d.push(format!(
            "clock {a:.2} GHz here, {b:.2} there: compare the cycles column"
        )),
        (Some(_), None) => d.push("the baseline measured no clock: nanoseconds only".to_owned()),
        _ => {}
    }
    d
}
