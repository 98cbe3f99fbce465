//! Minting: single ids (from the encoded-ahead batch), batches into a
//! caller's slice, and the fork check and reseed that come before each.

use super::{BATCH, Generator, now_units};
use crate::engine::{self, PREFIX_LEN};
use crate::error::Error;
use crate::kuuid::id::{Id, Kuuid, MAX_GROUPS, MAX_LEN};
use crate::kuuid::layout::Prefix;
use crate::kuuid::monotonic::Exhausted;
use crate::rng::Rng;
use crate::rng::fork;

impl Generator {
    /// The prefix the next id gets (unless monotonic mode moves it on): the
    /// fixed time's, or now's.
    ///
    /// ```
    /// let mut g = kuuid::Generator::fast().at(1_514_764_800_000u64)?;
    /// assert_eq!(g.prefix().as_str(), "001eVnWK");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    #[inline]
    pub fn prefix(&mut self) -> Prefix {
        if let Some((_, p)) = self.fixed {
            return p;
        }
        let units = now_units(self.layout.precision, &mut self.seen);
        match self.memo {
            Some((u, p)) if u == units => p,
            _ => {
                let p = self.layout.prefix_of_units(units);
                self.memo = Some((units, p));
                p
            }
        }
    }

    /// One 32-character id.
    ///
    /// # Panics
    /// In monotonic mode at the end of the prefix range (see
    /// [`Generator::monotonic`]); [`Generator::try_generate_id`] returns
    /// that error instead.
    ///
    /// ```
    /// let mut g = kuuid::Generator::secure();
    /// assert!(g.generate() != g.generate());
    /// ```
    #[inline]
    pub fn generate(&mut self) -> Kuuid {
        self.generate_id()
    }

    /// Fills a caller's slice with ids, in batches (one clock read per batch).
    ///
    /// # Panics
    /// As [`Generator::generate`]; [`Generator::try_fill_ids`] returns the
    /// error instead.
    ///
    /// ```
    /// let mut ids = vec![kuuid::Kuuid::default(); 10_000];
    /// kuuid::Generator::secure().fill(&mut ids);
    /// assert!(ids.iter().all(|id| id.as_str() != "00000000000000000000000000000000"));
    /// ```
    pub fn fill(&mut self, ids: &mut [Kuuid]) {
        self.fill_ids(ids)
    }

    /// Fills `words` straight from the generator's RNG: the random words ids
    /// carry (four per 32-character id), without the clock or the encoder.
    /// For measuring the RNG alone, or for random numbers from the same
    /// fork-safe source.
    ///
    /// ```
    /// let mut words = [0u32; 64];
    /// kuuid::Generator::secure().fill_random(&mut words);
    /// assert!(words.iter().any(|&w| w != 0));
    /// ```
    pub fn fill_random(&mut self, words: &mut [u32]) {
        self.check_fork();
        let isa = self.isa();
        self.rng.value_mut().fill_words(isa, words);
    }

    /// One id with `Id::<LEN>::GROUPS` random groups.
    ///
    /// # Panics
    /// As [`Generator::generate`].
    ///
    /// ```
    /// let short: kuuid::ShortKuuid = kuuid::Generator::fast().generate_id();
    /// assert_eq!(short.as_str().len(), 20);
    /// ```
    #[inline]
    pub fn generate_id<const LEN: usize>(&mut self) -> Id<LEN> {
        if self.monotonic.is_some() {
            return self.generate_monotonic();
        }
        self.mint_plain()
    }

    /// One id with `Id::<LEN>::GROUPS` random groups, or
    /// [`Error::MonotonicExhausted`] in monotonic mode when the sequence has
    /// no later id (only at the very end of the prefix range). Outside
    /// monotonic mode it never fails.
    ///
    /// ```
    /// use kuuid::{Generator, Kuuid1, Layout};
    /// let end = Generator::fast().with_layout(Layout::MILLIS).monotonic().at(62u64.pow(8) - 1);
    /// let mut g = end?;
    /// let mut result = Ok(Kuuid1::default());
    /// for _ in 0..1 << 22 {
    ///     result = g.try_generate_id::<14>();
    ///     if result.is_err() { break; }
    /// }
    /// assert_eq!(result, Err(kuuid::Error::MonotonicExhausted));
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn try_generate_id<const LEN: usize>(&mut self) -> Result<Id<LEN>, Error> {
        if self.monotonic.is_some() {
            return Ok(self.mint_monotonic()?);
        }
        Ok(self.mint_plain())
    }

    /// One id from the encoded-ahead batch: small enough to inline into a
    /// caller's loop, as `kuuid::id()` is. (With the monotonic step inside
    /// the same function, `generate` was a call that made another, to
    /// `prefix`: 9.5 ns an id against `id()`'s 7.1 on AVX2.)
    #[inline]
    fn mint_plain<const LEN: usize>(&mut self) -> Id<LEN> {
        self.check_fork();
        let prefix = self.prefix();
        self.take_under(prefix.as_bytes())
    }

