//! Counters in a store: one counter row (MongoDB's "counter document"), or
//! many rows each owning a disjoint range (its "multiple counter
//! documents").

use super::error::{BoxError, Error};
use super::sharding::{Row, Sharding};
use super::source::BlockSource;

/// Named counters kept durably: the one operation every block source
/// needs from its database.
///
/// A counter is made with a [`Sharding`] (one row, or shards each owning a
/// range) that the store records with it; a lease that names another
/// sharding is refused with
/// [`ShardingMismatchError`](super::ShardingMismatchError), because the
/// same name read with another sharding hands out values again.
///
/// ```
/// use kuuid_sequence::{CounterStore, Sharding, MemoryCounters, Row};
/// let m = MemoryCounters::new();
/// let row = Row::single("n");
/// assert_eq!(m.advance(row, 100, 10, 1000).unwrap(), Some(100));
/// assert_eq!(m.advance(row, 100, 10, 1000).unwrap(), Some(110));
/// assert_eq!(m.advance(row, 100, 900, 1000).unwrap(), None);
/// let other = Row { name: "n", shard: 0, sharding: Sharding::Sharded { shards: 2, range: 10 } };
/// assert!(m.advance(other, 1, 1, 11).is_err());
/// ```
pub trait CounterStore: Send + Sync + 'static {
    /// Atomically and durably, in one step: checks that counter
    /// `row.name` was made with `row.sharding` (recording it if the counter
    /// is new, and failing with [`ShardingMismatchError`](super::ShardingMismatchError) if it was made with
    /// another); creates row `row.shard` at `first` if it does not exist;
    /// then, if `next + len <= limit`, moves it to `next + len` and returns
    /// the old `next`, and otherwise leaves it and returns `None`.
    ///
    /// ```
    /// use kuuid_sequence::{CounterStore, MemoryCounters, Row};
    /// let m = MemoryCounters::new();
    /// assert_eq!(m.advance(Row::single("n"), 1, 10, 100).unwrap(), Some(1));
    /// assert_eq!(m.advance(Row::single("n"), 1, 95, 100).unwrap(), None);
    /// assert_eq!(m.get("n"), Some(11), "a refused advance leaves the row");
    /// ```
    fn advance(
        &self,
        row: Row<'_>,
        first: u64,
        len: u64,
        limit: u64,
    ) -> Result<Option<u64>, BoxError>;

    /// The largest value the store's integers hold (`i64::MAX` for SQL).
    ///
    /// ```
    /// use kuuid_sequence::{CounterStore, MemoryCounters};
    /// assert_eq!(MemoryCounters::new().max_value(), u64::MAX);
    /// ```
    fn max_value(&self) -> u64 {
        u64::MAX
    }

    /// Whether leases are slow enough (a database round trip) to be worth
    /// a background thread; see [`BlockSource::prefetch_in_background`].
    ///
    /// ```
    /// use kuuid_sequence::{CounterStore, MemoryCounters};
    /// assert!(!MemoryCounters::new().prefetch_in_background());
    /// ```
    fn prefetch_in_background(&self) -> bool {
        true
    }
}

/// A shared store: several counters can use one connection.
impl<C: CounterStore + ?Sized> CounterStore for std::sync::Arc<C> {
    fn advance(
        &self,
        row: Row<'_>,
        first: u64,
        len: u64,
        limit: u64,
    ) -> Result<Option<u64>, BoxError> {
        (**self).advance(row, first, len, limit)
    }

    fn max_value(&self) -> u64 {
        (**self).max_value()
    }

    fn prefetch_in_background(&self) -> bool {
        (**self).prefetch_in_background()
    }
}

/// One counter: every lease moves the same row (MongoDB's counter
/// document with `$inc`, a block at a time). Values start at 1 unless
/// set with [`starting_at`](Counter::starting_at).
///
/// ```
/// use kuuid_sequence::{BlockSource, Counter, MemoryCounters};
/// let c = Counter::new(MemoryCounters::new(), "invoices").starting_at(1_000_000);
/// assert_eq!(c.lease(50)?, 1_000_000);
/// assert_eq!(c.lease(50)?, 1_000_050);
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
#[derive(Debug)]
pub struct Counter<C> {
    store: C,
    name: String,
    first: u64,
    limit: Option<u64>,
}

