//! Counters in process memory: for tests and for sequences that need no
//! durability.

use std::collections::HashMap;
use std::sync::Mutex;

use super::counter::CounterStore;
use super::error::BoxError;
use super::sharding::{Row, Sharding, ShardingMismatchError};

/// Counters in a map behind a mutex (taken once per lease, not per value).
/// Nothing survives the process: a new one starts every counter afresh.
///
/// The counters belong to the process that made them: in a forked child,
/// or after [`kuuid::reseed`] (a restored copy of the
/// process), a lease fails with [`CopiedCountersError`], because the copy's
/// counters would hand out the values the original hands out. After a
/// `reseed()` they refuse for good, in that same process too (it cannot
/// tell whether it is the original): make new counters.
///
/// ```
/// use kuuid_sequence::{Counter, MemoryCounters, Sequence};
/// let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 64)?;
/// assert_eq!(seq.next()?, 1);
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
#[derive(Debug)]
pub struct MemoryCounters {
    state: Mutex<State>,
    /// The process token the counters were made under.
    token: u64,
}

#[derive(Debug, Default)]
struct State {
    /// Each counter's sharding.
    shardings: HashMap<String, Sharding>,
    /// Each row's next value, by counter and shard.
    next: HashMap<(String, u64), u64>,
}

impl Default for MemoryCounters {
    fn default() -> Self {
        MemoryCounters {
            state: Mutex::default(),
            token: kuuid::process::token(),
        }
    }
}

impl MemoryCounters {
    /// No counters yet.
    ///
    /// ```
    /// let m = kuuid_sequence::MemoryCounters::new();
    /// assert_eq!(m.get("n"), None);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The next value of the single counter `name`, if it exists.
    ///
    /// In a copy of the process (a forked child, or after
    /// [`kuuid::reseed`]) the counters are not this
    /// process's, as for a lease, and there is nothing to read: `None`.
    /// The copy does not take the map's lock, which a thread of the
    /// original may have held at the fork and which no thread of the copy
    /// would ever release.
    ///
    /// ```
    /// use kuuid_sequence::{CounterStore, MemoryCounters, Row};
    /// let m = MemoryCounters::new();
    /// m.advance(Row::single("n"), 5, 10, 100).unwrap();
    /// assert_eq!(m.get("n"), Some(15));
    /// ```
    pub fn get(&self, name: &str) -> Option<u64> {
        if self.is_copy() {
            return None;
        }
        self.lock().next.get(&(name.to_owned(), 0)).copied()
    }

    /// Whether this process is a copy of the one that made the counters.
    fn is_copy(&self) -> bool {
        kuuid::process::token() != self.token
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere while the map was held leaves it whole: every
        // change is one insert.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A lease on [`MemoryCounters`] in a copy of the process that made them
/// (a forked child, or after [`kuuid::reseed`]).
///
/// ```
/// let e = kuuid_sequence::CopiedCountersError;
/// assert!(e.to_string().contains("forked child"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopiedCountersError;

impl std::fmt::Display for CopiedCountersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "in-memory counters belong to the process that made them; this is a forked child or a restored copy (kuuid::reseed), whose copy would repeat the original's values",
        )
    }
}

impl std::error::Error for CopiedCountersError {}

impl CounterStore for MemoryCounters {
    fn advance(
        &self,
        row: Row<'_>,
        first: u64,
        len: u64,
        limit: u64,
    ) -> Result<Option<u64>, BoxError> {
        if self.is_copy() {
            return Err(Box::new(CopiedCountersError));
        }
        let mut state = self.lock();
        match state.shardings.get(row.name) {
            Some(&l) if l != row.sharding => {
                return Err(Box::new(ShardingMismatchError {
                    name: row.name.to_owned(),
                    stored: l.to_string(),
                    requested: row.sharding,
                }));
            }
            Some(_) => {}
            None => {
                state.shardings.insert(row.name.to_owned(), row.sharding);
            }
        }
        let next = state
            .next
            .entry((row.name.to_owned(), row.shard))
            .or_insert(first);
        Ok(match next.checked_add(len) {
            Some(end) if end <= limit => Some(std::mem::replace(next, end)),
            _ => None,
        })
    }

    fn prefetch_in_background(&self) -> bool {
        false
    }
}
