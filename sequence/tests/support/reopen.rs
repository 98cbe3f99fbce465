//! The matrix's reopen cells, for the rows whose state lives in a database
//! (`Source::has_a_store`), run by `tests/process/reopen_cells.rs`: a parent leases and forks; the child leases;
//! the parent drops its sequence (closing its store) and then opens the
//! store again itself, or a new process (a fork of the parent once it holds
//! no store) opens it; everyone goes on leasing. What a database keeps per
//! process (SQLite's lock tables) must not make the copies repeat, whatever
//! the order of the closes.
#![allow(dead_code)]
#![cfg(any(feature = "sqlite", feature = "postgres"))]

use std::sync::Arc;

use kuuid_sequence::{Counter, CounterStore, Sequence};

use crate::common::Pipe;
use crate::matrix::{Copy, Minted, Source, start_copy, wait_copy};

/// Blocks of 10: many leases for few values.
const BLOCK: u64 = 10;

type StoreSeq = Sequence<Counter<Arc<dyn CounterStore>>>;

/// What the parent does once its child has leased.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reopen {
    /// Drops its sequence, opens the store again and leases on.
    InTheParent,
    /// Drops its sequence; a new process opens the store and leases.
    ByANewProcess,
}

/// A sequence over a store of `src` opened now, on the counter `name` (in
/// SQLite, the file `name.sqlite` in `dir`), in the default configuration
/// (a prefetch thread). `None` for sources without a store.
fn open(src: Source, name: &str, dir: &std::path::Path) -> Option<StoreSeq> {
    // Only SQLite's store has a file.
    let _ = dir;
    let store: Arc<dyn CounterStore> = match src {
        #[cfg(feature = "sqlite")]
        Source::Counter(crate::rows::Counter::Sqlite) => Arc::new(
            kuuid_sequence::SqliteCounters::open(dir.join(format!("{name}.sqlite"))).unwrap(),
        ),
        #[cfg(feature = "postgres")]
        Source::Counter(crate::rows::Counter::Postgres) => Arc::new(
            kuuid_sequence::PostgresCounters::connect(
                &crate::server::address("KUUID_PG_URL").unwrap(),
            )
            .unwrap(),
        ),
        _ => return None,
    };
    Some(Sequence::new(Counter::new(store, name), BLOCK).unwrap())
}

fn take(m: &mut Minted, seq: &StoreSeq, n: usize) {
    for _ in 0..n {
        match seq.next() {
            Ok(v) => m.ids.push(v.to_be_bytes().to_vec()),
            Err(e) => {
                m.errors.push(e.to_string());
                return;
            }
        }
    }
}

/// The cell; `None` for sources without a store. Returns the parent's
/// values (and the new process's) and the child's.
pub fn reopen(src: Source, how: Reopen, dir: &std::path::Path) -> Option<(Minted, Vec<Minted>)> {
    // A name per run: PostgreSQL's table outlives the test.
    let name = format!("reopen-{}-{}", std::process::id(), kuuid::id());
    let seq = open(src, &name, dir)?;
    let mut parent = Minted::default();
    take(&mut parent, &seq, 3);
    let (leased, go) = (Pipe::new(), Pipe::new());
    let child = start_copy(Copy::Fork, || {
        let mut m = Minted::default();
        take(&mut m, &seq, 25);
        leased.send(1);
        go.recv();
        take(&mut m, &seq, 40);
        m
    });
    leased.recv();
    drop(seq);
    let mut copies = Vec::new();
    match how {
        Reopen::InTheParent => {
            let again = open(src, &name, dir).unwrap();
            take(&mut parent, &again, 25);
            go.send(1);
            take(&mut parent, &again, 40);
        }
        Reopen::ByANewProcess => {
            let newcomer = start_copy(Copy::Fork, || {
                let mut m = Minted::default();
                let s = open(src, &name, dir).unwrap();
                take(&mut m, &s, 25);
                go.send(1);
                take(&mut m, &s, 40);
                m
            });
            copies.push(wait_copy(newcomer));
        }
    }
    copies.push(wait_copy(child));
    Some((parent, copies))
}
