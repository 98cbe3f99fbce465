//! `kuuid bench`: how fast this CPU mints and reads ids, per engine path
//! and per thread count, next to what the hardware itself can do (store
//! bandwidth, the RNG alone, a clock read), so every figure has a
//! denominator; `--json` saves a run and `--baseline` compares with one.
//!
//! Each figure is the median (and min and max) of several timed rounds,
//! after a warm-up round, of the same work the library does.

mod formats;
mod host;
mod machine;
mod name;
mod passes;
mod report;
mod timing;

use std::hint::black_box;
use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kuuid::engine::{Isa, IsaError};
use kuuid::{Generator, Kuuid, RngKind};

use crate::Failure;
use machine::Header;
use name::Name;
use report::{Figure, Report, SCHEMA};
use timing::{stats, stats_threaded};

#[derive(Args)]
pub struct BenchArgs {
    /// Ids per round (the default, 65536, keeps a round's 2 MiB in L2). At
    /// most 4194304 (2^22), so that a round's buffers (about 121 bytes an
    /// id, and 32 more per id for each thread of the thread rows, up to
    /// 1 GiB in all) fit in memory.
    #[arg(short = 'n', long = "count", value_name = "N", allow_negative_numbers = true,
          value_parser = crate::count::within(1, MAX_COUNT))]
    count: Option<u64>,
    /// Timed rounds per figure (the median is shown).
    #[arg(long, value_name = "R", allow_negative_numbers = true,
          value_parser = crate::count::within(1, 1000))]
    rounds: Option<u64>,
    /// Only this path (default: every path this CPU runs). The whole run
    /// takes it: the `id()`, format and thread rows too (the command runs
    /// itself again with KUUID_ISA set, which picks the process's path).
    #[arg(long, value_name = "ISA", value_parser = parse_isa)]
    isa: Option<Isa>,
    /// Thread counts 1..=N for the scaling rows (default: the cores this
    /// process may use).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = crate::count::within(1, 1024))]
    threads: Option<u64>,
    /// A few seconds: -n 16384 and 7 rounds (unless given), a 64 MiB DRAM
    /// buffer for the store limit (not 256 MiB), 5 ms thread rounds (not
    /// 20) and only 1 and N threads.
    #[arg(long)]
    quick: bool,
    /// Whole passes of the run (every path in turn, then again): each
    /// figure is the median of the passes' medians, its min and max those
    /// of every round, and a row is marked noisy where the passes differ.
    /// The saved runs in docs/bench/ are taken with --repeat 5.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = crate::count::within(1, 100))]
    repeat: Option<u64>,
    /// Print one JSON document (header and every figure, min/median/max)
    /// instead of the table.
    #[arg(long)]
    json: bool,
    /// A saved `--json` run (from another machine, say): each figure is
    /// printed next to its, with the speed-up.
    #[arg(long, value_name = "FILE.json")]
    baseline: Option<String>,
}

/// `--isa` values: the names `KUUID_ISA` takes (clap names the flag in
/// front of the error).
fn parse_isa(s: &str) -> Result<Isa, String> {
    s.parse::<Isa>().map_err(|e| e.to_string())
}

fn machine_failure(e: impl std::fmt::Display) -> Failure {
    Failure::Io(io::Error::other(e.to_string()))
}

/// The largest `-n`: see its help.
const MAX_COUNT: u64 = 1 << 22;

/// The thread rows' buffers together stay under this: with many threads
/// each takes fewer ids.
const THREAD_BYTES: usize = 1 << 30;

/// Runs this command again with `KUUID_ISA` naming `isa`, so every row
/// (`id()`, the formats, the threads) runs on it: the process's path is
/// chosen once, at its first id.
fn run_on(isa: Isa) -> Result<(), Failure> {
    if std::env::var("KUUID_ISA").is_ok_and(|v| v == isa.name()) {
        return Err(machine_failure(format!(
            "KUUID_ISA={isa} is set, yet the process runs the {} path",
            kuuid::engine::isa()
        )));
    }
    let exe = std::env::current_exe()?;
    let mut child = std::process::Command::new(exe);
    child
        .args(std::env::args_os().skip(1))
        .env("KUUID_ISA", isa.name());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Only returns on failure.
        Err(Failure::Io(child.exec()))
    }
    #[cfg(not(unix))]
    {
        let status = child.status()?;
        std::process::exit(status.code().unwrap_or(1))
    }
}

