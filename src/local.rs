//! The per-thread generator behind the free functions (`kuuid::id()` and
//! kin), with the last prefix encoded per layout.
//!
//! A call is: the fork check (one relaxed load), the clock (one `time()` or
//! `clock_gettime`, one relaxed load), the prefix memo (re-encoded only when
//! the second or millisecond changes), and a 32-byte copy out of the
//! generator's slice of ids encoded ahead by the batch engine (16 on the
//! thread's first id, doubling to 32; `generator/ahead.rs`). Nothing on this path takes a lock or writes shared memory.
//!
//! User code can run while this thread's state is in use: the global
//! allocator (the state's first use allocates), a panic hook, a custom
//! `getrandom` backend. If it mints an id there, or from a thread-local
//! destructor after the state is gone, the call is served by [`fallback`]:
//! OS randomness and the scalar encoder, on the stack, touching no
//! per-thread state and no one-time initializer.

use std::cell::{Cell, UnsafeCell};

use crate::clock::Seen;
use crate::engine::{self, GROUP_LEN, Isa, PREFIX_LEN};
use crate::generator::{BATCH, Generator, now_units};
use crate::kuuid::id::{AnyKuuid, Id, Kuuid, MAX_GROUPS, RandomPart, ShortKuuid};
use crate::kuuid::layout::{Layout, Prefix, TimeOrder};
use crate::rng::RngKind;
use crate::time::{IntoTimestamp, Precision, TimeError};

struct Local {
    /// Secure RNG, seconds, oldest first: what `fill` needs as is.
    gen_: Generator,
    /// Last (units, prefix) per layout, indexed by [`slot`].
    memo: [(u64, Prefix); 4],
}

/// This thread's state and the flag that makes its use exclusive.
struct Slot {
    /// True while a `&mut Local` made by [`with`] is live.
    busy: Cell<bool>,
    /// Inline, not boxed: addressed straight from the thread pointer, the
    /// batch position's store knows its address early. Boxed (two
    /// instructions fewer an id) `id()` measured slower (docs/performance.md,
    /// "Measurements behind the code").
    state: UnsafeCell<Option<Local>>,
}

thread_local! {
    static LOCAL: Slot = const {
        Slot { busy: Cell::new(false), state: UnsafeCell::new(None) }
    };
}

/// Clears the busy flag when dropped, also when `f` unwinds.
struct Release<'a>(&'a Cell<bool>);

impl Drop for Release<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// Evaluates `$body` with `$l: &mut Local`, this thread's state (created on
/// first use), to `Some(body)`; to `None` if the state is in use further up
/// this thread's stack (a re-entrant call) or already destroyed (a call from
/// a thread-local destructor).
///
/// A macro, not a function taking a closure: the id paths are a few dozen
/// instructions, and LLVM left such closures (and std's `try_with` around
/// them) out of line in some callers and not in others, each call costing
/// a stack frame and a return through memory (about 17 instructions and
/// up to 2 ns an id on Zen 4, `docs/performance.md`). Expanded in place,
/// the whole path inlines into its caller.
macro_rules! with {
    (|$l:pat_param| $body:expr) => {
        'with: {
            // Only the slot's address comes out of `try_with`.
            let Ok(slot) = LOCAL.try_with(|slot| std::ptr::from_ref(slot)) else {
                break 'with None;
            };
            // SAFETY: `try_with` just found this thread's `LOCAL` alive, and
            // std drops a thread-local only in its own thread's exit
            // sequence (for the main thread, in `exit`), never while this
            // expression can still resume: the reference lives no longer
            // than one inside `try_with`'s closure would. `Slot` is not
            // `Sync`, so no other thread sees it.
            let slot = unsafe { &*slot };
            if slot.busy.replace(true) {
                break 'with None;
            }
            let _release = Release(&slot.busy);
            // SAFETY: `busy` was false and is true from here until `_release`
            // drops after `$body` returns or unwinds, so this is the only
            // `&mut` to the state: any call that reaches `with!` meanwhile
            // (user code run by `Local::init` or `$body`: an allocator, a
            // panic hook, a getrandom backend) reads `busy == true` and
            // stops before touching `state`.
            let state = unsafe { &mut *slot.state.get() };
            let $l = match state {
                Some(local) => local,
                None => Local::init(state),
            };
            Some($body)
        }
    };
}

