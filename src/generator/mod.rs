//! [`Generator`]: an RNG engine, a layout and a time source, minting ids in
//! batches, optionally strictly monotonic.

mod ahead;
mod io;

use std::sync::atomic::AtomicU64;

use crate::clock::{self, Seen};
use crate::engine::{self, Isa, IsaError, PREFIX_LEN};
use crate::error::Error;
use crate::id::{Id, Kuuid, MAX_GROUPS};
use crate::layout::{Layout, Order, Prefix};
use crate::monotonic::{Exhausted, Walk};
use crate::rng::fork::{self, Tagged};
use crate::rng::{Rng, RngKind};
use crate::time::Precision;
use crate::time::{IntoTimestamp, TimeError};
use ahead::LookAhead;

/// Ids minted per batch: words for a batch fit in L1 (256 * 4 * 4 = 4 KiB),
/// and the clock is read once per batch.
pub(crate) const BATCH: usize = 256;

/// Mints ids: one RNG (secure by default), a [`Layout`], and either the wall
/// clock or a fixed time.
///
/// The clock is the process-wide monotonic one: if the wall clock steps
/// back, ids keep the newest time any thread has used until it catches up.
/// After `fork()` (or [`crate::reseed`]) the generator reseeds itself before
/// its next id, so a child never repeats its parent's ids.
///
/// Minting takes `&mut self`, so one generator serves one thread at a time
/// (it is `Send` and `Sync`, but sharing it needs a lock); give each thread
/// its own, or use the free functions ([`crate::id`], [`crate::fill`]),
/// which keep one per thread.
///
/// ```
/// use kuuid::{Generator, Kuuid, Layout};
///
/// let mut g = Generator::fast().with_layout(Layout::MILLIS);
/// let mut ids = [Kuuid::default(); 1000];
/// g.fill(&mut ids);
/// assert!(ids.windows(2).all(|w| w[0].prefix() <= w[1].prefix()));
///
/// let mut at = Generator::secure().at("2018-01-01T00:00:00Z")?;
/// assert_eq!(at.generate().prefix().as_str(), "001eVnWK");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
pub struct Generator {
    /// The RNG, tagged with the fork token it was seeded under (the pool and
    /// the encoded-ahead ids below are drawn from it, so they go stale with
    /// it), and where to read the current token.
    rng: Tagged<Rng>,
    fork_word: &'static AtomicU64,
    layout: Layout,
    /// A fixed prefix from [`Generator::at`]; `None` reads the clock.
    fixed: Option<Prefix>,
    /// A path chosen with [`Generator::with_isa`]; `None` follows the process.
    isa: Option<Isa>,
    /// This generator's memo of the process clock.
    pub(crate) seen: Seen,
    /// The last prefix built from the clock, to skip re-encoding it.
    memo: Option<(u64, Prefix)>,
    /// The sequence so far, in monotonic mode.
    monotonic: Option<Walk>,
    /// Words and ids drawn ahead of callers.
    ahead: LookAhead,
}

impl Generator {
    /// A generator on the secure engine (AES-128-CTR or ChaCha12, keyed from
    /// the OS).
    ///
    /// # Panics
    /// If the OS has no randomness to give (`getrandom` fails), which a working
    /// Linux, macOS or Windows never does; [`Generator::new`] returns that error
    /// instead.
    ///
    /// ```
    /// let id = kuuid::Generator::secure().generate();
    /// assert_eq!(id.as_str().len(), 32);
    /// ```
    pub fn secure() -> Self {
        Self::new(RngKind::Secure).expect("the OS random source (getrandom) failed")
    }

    /// A generator on the fast engine (xoshiro256++ seeded from the OS): ids are
    /// unique but predictable from earlier ones.
    ///
    /// # Panics
    /// As [`Generator::secure`].
    ///
    /// ```
    /// let mut g = kuuid::Generator::fast();
    /// assert_ne!(g.generate(), g.generate());
    /// ```
    pub fn fast() -> Self {
        Self::new(RngKind::Fast).expect("the OS random source (getrandom) failed")
    }

    /// A generator of the given engine, or [`Error::Random`] if the OS
    /// cannot seed one.
    ///
    /// ```
    /// let g = kuuid::Generator::new(kuuid::RngKind::Fast)?;
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn new(kind: RngKind) -> Result<Self, Error> {
        let token = fork::token();
        Ok(Generator {
            rng: Tagged::new(
                token,
                Rng::from_os(kind).map_err(|e| Error::Random(e.to_string()))?,
            ),
            fork_word: fork::word(),
            layout: Layout::SECONDS,
            fixed: None,
            isa: None,
            seen: Seen::default(),
            memo: None,
            monotonic: None,
            ahead: LookAhead::new(),
        })
    }

