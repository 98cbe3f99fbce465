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
    /// Put TEXT before both keys: the document type of ids made as
    /// type + kuuid (`user:`). End it with a character outside base62.
    #[arg(long, value_name = "TEXT")]
    key_prefix: Option<String>,
    #[command(flatten)]
    layout: LayoutArgs,
}

pub fn run(a: &RangeArgs) -> Result<(), Failure> {
    let range = KeyRange::new(a.layout.layout(), a.from, a.to)?;
    match &a.key_prefix {
        Some(prefix) => crate::print_line(&range.with_prefix(prefix)),
        None => crate::print_line(&range),
    }
}
