//! What can go wrong leasing or handing out values: the lowest layer of
//! the sequence module, which every other part reports through.

use std::fmt;

use super::render;
use super::sharding::{ShardingMismatchError, ShardingParseError};

/// The error a database driver's failure is wrapped in.
///
/// ```
/// use kuuid_sequence::{BoxError, Error};
/// let driver: BoxError = "connection reset".into();
/// assert_eq!(Error::Store(driver).to_string(), "counter store: connection reset");
/// ```
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What went wrong leasing or handing out values.
///
/// ```
/// use kuuid_sequence::{BlockSource, Counter, Error, MemoryCounters};
/// let c = Counter::new(MemoryCounters::new(), "n").up_to(5);
/// match c.lease(10) {
///     Err(Error::Exhausted { .. }) => {} // the counter is used up
///     other => panic!("{other:?}"),
/// }
/// // kuuid's errors convert, so `?` works on both crates' calls.
/// let e: Error = kuuid::try_rand(5).unwrap_err().into();
/// assert!(matches!(e, Error::Id(_)));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The store failed (the database's own error inside).
    Store(BoxError),
    /// Every counter the source may lease from is used up: leasing `len`
    /// more would pass `limit`.
    Exhausted {
        /// The counter (for a sharded one, its name without the shard).
        name: String,
        /// Values asked for.
        len: u64,
        /// The first value the counter may not reach.
        limit: u64,
    },
    /// The counter was made with another sharding than the source asks for.
    Sharding(ShardingMismatchError),
    /// The block source panicked while leasing; the block it was leasing is
    /// never handed out, and the next lease tries again.
    Panicked(String),
    /// The operating system's random generator failed (its message; the
    /// `getrandom` crate's error type stays out of the API, as in
    /// [`kuuid::Error::Random`]).
    Random(String),
    /// A value could not be rendered as asked.
    Render(render::RenderError),
    /// This process is a copy (a forked child, a raw `clone`) made while a
    /// thread of its parent was inside a SQLite call of a
    /// `SqliteCounters`: the fork's wait for it ran
    /// out, no fork handler ran, or the fork came from a signal handler on
    /// that very thread while it napped waiting for a lock (the only time
    /// a leasing thread lets asynchronous signals in). SQLite's locks may
    /// be held by a thread the copy does not have, so no SQLite store calls
    /// SQLite again in this process. Also the one answer of a call whose
    /// thread was copied just after it (a handler held back until the
    /// call was over): what it returned is the parent's.
    /// A copy that needs counters is made when no lease is in flight, or
    /// uses PostgreSQL.
    CopiedMidCall,
    /// An error of kuuid's (an id, a time, an order key), carried so that
    /// one `?` takes ids' and counters' errors into a function returning
    /// this crate's [`Error`].
    Id(kuuid::Error),
    /// Text that is not a counter's sharding.
    ShardingText(ShardingParseError),
    /// A block length or range the source cannot hold (0, or past what
    /// the store's integers take).
    Length {
        /// What was asked for.
        what: &'static str,
        /// The value.
        value: u64,
        /// The largest allowed.
        max: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Store(e) => {
                // Drivers keep the server's words in the source (postgres'
                // Display is only "db error").
                write!(f, "counter store: {e}")?;
                let mut last = e.to_string();
                let mut source = e.source();
                while let Some(s) = source {
                    // A cause already printed is said once: rusqlite's
                    // source repeats its message behind a code ("Error code
                    // 5: database is locked"); anything else in front of a
                    // repeat is kept.
                    let text = s.to_string();
                    if let Some(head) = text.strip_suffix(last.as_str()) {
                        let head = head.trim_end_matches([':', ' ']);
                        let code_only = head
                            .strip_prefix("Error code ")
                            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
                        if !head.is_empty() && !code_only {
                            write!(f, ": {head}")?;
                        }
                    } else if !last.contains(&text) {
                        write!(f, ": {text}")?;
                    }
                    last = text;
                    source = s.source();
                }
                Ok(())
            }
            Error::Random(e) => write!(f, "random generator: {e}"),
            Error::Sharding(e) => e.fmt(f),
            Error::ShardingText(e) => e.fmt(f),
            Error::Panicked(what) => write!(f, "the block source panicked while leasing: {what}"),
            Error::Render(e) => e.fmt(f),
            Error::Id(e) => e.fmt(f),
            Error::Exhausted { name, len, limit } => write!(
                f,
                "counter {name:?} is used up: a block of {len} more {} would pass its limit \
                 (its values stay below {limit})",
                if *len == 1 { "value" } else { "values" }
            ),
            Error::Length { what, value, max } => {
                write!(f, "{what} {value} is out of range (1..={max})")
            }
            Error::CopiedMidCall => f.write_str(
                "this process was copied (fork or clone) while its parent was inside a SQLite call: \
                 SQLite cannot be used safely here, so the SQLite counter store refuses",
            ),
        }
    }
}