pub fn run(a: &BenchArgs) -> Result<(), Failure> {
    let paths = match a.isa {
        Some(isa) if !isa.is_supported() => {
            return Err(Failure::Usage(format!(
                "--isa {isa}: {}",
                IsaError::Unsupported(isa)
            )));
        }
        Some(isa) if isa != kuuid::engine::isa() => return run_on(isa),
        Some(isa) => vec![isa],
        None => Isa::available(),
    };
    // Read before measuring: a bad file is a usage error, at once.
    let baseline = match &a.baseline {
        Some(path) => Some(report::load_baseline(path).map_err(Failure::Usage)?),
        None => None,
    };
    let count = a.count.unwrap_or(if a.quick { 1 << 14 } else { 1 << 16 });
    let rounds = a.rounds.unwrap_or(if a.quick { 7 } else { 41 });
    let cpu_start = host::CpuTimes::now();
    let mut header = Header::detect(count, rounds, a.quick);
    let max_threads = a.threads.map_or(header.cores, |t| t as usize);
    let thread_counts: Vec<usize> = if a.quick {
        let mut v = vec![1, max_threads];
        v.dedup();
        v
    } else {
        (1..=max_threads).collect()
    };
    let process_path = kuuid::engine::isa();
    let repeat = a.repeat.unwrap_or(1);
    header.repeat = repeat;
    let floors = host::floors(&header.caches, a.quick);
    header.floor_bytes = floors.clone();
    let progress = progress_bar();
    let mut passes = Vec::new();
    for _ in 0..repeat {
        let mut bench = Bench {
            n: count as usize,
            rounds,
            figures: Vec::new(),
            progress: progress.clone(),
        };
        bench.limits(&floors)?;
        for &isa in &paths {
            bench.path(isa)?;
        }
        if paths.contains(&process_path) {
            bench.single(process_path)?;
        }
        bench.formats();
        // Each thread round runs this long: a host slow to wake a vCPU then
        // costs a few percent, not the round.
        let span = Duration::from_millis(if a.quick { 5 } else { 20 });
        bench.threads(&thread_counts, span)?;
        passes.push(bench.figures);
    }
    debug_assert_eq!(
        Some(progress.position()),
        progress.length(),
        "figures pushed vs expected"
    );
    progress.finish_and_clear();
    let mut figures = passes::merge(passes);
    header.load_end = host::load();
    header.steal_pct = cpu_start
        .zip(host::CpuTimes::now())
        .and_then(|(a, b)| a.steal_pct(b));
    if let Some(ghz) = header.ghz {
        for f in &mut figures {
            f.cycles = Some(f.ns_median * ghz);
        }
    }
    let report = Report {
        schema: SCHEMA.to_owned(),
        header,
        figures,
    };
    let mut out = io::stdout().lock();
    if a.json {
        serde_json::to_writer_pretty(&mut out, &report).map_err(machine_failure)?;
        writeln!(out)?;
    } else {
        report::print_table(&mut out, &report, baseline.as_ref())?;
    }
    out.flush()?;
    Ok(())
}

/// A progress line on stderr when it is a terminal; nothing otherwise.
/// Its length grows as each part of the run says how many figures it
/// will push ([`Bench::expect`]).
fn progress_bar() -> ProgressBar {
    let target = if io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(0), target);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}") {
        bar.set_style(style);
    }
    bar
}

/// The run in progress: settings, figures so far, the progress line.
struct Bench {
    n: usize,
    rounds: u64,
    figures: Vec<Figure>,
    progress: ProgressBar,
}

impl Bench {
    /// Adds a figure; a one-thread figure per id gets its ratio to the
    /// 32-byte store into L2 (once that is measured).
    fn push(&mut self, mut f: Figure) {
        if f.per == "id" && f.threads == 1 && f.scaling.is_none() {
            let store = self.median_of(Name::StoreL2);
            if store.is_finite() {
                f.vs_store = Some(f.ns_median / store);
            }
        }
        self.progress.set_message(f.name.clone());
        self.progress.inc(1);
        self.figures.push(f);
    }

    /// Says that the next part of the run pushes `figures` figures.
    fn expect(&self, figures: usize) {
        self.progress.inc_length(figures as u64);
    }

    fn median_of(&self, name: Name) -> f64 {
        let name = name.to_string();
        self.figures
            .iter()
            .find(|f| f.name == name)
            .map_or(f64::NAN, |f| f.ns_median)
    }

    /// The hardware's own limits: 32-byte stores into buffers sized by
    /// the caches (`floors`: L1, L2, L3, DRAM; each round fills its
    /// buffer until it has written 16 MiB, so a small buffer's round is
    /// not one timer tick), the RNGs alone (16 bytes, an id's worth), and a
    /// clock read.
    fn limits(&mut self, floors: &[(String, u64)]) -> Result<(), Failure> {
        let (n, rounds) = (self.n, self.rounds);
        let rngs = [RngKind::Secure, RngKind::Fast];
        self.expect(floors.len() + rngs.len() + 1);
        for (level, bytes) in floors {
            let name = match level.as_str() {
                "l1" => Name::StoreL1,
                "l2" => Name::StoreL2,
                "l3" => Name::StoreL3,
                _ => Name::StoreDram,
            };
            let slots = (*bytes / 32).max(1) as usize;
            let fills = (16 << 20) / (slots as u64 * 32).min(16 << 20);
            let mut buf = vec![[0u8; 32]; slots];
            let mut x = 0u8;
            let t = stats(rounds, || {
                for _ in 0..fills {
                    x = x.wrapping_add(1);
                    buf.fill([x; 32]);
                    black_box(&buf);
                }
            });
            self.push(Figure::new(
                name,
                "32-byte slot",
                1,
                t,
                slots as u64 * fills,
            ));
        }
        let mut words = vec![0u32; 4 * n];
        for kind in rngs {
            let mut g = Generator::new(kind).map_err(machine_failure)?;
            let t = stats(rounds, || {
                g.fill_random(&mut words);
                black_box(&words);
            });
            let name = Name::Rng(g.rng_name());
            self.push(Figure::new(name, "16 random bytes", 1, t, n as u64));
        }
        let t = stats(rounds, || {
            for _ in 0..n {
                black_box(kuuid::Timestamp::now());
            }
        });
        self.push(Figure::new(Name::ClockMillis, "read", 1, t, n as u64));
        Ok(())
    }