/// The value types mint themselves, as uuid's and ulid's do: npm `id()`'s
/// layout (seconds, oldest first). Other layouts: the free functions
/// ([`idms`](crate::idms), [`idr`](crate::idr),
/// [`idmsr`](crate::idmsr)), [`Options`](crate::Options) or a [`Generator`].
impl Kuuid {
    /// A 32-character id minted now, as [`id()`](crate::id).
    ///
    /// ```
    /// let id = kuuid::Kuuid::now();
    /// assert_eq!(id.as_str().len(), 32);
    /// ```
    #[inline]
    pub fn now() -> Self {
        mint_now(Layout::SECONDS)
    }

    /// A 32-character id at time `t`, as [`id_at`](crate::id_at).
    ///
    /// ```
    /// let id = kuuid::Kuuid::at("2018-01-01T00:00:00Z")?;
    /// assert_eq!(&id.as_str()[..8], "001eVnWK");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(t: impl IntoTimestamp) -> Result<Self, TimeError> {
        Ok(mint(&Layout::SECONDS.prefix(t)?))
    }
}

/// As [`Kuuid`]'s: npm `ids()`'s layout.
impl ShortKuuid {
    /// A 20-character id minted now, as [`ids()`](crate::ids).
    ///
    /// ```
    /// assert_eq!(kuuid::ShortKuuid::now().as_str().len(), 20);
    /// ```
    #[inline]
    pub fn now() -> Self {
        mint_now(Layout::SECONDS)
    }

    /// A 20-character id at time `t`, as [`ids_at`](crate::ids_at).
    ///
    /// ```
    /// let id = kuuid::ShortKuuid::at("2018-01-01T00:00:00Z")?;
    /// assert_eq!(&id.as_str()[..8], "001eVnWK");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn at(t: impl IntoTimestamp) -> Result<Self, TimeError> {
        Ok(mint(&Layout::SECONDS.prefix(t)?))
    }
}

/// An id of `LEN` bytes minted now in `layout`.
#[inline(always)]
pub(crate) fn mint_now<const LEN: usize>(layout: Layout) -> Id<LEN> {
    match with!(|l| l.mint_now(layout)) {
        Some(id) => id,
        None => fallback::mint_now(layout),
    }
}

/// An id of `LEN` bytes under `prefix`.
#[inline]
pub(crate) fn mint<const LEN: usize>(prefix: &Prefix) -> Id<LEN> {
    match with!(|l| l.mint(prefix.as_bytes())) {
        Some(id) => id,
        None => fallback::mint(prefix),
    }
}

/// A 32-character id under millisecond `ms`'s prefix (forward) whose first
/// group encodes `first` and whose other three are random: the ids of
/// `formats::kuuid_ordered`.
#[inline(always)]
pub(crate) fn mint_ordered(ms: u64, first: u32) -> Kuuid {
    let group = engine::scalar::group_bits(first);
    match with!(|l| l.mint_ordered(ms, group)) {
        Some(id) => id,
        None => fallback::mint_ordered(ms, first),
    }
}

/// An id with a run-time number of groups (already checked to be 1 to 4).
pub(crate) fn mint_any(prefix: &Prefix, groups: usize) -> AnyKuuid {
    let id: Kuuid = mint(prefix);
    AnyKuuid::from_valid(&id.as_bytes()[..PREFIX_LEN + GROUP_LEN * groups])
}

/// `groups` random groups alone (already checked to be 1 to 4).
pub(crate) fn random_part(groups: usize) -> RandomPart {
    let id: Kuuid = mint(&Prefix::from_value(0));
    RandomPart::from_valid(&id.as_bytes()[PREFIX_LEN..PREFIX_LEN + GROUP_LEN * groups])
}

/// Fills a slice with 32-character ids (seconds, oldest first) minted now.
pub(crate) fn fill(ids: &mut [Kuuid]) {
    // The slice is the caller's: `with` may refuse before touching it, and
    // the fallback then fills all of it.
    if with!(|l| l.gen_.fill(ids)).is_none() {
        fallback::fill(ids);
    }
}

/// `N` random words from this thread's secure generator.
#[inline(always)]
pub(crate) fn words<const N: usize>() -> [u32; N] {
    match with!(|l| {
        l.gen_.check_fork();
        l.gen_.draw_array::<N>()
    }) {
        Some(w) => w,
        None => fallback::words(),
    }
}

