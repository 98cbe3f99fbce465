//! `kuuid between`: order keys between two keys (fractional indexing).

use std::io::{self, BufWriter, Write};

use clap::Args;
use kuuid::order::{
    KeyBuf, MAX_KEYS, OrderError, n_keys_between_into, n_keys_between_jittered_into,
    n_keys_between_part_into,
};

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
    #[arg(long, value_name = "BITS", default_value_t = 0, allow_negative_numbers = true,
          value_parser = jitter_bits)]
    jitter: u32,
    /// One JSON array of the keys instead of one key per line.
    #[arg(long)]
    json: bool,
}

/// Keys made per library call: the command holds 64 Ki keys at a time
/// instead of all. All 10^6 of `between '' '' -n 1000000` were 13 MiB and
/// half the process's time in page faults (perf, AMD Zen 5); `-n 1e8 a0
/// a1` peaked at 1.45 GB and wrote its first byte after 5.4 s.
const CHUNK: usize = 1 << 16;

pub fn run(a: &BetweenArgs) -> Result<(), Failure> {
    let (lo, hi) = (open_end(&a.a), open_end(&a.b));
    let usage = |e| Failure::Usage(message(e, &a.a, &a.b));
    let mut out = KeyOut::new(a.json);
    let mut keys = KeyBuf::new();
    if a.jitter == 0 && a.count as u64 <= MAX_KEYS {
        // Batches of CHUNK, each a part of the whole made on its own (from
        // an open end its first key's place is computed, between two keys
        // the bisection descends only where the part is). At least one
        // call, so a bad bound is refused even for -n 0.
        let mut from = 0;
        loop {
            let to = a.count.min(from + CHUNK);
            keys.clear();
            n_keys_between_part_into(lo, hi, a.count, from..to, &mut keys).map_err(usage)?;
            out.keys(&keys)?;
            if to == a.count {
                break;
            }
            from = to;
        }
    } else {
        if a.jitter == 0 {
            n_keys_between_into(lo, hi, a.count, &mut keys)
        } else {
            n_keys_between_jittered_into(lo, hi, a.count, a.jitter, &mut keys)
        }
        .map_err(usage)?;
        out.keys(&keys)?;
    }
    out.finish()
}

/// Keys to stdout, one a line or as one JSON array, in as many batches as
/// the caller has.
struct KeyOut {
    out: BufWriter<io::StdoutLock<'static>>,
    json: bool,
    /// Keys written so far.
    written: usize,
    /// Lines gathered in a buffer of our own and written 64 KiB at a
    /// time: two `write_all`s a key into the `BufWriter` and a UTF-8
    /// check a key (`KeyBuf::iter`) were half of the command's time.
    lines: Vec<u8>,
}

impl KeyOut {
    fn new(json: bool) -> Self {
        KeyOut {
            out: BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            json,
            written: 0,
            lines: Vec::with_capacity((1 << 16) + 64),
        }
    }

    fn keys(&mut self, keys: &KeyBuf) -> io::Result<()> {
        if self.json {
            for k in keys.iter() {
                let sep = if self.written == 0 { "[" } else { "," };
                // Keys are base62 and a head letter: nothing to escape.
                write!(self.out, "{sep}\"{k}\"")?;
                self.written += 1;
            }
            return Ok(());
        }
        for k in keys.iter_bytes() {
            self.lines.extend_from_slice(k);
            self.lines.push(b'\n');
            if self.lines.len() >= 1 << 16 {
                self.out.write_all(&self.lines)?;
                self.lines.clear();
            }
        }
        self.written += keys.len();
        Ok(())
    }

    fn finish(mut self) -> Result<(), Failure> {
        if self.json {
            self.out
                .write_all(if self.written == 0 { b"[]\n" } else { b"]\n" })?;
        } else {
            self.out.write_all(&self.lines)?;
        }
        self.out.flush()?;
        Ok(())
    }
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

/// `--jitter`: bits, not a count; a negative or fractional one says the
/// range too (clap's own parser refused `-1` as an unknown flag).
fn jitter_bits(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n <= 64 => Ok(n),
        _ => Err(format!(
            "{text} is not in 0..=64 (random bits of jitter, a whole number)"
        )),
    }
}
