//! The per-thread state behind the free functions (`kuuid::id()` and kin).
//!
//! A call is: the fork check (one relaxed load), the clock (one `time()` or
//! `clock_gettime`, one relaxed load), the prefix memo (re-encoded only when
//! the second or millisecond changes), a 32-byte copy out of a buffer of
//! pre-encoded random parts, and a cursor bump. The buffer is refilled 256
//! ids at a time by the batch engine. Nothing on this path takes a lock or
//! writes shared memory.

use std::cell::RefCell;

use crate::clock::Seen;
use crate::engine::{self, GROUP_LEN, PREFIX_LEN};
use crate::generator::{BATCH, now_units};
use crate::id::{Id, Kuuid, MAX_GROUPS, MAX_LEN, RandomPart};
use crate::layout::{Layout, Order, Precision, Prefix};
use crate::rng::{Rng, RngKind, fork};

/// Pre-encoded ids per refill.
const BUFFERED: usize = BATCH;

pub(crate) struct Local {
    rng: Rng,
    token: u64,
    fork_word: &'static std::sync::atomic::AtomicU64,
    /// 4-group ids with placeholder prefixes; `buf[next..]` are unused.
    buf: Box<[[u8; MAX_LEN]; BUFFERED]>,
    next: usize,
    seen: Seen,
    /// Last (units, prefix text) per layout, indexed by [`slot`].
    memo: [(u64, [u8; PREFIX_LEN]); 4],
}

thread_local! {
    static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread's state, creating it on first use.
#[inline]
pub(crate) fn with<R>(f: impl FnOnce(&mut Local) -> R) -> R {
    LOCAL.with(|cell| {
        let mut state = cell.borrow_mut();
        f(state.get_or_insert_with(Local::new))
    })
}

fn slot(layout: Layout) -> usize {
    usize::from(layout.precision == Precision::Millis) * 2
        + usize::from(layout.order == Order::Reverse)
}

impl Local {
    #[cold]
    fn new() -> Self {
        Local {
            rng: Rng::from_os(RngKind::Secure).expect("the OS random source (getrandom) failed"),
            token: fork::token(),
            fork_word: fork::word(),
            buf: Box::new([[0u8; MAX_LEN]; BUFFERED]),
            next: BUFFERED,
            seen: Seen::default(),
            memo: [(u64::MAX, [0; PREFIX_LEN]); 4],
        }
    }

    /// After a fork (or `reseed()`): a new key, and no pre-drawn randomness.
    #[inline]
    fn check_fork(&mut self) {
        let t = fork::token_in(self.fork_word);
        if t != self.token {
            self.reseed(t);
        }
    }

    #[cold]
    fn reseed(&mut self, token: u64) {
        match Rng::from_os(RngKind::Secure) {
            Ok(rng) => self.rng = rng,
            Err(_) => self.rng.perturb(token),
        }
        self.token = token;
        self.next = BUFFERED;
    }

    #[cold]
    fn refill(&mut self) {
        let mut words = [0u32; BUFFERED * MAX_GROUPS];
        self.rng.fill_words(engine::isa(), &mut words);
        let out = self.buf.as_flattened_mut();
        engine::encode_ids(
            None,
            b"00000000",
            &words,
            MAX_GROUPS,
            out,
            MAX_LEN,
            BUFFERED,
        );
        self.next = 0;
    }

    /// The next pre-encoded 4-group id (placeholder prefix).
    #[inline]
    fn take(&mut self) -> [u8; MAX_LEN] {
        if self.next == BUFFERED {
            self.refill();
        }
        let id = self.buf[self.next];
        self.next += 1;
        id
    }

    /// The prefix for now in `layout`, re-encoded only when the time moved.
    #[inline]
    fn prefix_now(&mut self, layout: Layout) -> [u8; PREFIX_LEN] {
        let units = now_units(layout.precision, &mut self.seen);
        let memo = &mut self.memo[slot(layout)];
        if memo.0 != units {
            *memo = (units, *layout.prefix_of_units(units).as_bytes());
        }
        memo.1
    }

    /// An id of `LEN` bytes minted now.
    #[inline]
    pub(crate) fn mint_now<const LEN: usize>(&mut self, layout: Layout) -> Id<LEN> {
        let prefix = self.prefix_now(layout);
        self.mint(&prefix)
    }

    /// An id of `LEN` bytes under `prefix`: the first `LEN - 8` random
    /// characters of a buffered id.
    #[inline]
    pub(crate) fn mint<const LEN: usize>(&mut self, prefix: &[u8; PREFIX_LEN]) -> Id<LEN> {
        self.check_fork();
        let mut id = self.take();
        id[..PREFIX_LEN].copy_from_slice(prefix);
        Id::from_valid(id[..LEN].try_into().expect("LEN <= 32"))
    }

    /// An id with a run-time number of groups (already checked to be 1 to 4).
    pub(crate) fn mint_any(&mut self, prefix: &Prefix, groups: usize) -> crate::AnyKuuid {
        self.check_fork();
        let mut id = self.take();
        id[..PREFIX_LEN].copy_from_slice(prefix.as_bytes());
        crate::AnyKuuid::from_valid(&id[..PREFIX_LEN + GROUP_LEN * groups])
    }

    /// `groups` random groups alone (already checked to be 1 to 4).
    pub(crate) fn random_part(&mut self, groups: usize) -> RandomPart {
        self.check_fork();
        let id = self.take();
        RandomPart::from_valid(&id[PREFIX_LEN..PREFIX_LEN + GROUP_LEN * groups])
    }

    /// Fills a slice with 32-character ids minted now, in batches.
    pub(crate) fn fill(&mut self, layout: Layout, ids: &mut [Kuuid]) {
        for chunk in ids.chunks_mut(BATCH) {
            self.check_fork();
            let prefix = self.prefix_now(layout);
            let count = chunk.len();
            let mut words = [0u32; BATCH * MAX_GROUPS];
            let words = &mut words[..count * MAX_GROUPS];
            self.rng.fill_words(engine::isa(), words);
            engine::encode_ids(
                None,
                &prefix,
                words,
                MAX_GROUPS,
                Id::as_flat_bytes_mut(chunk),
                MAX_LEN,
                count,
            );
        }
    }
}

/// Makes every thread's state (and every [`crate::Generator`]) reseed before
/// its next id.
pub(crate) fn reseed_all() {
    fork::reseed_all();
}
