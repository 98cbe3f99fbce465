//! The matrix's rows in kuuid-sequence's tests: a `Sequence` over each
//! store, run through kuuid's cells (`tests/support/matrix.rs`, whose id
//! rows kuuid's own tests run).

use std::sync::OnceLock;

use kuuid_sequence::{BlockSource, Counter as Store, Sequence};

use crate::matrix::{Copy, Source};

/// One counter row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// `Sequence` over `MemoryCounters`: a copy of the process has a copy
    /// of the counters, so it must refuse, not repeat.
    Memory,
    /// `Sequence` over a SQLite file.
    #[cfg(feature = "sqlite")]
    Sqlite,
    /// `Sequence` over the PostgreSQL of `KUUID_PG_URL`.
    #[cfg(feature = "postgres")]
    Postgres,
}

/// The rows: every store this build has (PostgreSQL only with a server).
pub fn sources() -> Vec<Source> {
    #[allow(unused_mut)] // without the database features
    let mut v = vec![Source::Counter(Counter::Memory)];
    #[cfg(feature = "sqlite")]
    v.push(Source::Counter(Counter::Sqlite));
    #[cfg(feature = "postgres")]
    // Without a server, `address` says why the row is skipped.
    if crate::server::address("KUUID_PG_URL").is_some() {
        v.push(Source::Counter(Counter::Postgres));
    }
    v
}

type Seq<S> = Sequence<Store<S>>;

fn memory() -> &'static Seq<kuuid_sequence::MemoryCounters> {
    static S: OnceLock<Seq<kuuid_sequence::MemoryCounters>> = OnceLock::new();
    S.get_or_init(|| {
        let c = Store::new(kuuid_sequence::MemoryCounters::new(), "matrix");
        Sequence::new(c, 100).unwrap()
    })
}

/// As users run it: the prefetch thread leases in the background, so a
/// copy may be made while it is inside SQLite (see [`Counter::may_refuse`]).
#[cfg(feature = "sqlite")]
fn sqlite() -> &'static Seq<kuuid_sequence::SqliteCounters> {
    static S: OnceLock<Seq<kuuid_sequence::SqliteCounters>> = OnceLock::new();
    S.get_or_init(|| {
        let path = crate::matrix::scratch_dir().join("counters.sqlite");
        let store = kuuid_sequence::SqliteCounters::open(path).unwrap();
        Sequence::new(Store::new(store, "matrix"), 500).unwrap()
    })
}

#[cfg(feature = "postgres")]
fn postgres() -> &'static Seq<kuuid_sequence::PostgresCounters> {
    static S: OnceLock<Seq<kuuid_sequence::PostgresCounters>> = OnceLock::new();
    S.get_or_init(|| {
        let url = crate::server::address("KUUID_PG_URL").unwrap();
        let store = kuuid_sequence::PostgresCounters::connect(&url).unwrap();
        // A name per run: the table outlives the test.
        let name = format!("matrix-{}-{}", std::process::id(), kuuid::id());
        Sequence::new(Store::new(store, name), 500).unwrap()
    })
}

fn value(v: Result<u64, kuuid_sequence::Error>) -> Result<Vec<u8>, String> {
    v.map(|v| v.to_be_bytes().to_vec())
        .map_err(|e| e.to_string())
}

fn fill<S: BlockSource>(seq: &Sequence<S>, n: usize) -> Result<Vec<Vec<u8>>, String> {
    let mut v = vec![0u64; n];
    seq.fill(&mut v).map_err(|e| e.to_string())?;
    Ok(v.iter().map(|x| x.to_be_bytes().to_vec()).collect())
}

impl Counter {
    /// Whether a copy of the process (a fork, a restored clone) must get
    /// an error instead of values.
    pub fn refuses_in_a_copy(self) -> bool {
        self == Counter::Memory
    }

    /// The error a copy made by `how` may get instead of values, though
    /// the row does not refuse every copy: SQLite's `CopiedMidCall` when a
    /// raw clone (which runs no fork handler, so nothing waits) copies the
    /// prefetch thread inside SQLite.
    pub fn may_refuse(self, how: Copy) -> Option<&'static str> {
        #[cfg(feature = "sqlite")]
        if self == Counter::Sqlite && how == Copy::RawClone {
            return Some(
                "this process was copied (fork or clone) while its parent was inside a SQLite call",
            );
        }
        let _ = how;
        None
    }

    /// Whether the row keeps its state in a database, which a process can
    /// close and open again (the reopen cells).
    pub fn has_a_store(self) -> bool {
        self != Counter::Memory
    }

    /// One value, as big-endian bytes.
    pub fn mint(self) -> Result<Vec<u8>, String> {
        match self {
            Counter::Memory => value(memory().next()),
            #[cfg(feature = "sqlite")]
            Counter::Sqlite => value(sqlite().next()),
            #[cfg(feature = "postgres")]
            Counter::Postgres => value(postgres().next()),
        }
    }

    /// `n` values in one `fill`.
    pub fn mint_bulk(self, n: usize) -> Result<Vec<Vec<u8>>, String> {
        match self {
            Counter::Memory => fill(memory(), n),
            #[cfg(feature = "sqlite")]
            Counter::Sqlite => fill(sqlite(), n),
            #[cfg(feature = "postgres")]
            Counter::Postgres => fill(postgres(), n),
        }
    }
}
