//! `kuuid seq`: numbers from a counter in a database, leased a block at a
//! time (`kuuid_sequence`).

use std::io;
use std::time::Duration;

use clap::Args;
use kuuid_sequence::render::{BASE62_LEN, MAX_DECIMAL_WIDTH, encode_base62, encode_decimal};
use kuuid_sequence::{
    BlockSource, Counter, Error, PostgresCounters, Sequence, ShardedCounter, SqliteCounters,
};

use crate::Failure;
use crate::output::Sink;

#[derive(Args)]
pub struct SeqArgs {
    /// The database: sqlite:PATH (created if missing) or a PostgreSQL
    /// connection string as libpq reads it (postgres://... or host=...
    /// user=...; PG* variables, ~/.pgpass and the sslmode, sslrootcert,
    /// sslcert and sslkey keys too). Server settings go in options, e.g. a
    /// lock timeout: "host=db user=app options='-c lock_timeout=5s'" or
    /// "postgres://app@db/app?options=-c%20lock_timeout%3D5s".
    #[arg(long, value_name = "DB")]
    db: String,
    /// The counter's name (not empty).
    #[arg(long, value_name = "NAME")]
    name: String,
    /// How many values to print.
    #[arg(short = 'n', long = "count", value_name = "COUNT", default_value_t = 1,
          allow_negative_numbers = true, value_parser = crate::count::parse)]
    count: u64,
    /// Values leased from the database at a time, through a prefetching
    /// sequence (the unprinted rest of the last block is a gap). Default:
    /// leases of exactly what is printed, at most 1048576 (2^20) and
    /// --shard-size at a time, so the next run goes on where this one
    /// stopped (after the whole block: `seq -n 1e6 | head -1` spends 10^6)
    /// and an interrupted run burns at most 2^20.
    #[arg(long, value_name = "B", allow_negative_numbers = true,
          value_parser = crate::count::within(1, u64::MAX))]
    block: Option<u64>,
    /// Seconds (fractions too: 0.5) a lease waits while another process
    /// writes the SQLite file (default 30); then the run fails with
    /// "database is locked". For PostgreSQL, put
    /// options='-c lock_timeout=5s' in --db instead.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = busy_seconds)]
    busy_timeout: Option<f64>,
    /// Print each value as exactly D decimal digits; a value that needs more
    /// is an error.
    #[arg(long, value_name = "D", conflicts_with = "base62", allow_negative_numbers = true,
          value_parser = crate::count::within(1, MAX_DECIMAL_WIDTH as u64))]
    digits: Option<u64>,
    /// Print each value as 11 base62 characters (kuuid's alphabet: sorts as
    /// the numbers).
    #[arg(long)]
    base62: bool,
    /// Spread the counter over S rows, each owning --shard-size values
    /// (values are then unique but not ordered).
    #[arg(long, value_name = "S", requires = "shard_size", allow_negative_numbers = true,
          value_parser = crate::count::within(1, u64::MAX))]
    shards: Option<u64>,
    /// How many values each shard row owns (a count, not a range: shard
    /// k owns the values k*SIZE+1 ..= (k+1)*SIZE).
    #[arg(long, value_name = "SIZE", requires = "shards", allow_negative_numbers = true,
          value_parser = crate::count::within(1, u64::MAX))]
    shard_size: Option<u64>,
}

pub fn run(a: &SeqArgs) -> Result<(), Failure> {
    if a.name.is_empty() {
        return Err(Failure::Usage(
            "--name is empty: name the counter".to_owned(),
        ));
    }
    if let (Some(block), Some(range)) = (a.block, a.shard_size)
        && block > range
    {
        return Err(Failure::Usage(format!(
            "--block {block} is larger than --shard-size {range}: a lease must fit in one shard's range"
        )));
    }
    if let Some(path) = a.db.strip_prefix("sqlite:") {
        let path = sqlite_path(path)?;
        let waited = a.busy_timeout.unwrap_or(30.0);
        let name_the_file = |f: Failure| sqlite_failure(f, path, waited);
        let store = match a.busy_timeout {
            Some(secs) => {
                SqliteCounters::open_with_busy_timeout(path, Duration::from_secs_f64(secs))
            }
            None => SqliteCounters::open(path),
        }
        .map_err(|e| name_the_file(failure(e)))?;
        print(a, store).map_err(name_the_file)
    } else if a.busy_timeout.is_some() {
        Err(Failure::Usage(
            "--busy-timeout is for sqlite: databases; for PostgreSQL put options='-c lock_timeout=5s' in the connection string".to_owned(),
        ))
    } else if a.db.starts_with("postgres://")
        || a.db.starts_with("postgresql://")
        || a.db.contains('=')
    {
        let store = PostgresCounters::connect(&a.db).map_err(failure)?;
        print(a, store)
    } else {
        Err(Failure::Usage(format!(
            "--db {:?}: expected sqlite:PATH or a PostgreSQL connection string",
            a.db
        )))
    }
}

/// `--busy-timeout`: seconds from 0 to a day, fractions allowed.
fn busy_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=86_400.0).contains(&s) => Ok(s),
        _ => Err("seconds from 0 to 86400 (a day), fractions allowed: 2, 0.5".to_owned()),
    }
}

