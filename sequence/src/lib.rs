//! Counters that lease blocks of numbers from a database: the schemes a
//! team uses besides time-based ids (MongoDB's "counter document", its
//! range allocation, and sharded counters). The ids themselves (kuuids,
//! UUIDv7, ObjectIds) are the [`kuuid`] crate's; this one is the numbers,
//! the stores they are leased from, and their text. The
//! [counters guide](guide::counters) has the semantics, the stores'
//! settings and the figures.
//!
//! A [`Sequence`] hands out unique `u64` values in-process, lock-free, from
//! blocks it leases from a [`BlockSource`] (a [`Counter`] or a
//! [`ShardedCounter`] over a [`CounterStore`]: in memory, SQLite or
//! PostgreSQL). The semantics are those of Hibernate's pooled optimizer,
//! a PostgreSQL sequence's `CACHE`, and Meituan Leaf's segment mode:
//!
//! - a block is durable in the database before any value from it is handed
//!   out, so a crash burns the rest of the block: gaps, never a repeat;
//! - each thread's values increase; across threads, order holds between
//!   blocks (a thread takes a block of up to 1024 values for itself, as a
//!   PostgreSQL session takes its `CACHE`);
//! - when a claim reaches the last tenth of a block (for blocks a thread
//!   takes whole: as soon as it takes one), a background thread leases
//!   the next block, so callers do not wait on the database while it keeps
//!   up.
//!
//! The block length is fixed (chosen by the caller): an adaptive length
//! would make the database's counter jump by amounts nobody chose, and a
//! fixed one bounds the gap a crash can leave.
//!
//! ```
//! use kuuid_sequence::{Counter, MemoryCounters, Sequence};
//! let seq = Sequence::new(Counter::new(MemoryCounters::new(), "orders"), 1000)?;
//! let a = seq.next()?;
//! let b = seq.next()?;
//! assert!(b > a);
//! # Ok::<(), kuuid_sequence::Error>(())
//! ```
//!
//! # Features
//!
//! | feature | what it adds |
//! |---|---|
//! | (none) | [`Sequence`], [`Counter`], [`ShardedCounter`], [`MemoryCounters`], [`render`], [`retry`] |
//! | `sqlite` | `SqliteCounters`, with SQLite built in (a C compiler; links on any distribution) |
//! | `sqlite-system` | `SqliteCounters` linking the SQLite your own `rusqlite` line picks (the system's: `rusqlite = ">=0.39, <0.41"` below SQLite 3.44) |
//! | `postgres` | `PostgresCounters` (libpq's parameters and environment, timeouts) |
//! | `postgres-tls` | TLS for `PostgresCounters` with rustls (no OpenSSL) |
//! | `sqlx` | [`retry::UniqueViolation`] for sqlx's errors (Rust 1.94, as sqlx 0.9) |
//!
//! Every value is unique across threads, processes, `fork()` (the stores
//! watch [`kuuid::process::token`]) and crashes; what each store does in a
//! forked child is in the guide.

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use runs::Run;

mod blocks;
#[cfg(feature = "postgres")]
mod connection;
mod counter;
pub(crate) mod error;
#[cfg(any(loom, feature = "sqlite", feature = "sqlite-system"))]
mod fork_gate;
mod memory;
#[cfg(feature = "postgres")]
mod postgres;
pub mod render;
pub mod retry;
mod runs;
pub(crate) mod sharding;
mod source;
#[cfg(any(feature = "sqlite", feature = "sqlite-system"))]
mod sqlite;
mod wait;

