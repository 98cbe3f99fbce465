//! `kuuid range`: CouchDB `startkey`/`endkey` for a time interval.

use clap::Args;
use kuuid::{KeyRange, Timestamp};

use crate::{Failure, LayoutArgs};

#[derive(Args)]
pub struct RangeArgs {
    /// Start of the interval (inclusive): RFC 3339, Ns (seconds), @N,
    /// Nms, or a bare N of milliseconds from 1973 on.
    #[arg(long, value_name = "TIME", allow_negative_numbers = true, value_parser = crate::parse_time)]
    from: Timestamp,
    /// End of the interval (inclusive).
    #[arg(long, value_name = "TIME", allow_negative_numbers = true, value_parser = crate::parse_time)]
    to: Timestamp,
    /// Put TEXT before both keys: the document type of ids made as
    /// type + kuuid (`user:`). It must end with a character outside base62
    /// (0-9, A-Z, a-z): `user` is refused, as its range would also take
    /// ids of a `users` type.
    #[arg(long, value_name = "TEXT")]
    key_prefix: Option<String>,
    /// The output is JSON already: taken, as `inspect --json` and
    /// `between --json` take it, and changes nothing.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    layout: LayoutArgs,
}

pub fn run(a: &RangeArgs) -> Result<(), Failure> {
    let range = KeyRange::new(a.layout.layout(), a.from, a.to)?;
    match &a.key_prefix {
        Some(prefix) if prefix.ends_with(|c: char| c.is_ascii_alphanumeric()) => {
            Err(Failure::Usage(format!(
                "--key-prefix {prefix:?} ends in a base62 character: its range would also \
                 take the ids of a type such as \"{prefix}s\"; end it with a separator such as ':'"
            )))
        }
        Some(prefix) => crate::print_line(&range.with_prefix(prefix)),
        None => crate::print_line(&range),
    }
}
