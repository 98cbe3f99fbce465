//! Random ids retried on a unique index: mint at random in a space, insert,
//! and on a unique-constraint violation mint again (MongoDB's 12-digit
//! account numbers). No counter and no coordination; the price is retries,
//! which grow as the space fills (the birthday bound).
//!
//! ```
//! # #[cfg(any(feature = "sqlite", feature = "sqlite-system"))] {
//! use kuuid_sequence::retry::{insert_unique, random_decimal};
//!
//! let conn = rusqlite::Connection::open_in_memory().unwrap();
//! conn.execute("CREATE TABLE accounts (number INTEGER PRIMARY KEY)", []).unwrap();
//! let got = insert_unique(10, || random_decimal(12).unwrap(), |n| {
//!     conn.execute("INSERT INTO accounts VALUES (?1)", [*n as i64]).map(drop)
//! })
//! .unwrap();
//! assert!(got.value < 1_000_000_000_000);
//! # }
//! ```

use std::fmt;

use super::render::{MAX_DECIMAL_WIDTH, RenderError};

/// An error that may be the database refusing a duplicate key.
///
/// Implemented for `rusqlite::Error` (`SQLITE_CONSTRAINT_PRIMARYKEY` and
/// `SQLITE_CONSTRAINT_UNIQUE`), `postgres::Error` (SQLSTATE `23505`) and
/// sqlx's `Error` (the driver's own test), behind their features.
///
/// ```
/// use kuuid_sequence::retry::UniqueViolation;
///
/// // Your own store's error: say which failures are duplicates.
/// #[derive(Debug)]
/// enum PutError { Exists, Offline }
/// impl UniqueViolation for PutError {
///     fn is_unique_violation(&self) -> bool { matches!(self, PutError::Exists) }
/// }
/// assert!(PutError::Exists.is_unique_violation());
/// assert!(!PutError::Offline.is_unique_violation());
/// ```
pub trait UniqueViolation {
    /// Whether this is a unique-constraint (or primary-key) violation.
    ///
    /// ```
    /// # #[cfg(any(feature = "sqlite", feature = "sqlite-system"))] {
    /// use kuuid_sequence::retry::UniqueViolation;
    ///
    /// let conn = rusqlite::Connection::open_in_memory().unwrap();
    /// conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)", []).unwrap();
    /// conn.execute("INSERT INTO t VALUES (1)", []).unwrap();
    /// let twice = conn.execute("INSERT INTO t VALUES (1)", []).unwrap_err();
    /// assert!(twice.is_unique_violation());
    /// let missing = conn.execute("INSERT INTO nope VALUES (1)", []).unwrap_err();
    /// assert!(!missing.is_unique_violation());
    /// # }
    /// ```
    fn is_unique_violation(&self) -> bool;
}

/// An insert that went in: the value and how many values were refused
/// before it.
///
/// ```
/// use kuuid_sequence::retry::{Inserted, insert_unique};
///
/// let mut next = 0..;
/// // 0 and 1 are taken.
/// let got = insert_unique(5, || next.next().unwrap(), |&v| if v < 2 { Err(Dup) } else { Ok(()) });
/// assert_eq!(got.unwrap(), Inserted { value: 2, retries: 2 });
/// # #[derive(Debug)] struct Dup;
/// # impl kuuid_sequence::retry::UniqueViolation for Dup { fn is_unique_violation(&self) -> bool { true } }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inserted<T> {
    /// The value inserted.
    pub value: T,
    /// Values minted and refused as duplicates first.
    pub retries: u32,
}

/// Why [`insert_unique`] gave up.
///
/// ```
/// use kuuid_sequence::retry::{RetryError, UniqueViolation, insert_unique};
///
/// #[derive(Debug)]
/// struct Taken;
/// impl UniqueViolation for Taken {
///     fn is_unique_violation(&self) -> bool { true }
/// }
/// // A space of one value, already taken: every attempt is refused.
/// let got = insert_unique(3, || 7u64, |_| Err::<(), _>(Taken));
/// assert!(matches!(got, Err(RetryError::Exhausted { attempts: 3 })));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum RetryError<E> {
    /// Every one of `attempts` values was a duplicate: the space is
    /// (nearly) full, or the minting is not random.
    Exhausted {
        /// Values tried.
        attempts: u32,
    },
    /// The insert failed for another reason than a duplicate.
    Insert(E),
}

