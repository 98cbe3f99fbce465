//! The uniqueness matrix: every id source, minted by threads, forked
//! children (whose first mint is the forking thread, another thread or a
//! bulk call), sibling children, a raw `clone`, and restored copies that call
//! `reseed()`. Each cell gathers every id from every process and counts
//! repeats. `tests/process/uniqueness.rs` runs the cells with the fork guard on (no
//! repeat allowed); `tests/unguarded/uniqueness_unguarded.rs` runs them with it off,
//! where they must find repeats (the negative controls, which show each
//! cell can fail) and where a copy that calls `reseed()` must not.
#![allow(dead_code)]

use std::collections::HashMap;

use kuuid::couch::{Algorithm, Uuids};
use kuuid::{Generator, ObjectId, Uuid7, V7Generator};

// Beside this file (a `#[path]` module: nested files resolve from here).
#[path = "matrix_copy.rs"]
mod copy;
// scratch_dir: for kuuid-sequence's tests, which share this file.
#[allow(unused_imports)]
pub use copy::{Copy, in_a_copy, scratch_dir, start_copy, wait_copy};

/// Ids per mint step in a cell (a step is one thread's run or one bulk call).
pub const N: usize = 1_500;

/// One id source of the crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `kuuid::id()` (the per-thread secure generator).
    Kuuid,
    /// A `Generator::fast()` per thread.
    KuuidFast,
    /// A monotonic `Generator::secure().monotonic()` per thread.
    KuuidMonotonic,
    /// `kuuid::idms_monotonic()`; bulk: `kuuid::fill_idms_monotonic`.
    KuuidOrdered,
    /// `kuuid::v7()`; bulk: `kuuid::fill_v7`.
    V7,
    /// A `V7Generator` per thread.
    V7Generator,
    /// `kuuid::v7()` with the process on the precise clock
    /// (`set_millis_clock(MillisClock::Precise)`); bulk: `fill_v7`.
    V7Precise,
    /// `kuuid::idms_monotonic()` on the precise clock; bulk:
    /// `fill_idms_monotonic`.
    KuuidOrderedPrecise,
    /// `kuuid::ulid()`; bulk: `fill_ulid_text` (`fill_ulid`'s claims).
    Ulid,
    /// A `UlidGenerator` per thread.
    UlidGenerator,
    /// `kuuid::typeid(prefix)`; bulk: `kuuid::fill_typeid`.
    TypeId,
    /// `kuuid::ksuid()`; bulk: `kuuid::fill_ksuid`.
    Ksuid,
    /// `kuuid::object_id()`; bulk: `kuuid::fill_object_id`.
    ObjectId,
    /// CouchDB's `/_uuids` algorithms (`utc_id` with one suffix per process:
    /// it is unique per suffix, as CouchDB's is per node).
    Couch(Algorithm),
    /// `kuuid::order::key_between_jittered` with 64 bits between two fixed
    /// neighbours (the jitter is the whole difference between two keys);
    /// bulk: `n_keys_between_jittered`.
    OrderJittered,
    /// A row the test crate adds (`crate::rows`): kuuid-sequence's
    /// counters; none in kuuid's own tests.
    Counter(crate::rows::Counter),
}

/// The rows this test crate runs (`crate::rows` says which).
pub fn sources() -> Vec<Source> {
    crate::rows::sources()
}

/// Every id source of kuuid: the rows of kuuid's own matrix.
pub fn id_sources() -> Vec<Source> {
    vec![
        Source::Kuuid,
        Source::KuuidFast,
        Source::KuuidMonotonic,
        Source::KuuidOrdered,
        Source::V7,
        Source::V7Generator,
        Source::V7Precise,
        Source::KuuidOrderedPrecise,
        Source::Ulid,
        Source::UlidGenerator,
        Source::TypeId,
        Source::Ksuid,
        Source::ObjectId,
        Source::Couch(Algorithm::Random),
        Source::Couch(Algorithm::Sequential),
        Source::Couch(Algorithm::UtcRandom),
        Source::Couch(Algorithm::UtcId),
        Source::Couch(Algorithm::UuidV4),
        Source::Couch(Algorithm::UuidV7),
        Source::OrderJittered,
    ]
}

impl Source {
    /// Whether a copy of the process (a fork, a restored clone) must get an
    /// error from this source instead of ids.
    pub fn refuses_in_a_copy(self) -> bool {
        matches!(self, Source::Counter(c) if c.refuses_in_a_copy())
    }