    /// Uses `layout` for the prefix (default: seconds, oldest first). A fixed
    /// time set by [`Generator::at`] is cleared: set it again after this. In
    /// monotonic mode the sequence starts afresh: the old layout's prefix
    /// values mean other times.
    ///
    /// ```
    /// use kuuid::Layout;
    /// let g = kuuid::Generator::fast().with_layout(Layout::MILLIS_REVERSE);
    /// assert_eq!(g.layout(), Layout::MILLIS_REVERSE);
    /// ```
    pub fn with_layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self.fixed = None;
        self.memo = None;
        if let Some(walk) = &mut self.monotonic {
            walk.restart(layout.order == Order::Reverse);
        }
        self
    }

    /// Mints every later id at time `t` instead of now; fails if `t` does not
    /// fit the layout's prefix.
    ///
    /// ```
    /// let mut g = kuuid::Generator::fast().at(0u64)?;
    /// assert_eq!(g.generate().prefix().as_str(), "00000000");
    /// assert!(kuuid::Generator::fast().at("1969-01-01T00:00:00Z").is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(mut self, t: impl IntoTimestamp) -> Result<Self, TimeError> {
        self.fixed = Some(self.layout.prefix(t)?);
        Ok(self)
    }

    /// Strictly monotonic mode: every id sorts after the previous one from
    /// this generator in the layout's order (byte-greater oldest first,
    /// byte-smaller newest first), even within one second or millisecond.
    ///
    /// The first id of each second (or millisecond) has fresh random words
    /// (their top bit cleared, set newest first, to leave room); each later
    /// one is the previous plus (newest first: minus) a random step, carried
    /// across groups: 1 to 2^11 with one random group, 1 to 2^32 with more.
    /// So over a million ids (2^20) of any length fit in one unit; past
    /// that, the prefix moves one unit on and a fresh walk starts, never
    /// waiting. A change of id length, and a reseed (a fork,
    /// [`crate::reseed`]), start a fresh walk one unit after the last id, so
    /// a child never steps from its parent's point; a change of layout
    /// starts afresh at now.
    ///
    /// The cost of order: a monotonic id is guessable from its predecessor
    /// to within 2^11 (one group) or 2^32 (more). The order holds per
    /// generator: ids from different generators or threads interleave by
    /// time only. At the very end of the prefix range (a fixed time there,
    /// or the year 8888 in milliseconds) there is no later id: the
    /// `try_` methods return [`Error::MonotonicExhausted`], the others panic.
    ///
    /// ```
    /// let mut g = kuuid::Generator::secure().monotonic().at(0u64)?;
    /// let mut ids = vec![kuuid::Kuuid::default(); 10_000];
    /// g.fill(&mut ids);
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn monotonic(mut self) -> Self {
        self.monotonic = Some(Walk::new(self.layout.order == Order::Reverse));
        self
    }

    /// Whether [`Generator::monotonic`] is on.
    ///
    /// ```
    /// assert!(kuuid::Generator::fast().monotonic().is_monotonic());
    /// ```
    pub fn is_monotonic(&self) -> bool {
        self.monotonic.is_some()
    }

    /// Runs this generator on a chosen engine path instead of the process's
    /// (for benchmarks and comparisons); fails if this CPU cannot run it.
    ///
    /// ```
    /// use kuuid::engine::Isa;
    /// let mut g = kuuid::Generator::fast().with_isa(Isa::Scalar)?;
    /// assert_eq!(g.isa(), Isa::Scalar);
    /// assert_eq!(g.generate().as_str().len(), 32);
    /// # Ok::<(), kuuid::engine::IsaError>(())
    /// ```
    pub fn with_isa(mut self, isa: Isa) -> Result<Self, IsaError> {
        if !isa.is_supported() {
            return Err(IsaError::Unsupported(isa));
        }
        self.isa = Some(isa);
        Ok(self)
    }

    /// The engine path this generator runs on.
    ///
    /// ```
    /// assert_eq!(kuuid::Generator::fast().isa(), kuuid::engine::isa());
    /// ```
    pub fn isa(&self) -> Isa {
        ahead::resolve(self.isa)
    }

    /// The random number algorithm in use: `"AES-128-CTR"` or `"ChaCha12"`
    /// (secure, by CPU), or `"xoshiro256++ x8"` (fast).
    ///
    /// ```
    /// assert_eq!(kuuid::Generator::fast().rng_name(), "xoshiro256++ x8");
    /// ```
    pub fn rng_name(&self) -> &'static str {
        self.rng.value().name()
    }

    /// The layout in use.
    ///
    /// ```
    /// assert_eq!(kuuid::Generator::fast().layout(), kuuid::Layout::SECONDS);
    /// ```
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The RNG engine in use.
    ///
    /// ```
    /// assert_eq!(kuuid::Generator::secure().rng_kind(), kuuid::RngKind::Secure);
    /// ```
    pub fn rng_kind(&self) -> RngKind {
        self.rng.value().kind()
    }

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
        if let Some(p) = self.fixed {
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
        self.mint_one().unwrap_or_else(|e| exhausted(e))
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
        Ok(self.mint_one()?)
    }

    /// One id; the error is a zero-sized marker so the hot path returns in
    /// registers (the public `Error` is converted at the boundary).
    #[inline]
    fn mint_one<const LEN: usize>(&mut self) -> Result<Id<LEN>, Exhausted> {
        self.check_fork();
        let prefix = self.prefix();
        if self.monotonic.is_none() {
            return Ok(self.take_under(prefix.as_bytes()));
        }
        // One monotonic id: words, the step, and the scalar encoder, without
        // the batch machinery.
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
        if self.ahead.encoded_is_empty() {
            self.encode_ahead(prefix);
        }
        self.ahead.take_encoded(prefix)
    }

    #[cold]
    fn encode_ahead(&mut self, prefix: &[u8; PREFIX_LEN]) {
        self.ahead
            .encode_ahead(self.rng.value_mut(), self.isa, prefix);
    }

    /// Reseeds if the process token moved (a fork, or [`crate::reseed`]).
    #[inline]
    pub(crate) fn check_fork(&mut self) {
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

    /// Mints `count <= BATCH` ids of `groups` groups into `out` at `stride`;
    /// on error (a monotonic sequence exhausted) writes nothing.
    fn mint_batch(
        &mut self,
        groups: usize,
        out: &mut [u8],
        stride: usize,
        count: usize,
    ) -> Result<(), Exhausted> {
        debug_assert!(count <= BATCH);
        self.check_fork();
        let prefix = self.prefix();
        // Single ids need 4 words: skip zeroing a whole batch's buffer for them.
        let (mut small, mut big);
        let words: &mut [u32] = if count * groups <= 16 {
            small = [0u32; 16];
            &mut small[..count * groups]
        } else {
            big = [0u32; BATCH * MAX_GROUPS];
            &mut big[..count * groups]
        };
        self.draw(words);
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
        *w = self.ahead.draw_array::<G>(self.rng.value_mut(), self.isa);
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

/// Now in the precision's units, from the process-wide monotonic clock.
/// Always inlined: its callers pick one precision, and a call here cost
/// ~10 instructions an id once a second caller (the fallback) appeared.
#[inline(always)]
pub(crate) fn now_units(precision: Precision, seen: &mut Seen) -> u64 {
    let clock = clock::system();
    match precision {
        Precision::Seconds => clock.secs(seen),
        Precision::Millis => clock.millis(seen),
    }
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("rng", &self.rng.value().name())
            .field("layout", &self.layout)
            .field("fixed", &self.fixed)
            .field("isa", &self.isa())
            .field("monotonic", &self.is_monotonic())
            .finish()
    }
}

/// Random groups must number 1 to 4.
pub(crate) fn check_groups(groups: usize) -> Result<(), Error> {
    if (1..=MAX_GROUPS).contains(&groups) {
        Ok(())
    } else {
        Err(Error::Groups { found: groups })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids taken from one encoded-ahead batch under prefixes that change
    /// from id to id (the merge path) and stay put (the plain copy), across
    /// refills: each carries its own prefix over unused random characters.
    #[test]
    fn taken_ids_carry_the_prefix_asked_for() {
        let mut g = Generator::fast();
        let mut randoms = std::collections::HashSet::new();
        for i in 0..3 * BATCH as u64 {
            let p = Prefix::from_value(if i % 3 == 0 { i } else { 42 });
            let id: Kuuid = g.take_under(p.as_bytes());
            assert_eq!(id.prefix(), p, "id {i}");
            assert!(randoms.insert(id.random_str().to_owned()), "id {i}");
            let short: crate::id::ShortKuuid = g.take_under(p.as_bytes());
            assert_eq!(short.prefix(), p);
        }
    }

    /// At a fixed time a one-group walk runs out after 2^20 to 2^22 ids:
    /// the prefix must move on, in the layout's direction, and order holds
    /// across the move (checked chunk by chunk over 2^23 ids).
    #[test]
    fn monotonic_overflow_moves_the_prefix() {
        for layout in [Layout::SECONDS, Layout::SECONDS_REVERSE] {
            let mut g = Generator::fast()
                .with_layout(layout)
                .monotonic()
                .at(1_000_000u64)
                .unwrap();
            let forward = layout.order == Order::Forward;
            let mut ids = vec![crate::id::Kuuid1::default(); 1 << 18];
            let mut last: Option<crate::id::Kuuid1> = None;
            let mut prefixes = std::collections::BTreeSet::new();
            for _ in 0..32 {
                g.fill_ids(&mut ids);
                let mut prev = last;
                for id in &ids {
                    if let Some(p) = prev {
                        assert!(if forward { p < *id } else { p > *id }, "{layout:?}");
                    }
                    prev = Some(*id);
                    prefixes.insert(id.prefix());
                }
                last = prev;
            }
            assert!(prefixes.len() > 1, "{layout:?}: 2^23 ids should overflow");
            assert!(
                prefixes.len() <= 9,
                "{layout:?}: at most one unit per 2^20 ids"
            );
        }
    }
}
