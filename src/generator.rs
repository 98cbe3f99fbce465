//! [`Generator`]: an RNG engine, a layout and a time source, minting ids in
//! batches; and the per-thread generator behind the free functions.

use std::cell::RefCell;
use std::io::{self, Write};

use crate::Error;
use crate::engine::{self, GROUP_LEN, Isa, IsaError, PREFIX_LEN};
use crate::id::{AnyKuuid, Id, Kuuid, MAX_GROUPS, MAX_LEN, RandomPart};
use crate::layout::{Layout, Prefix};
use crate::rng::{Rng, RngKind};
use crate::time::{IntoTimestamp, TimeError};

/// Ids minted per batch: words for a batch fit in L1 (256 * 4 * 4 = 4 KiB),
/// and the clock is read once per batch.
const BATCH: usize = 256;

/// Mints ids: one RNG (secure by default), a [`Layout`], and either the wall
/// clock or a fixed time.
///
/// One generator is not shared between threads (it is `Send`, not `Sync`);
/// give each thread its own, or use the free functions ([`crate::id`],
/// [`crate::fill`]), which keep one per thread.
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
    rng: Rng,
    layout: Layout,
    /// A fixed prefix from [`Generator::at`]; `None` reads the clock.
    fixed: Option<Prefix>,
    /// A path chosen with [`Generator::with_isa`]; `None` follows the process.
    isa: Option<Isa>,
}

impl Generator {
    /// A generator on the secure engine (ChaCha12 keyed from the OS).
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

    /// A generator of the given engine, or the OS's error if it cannot seed one.
    ///
    /// ```
    /// let g = kuuid::Generator::new(kuuid::RngKind::Fast)?;
    /// # Ok::<(), getrandom::Error>(())
    /// ```
    pub fn new(kind: RngKind) -> Result<Self, getrandom::Error> {
        Ok(Generator {
            rng: Rng::from_os(kind)?,
            layout: Layout::SECONDS,
            fixed: None,
            isa: None,
        })
    }

