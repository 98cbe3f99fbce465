//! `kuuid prefix`: the 8-character prefix of a time.

use clap::Args;
use kuuid::Timestamp;

use crate::{Failure, LayoutArgs};

#[derive(Args)]
pub struct PrefixArgs {
    #[command(flatten)]
    layout: LayoutArgs,
    /// The time (default: now): RFC 3339, Ns (seconds), @N, Nms, or a
    /// bare N of milliseconds from 1973 on.
    #[arg(long, value_name = "TIME", allow_negative_numbers = true, value_parser = crate::parse_time)]
    at: Option<Timestamp>,
}

pub fn run(a: &PrefixArgs) -> Result<(), Failure> {
    let t = a.at.unwrap_or_else(Timestamp::now);
    let prefix = a.layout.layout().prefix(t)?;
    crate::print_line(&prefix)
}
