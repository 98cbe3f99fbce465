//! How a counter's values are spread over rows (its sharding; the database
//! column that records it is still named `layout`), and the row a lease moves:
//! recorded with each counter so that one name is never read two ways.
//! Below every other part of the sequence module but nothing.

use std::fmt;

/// How a counter's values are spread over its rows. Recorded with the
/// counter when it is made, and checked on every connection's first lease.
///
/// ```
/// use kuuid_sequence::Sharding;
/// assert_eq!(Sharding::Single.to_string(), "single");
/// let l = Sharding::Sharded { shards: 4, range: 1000 };
/// assert_eq!(l.to_string(), "sharded 4x1000");
/// assert_eq!("sharded 4x1000".parse::<Sharding>(), Ok(l));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sharding {
    /// One row ([`Counter`](super::Counter)).
    Single,
    /// `shards` rows, row `k` owning `k * range + 1 ..= (k + 1) * range`
    /// ([`ShardedCounter`](super::ShardedCounter)).
    Sharded {
        /// How many rows.
        shards: u64,
        /// Values each row owns.
        range: u64,
    },
}

impl fmt::Display for Sharding {
    /// The text the stores record: `single` or `sharded SxR`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sharding::Single => f.write_str("single"),
            Sharding::Sharded { shards, range } => write!(f, "sharded {shards}x{range}"),
        }
    }
}

impl std::str::FromStr for Sharding {
    type Err = ShardingParseError;

    fn from_str(s: &str) -> Result<Self, ShardingParseError> {
        if s == "single" {
            return Ok(Sharding::Single);
        }
        s.strip_prefix("sharded ")
            .and_then(|r| r.split_once('x'))
            .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
            .map(|(shards, range)| Sharding::Sharded { shards, range })
            .ok_or_else(|| ShardingParseError {
                found: s.to_owned(),
            })
    }
}

/// Text that is not a counter's sharding (`single` or `sharded SxR`, as
/// [`Sharding`]'s `Display` writes them).
///
/// ```
/// use kuuid_sequence::{Sharding, ShardingParseError};
/// let e = "sharded 4".parse::<Sharding>().unwrap_err();
/// assert_eq!(e, ShardingParseError { found: "sharded 4".into() });
/// assert_eq!(e.to_string(), "not a counter sharding: \"sharded 4\" (expected single or sharded SxR)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardingParseError {
    /// The text given.
    pub found: String,
}

impl fmt::Display for ShardingParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a counter sharding: {:?} (expected single or sharded SxR)",
            self.found
        )
    }
}

impl std::error::Error for ShardingParseError {}

/// The row a lease moves: row `shard` of counter `name`, made with
/// `sharding`. Row names never mix: shard 0 of a sharded counter `a` is
/// not a single counter named `a#0`, nor shard 0 of `a` made with another
/// sharding.
///
/// ```
/// use kuuid_sequence::{CounterStore, MemoryCounters, Row, Sharding};
/// let m = MemoryCounters::new();
/// let shard = |shard| Row { name: "n", shard, sharding: Sharding::Sharded { shards: 2, range: 100 } };
/// // Each shard's row starts where the caller says (its range's start).
/// assert_eq!(m.advance(shard(1), 101, 10, 201).unwrap(), Some(101));
/// assert_eq!(m.advance(shard(0), 1, 10, 101).unwrap(), Some(1));
/// // The single counter "n" is another row, refused: "n" is sharded.
/// assert!(m.advance(Row::single("n"), 1, 10, 100).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// The counter's name.
    pub name: &'a str,
    /// The row of the counter (0 for a single counter).
    pub shard: u64,
    /// The sharding the lease expects the counter to have.
    pub sharding: Sharding,
}

impl<'a> Row<'a> {
    /// The one row of a single counter.
    ///
    /// ```
    /// let r = kuuid_sequence::Row::single("orders");
    /// assert_eq!((r.name, r.shard), ("orders", 0));
    /// ```
    pub const fn single(name: &'a str) -> Self {
        Row {
            name,
            shard: 0,
            sharding: Sharding::Single,
        }
    }
}

/// A lease named a counter with one sharding, and the store holds it with
/// another (say, a single counter then `--shards 2`): refused, because
/// reading one counter two ways hands out values twice.
///
/// ```
/// use kuuid_sequence::{Sharding, ShardingMismatchError};
/// let e = ShardingMismatchError { name: "a".into(), stored: "single".into(), requested: Sharding::Sharded { shards: 2, range: 1000 } };
/// assert_eq!(e.to_string(), "counter \"a\" was made as single, and this lease asks for sharded 2x1000");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardingMismatchError {
    /// The counter.
    pub name: String,
    /// The sharding the store recorded (as stored).
    pub stored: String,
    /// The sharding the lease asked for.
    pub requested: Sharding,
}

impl fmt::Display for ShardingMismatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "counter {:?} was made as {}, and this lease asks for {}",
            self.name, self.stored, self.requested
        )
    }
}

impl std::error::Error for ShardingMismatchError {}
