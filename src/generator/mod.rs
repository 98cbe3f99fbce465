//! [`Generator`]: an RNG, a layout and a time source, minting ids in
//! batches, optionally strictly monotonic.

mod ahead;
mod io;
mod mint;

use std::sync::atomic::AtomicU64;

use crate::clock::{self, Seen};
use crate::engine::{Isa, IsaError};
use crate::error::Error;
use crate::kuuid::id::MAX_GROUPS;
use crate::kuuid::layout::{Layout, Prefix, TimeOrder};
use crate::kuuid::monotonic::Walk;
use crate::rng::fork::{self, Tagged};
use crate::rng::{Rng, RngKind};
use crate::time::Precision;
use crate::time::{IntoTimestamp, TimeError, Timestamp};
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
    /// A fixed time from [`Generator::at`] and its prefix under `layout`
    /// (kept as a time so that a new layout re-encodes it); `None` reads
    /// the clock.
    fixed: Option<(Timestamp, Prefix)>,
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
    /// A generator on the secure RNG (AES-128-CTR or ChaCha12, keyed from
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
        Self::from_os_or_panic(RngKind::Secure)
    }

    /// A generator on the fast RNG (xoshiro256++ seeded from the OS): ids are
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
        Self::from_os_or_panic(RngKind::Fast)
    }

    /// [`Generator::new`] without a `Result` to move it through (see
    /// [`Generator::seeded`]); also the per-thread state's, which stores it
    /// in place.
    #[inline(always)]
    pub(crate) fn from_os_or_panic(kind: RngKind) -> Self {
        let token = fork::token();
        let rng = Rng::from_os(kind).expect("the OS random source (getrandom) failed");
        Self::seeded(token, rng)
    }

    /// A generator on the given RNG, or [`Error::Random`] if the OS
    /// cannot seed one.
    ///
    /// ```
    /// let g = kuuid::Generator::new(kuuid::RngKind::Fast)?;
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn new(kind: RngKind) -> Result<Self, Error> {
        let token = fork::token();
        let rng = Rng::from_os(kind).map_err(|e| Error::Random(e.to_string()))?;
        Ok(Self::seeded(token, rng))
    }

    /// A generator drawing from `rng`, seeded under fork token `token`.
    /// Inlined, so that a caller storing it (`Option::insert`) writes it in
    /// place: a thread's state built in a frame of its own and moved
    /// through two more took 3 KiB of the thread's stack, a page more than
    /// uuid's first id (`benches/server.rs`, "KiB/thr").
    #[inline(always)]
    fn seeded(token: u64, rng: Rng) -> Self {
        Generator {
            rng: Tagged::new(token, rng),
            fork_word: fork::word(),
            layout: Layout::SECONDS,
            fixed: None,
            isa: None,
            seen: Seen::default(),
            memo: None,
            monotonic: None,
            ahead: LookAhead::new(),
        }
    }

    /// Uses `layout` for the prefix (default: seconds, oldest first). A time
    /// set by [`Generator::at`] is kept and encoded under the new layout. In
    /// monotonic mode the sequence starts afresh: the old layout's prefix
    /// values mean other times.
    ///
    /// # Panics
    /// If a time set by [`Generator::at`] does not fit the new layout: only
    /// a time past the year 8888 moved to milliseconds.
    /// [`Generator::try_with_layout`] returns that error instead.
    ///
    /// ```
    /// use kuuid::Layout;
    /// let g = kuuid::Generator::fast().with_layout(Layout::MILLIS_REVERSE);
    /// assert_eq!(g.layout(), Layout::MILLIS_REVERSE);
    ///
    /// // The time stays; its prefix follows the layout.
    /// let mut g = kuuid::Generator::fast().at("2018-01-01T00:00:00Z")?;
    /// let mut g = g.with_layout(Layout::MILLIS);
    /// assert_eq!(g.generate().prefix(), kuuid::idms_at("2018-01-01T00:00:00Z")?.prefix());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn with_layout(self, layout: Layout) -> Self {
        self.try_with_layout(layout)
            .unwrap_or_else(|e| panic!("the time set by `Generator::at` under {layout:?}: {e}"))
    }

    /// [`Generator::with_layout`], or the [`TimeError`] saying why a time set
    /// by [`Generator::at`] does not fit `layout` (the generator is dropped
    /// then: build it again).
    ///
    /// ```
    /// use kuuid::{Layout, Timestamp};
    /// let far = Timestamp::from_secs(62u64.pow(8) / 1000 + 1).unwrap();
    /// let g = kuuid::Generator::fast().at(far)?;
    /// assert!(g.try_with_layout(Layout::MILLIS).is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn try_with_layout(mut self, layout: Layout) -> Result<Self, TimeError> {
        if let Some((t, _)) = self.fixed {
            self.fixed = Some((t, layout.prefix(t)?));
        }
        self.layout = layout;
        self.memo = None;
        if let Some(walk) = &mut self.monotonic {
            walk.restart(layout.order == TimeOrder::Reverse);
        }
        Ok(self)
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
        let t = t.into_timestamp()?;
        self.fixed = Some((t, self.layout.prefix(t)?));
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
        self.monotonic = Some(Walk::new(self.layout.order == TimeOrder::Reverse));
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
    /// The path picks the encoder, the fast RNG's variant and the secure
    /// RNG's AES width (512- or 256-bit VAES where the CPU has it, else
    /// AES-NI); the ids' distribution is the same on every path.
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

    /// The RNG in use.
    ///
    /// ```
    /// assert_eq!(kuuid::Generator::secure().rng_kind(), kuuid::RngKind::Secure);
    /// ```
    pub fn rng_kind(&self) -> RngKind {
        self.rng.value().kind()
    }
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
    use crate::kuuid::id::Kuuid;

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
            let short: crate::kuuid::id::ShortKuuid = g.take_under(p.as_bytes());
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
            let forward = layout.order == TimeOrder::Forward;
            let mut ids = vec![crate::kuuid::id::Kuuid1::default(); 1 << 18];
            let mut last: Option<crate::kuuid::id::Kuuid1> = None;
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