impl<C: CounterStore> Counter<C> {
    /// The counter `name` in `store`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use kuuid_sequence::{BlockSource, Counter, MemoryCounters};
    /// // Two counters in one store: names keep them apart.
    /// let store = Arc::new(MemoryCounters::new());
    /// let (a, b) = (Counter::new(store.clone(), "a"), Counter::new(store, "b"));
    /// assert_eq!((a.lease(5)?, b.lease(5)?, a.lease(5)?), (1, 1, 6));
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn new(store: C, name: impl Into<String>) -> Self {
        Counter {
            store,
            name: name.into(),
            first: 1,
            limit: None,
        }
    }

    /// Where a new counter starts (an existing one keeps its value).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use kuuid_sequence::{BlockSource, Counter, MemoryCounters};
    /// let store = Arc::new(MemoryCounters::new());
    /// assert_eq!(Counter::new(store.clone(), "n").starting_at(500).lease(1)?, 500);
    /// // The counter exists now: another start is ignored.
    /// assert_eq!(Counter::new(store, "n").starting_at(7).lease(1)?, 501);
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn starting_at(mut self, first: u64) -> Self {
        self.first = first;
        self
    }

    /// The first value the counter may not reach (default: the store's
    /// largest integer). Past it, leases fail with [`Error::Exhausted`].
    ///
    /// ```
    /// use kuuid_sequence::{BlockSource, Counter, Error, MemoryCounters};
    /// let c = Counter::new(MemoryCounters::new(), "n").up_to(21);
    /// assert_eq!(c.lease(10)?, 1);
    /// assert_eq!(c.lease(10)?, 11);
    /// assert!(matches!(c.lease(10), Err(Error::Exhausted { .. })));
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn up_to(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The store.
    ///
    /// ```
    /// use kuuid_sequence::{BlockSource, Counter, MemoryCounters};
    /// let c = Counter::new(MemoryCounters::new(), "n");
    /// c.lease(10)?;
    /// assert_eq!(c.store().get("n"), Some(11));
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn store(&self) -> &C {
        &self.store
    }
}

impl<C: CounterStore> BlockSource for Counter<C> {
    fn lease(&self, len: u64) -> Result<u64, Error> {
        let max = self.store.max_value();
        let limit = self.limit.unwrap_or(max);
        check(len, limit, self.first, max)?;
        self.store
            .advance(Row::single(&self.name), self.first, len, limit)
            .map_err(Error::from_store)?
            .ok_or_else(|| Error::Exhausted {
                name: self.name.clone(),
                len,
                limit,
            })
    }

