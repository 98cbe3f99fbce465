//! `kuuid bench`: how fast this CPU mints and reads ids, per engine path.
//!
//! Each figure is the median of several timed rounds over one batch, after
//! a warm-up round; the same work the library does for `fill`, the CLI's
//! line writer, `parse_many` and `kuuid::id()`.

use std::io::{self, Write};
use std::time::Instant;

use clap::Args;
use kuuid::engine::Isa;
use kuuid::{Generator, Kuuid, RngKind};

use crate::Failure;

#[derive(Args)]
pub struct BenchArgs {
    /// Ids per round (the default keeps a round's 2 MiB in L2; try 1048576
    /// for DRAM-bound figures).
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 1 << 16,
          value_parser = clap::value_parser!(u64).range(1..=1 << 28))]
    count: u64,
    /// Timed rounds per figure (the median is shown).
    #[arg(long, value_name = "R", default_value_t = 15,
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    rounds: u64,
    /// Only this path (default: every path this CPU runs); the `id()` rows
    /// run on the process's path, set with KUUID_ISA.
    #[arg(long, value_name = "ISA", value_parser = parse_isa)]
    isa: Option<Isa>,
}

/// `--isa` values: the names `KUUID_ISA` takes, with an error that names
/// the flag.
fn parse_isa(s: &str) -> Result<Isa, String> {
    s.parse::<Isa>()
        .map_err(|_| format!("{s:?} names no engine path (expected scalar, avx2, avx512 or neon)"))
}

/// Median seconds of `rounds` runs of `f`, after one warm-up run.
fn median(rounds: u64, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

pub fn run(a: &BenchArgs) -> Result<(), Failure> {
    let paths = match a.isa {
        Some(isa) if !isa.is_supported() => {
            let available: Vec<&str> = Isa::available().iter().map(|i| i.name()).collect();
            return Err(Failure::Usage(format!(
                "--isa {isa}: this CPU cannot run the {isa} path (available: {})",
                available.join(", ")
            )));
        }
        Some(isa) => vec![isa],
        None => Isa::available(),
    };
    let n = a.count as usize;
    let mut ids = vec![Kuuid::default(); n];
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "kuuid {} bench: {n} ids per round, median of {} rounds, one thread; default path {}",
        env!("CARGO_PKG_VERSION"),
        a.rounds,
        kuuid::engine::isa()
    )?;
    writeln!(
        out,
        "{:<8} {:<22} {:<16} {:>8} {:>10}",
        "path", "work", "rng", "ns/id", "M ids/s"
    )?;
    // Bring the core up to speed before the first figure.
    let mut warm = Generator::new(RngKind::Fast).map_err(|e| Failure::Io(io::Error::other(e)))?;
    median(a.rounds, || warm.fill(&mut ids));
    let row = |out: &mut dyn Write, isa: Isa, work: &str, rng: &str, secs: f64| {
        let ns = secs * 1e9 / n as f64;
        writeln!(
            out,
            "{:<8} {:<22} {:<16} {:>8.2} {:>10.1}",
            isa.name(),
            work,
            rng,
            ns,
            1e3 / ns
        )
    };
    for &isa in &paths {
        for kind in [RngKind::Secure, RngKind::Fast] {
            let mut g = Generator::new(kind).map_err(|e| Failure::Io(io::Error::other(e)))?;
            g = g.with_isa(isa).map_err(|e| Failure::Usage(e.to_string()))?;
            let rng = g.rng_name();
            let t = median(a.rounds, || g.fill(&mut ids));
            row(&mut out, isa, "fill (library bulk)", rng, t)?;
            let t = median(a.rounds, || {
                g.write_lines(4, a.count, io::sink())
                    .expect("a sink does not fail")
            });
            row(&mut out, isa, "lines (CLI output)", rng, t)?;
        }
        // Decode: the ids from the last fill, as newline-separated text.
        let mut text = Vec::with_capacity(n * 33);
        for id in &ids {
            text.extend_from_slice(id.as_bytes());
            text.push(b'\n');
        }
        let mut back = vec![Kuuid::default(); n];
        let mut prefixes = vec![0u64; n];
        let mut words = vec![0u32; 4 * n];
        let t = median(a.rounds, || {
            let ok = kuuid::engine::decode_with(isa, &text, 33, &mut prefixes, &mut words)
                .expect("shape is right");
            assert_eq!(ok, n, "freshly minted ids decode");
        });
        row(&mut out, isa, "decode + validate", "-", t)?;
        if isa == kuuid::engine::isa() {
            let t = median(a.rounds, || {
                Kuuid::parse_many(&text, 33, &mut back).expect("freshly minted ids parse")
            });
            row(&mut out, isa, "parse_many (library)", "-", t)?;
        }
    }
    // The single-id path (`kuuid::id()`: per-thread buffer, clock read per
    // id), with time() and with the opt-in ticker. It runs on the process's
    // path (KUUID_ISA picks it), so it is shown only when that path is asked for.
    let isa = kuuid::engine::isa();
    if !paths.contains(&isa) {
        return Ok(());
    }
    let rng = Generator::secure().rng_name();
    let one_at_a_time = || {
        median(a.rounds, || {
            for _ in 0..n {
                std::hint::black_box(kuuid::id());
            }
        })
    };
    row(&mut out, isa, "id() one at a time", rng, one_at_a_time())?;
    let ticker = kuuid::clock::Ticker::start()?;
    row(&mut out, isa, "id() + clock::Ticker", rng, one_at_a_time())?;
    drop(ticker);
    Ok(())
}
