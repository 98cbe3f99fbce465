//! The lock-free handover between leased blocks: tickets and a ring of
//! slots.
//!
//! Every value a [`Sequence`](super::Sequence) hands out has a ticket
//! number, drawn with one `fetch_add` on a shared word: ticket `t` is
//! offset `t % len` of block `t / len`, so no two claims ever get the same
//! ticket. The blocks themselves (their first value, from the database)
//! sit in a ring of `SLOTS` slots, block `i` in slot `i % SLOTS`: the
//! current one, the next (prefetched) one, and the last few, so that a
//! thread that drew a ticket and was preempted before reading its block
//! still finds it unless `SLOTS - 1` blocks went by meanwhile. A slot is a seqlock: its writer makes the slot's
//! version odd, stores the block (index, first value, token), then makes
//! the version even again; a reader that sees the same even version before
//! and after reading has a whole block. (The version, not the index, is
//! compared: a forked child rewrites a block under the same index.)
//!
//! A ticket whose block is not installed yet makes its thread install it
//! (lease from the database, in index order, under the writers' lock);
//! a ticket whose slot already holds a later block is dropped and another
//! drawn: its values are never handed out (a gap, never a repeat). Only
//! installing takes the lock, so threads keep drawing from an installed
//! block while another waits on the database.
//!
//! Each block records the fork token it was leased under. A forked child
//! finds its parent's blocks stale and leases its own, starting again from
//! the block its ticket names; the writers' lock records the holder's
//! process id, so a child does not wait for a parent's thread that does
//! not exist in it.

#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering, fence};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicU64, Ordering, fence};

use crossbeam_utils::CachePadded;

use super::wait::Backoff;
use kuuid::process::Owner;

/// The longest block: a trillion values.
pub const MAX_LEN: u64 = 1 << 40;

/// A slot's index before any block.
const EMPTY: u64 = u64::MAX;

struct Slot {
    /// Odd while a writer is storing a block.
    version: AtomicU64,
    index: AtomicU64,
    first: AtomicU64,
    token: AtomicU64,
}

impl Slot {
    fn new() -> Self {
        Slot {
            version: AtomicU64::new(0),
            index: AtomicU64::new(EMPTY),
            first: AtomicU64::new(0),
            token: AtomicU64::new(0),
        }
    }
}

/// What a slot holds for block `i`, read under the process token `token`.
enum Read {
    /// Block `i`, leased in this process: its first value.
    Ready(u64),
    /// A later block: the ticket's values will never be handed out.
    Gone,
    /// Block `i` is not installed (or was leased before a fork).
    Missing,
}

/// Values claimed from a block: `count` of them from `first` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    /// The first value.
    pub first: u64,
    /// The block the claim crossed the prefetch mark of: the caller should
    /// have block `prefetch` installed before this one runs out.
    pub prefetch: Option<u64>,
}

/// The shared state of one sequence: tickets, a ring of `SLOTS` slots (4
/// unless a test wants the ring to wrap sooner) and the writers' lock.
pub struct Blocks<const SLOTS: usize = 4> {
    len: u64,
    /// The offset whose claim asks for the next block (`None`: no
    /// prefetch, for tiny blocks).
    mark: Option<u64>,
    tickets: CachePadded<AtomicU64>,
    slots: [Slot; SLOTS],
    /// The installers' lock: the process id of the thread installing
    /// blocks, or 0.
    lock: Owner,
    /// The next block index to install, and the token it was counted
    /// under (both written under the lock).
    installed: AtomicU64,
    installed_token: AtomicU64,
}

impl<const SLOTS: usize> Blocks<SLOTS> {
    /// Blocks of `len` values (at least 1). A claim that reaches `len / 10`
    /// values from a block's end asks for the next block (blocks of fewer
    /// than 16 values are not prefetched).
    pub fn new(len: u64) -> Self {
        assert!(len >= 1, "blocks hold at least one value");
        assert!(SLOTS >= 2, "a current and a next block");
        Blocks {
            len,
            mark: (len >= 16).then(|| len - len / 10),
            tickets: CachePadded::new(AtomicU64::new(0)),
            slots: std::array::from_fn(|_| Slot::new()),
            lock: Owner::new(),
            installed: AtomicU64::new(0),
            installed_token: AtomicU64::new(0),
        }
    }