    fn prefetch_in_background(&self) -> bool {
        self.store.prefetch_in_background()
    }
}

/// Refuses lengths and limits the store cannot hold.
fn check(len: u64, limit: u64, first: u64, max: u64) -> Result<(), Error> {
    let length = |what, value| Error::Length { what, value, max };
    if len == 0 || len > max {
        return Err(length("lease length", len));
    }
    if limit > max {
        return Err(length("counter limit", limit));
    }
    if first > max {
        return Err(length("counter start", first));
    }
    Ok(())
}

/// `shards` counter rows, row `k` owning the `range` values `k * range + 1
/// ..= (k + 1) * range` (so 0 is never handed out): each lease moves one
/// row picked at random, so writers spread over the rows instead of
/// queueing on one. A row never leases past its range: when its range is
/// used up the lease moves to the next row, and when every row's is, it
/// fails with [`Error::Exhausted`]. The sharding (shards and range) is
/// recorded with the counter: the same name with another sharding is
/// refused ([`Error::Sharding`]).
///
/// Values are unique across all rows, but blocks from different rows
/// interleave, so a [`Sequence`](super::Sequence) over a sharded counter
/// is not ordered, not even per thread.
///
/// ```
/// use kuuid_sequence::{BlockSource, MemoryCounters, ShardedCounter};
/// let s = ShardedCounter::new(MemoryCounters::new(), "accounts", 4, 1_000_000)?;
/// let first = s.lease(100)?;
/// assert_eq!((first - 1) % 1_000_000 % 100, 0);
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
#[derive(Debug)]
pub struct ShardedCounter<C> {
    store: C,
    name: String,
    shards: u64,
    range: u64,
}

impl<C: CounterStore> ShardedCounter<C> {
    /// `shards` rows of counter `name`, each owning `range` values. Fails
    /// if `shards * range` passes the store's integers.
    ///
    /// ```
    /// use kuuid_sequence::{Error, MemoryCounters, ShardedCounter};
    /// assert!(ShardedCounter::new(MemoryCounters::new(), "n", 16, 1 << 40).is_ok());
    /// let too_big = ShardedCounter::new(MemoryCounters::new(), "n", 16, u64::MAX / 8);
    /// assert!(matches!(too_big, Err(Error::Length { .. })));
    /// ```
    pub fn new(store: C, name: impl Into<String>, shards: u64, range: u64) -> Result<Self, Error> {
        let max = store.max_value();
        let length = |what, value, max| Error::Length { what, value, max };
        if shards == 0 {
            return Err(length("shard count", 0, max));
        }
        if shards >= max {
            // Not even one value a shard fits.
            return Err(length("shard count", shards, max - 1));
        }
        if range == 0 || shards.checked_mul(range).is_none_or(|end| end >= max) {
            return Err(length("shard size", range, (max - 1) / shards));
        }
        Ok(ShardedCounter {
            store,
            name: name.into(),
            shards,
            range,
        })
    }

    /// The store.
    ///
    /// ```
    /// use kuuid_sequence::{MemoryCounters, ShardedCounter};
    /// let s = ShardedCounter::new(MemoryCounters::new(), "n", 4, 1000)?;
    /// assert_eq!(s.store().get("n"), None, "no single counter of that name");
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn store(&self) -> &C {
        &self.store
    }

    /// The sharding recorded with the counter.
    ///
    /// ```
    /// use kuuid_sequence::{MemoryCounters, ShardedCounter, Sharding};
    /// let s = ShardedCounter::new(MemoryCounters::new(), "n", 4, 1000)?;
    /// assert_eq!(s.sharding(), Sharding::Sharded { shards: 4, range: 1000 });
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn sharding(&self) -> Sharding {
        Sharding::Sharded {
            shards: self.shards,
            range: self.range,
        }
    }

    /// The row that owns `value`.
    ///
    /// ```
    /// use kuuid_sequence::{MemoryCounters, ShardedCounter};
    /// let s = ShardedCounter::new(MemoryCounters::new(), "a", 4, 1000)?;
    /// assert_eq!(s.shard_of(1), Some(0));
    /// assert_eq!(s.shard_of(1000), Some(0));
    /// assert_eq!(s.shard_of(2500), Some(2));
    /// assert_eq!(s.shard_of(4000), Some(3));
    /// assert_eq!(s.shard_of(4001), None);
    /// assert_eq!(s.shard_of(0), None);
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn shard_of(&self, value: u64) -> Option<u64> {
        let k = value.checked_sub(1)? / self.range;
        (k < self.shards).then_some(k)
    }
}

impl<C: CounterStore> BlockSource for ShardedCounter<C> {
    fn lease(&self, len: u64) -> Result<u64, Error> {
        if len == 0 || len > self.range {
            return Err(Error::Length {
                what: "lease length",
                value: len,
                max: self.range,
            });
        }
        let sharding = self.sharding();
        let start = super::error::os_u64()? % self.shards;
        for step in 0..self.shards {
            let shard = (start + step) % self.shards;
            let (first, limit) = (shard * self.range + 1, (shard + 1) * self.range + 1);
            let row = Row {
                name: &self.name,
                shard,
                sharding,
            };
            if let Some(v) = self
                .store
                .advance(row, first, len, limit)
                .map_err(Error::from_store)?
            {
                return Ok(v);
            }
        }
        Err(Error::Exhausted {
            name: self.name.clone(),
            len,
            limit: self.shards * self.range + 1,
        })
    }

    fn prefetch_in_background(&self) -> bool {
        self.store.prefetch_in_background()
    }
}
