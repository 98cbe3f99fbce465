//! The size check the database drivers' integrations share: a binary value
//! of the wrong length for its id type is an error, never a panic.

use std::error::Error;
use std::fmt;

/// The drivers' boxed error type (postgres-types and sqlx use the same
/// shape).
pub(super) type BoxError = Box<dyn Error + Send + Sync>;

/// A binary value of the wrong size for the id type.
#[derive(Debug)]
struct SizeError {
    what: &'static str,
    expected: usize,
    found: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is {} bytes in the database, expected {}",
            self.what, self.found, self.expected
        )
    }
}

impl Error for SizeError {}

/// The bytes of a binary value, checked for size.
pub(super) fn sized<const N: usize>(what: &'static str, raw: &[u8]) -> Result<[u8; N], BoxError> {
    raw.try_into().map_err(|_| {
        Box::new(SizeError {
            what,
            expected: N,
            found: raw.len(),
        }) as BoxError
    })
}
