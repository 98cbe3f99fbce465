//! `kuuid`: mint, inspect and range-query time-sortable ids.
//!
//! A thin layer over the library: argument parsing and output only.

mod bench;
mod between;
mod count;
mod inspect;
mod mint;
mod output;
mod prefix;
mod range;
#[cfg(feature = "db")]
mod seq;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use kuuid::{Layout, Timestamp};

/// Time-sortable unique document ids (kuuid), byte-compatible with npm kuuid.
///
/// Without a subcommand, mints ids: one per line. TIME is RFC 3339
/// (2018-01-01T00:00:00Z), a date alone (2018-01-01: midnight UTC, as
/// JavaScript's Date reads it), Ns or @N (seconds since 1970), Nms, or a
/// bare N of milliseconds from 1973 on.
#[derive(Parser)]
#[command(name = "kuuid", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    mint: mint::MintArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Print the 8-character timestamp prefix.
    Prefix(prefix::PrefixArgs),
    /// Show the time and random words of ids (from arguments, or stdin).
    Inspect(inspect::InspectArgs),
    /// Print the CouchDB startkey/endkey covering a time interval, as JSON.
    Range(range::RangeArgs),
    /// Print order keys between two keys (fractional indexing, as npm
    /// fractional-indexing): for ordered lists kept one document per item.
    Between(between::BetweenArgs),
    /// Measure minting and decoding speed on this CPU, per engine path.
    Bench(bench::BenchArgs),
    /// Print numbers from a counter in SQLite or PostgreSQL, leased a block
    /// at a time (two processes never print the same number).
    #[cfg(feature = "db")]
    Seq(seq::SeqArgs),
    /// (This build has no `db` feature: `kuuid seq` needs it.)
    #[cfg(not(feature = "db"))]
    #[command(hide = true)]
    Seq {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<std::ffi::OsString>,
    },
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
        match e {
            // Not the user's arguments: the machine.
            kuuid::Error::Random(_) => Failure::Io(io::Error::other(e)),
            e => Failure::Usage(e.to_string()),
        }
    }
}

impl From<kuuid::TimeError> for Failure {
    fn from(e: kuuid::TimeError) -> Self {
        Failure::Usage(e.to_string())
    }
}

fn main() -> ExitCode {
    // Closed stdout (`kuuid >&-`): Rust's stdout drops writes to a closed
    // descriptor without an error, so ask the OS before anything is lost.
    if stdout_is_closed() {
        say("kuuid: error: standard output is closed");
        return ExitCode::from(1);
    }
    // A KUUID_ISA this CPU cannot honour is refused up front, not ignored.
    if let Err(e) = kuuid::engine::Isa::from_env() {
        say(&format!("kuuid: error: KUUID_ISA: {e}"));
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
    // `kuuid help --help` (clap's help subcommand takes no flags): the
    // help's own help is the help.
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.len() == 3 && args[1] == "help" && (args[2] == "--help" || args[2] == "-h") {
        args.truncate(2);
    }
    let parsed = Cli::command()
        .version(version)
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let mut out = io::stdout().lock();
            let written = write!(out, "{e}").and_then(|()| out.flush());
            return finish(written.map_err(Failure::Io));
        }
        Err(e) => {
            say(&format!("kuuid: {}", one_line(&e.render().to_string())));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => mint::run(&cli.mint),
        Some(Command::Prefix(a)) => prefix::run(&a),
        Some(Command::Inspect(a)) => inspect::run(&a),
        Some(Command::Range(a)) => range::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Between(a)) => between::run(&a),
        #[cfg(feature = "db")]
        Some(Command::Seq(a)) => seq::run(&a),
        #[cfg(not(feature = "db"))]
        Some(Command::Seq { .. }) => Err(Failure::Usage(
            "kuuid seq needs the command built with its `db` feature (the default): \
             cargo install --path cli --locked"
                .into(),
        )),
    };
    finish(result)
}

/// The exit code for how a command ended, with its one line on stderr.
fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            say(&format!("kuuid: error: {msg}"));
            ExitCode::from(2)
        }
        Err(Failure::Partial) => ExitCode::from(1),
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            say(&format!("kuuid: error: {e}"));
            ExitCode::from(1)
        }
    }
}

/// clap's error as one line: its first paragraph, where a missing or bad
/// argument is named on the lines after the first, joined, then clap's
/// tips ("a similar argument exists: '--format'") in parentheses; usage
/// dropped.
fn one_line(text: &str) -> String {
    let para: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let mut line = match para.as_slice() {
        [] => "error: invalid arguments".to_owned(),
        [first, rest @ ..] if !rest.is_empty() && first.ends_with(':') => {
            format!("{first} {}", rest.join(", "))
        }
        lines => lines.join(" "),
    };
    let tips: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("tip: "))
        .collect();
    if !tips.is_empty() {
        line += &format!(" ({})", tips.join("; "));
    }
    line
}