#[cfg(not(loom))]
use blocks::Blocks;
#[cfg(loom)]
#[doc(hidden)]
pub use blocks::{Blocks, Claim};
pub use counter::{Counter, CounterStore, ShardedCounter};
pub use error::{BoxError, Error, JournalModeError, SchemaError};
#[cfg(loom)]
#[doc(hidden)]
pub use fork_gate::{Entry, ForkGate, Poisoned, Registered};
/// Test-only (feature `__test-hooks`, not part of the API): hooks for this
/// crate's own tests. Never enable the feature outside them.
#[cfg(feature = "__test-hooks")]
#[doc(hidden)]
#[path = "hooks.rs"]
pub mod __test_hooks;
pub use memory::{CopiedCountersError, MemoryCounters};
#[cfg(feature = "postgres")]
pub use postgres::{DEFAULT_STATEMENT_TIMEOUT, PostgresCounters};
pub use sharding::{Row, Sharding, ShardingMismatchError, ShardingParseError};
pub use source::BlockSource;
#[cfg(any(feature = "sqlite", feature = "sqlite-system"))]
pub use sqlite::SqliteCounters;

const EMPTY_RUN: Run = Run { next: 0, end: 0 };

/// What the prefetch thread shares with the sequence.
struct Shared<S> {
    source: S,
    blocks: Blocks,
    /// The block the prefetch thread should install next, plus one (0:
    /// nothing asked).
    wanted: AtomicU64,
    /// Set when the sequence is dropped: the prefetch thread ends.
    closed: AtomicBool,
}

impl<S: BlockSource> Shared<S> {
    fn lease(&self) -> Result<u64, Error> {
        let len = self.blocks.block_len();
        // A panicking source is an error like any other: the claim that
        // asked fails, and the next one leases again.
        let first =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.source.lease(len)))
                .map_err(|p| Error::Panicked(panic_message(&*p)))??;
        // A source that hands out a block past u64 would wrap: refuse it.
        first.checked_add(len).ok_or(Error::Length {
            what: "leased block end",
            value: first,
            max: u64::MAX - len,
        })?;
        Ok(first)
    }
}

/// Unique `u64` values handed out in-process from blocks leased from a
/// [`BlockSource`]; see the [module docs](self) for the guarantees.
///
/// `next` costs no shared write on most calls: each thread takes a run of
/// values (the whole block, or for blocks over 1024 values the largest
/// divisor of the length up to 1024) with one atomic add, then hands them
/// out from its own slot. Whole blocks keep threads off each other's cache
/// lines: with runs of half a block, two threads ran 1.56x one; with whole
/// blocks, 1.88x. Values a thread took but did not hand out when it exits
/// are burned with its thread-local storage (a gap, never a repeat): a
/// pool of short-lived threads burns up to a run per thread. Pick long
/// blocks with small divisors (10^4, 2^16): a
/// prime length over 1024 makes every value a shared atomic add.
///
/// `Sequence` is `Send + Sync`; share it with an `Arc`. A forked child
/// drops every block its parent leased and leases its own (the block
/// source reconnects there).
///
/// ```
/// use kuuid_sequence::{Counter, MemoryCounters, Sequence};
/// use std::sync::Arc;
/// let seq = Arc::new(Sequence::new(Counter::new(MemoryCounters::new(), "n"), 100)?);
/// let handles: Vec<_> = (0..2)
///     .map(|_| {
///         let seq = seq.clone();
///         std::thread::spawn(move || (0..1000).map(|_| seq.next().unwrap()).collect::<Vec<_>>())
///     })
///     .collect();
/// let mut all: Vec<u64> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
/// all.sort();
/// all.dedup();
/// assert_eq!(all.len(), 2000);
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
pub struct Sequence<S: BlockSource> {
    shared: Arc<Shared<S>>,
    /// Values per claim from the shared block.
    run: u64,
    /// Each thread's run of values, kept by the thread (`runs`).
    runs: runs::Key,
    /// The prefetch thread and the process it runs in.
    prefetcher: Mutex<Option<(u32, std::thread::Thread)>>,
}