/// 64 random bits from this thread's secure generator.
#[inline]
pub(crate) fn random_u64() -> u64 {
    let [lo, hi] = words::<2>();
    u64::from(hi) << 32 | u64::from(lo)
}

/// Fills `out` with random words from this thread's secure generator.
pub(crate) fn fill_words(out: &mut [u32]) {
    if with!(|l| {
        l.gen_.check_fork();
        l.gen_.draw(out);
    })
    .is_none()
    {
        fallback::fill_words(out);
    }
}

/// Whole seconds now, from the process-wide monotonic clock through this
/// thread's memo.
#[inline]
pub(crate) fn now_secs() -> u64 {
    with!(|l| now_units(Precision::Seconds, &mut l.gen_.seen)).unwrap_or_else(fallback::now_secs)
}

/// The prefix for now in `layout`, through this thread's memo (a fresh memo
/// per call would publish to the shared clock, a locked read-modify-write,
/// and re-encode the prefix every time).
pub(crate) fn prefix_now(layout: Layout) -> Prefix {
    with!(|l| l.prefix_now(layout)).unwrap_or_else(|| fallback::prefix_now(layout))
}

fn slot(layout: Layout) -> usize {
    usize::from(layout.precision == Precision::Millis) * 2
        + usize::from(layout.order == TimeOrder::Reverse)
}

impl Local {
    /// The state's first use on this thread, out of line: it is not on the
    /// path of any later call.
    #[cold]
    #[inline(never)]
    fn init(state: &mut Option<Local>) -> &mut Local {
        // Written in place (see `Generator::seeded`): what a thread's first
        // id costs in stack.
        state.insert(Local {
            gen_: Generator::from_os_or_panic(RngKind::Secure),
            memo: [(u64::MAX, Prefix::from_value(0)); 4],
        })
    }

    /// The prefix for now in `layout`, re-encoded only when the time moved.
    #[inline]
    fn prefix_now(&mut self, layout: Layout) -> Prefix {
        let units = now_units(layout.precision, &mut self.gen_.seen);
        self.prefix_of(layout, units)
    }

    /// The prefix of time `units` in `layout`, re-encoded only when the
    /// units differ from the last ones asked of that layout.
    #[inline]
    fn prefix_of(&mut self, layout: Layout, units: u64) -> Prefix {
        let memo = &mut self.memo[slot(layout)];
        if memo.0 != units {
            *memo = (units, layout.prefix_of_units(units));
        }
        memo.1
    }

    #[inline]
    fn mint_now<const LEN: usize>(&mut self, layout: Layout) -> Id<LEN> {
        self.gen_.check_fork();
        let prefix = self.prefix_now(layout);
        self.gen_.take_under(prefix.as_bytes())
    }

    /// A 32-character id under millisecond `ms`'s prefix (through the same
    /// memo as [`prefix_now`](Self::prefix_now)) with first group `group`.
    /// Always inlined: when the first-id branch joined `take_with_head`,
    /// LLVM left this out of line (`idms_monotonic_1000` +12 % instructions).
    #[inline(always)]
    fn mint_ordered(&mut self, ms: u64, group: u64) -> Kuuid {
        self.gen_.check_fork();
        let prefix = self.prefix_of(Layout::MILLIS, ms);
        self.gen_.take_with_head(prefix.as_bytes(), group)
    }

    #[inline]
    fn mint<const LEN: usize>(&mut self, prefix: &[u8; PREFIX_LEN]) -> Id<LEN> {
        self.gen_.check_fork();
        self.gen_.take_under(prefix)
    }
}

/// Ids without this thread's state, for the calls [`with`] refuses: random
/// words straight from the OS (one `getrandom` per id or per 256 ids: slow,
/// but these calls are rare) and the scalar encoder, which needs no
/// dispatch. Nothing here allocates, takes a lock or runs a one-time
/// initializer, so it cannot re-enter itself through an allocator or
/// deadlock on an initializer the interrupted call holds.
mod fallback {
    use super::*;

    #[cold]
    #[inline(never)]
    pub(super) fn words<const N: usize>() -> [u32; N] {
        os_words()
    }

    #[cold]
    #[inline(never)]
    pub(super) fn fill_words(out: &mut [u32]) {
        getrandom::fill(bytemuck::cast_slice_mut(out))
            .expect("the OS random source (getrandom) failed");
    }

