//! [`V7Generator`]: UUIDv7s for one owner, from blocks of the process's
//! sequence.

use super::super::sequence::Block;
use super::Uuid7;
use super::state::{claim_now, fill_now, from_sequence};

/// UUIDv7s for one owner (a thread, a task), for hot paths on several
/// threads at once: it claims counter values from the process's sequence in
/// blocks of 256, so threads do not take turns on the shared word for every
/// id.
///
/// # Which order is which
///
/// Ids of one generator are strictly increasing,
/// and every id in the process is unique. Ids of *different* generators
/// (and of [`kuuid::v7`](crate::v7)) are ordered by millisecond but not
/// within one: a generator keeps minting from its block until the clock
/// moves on. [`kuuid::v7`](crate::v7) is the one ordered across the whole
/// process, at the price of one atomic add on the shared word an id
/// (measured in docs/formats.md: two threads minting at once each run several
/// times slower than one alone).
///
/// # Fork and reseed
///
/// A forked child, or a [`kuuid::reseed`](crate::reseed), drops the block:
/// the child claims from its own sequence.
///
/// Ids that carry a given time instead of now come from
/// [`V7GeneratorAt`](crate::V7GeneratorAt).
///
/// # Example
///
/// ```
/// let mut g = kuuid::V7Generator::new();
/// let a = g.generate();
/// let b = g.generate();
/// assert!(a < b);
/// let handles: Vec<_> = (0..2)
///     .map(|_| std::thread::spawn(|| {
///         let mut g = kuuid::V7Generator::new();
///         (0..1000).map(|_| g.generate()).collect::<Vec<_>>()
///     }))
///     .collect();
/// let mut all: Vec<_> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
/// all.sort();
/// all.dedup();
/// assert_eq!(all.len(), 2000);
/// ```
#[derive(Debug, Default)]
pub struct V7Generator {
    /// The block of the process's sequence this generator mints from.
    block: Block,
}

impl V7Generator {
    /// A generator with no block yet (the first id claims one).
    ///
    /// ```
    /// let id = kuuid::V7Generator::new().generate();
    /// assert_eq!(id.as_bytes()[6] >> 4, 7);
    /// ```
    pub fn new() -> Self {
        V7Generator::default()
    }

    /// A UUIDv7 minted now: strictly after this generator's previous ids.
    ///
    /// ```
    /// let mut g = kuuid::V7Generator::new();
    /// let ids: Vec<_> = (0..10_000).map(|_| g.generate()).collect();
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// ```
    #[inline]
    pub fn generate(&mut self) -> Uuid7 {
        let v = self.block.next(claim_now);
        from_sequence(v, crate::local::random_u64())
    }

    /// Fills `ids` with UUIDv7s minted now, strictly increasing along the
    /// slice and after this generator's previous ids (as
    /// [`fill_v7`](crate::fill_v7), which it uses).
    ///
    /// ```
    /// let mut g = kuuid::V7Generator::new();
    /// let first = g.generate();
    /// let mut ids = [kuuid::Uuid7::MIN; 100];
    /// g.fill(&mut ids);
    /// assert!(first < ids[0] && ids.windows(2).all(|w| w[0] < w[1]));
    /// assert!(ids[99] < g.generate());
    /// ```
    pub fn fill(&mut self, ids: &mut [Uuid7]) {
        fill_now(ids);
        self.block.clear();
    }
}
