//! `kuuid prefix`: the 8-character prefix of a time.

use clap::Args;
use kuuid::Timestamp;

use crate::{Failure, LayoutArgs};

#[derive(Args)]
pub struct PrefixArgs {
    #[command(flatten)]
    layout: LayoutArgs,
    /// The time (default: now).
    #[arg(long, value_name = "TIME", value_parser = crate::parse_time)]
    at: Option<Timestamp>,
}

pub fn run(a: &PrefixArgs) -> Result<(), Failure> {
    let t = a.at.unwrap_or_else(Timestamp::now);
    let prefix = a.layout.layout().prefix(t)?;
    crate::print_line(&prefix)
}
