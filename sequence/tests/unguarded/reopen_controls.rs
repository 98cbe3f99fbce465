//! The reopen cells' negative controls (`reopen_cells.rs` in the process
//! tests): with the fork guard off, a SQLite store's copies repeat.
#![cfg(all(target_os = "linux", any(feature = "sqlite", feature = "postgres")))]

use crate::common::guard_off;
use crate::matrix::{self, Minted, Source, repeats, serial};
use crate::reopen::{self, Reopen};
use crate::uniqueness_unguarded::{TRIES, all_ids};

/// The reopen cells' control: with the guard off, a SQLite store's copy
/// keeps the connections it inherited, and a connection it opens on the
/// same file takes no real lock; once the parent closes its own, the
/// copies repeat. (PostgreSQL keeps no such state in the process: its
/// copies cannot repeat there, guard or not.)
fn control_reopen(cell: &str, how: Reopen) {
    guard_off();
    let _one_at_a_time = serial();
    #[cfg(feature = "sqlite")]
    {
        let src = Source::Counter(crate::rows::Counter::Sqlite);
        let found = (0..TRIES).any(|_| {
            let (p, copies) = reopen::reopen(src, how, matrix::scratch_dir()).unwrap();
            let refs: Vec<&Minted> = copies.iter().collect();
            repeats(src, &all_ids(&p, &refs)) > 0
        });
        assert!(
            found,
            "{cell}: with the guard off, SQLite found no repeat in {TRIES} tries"
        );
    }
    let _ = (cell, how);
}

#[test]
fn controls_the_parent_reopens_its_store() {
    control_reopen("parent reopens", Reopen::InTheParent);
}

#[test]
fn controls_a_new_process_opens_the_store() {
    control_reopen("new process opens", Reopen::ByANewProcess);
}