    /// Bulk minting, the CLI's line writer and decoding on one engine path.
    fn path(&mut self, isa: Isa) -> Result<(), Failure> {
        let (n, rounds) = (self.n, self.rounds);
        let mut ids = vec![Kuuid::default(); n];
        let rngs = [RngKind::Secure, RngKind::Fast];
        let parse_many = isa == kuuid::engine::isa();
        self.expect(2 * rngs.len() + 1 + usize::from(parse_many));
        for kind in rngs {
            let mut g = Generator::new(kind).map_err(machine_failure)?;
            g = g.with_isa(isa).map_err(|e| Failure::Usage(e.to_string()))?;
            let t = stats(rounds, || g.fill(&mut ids));
            self.push(Figure::new(
                Name::Fill(isa, g.rng_name()),
                "id",
                1,
                t,
                n as u64,
            ));
            let t = stats(rounds, || {
                g.write_lines(4, n as u64, io::sink())
                    .expect("a sink does not fail")
            });
            let name = Name::Lines(isa, g.rng_name());
            self.push(Figure::new(name, "id", 1, t, n as u64));
        }
        // Decode: the ids from the last fill, as newline-separated text.
        let mut text = Vec::with_capacity(n * 33);
        for id in &ids {
            text.extend_from_slice(id.as_bytes());
            text.push(b'\n');
        }
        let mut decoded = vec![Kuuid::default(); n];
        let t = stats(rounds, || {
            Kuuid::parse_many_with(isa, &text, 33, &mut decoded).expect("freshly minted ids parse")
        });
        self.push(Figure::new(Name::Decode(isa), "id", 1, t, n as u64));
        if parse_many {
            let mut back = vec![Kuuid::default(); n];
            let t = stats(rounds, || {
                Kuuid::parse_many(&text, 33, &mut back).expect("freshly minted ids parse")
            });
            self.push(Figure::new(Name::ParseMany(isa), "id", 1, t, n as u64));
        }
        Ok(())
    }

    /// `kuuid::id()` one at a time (per-thread buffer, a clock read per
    /// id), with time() and with the opt-in ticker.
    fn single(&mut self, isa: Isa) -> Result<(), Failure> {
        let (n, rounds) = (self.n, self.rounds);
        self.expect(2);
        let one_at_a_time = || {
            stats(rounds, || {
                for _ in 0..n {
                    black_box(kuuid::id());
                }
            })
        };
        self.push(Figure::new(
            Name::Id(isa),
            "id",
            1,
            one_at_a_time(),
            n as u64,
        ));
        let ticker = kuuid::clock::Ticker::start()?;
        let t = one_at_a_time();
        drop(ticker);
        self.push(Figure::new(Name::IdTicker(isa), "id", 1, t, n as u64));
        Ok(())
    }

    /// Bulk `fill` and single `id()` on 1, 2, ... threads at once, each
    /// with its own generator and buffer; ids/s in total and the scaling
    /// over one thread.
    fn threads(&mut self, counts: &[usize], span: Duration) -> Result<(), Failure> {
        let rounds = self.rounds;
        let isa = kuuid::engine::isa();
        self.expect(2 * counts.len());
        let mut one = [f64::NAN; 2];
        for &t in counts {
            let n = self.n.min(THREAD_BYTES / size_of::<Kuuid>() / t);
            let per_item = stats_threaded(
                t,
                rounds,
                span,
                || (Generator::fast(), vec![Kuuid::default(); n]),
                |(g, ids)| {
                    g.fill(ids);
                    black_box(&ids);
                    n as u64
                },
            );
            let mut f = Figure::new(Name::ThreadsFill(isa, t), "id", t, per_item, 1);
            if t == 1 {
                one[0] = f.per_second;
            }
            f.scaling = Some(f.per_second / one[0]);
            self.push(f);
            let per_item = stats_threaded(
                t,
                rounds,
                span,
                || (),
                |()| {
                    for _ in 0..1024 {
                        black_box(kuuid::id());
                    }
                    1024
                },
            );
            let mut f = Figure::new(Name::ThreadsId(isa, t), "id", t, per_item, 1);
            if t == 1 {
                one[1] = f.per_second;
            }
            f.scaling = Some(f.per_second / one[1]);
            self.push(f);
        }
        Ok(())
    }
}