    /// Uses `layout` for the prefix (default: seconds, oldest first). A fixed
    /// time set by [`Generator::at`] is cleared: set it again after this.
    ///
    /// ```
    /// use kuuid::Layout;
    /// let g = kuuid::Generator::fast().with_layout(Layout::MILLIS_REVERSE);
    /// assert_eq!(g.layout(), Layout::MILLIS_REVERSE);
    /// ```
    pub fn with_layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self.fixed = None;
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
        self.isa.unwrap_or_else(engine::isa)
    }

    /// The random number algorithm in use: `"AES-128-CTR"` or `"ChaCha12"`
    /// (secure, by CPU), or `"xoshiro256++ x8"` (fast).
    ///
    /// ```
    /// assert_eq!(kuuid::Generator::fast().rng_name(), "xoshiro256++ x8");
    /// ```
    pub fn rng_name(&self) -> &'static str {
        self.rng.name()
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
        self.rng.kind()
    }

    /// The prefix the next id gets: the fixed time's, or now's.
    ///
    /// ```
    /// let g = kuuid::Generator::fast().at(1_514_764_800_000u64)?;
    /// assert_eq!(g.prefix().as_str(), "001eVnWK");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn prefix(&self) -> Prefix {
        self.fixed
            .unwrap_or_else(|| self.layout.prefix_now_clamped())
    }

    /// One 32-character id.
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
    /// ```
    /// let mut ids = vec![kuuid::Kuuid::default(); 10_000];
    /// kuuid::Generator::secure().fill(&mut ids);
    /// assert!(ids.iter().all(|id| id.as_str() != "00000000000000000000000000000000"));
    /// ```
    pub fn fill(&mut self, ids: &mut [Kuuid]) {
        self.fill_ids(ids)
    }

    /// One id with `Id::<LEN>::GROUPS` random groups.
    ///
    /// ```
    /// let short: kuuid::ShortKuuid = kuuid::Generator::fast().generate_id();
    /// assert_eq!(short.as_str().len(), 20);
    /// ```
    pub fn generate_id<const LEN: usize>(&mut self) -> Id<LEN> {
        let prefix = self.prefix();
        self.mint(&prefix)
    }

    /// Fills a caller's slice with ids of any length.
    ///
    /// ```
    /// let mut ids = [kuuid::Kuuid1::default(); 3];
    /// kuuid::Generator::fast().fill_ids(&mut ids);
    /// assert!(ids[0] != ids[1]);
    /// ```
    pub fn fill_ids<const LEN: usize>(&mut self, ids: &mut [Id<LEN>]) {
        for chunk in ids.chunks_mut(BATCH) {
            let prefix = self.prefix();
            let count = chunk.len();
            self.encode_batch(
                &prefix,
                Id::<LEN>::GROUPS,
                Id::as_flat_bytes_mut(chunk),
                LEN,
                count,
            );
        }
    }

    /// Writes `count` ids with `groups` random groups, one per line, to `out`,
    /// through a reused buffer: the CLI's bulk path. Fails only if writing
    /// does (or `groups` is not 1 to 4).
    ///
    /// ```
    /// let mut out = Vec::new();
    /// kuuid::Generator::fast().write_lines(2, 3, &mut out)?;
    /// assert_eq!(out.len(), 3 * 21);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_lines(
        &mut self,
        groups: usize,
        count: u64,
        mut out: impl Write,
    ) -> io::Result<()> {
        check_groups(groups).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let line = PREFIX_LEN + GROUP_LEN * groups + 1;
        // 64 KiB-ish writes: large enough to amortise the syscall, small
        // enough to stay in L2 while the next batch is encoded.
        let per_write = (BATCH * 8) as u64;
        let mut buf = vec![b'\n'; line * per_write as usize];
        let mut left = count;
        while left > 0 {
            let n = left.min(per_write) as usize;
            for chunk in buf[..n * line].chunks_mut(BATCH * line) {
                let prefix = self.prefix();
                let ids = chunk.len() / line;
                // Newlines sit at the end of each stride and are never overwritten.
                self.encode_batch(&prefix, groups, chunk, line, ids);
            }
            out.write_all(&buf[..n * line])?;
            left -= n as u64;
        }
        out.flush()
    }

    /// One id of `LEN` bytes under `prefix`.
    pub(crate) fn mint<const LEN: usize>(&mut self, prefix: &Prefix) -> Id<LEN> {
        let mut bytes = [0u8; LEN];
        self.encode_batch(prefix, Id::<LEN>::GROUPS, &mut bytes, LEN, 1);
        Id::from_valid(bytes)
    }

    /// One id with a run-time number of groups under `prefix`.
    pub(crate) fn mint_any(&mut self, prefix: &Prefix, groups: usize) -> Result<AnyKuuid, Error> {
        check_groups(groups)?;
        let len = PREFIX_LEN + GROUP_LEN * groups;
        let mut bytes = [0u8; MAX_LEN];
        self.encode_batch(prefix, groups, &mut bytes[..len], len, 1);
        Ok(AnyKuuid::from_valid(&bytes[..len]))
    }

    /// The random groups alone.
    pub(crate) fn random_part(&mut self, groups: usize) -> Result<RandomPart, Error> {
        check_groups(groups)?;
        let mut words = [0u32; MAX_GROUPS];
        self.rng.fill_words(self.isa(), &mut words[..groups]);
        let mut text = [0u8; GROUP_LEN * MAX_GROUPS];
        for (g, &w) in text.chunks_exact_mut(GROUP_LEN).zip(&words[..groups]) {
            engine::scalar::encode_group(w, g.try_into().expect("6-byte group"));
        }
        Ok(RandomPart::from_valid(&text[..GROUP_LEN * groups]))
    }

    /// Draws words for `count <= BATCH` ids and encodes them into `out`.
    fn encode_batch(
        &mut self,
        prefix: &Prefix,
        groups: usize,
        out: &mut [u8],
        stride: usize,
        count: usize,
    ) {
        debug_assert!(count <= BATCH);
        let mut words = [0u32; BATCH * MAX_GROUPS];
        let words = &mut words[..count * groups];
        self.rng.fill_words(self.isa(), words);
        engine::encode_ids(
            self.isa,
            prefix.as_bytes(),
            words,
            groups,
            out,
            stride,
            count,
        );
    }
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("rng", &self.rng.kind())
            .field("layout", &self.layout)
            .field("fixed", &self.fixed)
            .field("isa", &self.isa())
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

thread_local! {
    /// The generator behind the free functions: one per thread, secure engine.
    static LOCAL: RefCell<Generator> = RefCell::new(Generator::secure());
}

/// Runs `f` on this thread's generator.
pub(crate) fn with_local<R>(f: impl FnOnce(&mut Generator) -> R) -> R {
    LOCAL.with(|g| f(&mut g.borrow_mut()))
}
