//! What can go wrong leasing or handing out values: the lowest layer of
//! the sequence module, which every other part reports through.

use std::fmt;

use super::render;

/// The error a database driver's failure is wrapped in.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What went wrong leasing or handing out values.
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
    /// The operating system's random generator failed.
    Random(getrandom::Error),
    /// A value could not be rendered as asked.
    Render(render::RenderError),
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
                let mut source = e.source();
                while let Some(s) = source {
                    write!(f, ": {s}")?;
                    source = s.source();
                }
                Ok(())
            }
            Error::Random(e) => write!(f, "random generator: {e}"),
            Error::Render(e) => e.fmt(f),
            Error::Exhausted { name, len, limit } => write!(
                f,
                "counter {name:?} is used up: {len} more values would reach its limit {limit}"
            ),
            Error::Length { what, value, max } => {
                write!(f, "{what} {value} is out of range (1..={max})")
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Store(e) => Some(&**e),
            Error::Random(e) => Some(e),
            Error::Render(e) => Some(e),
            _ => None,
        }
    }
}

impl From<getrandom::Error> for Error {
    fn from(e: getrandom::Error) -> Self {
        Error::Random(e)
    }
}

impl From<render::RenderError> for Error {
    fn from(e: render::RenderError) -> Self {
        Error::Render(e)
    }
}
