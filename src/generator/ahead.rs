//! What a generator draws and encodes ahead of its callers: a pool of
//! random words for small requests, and a slice of 4-group ids encoded
//! under one prefix for single ids. Both come from the generator's RNG, so
//! the generator drops them ([`LookAhead::invalidate`]) when it reseeds.
//!
//! Both start late and small: a thread's first id is encoded alone from 4
//! words drawn for it, so a thread that minted one id holds nothing here
//! (the first id on a new thread, the memory a thread keeps); its second
//! draws 64 words and encodes 4 ids, and the buffers double from there.
//! Grown, the pool draws [`REFILL`] words at a time and ids are
//! encoded [`SLICE`] at a time, and the call that refills the pool encodes
//! only a few: no single call pays for a refill and a slice together,
//! which set the tail of `id()`'s latency (`benches/server.rs`;
//! docs/performance.md has the figures).

use crate::engine::{self, Isa, PREFIX_LEN};
use crate::kuuid::id::{Id, Kuuid, MAX_GROUPS, MAX_LEN};
use crate::rng::Rng;

use super::BATCH;

/// The pool's largest size: a bulk batch's scratch (256 4-group ids).
const POOL: usize = BATCH * MAX_GROUPS;
/// Words a grown pool draws at a time: a refill's call's [`AFTER_REFILL`]
/// ids and three slices, so single ids use the pool up exactly (one RNG
/// request and its rekey per 100 ids). Its pause, about that of a slice's
/// encoding, set with the slice the lowest p99.9 of the sizes tried on
/// Zen 3 (docs/performance.md).
const REFILL: usize = MAX_GROUPS * (AFTER_REFILL + 3 * SLICE);
/// Ids the first encode-ahead makes; each later one doubles, up to [`SLICE`].
const FIRST_IDS: usize = 16;
/// Ids encoded ahead at a time, grown: encoding 32 ids is the pause a
/// single id meets every 32 calls.
const SLICE: usize = 32;
/// Ids encoded on the call that refills the pool: the refill's pause
/// plus a few ids' encoding, not plus a slice's.
const AFTER_REFILL: usize = 4;

pub(crate) struct LookAhead {
    /// Words drawn ahead, used from `pool_pos`: small requests and the
    /// encoded slices take theirs here, one RNG call per `pool.len()`
    /// words. Grows by doubling up to [`REFILL`] (to [`POOL`] as a bulk
    /// batch's scratch).
    pool: Vec<u32>,
    pool_pos: usize,
    /// 4-group ids encoded ahead under `encoded_prefix`, used from
    /// `encoded_pos`: a single id is then a 32-byte copy. Grows by
    /// doubling from [`FIRST_IDS`] up to [`SLICE`].
    encoded: Vec<[u8; MAX_LEN]>,
    encoded_pos: usize,
    encoded_prefix: [u8; PREFIX_LEN],
    /// Whether the pool was ever filled or a first request served: until
    /// then a single id or value is drawn for itself alone
    /// ([`LookAhead::first_id`], [`LookAhead::draw_array`]).
    started: bool,
}

impl LookAhead {
    /// Nothing ahead and nothing allocated: the first request draws.
    pub(crate) const fn new() -> Self {
        LookAhead {
            pool: Vec::new(),
            pool_pos: 0,
            encoded: Vec::new(),
            encoded_pos: 0,
            encoded_prefix: [0; PREFIX_LEN],
            started: false,
        }
    }

    /// Drops everything drawn ahead (the RNG it came from was replaced).
    pub(crate) fn invalidate(&mut self) {
        self.pool_pos = self.pool.len();
        self.encoded_pos = self.encoded.len();
    }

    /// Whether the pool holds no words for small requests.
    #[inline]
    pub(crate) fn is_spent(&self) -> bool {
        self.pool_pos == self.pool.len()
    }

    /// `n` (at most [`POOL`]) fresh words from `rng`, drawn into the spent
    /// pool, which stays spent: a batch's scratch space that no later draw
    /// hands out, where a stack buffer would be zeroed per batch (4 KiB
    /// for 256 ids).
    #[inline]
    pub(crate) fn draw_into_spent(
        &mut self,
        rng: &mut Rng,
        on: Option<Isa>,
        n: usize,
    ) -> &mut [u32] {
        debug_assert!(self.is_spent() && n <= POOL);
        if self.pool.len() < n {
            self.pool.resize(n, 0);
            self.pool_pos = self.pool.len();
        }
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
        if self.pool.len() - self.pool_pos < out.len() {
            self.refill(rng, on, out.len());
        }
        out.copy_from_slice(&self.pool[self.pool_pos..self.pool_pos + out.len()]);
        self.pool_pos += out.len();
    }

