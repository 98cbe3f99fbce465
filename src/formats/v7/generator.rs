//! [`V7Generator`]: UUIDv7s for one owner, from blocks of the process's
//! sequence.

use super::COUNTER_BITS;
use super::Uuid7;
use super::state::{claim_now, fill_now, from_sequence};
use crate::rng::fork::Tagged;

/// Sequence values a [`V7Generator`] claims at once.
const BLOCK: u64 = 256;

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
    /// The next sequence value of the block and one past its last, under
    /// the process token the block was claimed under.
    block: Tagged<(u128, u128)>,
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
        let now = crate::sys::coarse_millis();
        let token = crate::rng::fork::token();
        let v = match self.block.get_mut(token) {
            // A block of this process, not used up, whose millisecond the
            // clock has not passed.
            Some((next, end)) if *next != *end && *next >> COUNTER_BITS >= u128::from(now) => {
                let v = *next;
                *next += 1;
                v
            }
            _ => self.claim(token),
        };
        from_sequence(v, crate::local::random_u64())
    }

    /// Claims a new block and takes its first value.
    #[cold]
    fn claim(&mut self, token: u64) -> u128 {
        let first = claim_now(BLOCK);
        self.block = Tagged::new(token, (first + 1, first + u128::from(BLOCK)));
        first
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
        // The rest of the block sorts before what the fill claimed.
        self.block = Tagged::default();
    }
}
