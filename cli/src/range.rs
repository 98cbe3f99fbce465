//! `kuuid range`: CouchDB `startkey`/`endkey` for a time interval.

use clap::Args;
use kuuid::{KeyRange, Timestamp};

use crate::{Failure, LayoutArgs};

#[derive(Args)]
pub struct RangeArgs {
    /// Start of the interval (inclusive).
    #[arg(long, value_name = "TIME", value_parser = crate::parse_time)]
    from: Timestamp,
    /// End of the interval (inclusive).
    #[arg(long, value_name = "TIME", value_parser = crate::parse_time)]
    to: Timestamp,
    #[command(flatten)]
    layout: LayoutArgs,
}

pub fn run(a: &RangeArgs) -> Result<(), Failure> {
    crate::print_line(&KeyRange::new(a.layout.layout(), a.from, a.to)?)
}