/// A store error of `--db sqlite:PATH` names the file, once, in place of
/// "counter store", and a lock says how long it waited. Output errors
/// (a full disk, a closed pipe) pass unchanged.
fn sqlite_failure(f: Failure, path: &str, waited: f64) -> Failure {
    let Failure::Io(e) = f else { return f };
    let text = e.to_string();
    let Some(cause) = text.strip_prefix("counter store: ") else {
        return Failure::Io(e);
    };
    let mut message = format!("--db sqlite:{path}: {cause}");
    if cause.contains("database is locked") {
        message.push_str(&format!(" (waited {waited} s)"));
    }
    Failure::Io(io::Error::new(e.kind(), message))
}

/// The file of `--db sqlite:PATH` (`sqlite://PATH` too). A counter that
/// lives only as long as one run would print the same numbers every run:
/// an empty path (SQLite's private temporary database), `:memory:` and
/// URI filenames are refused.
fn sqlite_path(path: &str) -> Result<&str, Failure> {
    let path = path.strip_prefix("//").unwrap_or(path);
    let temporary = path.is_empty()
        || path == ":memory:"
        || path.starts_with("file:")
        || path.contains("mode=memory");
    if temporary {
        return Err(Failure::Usage(format!(
            "--db sqlite:{path}: an in-memory or temporary database would start the counter afresh every run; give a file path"
        )));
    }
    // SQLite says only "unable to open database file" (twice, through its
    // error's layers); the OS says why: a missing directory, permission.
    if let Err(e) = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
    {
        return Err(Failure::Io(io::Error::new(
            e.kind(),
            format!("--db sqlite:{path}: cannot open or create the file: {e}"),
        )));
    }
    Ok(path)
}

fn print<C: kuuid_sequence::CounterStore>(a: &SeqArgs, store: C) -> Result<(), Failure> {
    match (a.shards, a.shard_size) {
        (Some(shards), Some(range)) => {
            let sharded = ShardedCounter::new(store, &*a.name, shards, range).map_err(failure)?;
            emit(a, sharded)
        }
        _ => emit(a, Counter::new(store, &*a.name)),
    }
}

/// Values a run leases at a time when --block does not say: an
/// interrupted `-n 1000000000000` burns at most this many, not the count.
const DEFAULT_BLOCK_CAP: u64 = 1 << 20;

fn emit(a: &SeqArgs, source: impl BlockSource) -> Result<(), Failure> {
    let mut sink = Sink::new(io::stdout().lock(), false);
    // 20 decimal digits is the longer of the two forms.
    let mut text = [0u8; MAX_DECIMAL_WIDTH];
    let mut write = |values: &[u64]| -> Result<(), Failure> {
        for &v in values {
            let line = match (a.digits, a.base62) {
                (Some(d), _) => {
                    encode_decimal(v, d as usize, &mut text).map_err(|e| failure(e.into()))?
                }
                (None, true) => {
                    let buf = (&mut text[..BASE62_LEN]).try_into().expect("11 bytes");
                    encode_base62(v, buf)
                }
                (None, false) => {
                    let width = v.checked_ilog10().map_or(1, |l| l as usize + 1);
                    encode_decimal(v, width, &mut text).expect("the value's own width")
                }
            };
            sink.push(line.as_bytes())?;
        }
        Ok(())
    };
    // The lines before an error go out, then the error.
    let result = match a.block {
        Some(block) => through_a_sequence(a.count, source, block, &mut write),
        None => leased_exactly(
            a.count,
            &source,
            DEFAULT_BLOCK_CAP.min(a.shard_size.unwrap_or(u64::MAX)),
            &mut write,
        ),
    };
    let flushed = sink.finish();
    result?;
    flushed?;
    Ok(())
}

/// Without --block: leases of `min(left, cap)` values straight from the
/// source, so a run leases exactly what it prints and the next run goes on
/// where it stopped (a `Sequence` would prefetch a block past the end).
fn leased_exactly(
    count: u64,
    source: &impl BlockSource,
    cap: u64,
    write: &mut impl FnMut(&[u64]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut values = vec![0u64; 4096];
    let mut left = count;
    while left > 0 {
        let len = left.min(cap.max(1));
        let first = source.lease(len).map_err(failure)?;
        for start in (0..len).step_by(values.len()) {
            let n = (len - start).min(values.len() as u64) as usize;
            for (i, v) in values[..n].iter_mut().enumerate() {
                *v = first + start + i as u64;
            }
            write(&values[..n])?;
        }
        left -= len;
    }
    Ok(())
}

/// With --block B: a `Sequence` leasing B at a time (the last block's
/// unprinted values, and a prefetched one, are burned: gaps, never repeats).
fn through_a_sequence(
    count: u64,
    source: impl BlockSource,
    block: u64,
    write: &mut impl FnMut(&[u64]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let seq = Sequence::new(source, block).map_err(failure)?;
    let mut values = vec![0u64; 4096];
    let mut left = count;
    while left > 0 {
        let n = left.min(values.len() as u64) as usize;
        // On an error, the values leased before it are printed, then
        // the error.
        let (got, result) = seq.fill_some(&mut values[..n]);
        write(&values[..got])?;
        result.map_err(failure)?;
        left -= n as u64;
    }
    Ok(())
}

/// Lengths and ranges are the user's arguments (exit 2); the rest is the
/// database or the machine (exit 1).
fn failure(e: Error) -> Failure {
    match e {
        Error::Length { .. } | Error::Sharding(_) => Failure::Usage(e.to_string()),
        // A server's message can run over lines (HINT, DETAIL): one line.
        e => Failure::Io(io::Error::other(e.to_string().replace('\n', " "))),
    }
}
