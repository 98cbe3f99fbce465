//! What a generator draws and encodes ahead of its callers: a pool of
//! random words for small requests, and a batch of 4-group ids encoded
//! under one prefix for single ids. Both come from the generator's RNG, so
//! the generator drops them ([`LookAhead::invalidate`]) when it reseeds.

use crate::engine::{self, Isa, PREFIX_LEN};
use crate::id::{Id, Kuuid, MAX_GROUPS, MAX_LEN};
use crate::rng::Rng;

use super::BATCH;

/// Words in the small-request pool.
const POOL: usize = BATCH * MAX_GROUPS;

pub(crate) struct LookAhead {
    /// Words drawn ahead for small requests, used from `pool_pos`: one RNG
    /// call per 256 single ids instead of one each.
    pool: Box<[u32; POOL]>,
    pool_pos: usize,
    /// 4-group ids encoded ahead under `encoded_prefix`, used from
    /// `encoded_pos`: a single id is then a 32-byte copy.
    encoded: Box<[[u8; MAX_LEN]; BATCH]>,
    encoded_pos: usize,
    encoded_prefix: [u8; PREFIX_LEN],
}

impl LookAhead {
    /// Nothing ahead yet: the first request draws.
    pub(crate) fn new() -> Self {
        LookAhead {
            pool: Box::new([0; POOL]),
            pool_pos: POOL,
            encoded: Box::new([[0; MAX_LEN]; BATCH]),
            encoded_pos: BATCH,
            encoded_prefix: [0; PREFIX_LEN],
        }
    }

    /// Drops everything drawn ahead (the RNG it came from was replaced).
    pub(crate) fn invalidate(&mut self) {
        self.pool_pos = POOL;
        self.encoded_pos = BATCH;
    }

    /// Whether the pool holds no words for small requests.
    #[inline]
    pub(crate) fn is_spent(&self) -> bool {
        self.pool_pos == POOL
    }

    /// `n` (at most the pool's size) fresh words from `rng`, drawn into the
    /// spent pool, which stays spent: a batch's scratch space that no later
    /// draw hands out, where a stack buffer would be zeroed per batch (4 KiB
    /// for 256 ids).
    #[inline]
    pub(crate) fn draw_into_spent(
        &mut self,
        rng: &mut Rng,
        on: Option<Isa>,
        n: usize,
    ) -> &mut [u32] {
        debug_assert!(self.is_spent());
        let words = &mut self.pool[..n];
        rng.fill_words(resolve(on), words);
        words
    }

    /// Random words from `rng`: small requests from the pool, large ones
    /// straight from the RNG. `on` is the generator's chosen path (`None`:
    /// the process's), resolved only when the RNG runs, off the hot path.
    #[inline]
    pub(crate) fn draw(&mut self, rng: &mut Rng, on: Option<Isa>, out: &mut [u32]) {
        if out.len() >= POOL / 4 {
            rng.fill_words(resolve(on), out);
            return;
        }
        if POOL - self.pool_pos < out.len() {
            self.refill(rng, on);
        }
        out.copy_from_slice(&self.pool[self.pool_pos..self.pool_pos + out.len()]);
        self.pool_pos += out.len();
    }

    /// [`LookAhead::draw`] of a fixed `G` words, for the monotonic path and
    /// the per-thread single values: sharing `draw`'s slice form measured
    /// 1.2-1.4 ns slower per id (plain loop, A/B), 4 ns per couch id.
    #[inline]
    pub(crate) fn draw_array<const G: usize>(
        &mut self,
        rng: &mut Rng,
        on: Option<Isa>,
    ) -> [u32; G] {
        if POOL - self.pool_pos < G {
            self.refill(rng, on);
        }
        let w = self.pool[self.pool_pos..self.pool_pos + G]
            .try_into()
            .expect("G words");
        self.pool_pos += G;
        w
    }

    /// Draws a new pool: once per `POOL` words, so out of line, which keeps
    /// the RNG's code out of the callers' hot paths.
    #[cold]
    #[inline(never)]
    fn refill(&mut self, rng: &mut Rng, on: Option<Isa>) {
        rng.fill_words(resolve(on), &mut self.pool[..]);
        self.pool_pos = 0;
    }