    /// `N` words from the OS.
    ///
    /// # Panics
    /// If the OS refuses randomness, as every free function documents.
    fn os_words<const N: usize>() -> [u32; N] {
        let mut words = [0u32; N];
        getrandom::fill(bytemuck::cast_slice_mut(&mut words))
            .expect("the OS random source (getrandom) failed");
        words
    }

    #[cold]
    #[inline(never)]
    pub(super) fn now_secs() -> u64 {
        now_units(Precision::Seconds, &mut Seen::default())
    }

    #[cold]
    #[inline(never)]
    pub(super) fn prefix_now(layout: Layout) -> Prefix {
        layout.prefix_of_units(now_units(layout.precision, &mut Seen::default()))
    }

    #[cold]
    #[inline(never)]
    pub(super) fn mint<const LEN: usize>(prefix: &Prefix) -> Id<LEN> {
        let words: [u32; MAX_GROUPS] = os_words();
        let id = engine::assemble_id(prefix.as_bytes(), engine::scalar::four_group_bits(words));
        Id::from_valid(id[..LEN].try_into().expect("LEN <= 32"))
    }

    #[cold]
    #[inline(never)]
    pub(super) fn mint_now<const LEN: usize>(layout: Layout) -> Id<LEN> {
        mint(&prefix_now(layout))
    }

    #[cold]
    #[inline(never)]
    pub(super) fn mint_ordered(ms: u64, first: u32) -> Kuuid {
        let mut words: [u32; MAX_GROUPS] = os_words();
        words[0] = first;
        let prefix = Layout::MILLIS.prefix_of_units(ms);
        let id = engine::assemble_id(prefix.as_bytes(), engine::scalar::four_group_bits(words));
        Kuuid::from_valid(id)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn fill(ids: &mut [Kuuid]) {
        let prefix = prefix_now(Layout::SECONDS);
        for chunk in ids.chunks_mut(BATCH) {
            let words: [u32; BATCH * MAX_GROUPS] = os_words();
            let count = chunk.len();
            let out = Id::as_flat_bytes_mut(chunk);
            let len = out.len() / count;
            engine::encode_ids(
                Some(Isa::Scalar),
                prefix.as_bytes(),
                &words,
                MAX_GROUPS,
                out,
                len,
                count,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call made while the state is in use is refused (and so served by
    /// the fallback), and the state is usable again once the outer call ends,
    /// also after it panics.
    #[test]
    fn nested_calls_are_refused_and_the_flag_is_released() {
        let inner = with!(|_| with!(|_| ()));
        assert_eq!(inner, Some(None));
        assert_eq!(with!(|_| 1), Some(1));
        fn boom(_: &mut Local) -> u8 {
            panic!("inside")
        }
        let unwound = std::panic::catch_unwind(|| with!(|l| boom(l)));
        assert!(unwound.is_err());
        assert_eq!(with!(|_| 2), Some(2));
    }

    /// The ordered id is the same shape on both paths: the millisecond's
    /// prefix, then the given first group, then three random groups.
    #[test]
    fn ordered_ids_match_on_the_state_and_the_fallback() {
        let ms = 1_514_764_800_123;
        let first = 0xdead_b000;
        for id in [mint_ordered(ms, first), fallback::mint_ordered(ms, first)] {
            assert_eq!(id.as_str().parse::<Kuuid>(), Ok(id));
            assert_eq!(id.timestamp(Layout::MILLIS).as_millis(), ms);
            assert_eq!(id.random_words()[0], first);
        }
        assert_ne!(
            mint_ordered(ms, first).random_words()[1..],
            fallback::mint_ordered(ms, first).random_words()[1..]
        );
    }

    #[test]
    fn fallback_ids_are_valid_and_distinct() {
        let a: Kuuid = fallback::mint(&Prefix::from_value(7));
        let b: Kuuid = fallback::mint(&Prefix::from_value(7));
        assert_ne!(a, b);
        assert_eq!(a.prefix().value(), 7);
        assert_eq!(a.as_str().parse::<Kuuid>(), Ok(a));
        let mut ids = vec![Kuuid::default(); 3 * BATCH + 5];
        fallback::fill(&mut ids);
        let set: std::collections::HashSet<_> = ids.iter().collect();
        assert_eq!(set.len(), ids.len());
        assert!(ids.iter().all(|id| id.as_str().parse::<Kuuid>() == Ok(*id)));
    }
}
