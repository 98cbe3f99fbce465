//! `kuuid`: mint, inspect and range-query time-sortable ids.
//!
//! A thin layer over the library: argument parsing and output only.

mod bench;
mod generate;
mod inspect;
mod prefix;
mod range;

use std::io;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use kuuid::{Layout, Timestamp};

/// Time-sortable unique document ids (kuuid), byte-compatible with npm kuuid.
///
/// Without a subcommand, mints ids: one per line. TIME is RFC 3339
/// (2018-01-01T00:00:00Z) or integer milliseconds since 1970.
#[derive(Parser)]
#[command(name = "kuuid", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    generate: generate::GenerateArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Print the 8-character timestamp prefix.
    Prefix(prefix::PrefixArgs),
    /// Show the time and random words of ids (from arguments, or stdin).
    Inspect(inspect::InspectArgs),
    /// Print the CouchDB startkey/endkey covering a time interval, as JSON.
    Range(range::RangeArgs),
    /// Measure minting and decoding speed on this CPU, per engine path.
    Bench(bench::BenchArgs),
}

/// The prefix's layout switches, shared by every subcommand.
#[derive(Args, Clone, Copy)]
struct LayoutArgs {
    /// Millisecond precision (default: seconds).
    #[arg(long)]
    ms: bool,
    /// Newest first (default: oldest first).
    #[arg(long)]
    reverse: bool,
}

impl LayoutArgs {
    fn layout(self) -> Layout {
        Layout::from_flags(self.ms, self.reverse)
    }
}

/// How a command ended.
enum Failure {
    /// Bad arguments: one line on stderr, exit 2.
    Usage(String),
    /// Some inputs failed (already reported): exit 1.
    Partial,
    /// Output failed: exit 1 (a closed pipe ends quietly with 0).
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl From<kuuid::Error> for Failure {
    fn from(e: kuuid::Error) -> Self {
        Failure::Usage(e.to_string())
    }
}

impl From<kuuid::TimeError> for Failure {
    fn from(e: kuuid::TimeError) -> Self {
        Failure::Usage(e.to_string())
    }
}

fn main() -> ExitCode {
    // A KUUID_ISA this CPU cannot honour is refused up front, not ignored.
    if let Err(e) = kuuid::engine::Isa::from_env() {
        eprintln!("kuuid: error: {e}");
        return ExitCode::from(2);
    }
    let version = format!(
        "{} (engine path: {}; available: {})",
        env!("CARGO_PKG_VERSION"),
        kuuid::engine::isa(),
        kuuid::engine::Isa::available()
            .iter()
            .map(|i| i.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    // Built once per run; clap wants a 'static string for a computed version.
    let version: &'static str = Box::leak(version.into_boxed_str());
    let parsed = Cli::command()
        .version(version)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap adds usage and a hint; one line is the contract.
            let text = e.render().to_string();
            let line = text.lines().next().unwrap_or("error: invalid arguments");
            eprintln!("kuuid: {line}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => generate::run(&cli.generate),
        Some(Command::Prefix(a)) => prefix::run(&a),
        Some(Command::Inspect(a)) => inspect::run(&a),
        Some(Command::Range(a)) => range::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("kuuid: error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Partial) => ExitCode::from(1),
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("kuuid: error: {e}");
            ExitCode::from(1)
        }
    }
}

/// TIME arguments: RFC 3339 or integer milliseconds.
fn parse_time(s: &str) -> Result<Timestamp, kuuid::TimeError> {
    s.parse()
}