    /// Values per block.
    pub fn block_len(&self) -> u64 {
        self.len
    }

    /// Claims `k` consecutive values (`k` must divide the block length, so
    /// a claim never spans two blocks). `lease(i)` is called for each block
    /// this thread has to install, in index order, and returns the block's
    /// first value; its error ends the claim. `pid` gives the process id
    /// when the installers' lock is taken.
    pub fn claim<E>(
        &self,
        k: u64,
        token: u64,
        pid: &dyn Fn() -> u32,
        mut lease: impl FnMut(u64) -> Result<u64, E>,
    ) -> Result<Claim, E> {
        debug_assert!(k >= 1 && self.len.is_multiple_of(k));
        loop {
            // Relaxed: the ticket only needs to be unique; the block's
            // contents are published through the slot's index.
            let t = self.tickets.fetch_add(k, Ordering::Relaxed);
            let (i, offset) = (t / self.len, t % self.len);
            loop {
                match self.read(i, token) {
                    Read::Ready(first) => {
                        let prefetch = self
                            .mark
                            .filter(|&m| offset <= m && m < offset + k)
                            .map(|_| i + 1);
                        return Ok(Claim {
                            first: first + offset,
                            prefetch,
                        });
                    }
                    Read::Gone => break,
                    Read::Missing => {
                        if !self.install_through(i, token, pid, &mut lease)? {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Makes sure blocks up to `i` are installed, leasing each one this
    /// process lacks, in order (a prefetch calls it for `i + 1`). Returns
    /// `false` when block `i` will never be installed: this process has
    /// moved past it (a ticket drawn before a fork), so the ticket is void.
    pub fn install_through<E>(
        &self,
        i: u64,
        token: u64,
        pid: &dyn Fn() -> u32,
        mut lease: impl FnMut(u64) -> Result<u64, E>,
    ) -> Result<bool, E> {
        // The process id is a system call: asked for only here, once per
        // block installed. Released however the lease ends.
        let mut backoff = Backoff::default();
        let _held = self.lock.hold(pid(), || backoff.wait());
        (|| {
            if let Read::Ready(_) = self.read(i, token) {
                return Ok(true);
            }
            let mut next = self.installed.load(Ordering::Relaxed);
            if self.installed_token.load(Ordering::Relaxed) != token {
                // A fork (or a reseed): nothing installed so far is ours.
                next = i;
                self.installed_token.store(token, Ordering::Relaxed);
            }
            if next > i {
                return Ok(false);
            }
            while next <= i {
                let first = lease(next)?;
                self.write(next, first, token);
                next += 1;
                self.installed.store(next, Ordering::Relaxed);
            }
            Ok(true)
        })()
    }

    fn read(&self, i: u64, token: u64) -> Read {
        let slot = &self.slots[(i % SLOTS as u64) as usize];
        loop {
            let before = slot.version.load(Ordering::Acquire);
            if before % 2 == 1 {
                // Being written: the writer holds the lock, which
                // installing waits for.
                return Read::Missing;
            }
            let index = slot.index.load(Ordering::Relaxed);
            let first = slot.first.load(Ordering::Relaxed);
            let leased_under = slot.token.load(Ordering::Relaxed);
            fence(Ordering::Acquire);
            if slot.version.load(Ordering::Relaxed) != before {
                // A writer came in between: read again.
                continue;
            }
            return match index {
                b if b == i && leased_under == token => Read::Ready(first),
                b if b > i && b != EMPTY => Read::Gone,
                // Empty, an earlier block, or block `i` leased before a fork.
                _ => Read::Missing,
            };
        }
    }

    /// Stores block `i` in its slot (under the lock: one writer at a time).
    fn write(&self, i: u64, first: u64, token: u64) {
        let slot = &self.slots[(i % SLOTS as u64) as usize];
        // Odd while writing; already odd if a parent's writer was cut off
        // by a fork in the middle.
        let writing = slot.version.load(Ordering::Relaxed) | 1;
        slot.version.store(writing, Ordering::Relaxed);
        fence(Ordering::Release);
        slot.index.store(i, Ordering::Relaxed);
        slot.first.store(first, Ordering::Relaxed);
        slot.token.store(token, Ordering::Relaxed);
        slot.version.store(writing + 1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::convert::Infallible;

    const PID: &dyn Fn() -> u32 = &|| 7;

    /// Block `i` starts at `i * 1000`; `leased` records the indices asked.
    fn lease(leased: &mut Vec<u64>) -> impl FnMut(u64) -> Result<u64, Infallible> + '_ {
        move |i| {
            leased.push(i);
            Ok(i * 1000)
        }
    }

    fn firsts<const S: usize>(b: &Blocks<S>, k: u64, n: usize, token: u64) -> (Vec<u64>, Vec<u64>) {
        let mut leased = Vec::new();
        let got = (0..n)
            .map(|_| b.claim(k, token, PID, lease(&mut leased)).unwrap().first)
            .collect();
        (got, leased)
    }

    #[test]
    fn claims_run_through_each_block_and_lease_blocks_in_order() {
        let b = Blocks::<4>::new(10);
        assert_eq!(b.block_len(), 10);
        let (got, leased) = firsts(&b, 1, 30, 1);
        let want: Vec<u64> = (0..3)
            .flat_map(|i| (0..10).map(move |o| i * 1000 + o))
            .collect();
        assert_eq!(got, want);
        assert_eq!(leased, [0, 1, 2]);
        let (got, leased) = firsts(&b, 5, 4, 1);
        assert_eq!(got, [3000, 3005, 4000, 4005]);
        assert_eq!(leased, [3, 4]);
    }

    #[test]
    fn the_claim_that_crosses_the_mark_asks_for_the_next_block_once() {
        let b = Blocks::<4>::new(100);
        let mut leased = Vec::new();
        let mut asked = Vec::new();
        for n in 0..250 {
            let c = b.claim(1, 1, PID, lease(&mut leased)).unwrap();
            if let Some(p) = c.prefetch {
                asked.push((n, p));
            }
        }
        assert_eq!(asked, [(90, 1), (190, 2)]);
        // A claim of 5 crosses the mark at offset 90 from offsets 90..95.
        let b = Blocks::<4>::new(100);
        let claims: Vec<Claim> = (0..20)
            .map(|_| b.claim(5, 1, PID, lease(&mut leased)).unwrap())
            .collect();
        let asking: Vec<usize> = (0..20).filter(|&n| claims[n].prefetch.is_some()).collect();
        assert_eq!(asking, [18]);
        assert_eq!(claims[18].prefetch, Some(1));
        // Blocks under 16 values are never prefetched.
        let b = Blocks::<4>::new(15);
        assert!((0..45).all(|_| {
            b.claim(1, 1, PID, lease(&mut leased))
                .unwrap()
                .prefetch
                .is_none()
        }));
        let b = Blocks::<4>::new(16);
        assert_eq!(
            (0..16)
                .filter(|_| b
                    .claim(1, 1, PID, lease(&mut leased))
                    .unwrap()
                    .prefetch
                    .is_some())
                .count(),
            1
        );
    }

    /// A new token (a fork) finds nothing installed: the ticket's own block
    /// is leased again, never the blocks before it, and no value leased
    /// under the old token is handed out.
    #[test]
    fn a_new_token_leases_again_from_the_tickets_block() {
        let b = Blocks::<4>::new(10);
        let (old, _) = firsts(&b, 1, 15, 1);
        let mut leased = Vec::new();
        let mut again = |i| {
            leased.push(i);
            Ok::<_, Infallible>(1_000_000 + i * 1000)
        };
        let c = b.claim(1, 2, PID, &mut again).unwrap();
        assert_eq!(c.first, 1_000_000 + 1000 + 5);
        let c = b.claim(1, 2, PID, &mut again).unwrap();
        assert_eq!(c.first, 1_000_000 + 1000 + 6);
        assert_eq!(leased, [1]);
        assert!(!old.contains(&(1_000_000 + 1005)));
    }

    #[test]
    fn install_through_leases_ahead_once_and_refuses_a_block_left_behind() {
        let b = Blocks::<2>::new(10);
        let mut leased = Vec::new();
        // The first install of a token starts at the block asked for.
        assert_eq!(b.install_through(0, 1, PID, lease(&mut leased)), Ok(true));
        assert_eq!(b.install_through(2, 1, PID, lease(&mut leased)), Ok(true));
        assert_eq!(leased, [0, 1, 2]);
        // Installed already: nothing leased.
        assert_eq!(b.install_through(2, 1, PID, lease(&mut leased)), Ok(true));
        assert_eq!(leased, [0, 1, 2]);
        // Block 0's slot now holds block 2: a ticket of block 0 is void.
        assert!(matches!(b.read(0, 1), Read::Gone));
        assert!(matches!(b.read(1, 1), Read::Ready(1000)));
        assert!(matches!(b.read(2, 1), Read::Ready(2000)));
        assert!(matches!(b.read(3, 1), Read::Missing));
        assert!(matches!(b.read(2, 9), Read::Missing));
        // A block this process moved past is never installed again.
        b.slots[0].index.store(EMPTY, Ordering::Relaxed);
        assert_eq!(b.install_through(0, 1, PID, lease(&mut leased)), Ok(false));
        assert_eq!(leased, [0, 1, 2]);
        // A claim whose ticket is void draws another: tickets 0..10 are
        // gone with block 0, so the first value handed out is block 1's.
        let b = Blocks::<2>::new(10);
        b.install_through(0, 1, PID, lease(&mut leased)).unwrap();
        b.install_through(2, 1, PID, lease(&mut leased)).unwrap();
        b.tickets.store(0, Ordering::Relaxed);
        let c = b.claim(10, 1, PID, lease(&mut leased)).unwrap();
        assert_eq!(c.first, 1000);
    }

    #[test]
    fn a_failed_lease_ends_the_claim_and_its_block_is_leased_by_the_next() {
        let b = Blocks::<4>::new(10);
        assert_eq!(b.claim(1, 1, PID, |_| Err("down")), Err("down"));
        let mut leased = Vec::new();
        let c = b.claim(1, 1, PID, lease(&mut leased)).unwrap();
        assert_eq!((c.first, leased.as_slice()), (1, &[0][..]));
        // The lock was let go: another install takes it.
        assert_eq!(b.install_through(1, 1, PID, lease(&mut leased)), Ok(true));
    }

    /// The seqlock: a slot being written reads as missing; a writer cut
    /// off by a fork left the version odd, and the next write ends even.
    #[test]
    fn a_slot_mid_write_reads_missing_and_a_cut_off_write_is_finished() {
        let b = Blocks::<4>::new(10);
        assert!(matches!(b.read(0, 1), Read::Missing), "an empty slot");
        b.write(0, 500, 1);
        let v = b.slots[0].version.load(Ordering::Relaxed);
        assert_eq!(v % 2, 0);
        assert!(matches!(b.read(0, 1), Read::Ready(500)));
        b.slots[0].version.store(v + 1, Ordering::Relaxed);
        assert!(matches!(b.read(0, 1), Read::Missing));
        b.write(4, 900, 1);
        assert_eq!(b.slots[0].version.load(Ordering::Relaxed), v + 2);
        assert!(matches!(b.read(4, 1), Read::Ready(900)));
        assert!(matches!(b.read(0, 1), Read::Gone));
    }

    #[test]
    fn threads_never_get_the_same_value() {
        let b = Blocks::<4>::new(64);
        let next = AtomicU64::new(0);
        let runs: Vec<Vec<u64>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..20_000)
                            .map(|_| {
                                b.claim(1, 1, PID, |_| {
                                    Ok::<_, Infallible>(next.fetch_add(64, Ordering::Relaxed))
                                })
                                .unwrap()
                                .first
                            })
                            .collect::<Vec<u64>>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut seen = HashSet::new();
        for run in &runs {
            assert!(
                run.windows(2).all(|w| w[0] < w[1]),
                "a thread's values go up"
            );
            for &v in run {
                assert!(seen.insert(v), "{v} twice");
            }
        }
    }
}