    /// [`LookAhead::draw`] of a fixed `G` words, for the monotonic path and
    /// the per-thread single values: sharing `draw`'s slice form measured
    /// slower (docs/performance.md, "Measurements behind the code").
    #[inline]
    pub(crate) fn draw_array<const G: usize>(
        &mut self,
        rng: &mut Rng,
        on: Option<Isa>,
    ) -> [u32; G] {
        if self.pool.len() - self.pool_pos < G {
            if !self.started {
                return self.first_words(rng, on);
            }
            self.refill(rng, on, G);
        }
        let w = self.pool[self.pool_pos..self.pool_pos + G]
            .try_into()
            .expect("G words");
        self.pool_pos += G;
        w
    }

    /// The first request's `G` words, drawn for it alone: nothing allocated.
    #[cold]
    #[inline(never)]
    fn first_words<const G: usize>(&mut self, rng: &mut Rng, on: Option<Isa>) -> [u32; G] {
        self.started = true;
        let mut w = [0; G];
        rng.fill_words(resolve(on), &mut w);
        w
    }

    /// A generator's first single id, encoded alone from four words drawn
    /// for it, while nothing was drawn before: a thread that mints one id
    /// allocates nothing and pays for no look-ahead (the first id on a
    /// new thread). `None` after the first request of any kind.
    #[cold]
    #[inline(never)]
    pub(crate) fn first_id(
        &mut self,
        rng: &mut Rng,
        on: Option<Isa>,
        prefix: &[u8; PREFIX_LEN],
    ) -> Option<[u8; MAX_LEN]> {
        if self.started {
            return None;
        }
        let words = self.first_words::<MAX_GROUPS>(rng, on);
        let mut id = [0; MAX_LEN];
        engine::encode_ids(on, prefix, &words, MAX_GROUPS, &mut id, MAX_LEN, 1);
        Some(id)
    }

    /// Draws a new pool of at least `need` words: twice the last one's
    /// size, from 64 up to [`REFILL`]. Out of line, which
    /// keeps the RNG's code out of the callers' hot paths.
    #[cold]
    #[inline(never)]
    fn refill(&mut self, rng: &mut Rng, on: Option<Isa>, need: usize) {
        self.started = true;
        let len = (2 * self.pool.len())
            .clamp(FIRST_IDS * MAX_GROUPS, REFILL)
            .max(need);
        // Exact: the pool's memory is what a thread keeps.
        self.pool.reserve_exact(len.saturating_sub(self.pool.len()));
        self.pool.resize(len, 0);
        rng.fill_words(resolve(on), &mut self.pool[..]);
        self.pool_pos = 0;
    }

    /// Whether the encoded-ahead slice is used up ([`LookAhead::encode_ahead`]
    /// first, then).
    #[inline]
    pub(crate) fn encoded_is_empty(&self) -> bool {
        // `>=`, not `==`: past this test the compiler knows the position
        // is in bounds, and the copy that follows needs no second test.
        self.encoded_pos >= self.encoded.len()
    }

    /// An id of `LEN` bytes under `prefix` from the encoded-ahead slice,
    /// which is not empty: the first `LEN - 8` random characters of a
    /// 4-group id.
    #[inline]
    pub(crate) fn take_encoded<const LEN: usize>(&mut self, prefix: &[u8; PREFIX_LEN]) -> Id<LEN> {
        let mut id = self.encoded[self.encoded_pos];
        self.encoded_pos += 1;
        // The slice was encoded under the prefix of its time: while that
        // holds (the usual case) an id is a plain copy; after the second
        // moves, or for another layout, the prefix is merged in a register.
        if self.encoded_prefix != *prefix {
            engine::put_prefix(&mut id, prefix);
        }
        Id::from_valid(id[..LEN].try_into().expect("LEN <= 32"))
    }

    /// A 32-byte id from the encoded-ahead slice, which is not empty, with
    /// `prefix` and the first group's digits `group` put in front of its
    /// other three random groups.
    #[inline]
    pub(crate) fn take_encoded_head(&mut self, prefix: &[u8; PREFIX_LEN], group: u64) -> Kuuid {
        let mut id = self.encoded[self.encoded_pos];
        self.encoded_pos += 1;
        engine::put_head(&mut id, prefix, group);
        Id::from_valid(id)
    }