impl<E: fmt::Display> fmt::Display for RetryError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryError::Exhausted { attempts } => write!(
                f,
                "all {attempts} values minted were already taken (is the space full?)"
            ),
            RetryError::Insert(e) => write!(f, "insert failed: {e}"),
        }
    }
}

/// Display is the whole message; `source` gives only what it did not
/// print (see [`kuuid::Error`]): the insert's error's own cause.
impl<E: std::error::Error + 'static> std::error::Error for RetryError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RetryError::Insert(e) => e.source(),
            RetryError::Exhausted { .. } => None,
        }
    }
}

/// Mints a value with `mint`, inserts it with `insert`, and while the
/// insert fails with a unique violation, mints another, up to `attempts`
/// values in all.
///
/// ```
/// use kuuid_sequence::retry::{Inserted, RetryError, UniqueViolation, insert_unique};
/// use std::collections::HashSet;
///
/// #[derive(Debug)]
/// struct Duplicate;
/// impl UniqueViolation for Duplicate {
///     fn is_unique_violation(&self) -> bool { true }
/// }
/// let mut taken: HashSet<u64> = (0..10).collect();
/// let mut next = 5..;
/// let got = insert_unique(100, || next.next().unwrap(), |v: &u64| {
///     if taken.insert(*v) { Ok(()) } else { Err(Duplicate) }
/// });
/// assert!(matches!(got, Ok(Inserted { value: 10, retries: 5 })));
/// ```
pub fn insert_unique<T, E: UniqueViolation>(
    attempts: u32,
    mut mint: impl FnMut() -> T,
    mut insert: impl FnMut(&T) -> Result<(), E>,
) -> Result<Inserted<T>, RetryError<E>> {
    for retries in 0..attempts {
        let value = mint();
        match insert(&value) {
            Ok(()) => return Ok(Inserted { value, retries }),
            Err(e) if e.is_unique_violation() => {}
            Err(e) => return Err(RetryError::Insert(e)),
        }
    }
    Err(RetryError::Exhausted { attempts })
}

/// A uniform random number of at most `digits` decimal digits
/// (`0..10^digits`), from the operating system's generator: a value for
/// [`render::encode_decimal`](super::render::encode_decimal) with the
/// same width.
///
/// ```
/// let n = kuuid_sequence::retry::random_decimal(12)?;
/// assert!(n < 1_000_000_000_000);
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
pub fn random_decimal(digits: usize) -> Result<u64, super::error::Error> {
    if digits == 0 || digits > MAX_DECIMAL_WIDTH {
        return Err(RenderError::Width(digits).into());
    }
    let Some(space) = 10u64.checked_pow(digits as u32) else {
        return super::error::os_u64();
    };
    // Rejection sampling: the top partial copy of the space is redrawn,
    // so every value is equally likely.
    let zone = u64::MAX - u64::MAX % space;
    loop {
        let x = super::error::os_u64()?;
        if x < zone {
            return Ok(x % space);
        }
    }
}

#[cfg(any(feature = "sqlite", feature = "sqlite-system"))]
impl UniqueViolation for rusqlite::Error {
    fn is_unique_violation(&self) -> bool {
        matches!(
            self.sqlite_error().map(|e| e.extended_code),
            Some(
                rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    | rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            )
        )
    }
}

#[cfg(feature = "postgres")]
impl UniqueViolation for tokio_postgres::Error {
    fn is_unique_violation(&self) -> bool {
        self.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
    }
}

#[cfg(feature = "sqlx")]
impl UniqueViolation for sqlx_core::Error {
    fn is_unique_violation(&self) -> bool {
        matches!(self, sqlx_core::Error::Database(e) if e.is_unique_violation())
    }
}