    /// Whether the encoded-ahead batch is used up ([`LookAhead::encode_ahead`]
    /// first, then).
    #[inline]
    pub(crate) fn encoded_is_empty(&self) -> bool {
        // `>=`, not `==`: past this test the compiler knows the position
        // is in bounds, and the copy that follows needs no second test.
        self.encoded_pos >= BATCH
    }

    /// An id of `LEN` bytes under `prefix` from the encoded-ahead batch,
    /// which is not empty: the first `LEN - 8` random characters of a
    /// 4-group id.
    #[inline]
    pub(crate) fn take_encoded<const LEN: usize>(&mut self, prefix: &[u8; PREFIX_LEN]) -> Id<LEN> {
        let mut id = self.encoded[self.encoded_pos];
        self.encoded_pos += 1;
        // The batch was encoded under the prefix of its time: while that
        // holds (the usual case) an id is a plain copy; after the second
        // moves, or for another layout, the prefix is merged in a register.
        if self.encoded_prefix != *prefix {
            engine::put_prefix(&mut id, prefix);
        }
        Id::from_valid(id[..LEN].try_into().expect("LEN <= 32"))
    }

    /// A 32-byte id from the encoded-ahead batch, which is not empty, with
    /// `prefix` and the first group's digits `group` put in front of its
    /// other three random groups.
    #[inline]
    pub(crate) fn take_encoded_head(&mut self, prefix: &[u8; PREFIX_LEN], group: u64) -> Kuuid {
        let mut id = self.encoded[self.encoded_pos];
        self.encoded_pos += 1;
        engine::put_head(&mut id, prefix, group);
        Id::from_valid(id)
    }

    /// Encodes a new batch of 4-group ids from `rng` under `prefix`.
    pub(crate) fn encode_ahead(
        &mut self,
        rng: &mut Rng,
        on: Option<Isa>,
        prefix: &[u8; PREFIX_LEN],
    ) {
        // The batch's words are drawn into the pool, which is then spent:
        // no 4 KiB zeroed on the stack per batch, and no word is used twice.
        let words = &mut self.pool[..BATCH * MAX_GROUPS];
        rng.fill_words(resolve(on), words);
        let out = self.encoded.as_flattened_mut();
        engine::encode_ids(on, prefix, words, MAX_GROUPS, out, MAX_LEN, BATCH);
        self.pool_pos = POOL;
        self.encoded_prefix = *prefix;
        self.encoded_pos = 0;
    }
}

/// The path `on` names, or the process's.
#[inline]
pub(super) fn resolve(on: Option<Isa>) -> Isa {
    on.unwrap_or_else(engine::isa)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngKind;

    /// The words a batch was encoded from are never handed out by a later
    /// draw: the pool they were drawn into is spent.
    #[test]
    fn a_batch_spends_the_pool() {
        let mut rng = Rng::from_os(RngKind::Fast).unwrap();
        let mut ahead = LookAhead::new();
        let _ = ahead.draw_array::<1>(&mut rng, Some(Isa::Scalar));
        ahead.encode_ahead(&mut rng, Some(Isa::Scalar), b"00000000");
        let batch = ahead.pool.to_vec();
        let next = ahead.draw_array::<4>(&mut rng, Some(Isa::Scalar));
        assert!(
            next.iter().all(|w| !batch.contains(w)),
            "a batch's words drawn again: {next:x?}"
        );
    }

    /// A bulk batch's words, drawn into the spent pool, are never handed out
    /// by a later draw, and the pool is not used while it holds words.
    #[test]
    fn a_bulk_batch_leaves_the_pool_spent() {
        let mut rng = Rng::from_os(RngKind::Fast).unwrap();
        let mut ahead = LookAhead::new();
        assert!(ahead.is_spent());
        let batch = ahead
            .draw_into_spent(&mut rng, Some(Isa::Scalar), BATCH * MAX_GROUPS)
            .to_vec();
        assert!(ahead.is_spent());
        let next = ahead.draw_array::<4>(&mut rng, Some(Isa::Scalar));
        assert!(
            next.iter().all(|w| !batch.contains(w)),
            "a batch's words drawn again: {next:x?}"
        );
        assert!(!ahead.is_spent());
    }
}
