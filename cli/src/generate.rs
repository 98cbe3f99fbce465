//! `kuuid [-n N] ...`: mint ids, one per line, through a large buffer.

use clap::Args;
use kuuid::{Generator, RngKind, Timestamp};

use crate::{Failure, LayoutArgs};

#[derive(Args)]
pub struct GenerateArgs {
    /// Number of ids to print.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 1)]
    count: u64,
    #[command(flatten)]
    layout: LayoutArgs,
    /// Random groups of 6 characters (1 to 4; 4 makes 32-character ids).
    #[arg(long, value_name = "K", default_value_t = 4,
          value_parser = clap::value_parser!(u8).range(1..=4), conflicts_with = "short")]
    random: u8,
    /// Short ids: 2 random groups (20 characters).
    #[arg(long)]
    short: bool,
    /// Mint at TIME instead of now.
    #[arg(long, value_name = "TIME", value_parser = crate::parse_time)]
    at: Option<Timestamp>,
    /// Use the fast xoshiro256++ engine: ids stay unique but become
    /// predictable from earlier ones (default: the secure engine,
    /// AES-128-CTR on CPUs with AES instructions, else ChaCha12).
    #[arg(long)]
    fast: bool,
    /// Each id sorts strictly after the previous one, even within one
    /// second or millisecond (newest-first layouts: strictly before).
    #[arg(long)]
    monotonic: bool,
}

pub fn run(a: &GenerateArgs) -> Result<(), Failure> {
    let kind = if a.fast {
        RngKind::Fast
    } else {
        RngKind::Secure
    };
    let mut g = Generator::new(kind)?.with_layout(a.layout.layout());
    if let Some(t) = a.at {
        g = g.at(t)?;
    }
    if a.monotonic {
        g = g.monotonic();
    }
    let groups = if a.short { 2 } else { usize::from(a.random) };
    let stdout = std::io::stdout();
    g.write_lines(groups, a.count, stdout.lock())?;
    Ok(())
}