    /// The error a copy made by `how` may get instead of ids, though the
    /// source does not refuse every copy: SQLite's `CopiedMidCall` when a
    /// raw clone (which runs no fork handler, so nothing waits) copies the
    /// prefetch thread inside SQLite.
    pub fn may_refuse(self, how: Copy) -> Option<&'static str> {
        match self {
            Source::Counter(c) => c.may_refuse(how),
            _ => None,
        }
    }

    /// Whether the source keeps its state in a database, which a process
    /// can close and open again (the reopen cells).
    pub fn has_a_store(self) -> bool {
        matches!(self, Source::Counter(c) if c.has_a_store())
    }

    /// Whether one thread's single ids are documented to increase (across
    /// clock steps too).
    pub fn ordered_on_a_thread(self) -> bool {
        matches!(
            self,
            Source::KuuidMonotonic
                | Source::KuuidOrdered
                | Source::KuuidOrderedPrecise
                | Source::V7
                | Source::V7Generator
                | Source::V7Precise
                | Source::Ulid
                | Source::UlidGenerator
                | Source::TypeId
                | Source::Couch(Algorithm::UtcRandom)
                | Source::Couch(Algorithm::UtcId)
        )
    }

    /// The part of an id that must differ between any two ids: the random
    /// part of random ids (a repeated RNG stream shows there even when the
    /// clock moved on between two copies), the whole id of counters.
    pub fn key(self, id: &[u8]) -> Vec<u8> {
        match self {
            // The 24 base62 characters after the time.
            Source::Kuuid | Source::KuuidFast | Source::KuuidMonotonic => id[8..].to_vec(),
            // The three random groups after the counter's.
            Source::KuuidOrdered | Source::KuuidOrderedPrecise => id[14..].to_vec(),
            // The low 48 of the 52 random bits.
            Source::V7 | Source::V7Generator | Source::V7Precise => id[10..].to_vec(),
            // The low 56 of the 58 random bits under the counter.
            Source::Ulid | Source::UlidGenerator => id[9..].to_vec(),
            // The suffix's last 9 characters: 45 of the UUIDv7's random bits.
            Source::TypeId => id[id.len() - 9..].to_vec(),
            // The 16 random bytes after the second.
            Source::Ksuid => id[4..].to_vec(),
            // The process value and the counter.
            Source::ObjectId => id[4..].to_vec(),
            // The 18 random hex digits after the microseconds.
            Source::Couch(Algorithm::UtcRandom) => id[14..].to_vec(),
            // rand_a and rand_b, after the 12 hex digits of milliseconds
            // and the version.
            Source::Couch(Algorithm::UuidV7) => id[13..].to_vec(),
            _ => id.to_vec(),
        }
    }
}

thread_local! {
    static FAST: std::cell::RefCell<Generator> = std::cell::RefCell::new(Generator::fast());
    static MONO: std::cell::RefCell<Generator> =
        std::cell::RefCell::new(Generator::secure().monotonic());
    static V7G: std::cell::RefCell<V7Generator> = std::cell::RefCell::new(V7Generator::new());
    static ULIDG: std::cell::RefCell<kuuid::UlidGenerator> =
        std::cell::RefCell::new(kuuid::UlidGenerator::new());
}

fn couch(a: Algorithm) -> Uuids {
    if a == Algorithm::UtcId {
        Uuids::new(a).utc_id_suffix(format!("p{}", std::process::id()))
    } else {
        Uuids::new(a)
    }
}

fn typeid_prefix() -> kuuid::TypeIdPrefix {
    kuuid::TypeIdPrefix::new("doc").expect("a valid prefix")
}

/// Puts the process on the clock `src` is minted with: the precise rows
/// the precise clock, every other the default (cells run one at a time,
/// and a copy inherits the setting, as users' children do).
fn set_clock_for(src: Source) {
    use kuuid::clock::{MillisClock, set_millis_clock};
    set_millis_clock(match src {
        Source::V7Precise | Source::KuuidOrderedPrecise => MillisClock::Precise,
        _ => MillisClock::Coarse,
    });
}

/// One id from `src`, as bytes (text for text formats).
pub fn mint(src: Source) -> Result<Vec<u8>, String> {
    set_clock_for(src);
    Ok(match src {
        Source::Kuuid => kuuid::id().as_bytes().to_vec(),
        Source::KuuidFast => FAST.with(|g| g.borrow_mut().generate()).as_bytes().to_vec(),
        Source::KuuidMonotonic => MONO.with(|g| g.borrow_mut().generate()).as_bytes().to_vec(),
        Source::KuuidOrdered | Source::KuuidOrderedPrecise => {
            kuuid::idms_monotonic().as_bytes().to_vec()
        }
        Source::V7 | Source::V7Precise => kuuid::v7().as_bytes().to_vec(),
        Source::V7Generator => V7G.with(|g| g.borrow_mut().generate()).as_bytes().to_vec(),
        Source::Ulid => kuuid::ulid().as_bytes().to_vec(),
        Source::UlidGenerator => ULIDG
            .with(|g| g.borrow_mut().generate())
            .as_bytes()
            .to_vec(),
        Source::TypeId => kuuid::typeid(typeid_prefix()).to_string().into_bytes(),
        Source::Ksuid => kuuid::ksuid().as_bytes().to_vec(),
        Source::ObjectId => kuuid::object_id().as_bytes().to_vec(),
        Source::Couch(a) => couch(a).generate().map_err(|e| e.to_string())?.into_bytes(),
        Source::OrderJittered => kuuid::order::key_between_jittered(Some("a0"), Some("a1"), 64)
            .map_err(|e| e.to_string())?
            .into_string()
            .into_bytes(),
        Source::Counter(c) => c.mint()?,
    })
}