impl<S: BlockSource> Sequence<S> {
    /// A sequence leasing `block` values at a time from `source` (nothing
    /// is leased until the first value is asked for).
    ///
    /// ```
    /// use kuuid_sequence::{Counter, Error, MemoryCounters, Sequence};
    /// let source = Counter::new(MemoryCounters::new(), "n");
    /// assert!(matches!(Sequence::new(source, 0), Err(Error::Length { .. })));
    /// ```
    pub fn new(source: S, block: u64) -> Result<Self, Error> {
        if block == 0 || block > blocks::MAX_LEN {
            return Err(Error::Length {
                what: "block length",
                value: block,
                max: blocks::MAX_LEN,
            });
        }
        let cap = block.clamp(1, 1024);
        let run = (1..=cap)
            .rev()
            .find(|&d| block.is_multiple_of(d))
            .unwrap_or(1);
        Ok(Sequence {
            shared: Arc::new(Shared {
                source,
                blocks: Blocks::new(block),
                wanted: AtomicU64::new(0),
                closed: AtomicBool::new(false),
            }),
            run,
            runs: runs::Key::new(),
            prefetcher: Mutex::new(None),
        })
    }

    /// The block length.
    ///
    /// ```
    /// # use kuuid_sequence::{Counter, MemoryCounters, Sequence};
    /// let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1000)?;
    /// assert_eq!(seq.block_len(), 1000);
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn block_len(&self) -> u64 {
        self.shared.blocks.block_len()
    }

    /// The source blocks are leased from.
    ///
    /// ```
    /// use kuuid_sequence::{Counter, MemoryCounters, Sequence};
    /// let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 100)?;
    /// seq.next()?;
    /// // Whole blocks are leased (the first, perhaps the next ahead).
    /// let next = seq.source().store().get("n").unwrap();
    /// assert!(next > 100 && (next - 1) % 100 == 0, "{next}");
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn source(&self) -> &S {
        &self.shared.source
    }

    /// The next value: larger than every value this thread had before.
    /// Waits on the database only when no leased block is left.
    ///
    /// ```
    /// # use kuuid_sequence::{Counter, MemoryCounters, Sequence};
    /// let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 10)?;
    /// assert_eq!(seq.next()?, 1);
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    #[inline]
    pub fn next(&self) -> Result<u64, Error> {
        let token = kuuid::process::token();
        if let Some(v) = self.runs.take_one(token) {
            return Ok(v);
        }
        let first = self.claim(token)?;
        self.runs.put(
            token,
            Run {
                next: first + 1,
                end: first + self.run,
            },
        );
        Ok(first)
    }

    /// Fills `out` with the next values, in increasing order: one shared
    /// atomic add per run of values rather than per value.
    ///
    /// ```
    /// # use kuuid_sequence::{Counter, MemoryCounters, Sequence};
    /// let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1000)?;
    /// let mut v = [0u64; 300];
    /// seq.fill(&mut v)?;
    /// assert!(v.windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn fill(&self, out: &mut [u64]) -> Result<(), Error> {
        self.fill_some(out).1
    }

    /// As [`fill`](Self::fill), and when a lease fails part of the way,
    /// says how many values it wrote before: `out[..n]` holds values that
    /// are the caller's to use (printing them loses nothing; dropping them
    /// leaves a gap).
    ///
    /// ```
    /// # use kuuid_sequence::{Counter, MemoryCounters, Sequence};
    /// let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n").up_to(31), 10)?;
    /// let mut v = [0u64; 50];
    /// let (n, result) = seq.fill_some(&mut v);
    /// assert_eq!(n, 30);
    /// assert_eq!(v[..n], (1..=30).collect::<Vec<_>>()[..]);
    /// assert!(result.is_err());
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn fill_some(&self, out: &mut [u64]) -> (usize, Result<(), Error>) {
        let token = kuuid::process::token();
        let mut run = self.runs.get(token).unwrap_or(EMPTY_RUN);
        let mut done = 0;
        while done < out.len() {
            if run.next == run.end {
                let first = match self.claim(token) {
                    Ok(first) => first,
                    Err(e) => return (done, Err(e)),
                };
                run = Run {
                    next: first,
                    end: first + self.run,
                };
            }
            let n = ((run.end - run.next) as usize).min(out.len() - done);
            for (v, x) in out[done..done + n].iter_mut().zip(run.next..) {
                *v = x;
            }
            run.next += n as u64;
            done += n;
            // Saved after each run, so an error keeps what was claimed.
            self.runs.put(token, run);
        }
        (done, Ok(()))
    }

    /// Claims a run of values from the shared blocks, leasing inline when
    /// none is installed, and asks for the next block at the mark.
    #[cold]
    fn claim(&self, token: u64) -> Result<u64, Error> {
        let shared = &*self.shared;
        let claim = shared
            .blocks
            .claim(self.run, token, &pid, |_| shared.lease())?;
        if let Some(next) = claim.prefetch {
            self.prefetch(next);
        }
        Ok(claim.first)
    }

    /// Asks the prefetch thread (started on first use, and again in a
    /// forked child) to install block `index`. If it cannot be started,
    /// the block is leased inline when it is needed. A source that answers
    /// at memory speed is leased inline right away.
    fn prefetch(&self, index: u64) {
        let shared = &self.shared;
        if !shared.source.prefetch_in_background() {
            // An error is met again by the caller that needs the block.
            let token = kuuid::process::token();
            let _ = shared
                .blocks
                .install_through(index, token, &pid, |_| shared.lease());
            return;
        }
        shared.wanted.store(index + 1, Ordering::Release);
        // `try_lock`: a forked child may find the lock held by a parent
        // thread that does not exist in it.
        let Ok(mut prefetcher) = self.prefetcher.try_lock() else {
            return;
        };
        let pid = std::process::id();
        match &*prefetcher {
            Some((p, thread)) if *p == pid => thread.unpark(),
            _ => {
                let weak = Arc::downgrade(shared);
                if let Ok(handle) = std::thread::Builder::new()
                    .name("kuuid-sequence-prefetch".into())
                    .spawn(move || prefetch_loop(weak))
                {
                    *prefetcher = Some((pid, handle.thread().clone()));
                }
            }
        }
    }
}

