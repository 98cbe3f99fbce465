//! How a counter's values are spread over rows, and the row a lease moves:
//! recorded with each counter so that one name is never read two ways.
//! Below every other part of the sequence module but nothing.

use std::fmt;

/// How a counter's values are spread over its rows. Recorded with the
/// counter when it is made, and checked on every connection's first lease.
///
/// ```
/// use kuuid::sequence::Layout;
/// assert_eq!(Layout::Single.to_string(), "single");
/// let l = Layout::Sharded { shards: 4, range: 1000 };
/// assert_eq!(l.to_string(), "sharded 4x1000");
/// assert_eq!("sharded 4x1000".parse::<Layout>(), Ok(l));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
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

impl fmt::Display for Layout {
    /// The text the stores record: `single` or `sharded SxR`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Layout::Single => f.write_str("single"),
            Layout::Sharded { shards, range } => write!(f, "sharded {shards}x{range}"),
        }
    }
}

impl std::str::FromStr for Layout {
    type Err = LayoutParseError;

    fn from_str(s: &str) -> Result<Self, LayoutParseError> {
        if s == "single" {
            return Ok(Layout::Single);
        }
        s.strip_prefix("sharded ")
            .and_then(|r| r.split_once('x'))
            .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
            .map(|(shards, range)| Layout::Sharded { shards, range })
            .ok_or_else(|| LayoutParseError {
                found: s.to_owned(),
            })
    }
}

/// Text that is not a counter layout (`single` or `sharded SxR`, as
/// [`Layout`]'s `Display` writes them).
///
/// ```
/// use kuuid::sequence::{Layout, LayoutParseError};
/// let e = "sharded 4".parse::<Layout>().unwrap_err();
/// assert_eq!(e, LayoutParseError { found: "sharded 4".into() });
/// assert_eq!(e.to_string(), "not a counter layout: \"sharded 4\" (expected single or sharded SxR)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutParseError {
    /// The text given.
    pub found: String,
}

impl fmt::Display for LayoutParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a counter layout: {:?} (expected single or sharded SxR)",
            self.found
        )
    }
}

impl std::error::Error for LayoutParseError {}

/// The row a lease moves: row `shard` of counter `name`, made with
/// `layout`. Row names never mix: shard 0 of a sharded counter `a` is not
/// a single counter named `a#0`, nor shard 0 of `a` made with another
/// layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// The counter's name.
    pub name: &'a str,
    /// The row of the counter (0 for a single counter).
    pub shard: u64,
    /// The layout the lease expects the counter to have.
    pub layout: Layout,
}

impl<'a> Row<'a> {
    /// The one row of a single counter.
    ///
    /// ```
    /// let r = kuuid::sequence::Row::single("orders");
    /// assert_eq!((r.name, r.shard), ("orders", 0));
    /// ```
    pub const fn single(name: &'a str) -> Self {
        Row {
            name,
            shard: 0,
            layout: Layout::Single,
        }
    }
}

/// A lease named a counter with one layout, and the store holds it with
/// another (say, a single counter then `--shards 2`): refused, because
/// reading one counter two ways hands out values twice.
///
/// ```
/// use kuuid::sequence::{Layout, LayoutMismatch};
/// let e = LayoutMismatch { name: "a".into(), stored: "single".into(), requested: Layout::Sharded { shards: 2, range: 1000 } };
/// assert_eq!(e.to_string(), "counter \"a\" was made as single, and this lease asks for sharded 2x1000");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutMismatch {
    /// The counter.
    pub name: String,
    /// The layout the store recorded (as stored).
    pub stored: String,
    /// The layout the lease asked for.
    pub requested: Layout,
}

impl fmt::Display for LayoutMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "counter {:?} was made as {}, and this lease asks for {}",
            self.name, self.stored, self.requested
        )
    }
}

impl std::error::Error for LayoutMismatch {}