/// `n` ids from `src` in one bulk call where it has one.
pub fn mint_bulk(src: Source, n: usize) -> Result<Vec<Vec<u8>>, String> {
    set_clock_for(src);
    Ok(match src {
        Source::Kuuid => {
            let mut ids = vec![kuuid::Kuuid::default(); n];
            kuuid::fill(&mut ids);
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::KuuidFast | Source::KuuidMonotonic => {
            let mut ids = vec![kuuid::Kuuid::default(); n];
            let g = if src == Source::KuuidFast {
                &FAST
            } else {
                &MONO
            };
            g.with(|g| g.borrow_mut().fill(&mut ids));
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::KuuidOrdered | Source::KuuidOrderedPrecise => {
            let mut ids = vec![kuuid::Kuuid::default(); n];
            kuuid::fill_idms_monotonic(&mut ids);
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::V7 | Source::V7Precise => {
            let mut ids = vec![Uuid7::MIN; n];
            kuuid::fill_v7(&mut ids);
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::V7Generator => {
            let mut ids = vec![Uuid7::MIN; n];
            V7G.with(|g| g.borrow_mut().fill(&mut ids));
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::Ulid => {
            let (mut text, mut ids) = (vec![[0u8; 26]; n], vec![kuuid::Ulid::MIN; n]);
            kuuid::fill_ulid_text(&mut text);
            let back = kuuid::Ulid::parse_many(text.as_flattened(), 26, &mut ids);
            back.map_err(|e| e.to_string())?;
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::UlidGenerator => {
            let mut ids = vec![kuuid::Ulid::MIN; n];
            ULIDG.with(|g| g.borrow_mut().fill(&mut ids));
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::TypeId => {
            let p = typeid_prefix();
            let mut ids = vec![kuuid::TypeId::new(p, Uuid7::MIN); n];
            kuuid::fill_typeid(p, &mut ids);
            ids.iter().map(|i| i.to_string().into_bytes()).collect()
        }
        Source::Ksuid => {
            let mut ids = vec![kuuid::Ksuid::MIN; n];
            kuuid::fill_ksuid(&mut ids);
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::ObjectId => {
            let mut ids = vec![ObjectId::default(); n];
            kuuid::fill_object_id(&mut ids);
            ids.iter().map(|i| i.as_bytes().to_vec()).collect()
        }
        Source::Couch(a) => couch(a)
            .uuids(n)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(String::into_bytes)
            .collect(),
        Source::OrderJittered => {
            kuuid::order::n_keys_between_jittered(Some("a0"), Some("a1"), n, 64)
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(|k| k.into_string().into_bytes())
                .collect()
        }
        Source::Counter(c) => c.mint_bulk(n)?,
    })
}

/// What one process (or thread) minted: its ids, and the error that
/// stopped it, if any.
#[derive(Debug, Default)]
pub struct Minted {
    pub ids: Vec<Vec<u8>>,
    pub errors: Vec<String>,
}

impl Minted {
    fn take(&mut self, r: Result<Vec<Vec<u8>>, String>) {
        match r {
            Ok(ids) => self.ids.extend(ids),
            Err(e) => self.errors.push(e),
        }
    }

    /// `n` single ids on this thread (stops at the first error).
    pub fn singles(&mut self, src: Source, n: usize) {
        for _ in 0..n {
            match mint(src) {
                Ok(id) => self.ids.push(id),
                Err(e) => {
                    self.errors.push(e);
                    return;
                }
            }
        }
    }

    /// `n` ids in one bulk call.
    pub fn bulk(&mut self, src: Source, n: usize) {
        self.take(mint_bulk(src, n));
    }

    /// `n` single ids on a new thread, joined.
    pub fn on_a_thread(&mut self, src: Source, n: usize) {
        // Not std's threads: see `on_new_thread` (copies call this too).
        let other = crate::common::on_new_thread(move || {
            let mut m = Minted::default();
            m.singles(src, n);
            m
        });
        self.ids.extend(other.ids);
        self.errors.extend(other.errors);
    }

    pub fn extend(&mut self, other: Minted) {
        self.ids.extend(other.ids);
        self.errors.extend(other.errors);
    }
}

/// The keys of `ids` (see [`Source::key`]) that occur more than once.
pub fn repeats(src: Source, ids: &[Vec<u8>]) -> usize {
    let mut seen: HashMap<Vec<u8>, usize> = HashMap::with_capacity(ids.len());
    for id in ids {
        *seen.entry(src.key(id)).or_default() += 1;
    }
    seen.values().filter(|&&c| c > 1).count()
}

pub use crate::common::serial;

/// The cells: each returns every id minted by every process and thread of
/// the cell, and the errors of the processes that must refuse.
pub mod cells {
    use super::*;

    /// Two threads at once.
    pub fn threads(src: Source) -> Minted {
        let handles: Vec<_> = (0..2)
            .map(|_| {
                std::thread::spawn(move || {
                    let mut m = Minted::default();
                    m.singles(src, N);
                    m.bulk(src, N);
                    m
                })
            })
            .collect();
        let mut all = Minted::default();
        for h in handles {
            all.extend(h.join().unwrap());
        }
        all
    }

    /// What a child's first steps are, after the fork.
    #[derive(Clone, Copy, Debug)]
    pub enum First {
        /// (a) the forking thread mints first.
        ForkingThread,
        /// (b) another thread mints first, then the forking thread.
        OtherThread,
        /// (c) a bulk call first, then single ids on the forking thread.
        Bulk,
    }

    /// The child's work: `first`, then single ids on the forking thread
    /// (whose caches the parent filled).
    pub fn child_work(src: Source, first: First, reseed: bool) -> Minted {
        if reseed {
            kuuid::reseed();
        }
        let mut m = Minted::default();
        match first {
            First::ForkingThread => {}
            First::OtherThread => m.on_a_thread(src, N),
            First::Bulk => m.bulk(src, N),
        }
        m.singles(src, N);
        m
    }

    /// The parent fills this thread's caches, copies itself, and both go
    /// on with the same steps: what the parent mints after the copy is what
    /// a child that kept the parent's state would mint too.
    pub fn copy(src: Source, how: Copy, first: First) -> (Minted, Minted) {
        let mut parent = Minted::default();
        parent.singles(src, 3);
        let child = in_a_copy(how, || child_work(src, first, false));
        parent.extend(child_work(src, first, false));
        parent.bulk(src, N);
        (parent, child)
    }

    /// Two children of one parent, both running at once, each (a) then
    /// (b); then the parent the same.
    pub fn siblings(src: Source) -> (Minted, Vec<Minted>) {
        let mut parent = Minted::default();
        parent.singles(src, 3);
        let work = move || {
            let mut m = child_work(src, First::ForkingThread, false);
            m.on_a_thread(src, N);
            m
        };
        let a = start_copy(Copy::Fork, work);
        let b = start_copy(Copy::Fork, work);
        let kids = vec![wait_copy(a), wait_copy(b)];
        parent.extend(work());
        (parent, kids)
    }

    /// The wall clock steps back mid-run, first by 1.5 s (so the clock
    /// reads seconds and milliseconds already used), then by an hour; a
    /// child forked after the first step mints too. Returns the parent's
    /// ids, the child's, and the parent's forking thread's single ids in
    /// the order minted (for the order check of ordered sources).
    #[cfg(feature = "__test-hooks")]
    pub fn clock_step_back(src: Source) -> (Minted, Vec<Minted>, Vec<Vec<u8>>) {
        let mut parent = Minted::default();
        let mut singles = Minted::default();
        singles.singles(src, N);
        parent.bulk(src, N);
        kuuid::__test_hooks::shift(-1_500);
        // N + 3: the thread's caches are part used when it forks.
        singles.singles(src, N + 3);
        let child = in_a_copy(Copy::Fork, || child_work(src, First::OtherThread, false));
        parent.on_a_thread(src, N);
        kuuid::__test_hooks::shift(-3_600_000);
        singles.singles(src, N);
        parent.bulk(src, N);
        parent.on_a_thread(src, N);
        kuuid::__test_hooks::shift(0);
        singles.singles(src, N);
        let order = singles.ids.clone();
        parent.extend(singles);
        (parent, vec![child], order)
    }

    /// Two restored copies of one snapshot (children of a parent whose fork
    /// guard is off, as a VM clone's would be): each calls `reseed()` or
    /// not, then mints on the thread the snapshot was taken on, on another
    /// thread, and in bulk.
    pub fn restored_clones(src: Source, reseed: bool) -> (Minted, Vec<Minted>) {
        let mut parent = Minted::default();
        parent.singles(src, 3);
        let work = move || {
            let mut m = child_work(src, First::ForkingThread, reseed);
            m.on_a_thread(src, N);
            m.bulk(src, N);
            m
        };
        let a = start_copy(Copy::Fork, work);
        let b = start_copy(Copy::Fork, work);
        (parent, vec![wait_copy(a), wait_copy(b)])
    }
}
