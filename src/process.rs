//! What a library beside kuuid needs to stay correct in a copy of the
//! process (a `fork()` child, a raw `clone`, a restored VM snapshot):
//! the token that changes in every copy, and a lock a copy can take over.
//! kuuid's own counters (`kuuid-sequence`) are built on these two; they
//! are public so that such a crate needs no hidden door into this one.
//!
//! ```
//! // State built under one token belongs to the process that built it.
//! let made_under = kuuid::process::token();
//! assert_eq!(kuuid::process::token(), made_under);
//! kuuid::reseed();                       // as a copy would see it
//! assert_ne!(kuuid::process::token(), made_under);
//! ```

#[doc(hidden)]
pub use crate::owner::{DefaultAtomic, OwnerAtomic};
pub use crate::owner::{Held, Owner};

/// The process token: the same on every thread of one process, and
/// different in every copy of it (a `fork()` child, a raw `clone` that
/// runs no fork handler) and after [`reseed`](crate::reseed). Never 0 and
/// never `u64::MAX`, so either can mean "made under no process" in a word
/// that holds a token.
///
/// Every id source of this crate records the token it was seeded under and
/// starts afresh when it reads another; a crate with per-process state
/// (leased blocks, open connections) can do the same. The check is one
/// relaxed load: a child's token word is wiped by the kernel at the fork
/// (`MADV_WIPEONFORK` on Linux; elsewhere a fork handler zeroes it,
/// and a raw `clone` is not caught), and the first
/// read there draws a new token from the OS.
///
/// ```
/// let t = kuuid::process::token();
/// assert_ne!(t, 0);
/// assert_eq!(t, std::thread::spawn(kuuid::process::token).join().unwrap());
/// ```
#[inline]
pub fn token() -> u64 {
    crate::rng::fork::token()
}