    /// [`Generator::generate_id`] in monotonic mode, out of line so that
    /// the plain path inlines without it.
    #[inline(never)]
    fn generate_monotonic<const LEN: usize>(&mut self) -> Id<LEN> {
        self.mint_monotonic().unwrap_or_else(|e| exhausted(e))
    }

    /// One monotonic id: words, the step, and the scalar encoder, without
    /// the batch machinery. The error is a zero-sized marker so this
    /// returns in registers (the public `Error` is made at the boundary).
    #[inline]
    fn mint_monotonic<const LEN: usize>(&mut self) -> Result<Id<LEN>, Exhausted> {
        self.check_fork();
        let prefix = self.prefix();
        // Fixed-size word arrays throughout: slices of a run-time length
        // turned every 4-to-16-byte copy into a memmove call (35 ns an id).
        let mut words = [0u32; MAX_GROUPS];
        let now = prefix.value();
        let value = match Id::<LEN>::GROUPS {
            1 => self.monotonic_words::<1>(now, &mut words),
            2 => self.monotonic_words::<2>(now, &mut words),
            3 => self.monotonic_words::<3>(now, &mut words),
            _ => self.monotonic_words::<4>(now, &mut words),
        }?;
        let p = if value == prefix.value() {
            prefix
        } else {
            Prefix::from_value(value)
        };
        // Digits assembled in registers: small stores here would stall a
        // caller's 16-byte loads of the id (see `engine::put_prefix`).
        let id = engine::assemble_id(p.as_bytes(), words.map(engine::scalar::group_bits));
        Ok(Id::from_valid(id[..LEN].try_into().expect("LEN <= 32")))
    }

    /// Fills a caller's slice with ids of any length.
    ///
    /// # Panics
    /// As [`Generator::generate`].
    ///
    /// ```
    /// let mut ids = [kuuid::Kuuid1::default(); 3];
    /// kuuid::Generator::fast().fill_ids(&mut ids);
    /// assert!(ids[0] != ids[1]);
    /// ```
    pub fn fill_ids<const LEN: usize>(&mut self, ids: &mut [Id<LEN>]) {
        self.fill_inner(ids).unwrap_or_else(|e| exhausted(e))
    }

    /// Fills a caller's slice with ids of any length, or fails as
    /// [`Generator::try_generate_id`] does; after an error the slice holds
    /// valid ids up to some point and its old contents after.
    ///
    /// ```
    /// let mut ids = [kuuid::Kuuid::default(); 3];
    /// kuuid::Generator::fast().monotonic().try_fill_ids(&mut ids)?;
    /// assert!(ids[0] < ids[1] && ids[1] < ids[2]);
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn try_fill_ids<const LEN: usize>(&mut self, ids: &mut [Id<LEN>]) -> Result<(), Error> {
        Ok(self.fill_inner(ids)?)
    }

    fn fill_inner<const LEN: usize>(&mut self, ids: &mut [Id<LEN>]) -> Result<(), Exhausted> {
        for chunk in ids.chunks_mut(BATCH) {
            let count = chunk.len();
            self.mint_batch(Id::<LEN>::GROUPS, Id::as_flat_bytes_mut(chunk), LEN, count)?;
        }
        Ok(())
    }

    /// An id of `LEN` bytes under `prefix` from the encoded-ahead batch.
    /// Callers check for a fork first.
    #[inline]
    pub(crate) fn take_under<const LEN: usize>(&mut self, prefix: &[u8; PREFIX_LEN]) -> Id<LEN> {
        if self.ahead.encoded_is_empty()
            && let Some(first) = self.encode_ahead(prefix)
        {
            return Id::from_valid(first[..LEN].try_into().expect("LEN <= 32"));
        }
        self.ahead.take_encoded(prefix)
    }

    /// A 32-byte id under `prefix` whose first group's digits are `group`
    /// (the low 48 bits), the other three random. Callers check for a fork
    /// first.
    #[inline]
    pub(crate) fn take_with_head(&mut self, prefix: &[u8; PREFIX_LEN], group: u64) -> Kuuid {
        if self.ahead.encoded_is_empty()
            && let Some(mut first) = self.encode_ahead(prefix)
        {
            engine::put_head(&mut first, prefix, group);
            return Id::from_valid(first);
        }
        self.ahead.take_encoded_head(prefix, group)
    }

    /// Encodes the next slice under `prefix`; the generator's first id
    /// instead, encoded alone and returned (`LookAhead::first_id`).
    #[cold]
    fn encode_ahead(&mut self, prefix: &[u8; PREFIX_LEN]) -> Option<[u8; MAX_LEN]> {
        let first = self.ahead.first_id(self.rng.value_mut(), self.isa, prefix);
        if first.is_none() {
            self.ahead
                .encode_ahead(self.rng.value_mut(), self.isa, prefix);
        }
        first
    }

