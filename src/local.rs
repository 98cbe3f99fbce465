//! The per-thread generator behind the free functions (`kuuid::id()` and
//! kin), with the last prefix encoded per layout.
//!
//! A call is: the fork check (one relaxed load), the clock (one `time()` or
//! `clock_gettime`, one relaxed load), the prefix memo (re-encoded only when
//! the second or millisecond changes), and a 32-byte copy out of the
//! generator's buffer of ids encoded ahead, 256 at a time, by the batch
//! engine. Nothing on this path takes a lock or writes shared memory.

use std::cell::UnsafeCell;

use crate::engine::{GROUP_LEN, PREFIX_LEN};
use crate::generator::{Generator, now_units};
use crate::id::{AnyKuuid, Id, Kuuid, RandomPart};
use crate::layout::{Layout, Order, Precision, Prefix};

pub(crate) struct Local {
    /// Secure engine, seconds, oldest first: what `fill` needs as is.
    gen_: Generator,
    /// Last (units, prefix) per layout, indexed by [`slot`].
    memo: [(u64, Prefix); 4],
}

thread_local! {
    static LOCAL: UnsafeCell<Option<Local>> = const { UnsafeCell::new(None) };
}

/// Runs `f` on this thread's state, creating it on first use.
#[inline]
pub(crate) fn with<R>(f: impl FnOnce(&mut Local) -> R) -> R {
    LOCAL.with(|cell| {
        // SAFETY: the only `&mut` to this thread's state is the one made
        // here, and it does not outlive `f`. `f` cannot reach `with` again:
        // callers are this crate's free functions, whose closures only call
        // `Local` methods, and those never call `with`.
        let state = unsafe { &mut *cell.get() };
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
            gen_: Generator::secure(),
            memo: [(u64::MAX, Prefix::from_value(0)); 4],
        }
    }

    /// The prefix for now in `layout`, re-encoded only when the time moved.
    #[inline]
    pub(crate) fn prefix_now(&mut self, layout: Layout) -> Prefix {
        let units = now_units(layout.precision, &mut self.gen_.seen);
        let memo = &mut self.memo[slot(layout)];
        if memo.0 != units {
            *memo = (units, layout.prefix_of_units(units));
        }
        memo.1
    }

    /// An id of `LEN` bytes minted now.
    #[inline]
    pub(crate) fn mint_now<const LEN: usize>(&mut self, layout: Layout) -> Id<LEN> {
        self.gen_.check_fork();
        let prefix = self.prefix_now(layout);
        self.gen_.take_under(prefix.as_bytes())
    }

    /// An id of `LEN` bytes under `prefix`.
    #[inline]
    pub(crate) fn mint<const LEN: usize>(&mut self, prefix: &[u8; PREFIX_LEN]) -> Id<LEN> {
        self.gen_.check_fork();
        self.gen_.take_under(prefix)
    }

    /// An id with a run-time number of groups (already checked to be 1 to 4).
    pub(crate) fn mint_any(&mut self, prefix: &Prefix, groups: usize) -> AnyKuuid {
        let id: Kuuid = self.mint(prefix.as_bytes());
        AnyKuuid::from_valid(&id.as_bytes()[..PREFIX_LEN + GROUP_LEN * groups])
    }

    /// `groups` random groups alone (already checked to be 1 to 4).
    pub(crate) fn random_part(&mut self, groups: usize) -> RandomPart {
        let id: Kuuid = self.mint(b"00000000");
        RandomPart::from_valid(&id.as_bytes()[PREFIX_LEN..PREFIX_LEN + GROUP_LEN * groups])
    }

    /// Fills a slice with 32-character ids (seconds, oldest first) minted now.
    pub(crate) fn fill(&mut self, ids: &mut [Kuuid]) {
        self.gen_.fill(ids);
    }
}