/// The prefetch thread: installs the block asked for, then parks. It
/// holds the sequence weakly and ends once the sequence is dropped.
fn prefetch_loop<S: BlockSource>(shared: Weak<Shared<S>>) {
    loop {
        {
            let Some(shared) = shared.upgrade() else {
                return;
            };
            if shared.closed.load(Ordering::Acquire) {
                return;
            }
            let wanted = shared.wanted.swap(0, Ordering::AcqRel);
            if wanted != 0 {
                let token = kuuid::process::token();
                // An error here is met again, and reported, by the caller
                // that needs the block.
                let _ = shared
                    .blocks
                    .install_through(wanted - 1, token, &pid, |_| shared.lease());
            }
        }
        std::thread::park();
    }
}

/// The text of a panic's payload (`panic!` with a message gives a `&str`
/// or a `String`).
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".into())
}

fn pid() -> u32 {
    std::process::id()
}

impl<S: BlockSource> Drop for Sequence<S> {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Release);
        if let Ok(Some((pid, thread))) = self.prefetcher.get_mut().map(|p| p.take())
            && pid == std::process::id()
        {
            thread.unpark();
        }
    }
}

impl<S: BlockSource> fmt::Debug for Sequence<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sequence")
            .field("block_len", &self.block_len())
            .field("run", &self.run)
            .finish_non_exhaustive()
    }
}

/// The guide, rendered with the API (`sequence/docs/counters.md` in the
/// repository).
#[cfg(doc)]
pub mod guide {
    // kuuid's guides are another crate's pages: relative, as `cargo doc`
    // in the repository builds both crates side by side (no docs.rs
    // address exists before the first release; RELEASING.md says to make
    // it absolute then).
    #[doc = "[readme]: ../../index.html\n\
             [concurrency-guide]: ../../../kuuid/guide/concurrency/index.html\n"]
    #[doc = include_str!("../docs/counters.md")]
    pub mod counters {}
}

/// The README's and the guide's examples, run as doctests.
#[cfg(all(doctest, feature = "sqlite", feature = "postgres"))]
mod guide_doctests {
    #[doc = include_str!("../README.md")]
    pub struct Readme;
    #[doc = include_str!("../docs/counters.md")]
    pub struct Counters;
}