/// A line on stderr. If stderr itself fails (closed, full) there is nowhere
/// left to report to: the exit code still tells.
fn say(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// Whether the process was started with standard output closed (`>&-`).
/// Rust's runtime reopens a closed fd 1 on `/dev/null` before `main`, so
/// every write would succeed and vanish; by then a reopened fd looks like a
/// `/dev/null` a parent opened on purpose (Python's `DEVNULL`, `daemon(3)`).
/// So the check runs before the runtime's, as an ELF constructor, and
/// `main` reads what it saw. Elsewhere there is no check.
fn stdout_is_closed() -> bool {
    start::STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

mod start {
    use std::sync::atomic::AtomicBool;

    /// Set before `main` when fd 1 was not open.
    pub(super) static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

    /// Runs before the Rust runtime starts (glibc and musl call
    /// `.init_array` entries before `main`, whose runtime then reopens
    /// closed standard fds).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[used]
    #[unsafe(link_section = ".init_array")]
    static CHECK: extern "C" fn() = check;

    #[cfg(any(target_os = "linux", target_os = "android"))]
    extern "C" fn check() {
        // SAFETY: fcntl(F_GETFD) on fd 1 only reads its flags; it fails
        // with EBADF if fd 1 is not open. Nothing else runs yet.
        if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
            STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The first millisecond a bare integer may name: 1973-01-01T00:00:00Z.
/// Below it, a bare integer is far more likely seconds (`date +%s`) than
/// a millisecond in 1970-1972, and reading it as milliseconds would mint
/// ids in January 1970 without a word.
const BARE_MILLIS_FROM: u64 = 94_694_400_000;

/// TIME arguments: RFC 3339, `Ns` (seconds), `Nms` (milliseconds), `@N`
/// (seconds, as GNU `date -d @N`), or a bare integer of milliseconds from
/// 1973 on (an earlier one is refused: seconds? add s).
fn parse_time(s: &str) -> Result<Timestamp, String> {
    let secs = |digits: &str| {
        digits
            .parse::<u64>()
            .ok()
            .and_then(Timestamp::from_secs)
            .ok_or_else(|| format!("{s:?}: not a whole number of seconds"))
    };
    if let Some(n) = s.strip_prefix('@') {
        return secs(n);
    }
    if let Some(n) = s.strip_suffix("ms") {
        return n
            .parse::<u64>()
            .map(Timestamp::from_millis)
            .map_err(|_| format!("{s:?}: not a whole number of milliseconds"));
    }
    if let Some(n) = s.strip_suffix('s') {
        return secs(n);
    }
    // A date alone is midnight UTC, as JavaScript's `new Date(t)` (npm
    // kuuid's) reads it.
    let b = s.as_bytes();
    if b.len() == 10 && b[4] == b'-' && b[7] == b'-' {
        return format!("{s}T00:00:00Z")
            .parse()
            .map_err(|_| format!("{s:?} is not a date (YYYY-MM-DD, years 1970 to 9999)"));
    }
    // A date and time with no offset: JavaScript reads it as local time,
    // which a command should not guess.
    if b.len() >= 16
        && matches!(b[10], b'T' | b't' | b' ')
        && !s[10..].contains(['Z', 'z', '+'])
        && !s[11..].contains('-')
    {
        return Err(format!(
            "{s:?} has no time zone: add Z for UTC or an offset such as +01:00 \
             (npm kuuid would read it as this machine's local time)"
        ));
    }
    if let Ok(ms) = s.parse::<u64>() {
        if ms < BARE_MILLIS_FROM {
            return Err(format!(
                "{s} as milliseconds is {}, before 1973: seconds? add s ({s}s, or @{s}); milliseconds: {s}ms",
                Timestamp::from_millis(ms)
            ));
        }
        return Ok(Timestamp::from_millis(ms));
    }
    s.parse().map_err(|e: kuuid::TimeError| match e {
        // The command takes more forms than the library: list them all.
        kuuid::TimeError::Syntax { .. } => format!(
            "{s:?} is not a time: give RFC 3339 (2018-01-01T00:00:00Z, any offset), a date \
             alone (2018-01-01, midnight UTC), seconds since 1970 as Ns or @N (1514764800s), \
             milliseconds as Nms (1514764800000ms), or a bare N of milliseconds from 1973 on"
        ),
        e => e.to_string(),
    })
}

/// One line on stdout, flushed; a write error (full disk, closed pipe) is
/// the command's failure, not a panic.
fn print_line(value: &dyn std::fmt::Display) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    writeln!(out, "{value}")?;
    out.flush()?;
    Ok(())
}
