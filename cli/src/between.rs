//! `kuuid between`: order keys between two keys (fractional indexing).

use std::io::{self, BufWriter, Write};

use clap::Args;
use kuuid::order::{KeyBuf, OrderError, n_keys_between_into, n_keys_between_jittered_into};

use crate::Failure;

#[derive(Args)]
pub struct BetweenArgs {
    /// The key below (empty or absent: no lower bound).
    #[arg(value_name = "A", default_value = "")]
    a: String,
    /// The key above (empty or absent: no upper bound).
    #[arg(value_name = "B", default_value = "")]
    b: String,
    /// How many keys, in ascending order.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 1,
          allow_negative_numbers = true, value_parser = crate::count::parse_usize)]
    count: usize,
    /// Random bits of jitter per key (0 to 64), so replicas inserting at
    /// the same place while apart do not mint the same key (two collide
    /// with probability 2^-BITS).
    #[arg(long, value_name = "BITS", default_value_t = 0)]
    jitter: u32,
    /// One JSON array of the keys instead of one key per line.
    #[arg(long)]
    json: bool,
}

pub fn run(a: &BetweenArgs) -> Result<(), Failure> {
    let (lo, hi) = (open_end(&a.a), open_end(&a.b));
    let mut keys = KeyBuf::new();
    let made = if a.jitter == 0 {
        n_keys_between_into(lo, hi, a.count, &mut keys)
    } else {
        n_keys_between_jittered_into(lo, hi, a.count, a.jitter, &mut keys)
    };
    made.map_err(|e| Failure::Usage(message(e, &a.a, &a.b)))?;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    if a.json {
        out.write_all(b"[")?;
        for (i, k) in keys.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            // Keys are base62 and a head letter: nothing to escape.
            write!(out, "{sep}\"{k}\"")?;
        }
        out.write_all(b"]\n")?;
    } else {
        // Lines gathered in a buffer of our own and written 64 KiB at a
        // time: two `write_all`s a key into the `BufWriter` and a UTF-8
        // check a key (`iter`) were half of the command's time.
        let mut lines = Vec::with_capacity((1 << 16) + 64);
        for k in keys.iter_bytes() {
            lines.extend_from_slice(k);
            lines.push(b'\n');
            if lines.len() >= 1 << 16 {
                out.write_all(&lines)?;
                lines.clear();
            }
        }
        out.write_all(&lines)?;
    }
    out.flush()?;
    Ok(())
}

/// An empty bound is an open end.
fn open_end(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

/// The library's error, with the offending argument quoted.
fn message(e: OrderError, a: &str, b: &str) -> String {
    match e {
        OrderError::Lower(why) => format!("A {a:?} is not an order key: {why}"),
        OrderError::Upper(why) => format!("B {b:?} is not an order key: {why}"),
        OrderError::NotAscending => format!("A {a:?} is not below B {b:?}"),
        e => e.to_string(),
    }
}