    /// Encodes the next slice of 4-group ids under `prefix`, from the
    /// pool's words (which are then used: no word goes into two ids). The
    /// slice is as long as the buffer, or what the pool still holds; only
    /// when the pool holds fewer than [`AFTER_REFILL`] ids' words does it
    /// refill (the rest left unused), and that call encodes just
    /// [`AFTER_REFILL`] ids, so a refill and a whole slice never fall on
    /// one call (their pauses added set `id()`'s p99.9).
    pub(crate) fn encode_ahead(
        &mut self,
        rng: &mut Rng,
        on: Option<Isa>,
        prefix: &[u8; PREFIX_LEN],
    ) {
        let len = (2 * self.encoded.len()).clamp(FIRST_IDS, SLICE);
        self.encoded.resize(len, [0; MAX_LEN]);
        let mut n = len.min((self.pool.len() - self.pool_pos) / MAX_GROUPS);
        if n < AFTER_REFILL {
            self.refill(rng, on, AFTER_REFILL * MAX_GROUPS);
            n = AFTER_REFILL;
        }
        let need = n * MAX_GROUPS;
        let words = &self.pool[self.pool_pos..self.pool_pos + need];
        // The slice's tail: ids are taken from `encoded_pos` to the end.
        let out = self.encoded[len - n..].as_flattened_mut();
        engine::encode_ids(on, prefix, words, MAX_GROUPS, out, MAX_LEN, n);
        self.pool_pos += need;
        self.encoded_prefix = *prefix;
        self.encoded_pos = len - n;
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

    /// The words a slice was encoded from are never handed out by a later
    /// draw: the pool's position moved past them.
    #[test]
    fn a_slice_uses_its_words() {
        let mut rng = Rng::from_os(RngKind::Fast).unwrap();
        let mut ahead = LookAhead::new();
        let _ = ahead.draw_array::<1>(&mut rng, Some(Isa::Scalar));
        for _ in 0..24 {
            ahead.encode_ahead(&mut rng, Some(Isa::Scalar), b"00000000");
            // The slice's words end where the pool's position now stands.
            let n = ahead.encoded.len() - ahead.encoded_pos;
            let need = n * MAX_GROUPS;
            let used = ahead.pool[ahead.pool_pos - need..ahead.pool_pos].to_vec();
            let (mut prefixes, mut words) = (vec![0u64; n], vec![0u32; need]);
            let text = ahead.encoded[ahead.encoded_pos..].as_flattened();
            let decoded =
                crate::engine::decode_with(Isa::Scalar, text, MAX_LEN, &mut prefixes, &mut words);
            assert_eq!(decoded, Ok(n));
            assert_eq!(words, used, "the slice encodes the words it used");
            let next = ahead.draw_array::<4>(&mut rng, Some(Isa::Scalar));
            assert!(
                next.iter().all(|w| !used.contains(w)),
                "a slice's words drawn again: {next:x?}"
            );
        }
    }

    /// The buffers start small and double up to their grown sizes, never
    /// past them; a call that refills the pool encodes [`AFTER_REFILL`]
    /// ids, one that does not a whole buffer or the pool's rest, and a
    /// refill leaves fewer than [`AFTER_REFILL`] ids' words behind. Grown,
    /// single ids use the pool up exactly, in whole slices.
    #[test]
    fn the_buffers_start_small_and_grow() {
        let mut rng = Rng::from_os(RngKind::Fast).unwrap();
        let mut ahead = LookAhead::new();
        assert_eq!((ahead.pool.capacity(), ahead.encoded.capacity()), (0, 0));
        let (mut lens, mut pools, mut refills) = (Vec::new(), Vec::new(), 0);
        for _ in 0..40 {
            let left = ahead.pool.len() - ahead.pool_pos;
            let len_before = ahead.encoded.len();
            let grown = ahead.pool.len() == REFILL && len_before == SLICE;
            ahead.encode_ahead(&mut rng, Some(Isa::Scalar), b"00000000");
            let (len, n) = (ahead.encoded.len(), ahead.encoded.len() - ahead.encoded_pos);
            if left / MAX_GROUPS < AFTER_REFILL {
                refills += 1;
                assert_eq!(n, AFTER_REFILL, "a refill's call encoded {n} ids");
                assert_eq!(ahead.pool_pos, AFTER_REFILL * MAX_GROUPS);
                assert!(
                    !grown || left == 0,
                    "a grown pool refilled with {left} words left"
                );
            } else {
                assert_eq!(n, len.min(left / MAX_GROUPS), "{left} words left");
                assert!(!grown || n == SLICE, "a grown pool's slice of {n} ids");
            }
            assert_eq!(len, (2 * len_before).clamp(FIRST_IDS, SLICE));
            lens.push(len);
            pools.push(ahead.pool.len());
        }
        assert!(refills >= 4, "{refills} refills in {pools:?}");
        assert_eq!(lens[0], FIRST_IDS);
        assert_eq!(*lens.last().unwrap(), SLICE);
        assert_eq!(pools[0], FIRST_IDS * MAX_GROUPS);
        assert_eq!(*pools.last().unwrap(), REFILL);
        assert!(pools.windows(2).all(|w| w[0] <= w[1]), "{pools:?}");
        assert!(ahead.pool.capacity() <= REFILL && ahead.encoded.capacity() <= SLICE);
        // Every encoded id is a valid 4-group id under the prefix.
        for id in &ahead.encoded[ahead.encoded_pos..] {
            let id: Kuuid = std::str::from_utf8(id).unwrap().parse().unwrap();
            assert_eq!(&id.as_bytes()[..8], b"00000000");
        }
    }

    /// A pool holding exactly [`AFTER_REFILL`] ids' words (other draws
    /// took the rest) is encoded, not refilled over.
    #[test]
    fn the_pools_last_ids_are_encoded() {
        let mut rng = Rng::from_os(RngKind::Fast).unwrap();
        let mut ahead = LookAhead::new();
        ahead.encode_ahead(&mut rng, Some(Isa::Scalar), b"00000000");
        while ahead.pool.len() - ahead.pool_pos > AFTER_REFILL * MAX_GROUPS {
            let _ = ahead.draw_array::<1>(&mut rng, Some(Isa::Scalar));
        }
        let (pos, len) = (ahead.pool_pos, ahead.pool.len());
        ahead.encode_ahead(&mut rng, Some(Isa::Scalar), b"00000000");
        assert_eq!((ahead.pool_pos, ahead.pool.len()), (len, len), "from {pos}");
        assert_eq!(ahead.encoded.len() - ahead.encoded_pos, AFTER_REFILL);
    }

    /// A bulk batch's words, drawn into the spent pool, are never handed out
    /// by a later draw, and the pool is not used while it holds words.
    #[test]
    fn a_bulk_batch_leaves_the_pool_spent() {
        let mut rng = Rng::from_os(RngKind::Fast).unwrap();
        let mut ahead = LookAhead::new();
        assert!(ahead.is_spent());
        // A bulk batch's words: 256 4-group ids, as `Generator` asks.
        let batch = ahead
            .draw_into_spent(&mut rng, Some(Isa::Scalar), BATCH * MAX_GROUPS)
            .to_vec();
        assert!(ahead.is_spent());
        for _ in 0..2 {
            let next = ahead.draw_array::<4>(&mut rng, Some(Isa::Scalar));
            assert!(
                next.iter().all(|w| !batch.contains(w)),
                "a batch's words drawn again: {next:x?}"
            );
        }
        // The first value was drawn alone, the second from a new pool.
        assert!(!ahead.is_spent());
    }

    /// The first id is encoded alone, allocating nothing; every later
    /// request goes through the pool and the slices, and no id's words
    /// come back in a later one.
    #[test]
    fn the_first_id_allocates_nothing() {
        let mut rng = Rng::from_os(RngKind::Fast).unwrap();
        let mut ahead = LookAhead::new();
        let first = ahead
            .first_id(&mut rng, Some(Isa::Scalar), b"00000000")
            .expect("nothing was drawn yet");
        assert_eq!((ahead.pool.capacity(), ahead.encoded.capacity()), (0, 0));
        let first: Kuuid = std::str::from_utf8(&first).unwrap().parse().unwrap();
        assert_eq!(&first.as_bytes()[..8], b"00000000");
        assert_eq!(
            ahead.first_id(&mut rng, Some(Isa::Scalar), b"00000000"),
            None
        );
        ahead.encode_ahead(&mut rng, Some(Isa::Scalar), b"00000000");
        assert!(
            ahead.encoded[ahead.encoded_pos..]
                .iter()
                .all(|id| *id != *first.as_bytes())
        );
        // A first single value, too, is drawn alone.
        let mut fresh = LookAhead::new();
        let _ = fresh.draw_array::<2>(&mut rng, Some(Isa::Scalar));
        assert_eq!(fresh.pool.capacity(), 0);
        assert_eq!(
            fresh.first_id(&mut rng, Some(Isa::Scalar), b"00000000"),
            None
        );
    }
}