/// Display is the whole message; `source` gives only what it did not
/// print (see [`kuuid::Error`]). A store's error is printed with its whole
/// chain (drivers keep the server's words below their own), so nothing
/// is left for `source`; the error itself is the variant's field.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Random(_) => None,
            Error::Render(e) => e.source(),
            Error::Id(e) => e.source(),
            Error::Sharding(e) => e.source(),
            _ => None,
        }
    }
}

impl Error {
    /// A store's error as the sequence's: a sharding mismatch is its own
    /// variant, a sequence error boxed by a store is itself, the rest are
    /// the store's.
    pub(super) fn from_store(e: BoxError) -> Error {
        match e.downcast::<Error>() {
            Ok(e) => *e,
            Err(e) => match e.downcast::<ShardingMismatchError>() {
                Ok(m) => Error::Sharding(*m),
                Err(e) => Error::Store(e),
            },
        }
    }

    /// The error as a store returns it ([`from_store`](Self::from_store)
    /// undoes this).
    #[cfg_attr(
        not(any(feature = "sqlite", feature = "sqlite-system")),
        allow(dead_code)
    )]
    pub(super) fn into_store(self) -> BoxError {
        match self {
            Error::Store(e) => e,
            other => Box::new(other),
        }
    }
}

/// A random `u64` from the OS, its failure as [`Error::Random`].
pub(crate) fn os_u64() -> Result<u64, Error> {
    getrandom::u64().map_err(|e| Error::Random(e.to_string()))
}

impl From<ShardingMismatchError> for Error {
    fn from(e: ShardingMismatchError) -> Self {
        Error::Sharding(e)
    }
}

impl From<ShardingParseError> for Error {
    fn from(e: ShardingParseError) -> Self {
        Error::ShardingText(e)
    }
}

/// `From` for kuuid's errors: its umbrella error and the ones its calls
/// return, each carried as [`Error::Id`].
///
/// ```
/// use kuuid_sequence::{Counter, MemoryCounters, Sequence};
///
/// fn main() -> Result<(), kuuid_sequence::Error> {
///     let seq = Sequence::new(Counter::new(MemoryCounters::new(), "orders"), 64)?;
///     let n = seq.next()?;
///     let at = kuuid::id_at("2018-01-01T00:00:00Z")?;          // kuuid::TimeError
///     let parsed: kuuid::Kuuid = at.as_str().parse()?;          // kuuid::ParseError
///     let isa: kuuid::engine::Isa = "avx2".parse()?;            // kuuid::engine::IsaError
///     println!("{n} {parsed} {isa}");
///     Ok(())
/// }
/// ```
impl From<kuuid::Error> for Error {
    fn from(e: kuuid::Error) -> Self {
        Error::Id(e)
    }
}

/// `From` for the errors of kuuid's calls, through [`kuuid::Error`].
macro_rules! from_kuuid {
    ($($ty:ty),* $(,)?) => {$(
        impl From<$ty> for Error {
            fn from(e: $ty) -> Self {
                Error::Id(kuuid::Error::from(e))
            }
        }
    )*};
}

from_kuuid!(
    kuuid::ParseError,
    kuuid::UuidParseError,
    kuuid::ObjectIdParseError,
    kuuid::ManyError,
    kuuid::TimeError,
    kuuid::engine::IsaError,
    kuuid::engine::EngineError,
);

impl From<render::RenderError> for Error {
    fn from(e: render::RenderError) -> Self {
        Error::Render(e)
    }
}