    /// Reseeds if the process token moved (a fork, or [`crate::reseed`]).
    /// The hot path is one load and one compare: the word as it stands
    /// against the RNG's tag. A word of 0 (a forked child before anyone
    /// drew its token) matches no tag (the RNG is tagged with a drawn
    /// token, never 0, at `Generator::new` and at each reseed), so it too
    /// goes the cold way, which draws the token first.
    #[inline]
    pub(crate) fn check_fork(&mut self) {
        if self.rng.get_mut(fork::current(self.fork_word)).is_none() {
            self.token_moved();
        }
    }

    #[cold]
    fn token_moved(&mut self) {
        let t = fork::token_in(self.fork_word);
        if self.rng.get_mut(t).is_none() {
            self.reseed(t);
        }
    }

    #[cold]
    fn reseed(&mut self, token: u64) {
        if let Ok(rng) = Rng::from_os(self.rng.value().kind()) {
            *self.rng.value_mut() = rng;
        } else {
            // No OS randomness in the child: perturb the copied state with the
            // token, which differs from the parent's.
            self.rng.value_mut().perturb(token);
        }
        self.rng.retag(token);
        self.ahead.invalidate();
        if let Some(walk) = &mut self.monotonic {
            walk.reseeded();
        }
    }

    /// Random words: small requests from the pool, large ones straight from
    /// the RNG. Callers check for a fork first.
    #[inline]
    pub(crate) fn draw(&mut self, out: &mut [u32]) {
        self.ahead.draw(self.rng.value_mut(), self.isa, out);
    }

    /// [`Generator::draw`] of a fixed `N` words (`N` below the pool's
    /// size), inlined: the per-thread single-value sources draw this way.
    #[inline]
    pub(crate) fn draw_array<const N: usize>(&mut self) -> [u32; N] {
        self.ahead.draw_array::<N>(self.rng.value_mut(), self.isa)
    }

    /// Mints `count <= BATCH` ids of `groups` groups into `out` at `stride`;
    /// on error (a monotonic sequence exhausted) writes nothing.
    pub(super) fn mint_batch(
        &mut self,
        groups: usize,
        out: &mut [u8],
        stride: usize,
        count: usize,
    ) -> Result<(), Exhausted> {
        debug_assert!(count <= BATCH);
        self.check_fork();
        let prefix = self.prefix();
        let n = count * groups;
        // The spent pool is the batch's scratch; while it holds words for
        // small requests, a stack buffer (single ids need 4 words: skip
        // zeroing a whole batch's buffer for them).
        let (mut small, mut big);
        let words: &mut [u32] = if self.ahead.is_spent() {
            self.ahead
                .draw_into_spent(self.rng.value_mut(), self.isa, n)
        } else {
            let words: &mut [u32] = if n <= 16 {
                small = [0u32; 16];
                &mut small[..n]
            } else {
                big = [0u32; BATCH * MAX_GROUPS];
                &mut big[..n]
            };
            self.ahead.draw(self.rng.value_mut(), self.isa, words);
            words
        };
        if self.monotonic.is_none() {
            engine::encode_ids(
                self.isa,
                prefix.as_bytes(),
                words,
                groups,
                out,
                stride,
                count,
            );
            return Ok(());
        }
        // Monotonic: make each id follow the last, then encode runs that
        // share a prefix with one engine call each.
        let mut prefixes = [0u64; BATCH];
        let now = prefix.value();
        let walk = self.monotonic.as_mut().expect("monotonic mode");
        match groups {
            1 => walk.run::<1>(now, words, &mut prefixes),
            2 => walk.run::<2>(now, words, &mut prefixes),
            3 => walk.run::<3>(now, words, &mut prefixes),
            _ => walk.run::<4>(now, words, &mut prefixes),
        }?;
        let mut start = 0;
        while start < count {
            let value = prefixes[start];
            let end = start
                + prefixes[start..count]
                    .iter()
                    .take_while(|&&v| v == value)
                    .count();
            let p = Prefix::from_value(value);
            engine::encode_ids(
                self.isa,
                p.as_bytes(),
                &words[start * groups..end * groups],
                groups,
                &mut out[start * stride..],
                stride,
                end - start,
            );
            start = end;
        }
        Ok(())
    }

    /// Draws `G` words into `words[..G]` and makes them the next id of the
    /// monotonic sequence; returns its prefix value.
    #[inline]
    fn monotonic_words<const G: usize>(
        &mut self,
        now: u64,
        words: &mut [u32; MAX_GROUPS],
    ) -> Result<u64, Exhausted> {
        let w: &mut [u32; G] = (&mut words[..G]).try_into().expect("G <= 4");
        *w = self.draw_array::<G>();
        let walk = self.monotonic.as_mut().expect("monotonic mode");
        walk.next(now, w)
    }
}

impl From<Exhausted> for Error {
    fn from(_: Exhausted) -> Self {
        Error::MonotonicExhausted
    }
}

/// The panic of the infallible minting methods (see [`Generator::monotonic`]).
#[cold]
#[track_caller]
fn exhausted<T>(e: Exhausted) -> T {
    panic!(
        "kuuid: {}; use the try_ methods to handle it",
        Error::from(e)
    )
}
