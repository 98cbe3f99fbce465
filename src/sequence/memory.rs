//! Counters in process memory: for tests and for sequences that need no
//! durability.

use std::collections::HashMap;
use std::sync::Mutex;

use super::counter::CounterStore;
use super::error::BoxError;

/// Counters in a map behind a mutex (taken once per lease, not per value).
/// Nothing survives the process: a new one starts every counter afresh.
///
/// ```
/// use kuuid::sequence::{Counter, MemoryCounters, Sequence};
/// let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 64)?;
/// assert_eq!(seq.next()?, 1);
/// # Ok::<(), kuuid::sequence::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct MemoryCounters {
    next: Mutex<HashMap<String, u64>>,
}

impl MemoryCounters {
    /// No counters yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The next value of counter `name`, if it exists.
    ///
    /// ```
    /// use kuuid::sequence::{CounterStore, MemoryCounters};
    /// let m = MemoryCounters::new();
    /// m.advance("n", 5, 10, 100).unwrap();
    /// assert_eq!(m.get("n"), Some(15));
    /// ```
    pub fn get(&self, name: &str) -> Option<u64> {
        self.lock().get(name).copied()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        // A panic elsewhere while the map was held leaves it whole: every
        // change is one insert.
        self.next.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl CounterStore for MemoryCounters {
    fn advance(
        &self,
        name: &str,
        first: u64,
        len: u64,
        limit: u64,
    ) -> Result<Option<u64>, BoxError> {
        let mut map = self.lock();
        // `entry` would allocate the name on every lease.
        if !map.contains_key(name) {
            map.insert(name.to_owned(), first);
        }
        let next = map.get_mut(name).expect("inserted above");
        Ok(match next.checked_add(len) {
            Some(end) if end <= limit => Some(std::mem::replace(next, end)),
            _ => None,
        })
    }

    /// A map update is cheaper than waking a thread.
    fn prefetch_in_background(&self) -> bool {
        false
    }
}