/// A store's table exists with other columns than the store needs (made by
/// an older kuuid, or by hand): refused at connect, before any lease.
///
/// ```
/// let e = kuuid_sequence::SchemaError {
///     table: "kuuid_counters",
///     found: vec!["name text".into(), "next numeric".into()],
///     expected: vec!["name text".into(), "next bigint".into()],
/// };
/// assert_eq!(e.to_string(), "table kuuid_counters has columns (name text, next numeric), expected (name text, next bigint)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// The table.
    pub table: &'static str,
    /// Its columns, as `name type`.
    pub found: Vec<String>,
    /// The columns the store needs.
    pub expected: Vec<String>,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "table {} has columns ({}), expected ({})",
            self.table,
            self.found.join(", "),
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for SchemaError {}

/// A SQLite database that stays out of WAL mode when the store asks for it
/// (a filesystem without shared memory, a `nolock` or other VFS without
/// it, another program keeping it in rollback mode): refused at open.
/// The store's fork safety rests on WAL, where a lease waiting for a lock
/// holds nothing a copy of the process could write with; in rollback mode
/// a fork during COMMIT's lock wait could roll back and unlink the
/// parent's journal.
///
/// ```
/// let path = std::env::temp_dir().join(format!("kuuid-doc-wal-{}.db", std::process::id()));
/// // SQLite's `nolock` parameter turns shared memory off: no WAL.
/// let uri = format!("file:{}?nolock=1", path.display());
/// let Err(kuuid_sequence::Error::Store(why)) = kuuid_sequence::SqliteCounters::open(&uri) else {
///     panic!("a database without WAL was opened");
/// };
/// let e = why.downcast_ref::<kuuid_sequence::JournalModeError>().unwrap();
/// assert_eq!(e.mode, "delete");
/// # let _ = std::fs::remove_file(&path);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalModeError {
    /// The journal mode the database stayed in, as SQLite names it.
    pub mode: String,
}

impl fmt::Display for JournalModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the database stays in journal mode {:?}, not WAL (no shared memory there, or another \
             program keeps it in rollback mode): the store needs WAL",
            self.mode
        )
    }
}

impl std::error::Error for JournalModeError {}

#[cfg(test)]
mod tests {
    use super::Error;
    use std::fmt;

    /// An error with a message and an optional cause.
    #[derive(Debug)]
    struct Chain(&'static str, Option<Box<Chain>>);

    impl fmt::Display for Chain {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Chain {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|c| c as _)
        }
    }

    fn store(outer: &'static str, inner: &'static str) -> String {
        Error::Store(Box::new(Chain(outer, Some(Box::new(Chain(inner, None)))))).to_string()
    }

    /// Issue 63, item 16: "1 more values would reach its limit 3" (the
    /// limit is exclusive), and a shard size named by the flag's old name
    /// with the range `1..=0`.
    #[test]
    fn counter_messages_say_it_plainly() {
        let e = |len| {
            Error::Exhausted {
                name: "f".into(),
                len,
                limit: 3,
            }
            .to_string()
        };
        assert_eq!(
            e(1),
            "counter \"f\" is used up: a block of 1 more value would pass its limit (its values stay below 3)"
        );
        assert!(e(2).contains("a block of 2 more values"), "{}", e(2));
        let store = crate::MemoryCounters::new();
        let Err(e) = crate::ShardedCounter::new(store, "n", u64::MAX, u64::MAX) else {
            panic!("2^64-1 shards were taken");
        };
        let text = e.to_string();
        assert!(
            text.starts_with("shard count ") && !text.contains("1..=0"),
            "{text}"
        );
        let Err(e) = crate::ShardedCounter::new(crate::MemoryCounters::new(), "n", 16, u64::MAX)
        else {
            panic!("16 shards of 2^64-1 were taken");
        };
        assert!(e.to_string().starts_with("shard size "), "{e}");
    }

    #[test]
    fn a_repeated_cause_is_said_once_and_nothing_else_is_lost() {
        // rusqlite's shape: the code in front of the same words.
        assert_eq!(
            store("database is locked", "Error code 5: database is locked"),
            "counter store: database is locked"
        );
        // Something else in front of the repeat is kept.
        assert_eq!(
            store("timed out", "connecting to 127.0.0.1: timed out"),
            "counter store: timed out: connecting to 127.0.0.1"
        );
        // A cause the message already holds.
        assert_eq!(
            store("PostgreSQL at h: db error", "db error"),
            "counter store: PostgreSQL at h: db error"
        );
        // An unrelated cause.
        assert_eq!(
            store("PostgreSQL at h", "db error"),
            "counter store: PostgreSQL at h: db error"
        );
    }
}
