//! [`UlidGenerator`]: ULIDs for one owner, from blocks of the process's
//! ULID sequence.

use super::super::sequence::Block;
use super::Ulid;
use super::state::{claim_now, fill_now, from_sequence};

/// ULIDs for one owner (a thread, a task), for hot paths on several
/// threads at once: it claims counter values from the process's sequence in
/// blocks of 256, as [`V7Generator`](crate::V7Generator) does.
///
/// Ids of one generator are strictly increasing, and every id in the
/// process is unique; ids of different generators (and of
/// [`kuuid::ulid`](crate::ulid)) are ordered by millisecond, not within one.
/// Unlike the `ulid` crate's `Generator`, it never fails: past 2^21 ids in
/// a millisecond its counter carries into the next one. A forked child, or
/// a [`kuuid::reseed`](crate::reseed), drops the block.
///
/// ```
/// let mut g = kuuid::UlidGenerator::new();
/// let ids: Vec<_> = (0..10_000).map(|_| g.generate()).collect();
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// ```
#[derive(Debug, Default)]
pub struct UlidGenerator {
    block: Block,
}

impl UlidGenerator {
    /// A generator with no block yet (the first id claims one).
    ///
    /// ```
    /// let id = kuuid::UlidGenerator::new().generate();
    /// assert!(id > kuuid::Ulid::MIN);
    /// ```
    pub fn new() -> Self {
        UlidGenerator::default()
    }

    /// A ULID minted now: strictly after this generator's previous ids.
    ///
    /// ```
    /// let mut g = kuuid::UlidGenerator::new();
    /// assert!(g.generate() < g.generate());
    /// ```
    #[inline]
    pub fn generate(&mut self) -> Ulid {
        let v = self.block.next(claim_now);
        from_sequence(v, crate::local::random_u64())
    }

    /// Fills `ids` with ULIDs minted now, strictly increasing along the
    /// slice and after this generator's previous ids (as
    /// [`fill_ulid`](crate::fill_ulid)).
    ///
    /// ```
    /// let mut g = kuuid::UlidGenerator::new();
    /// let first = g.generate();
    /// let mut ids = [kuuid::Ulid::MIN; 100];
    /// g.fill(&mut ids);
    /// assert!(first < ids[0] && ids.windows(2).all(|w| w[0] < w[1]));
    /// assert!(ids[99] < g.generate());
    /// ```
    pub fn fill(&mut self, ids: &mut [Ulid]) {
        fill_now(ids);
        self.block.clear();
    }
}
