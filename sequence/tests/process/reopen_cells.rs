//! The matrix's reopen cells (`tests/support/reopen.rs`), for the rows
//! with a store: the parent closes and opens its store again after a fork,
//! or a new process opens it; no value repeats.
#![cfg(all(target_os = "linux", any(feature = "sqlite", feature = "postgres")))]

use crate::matrix::{self, Minted};
use crate::reopen::{self, Reopen};
use crate::uniqueness::{check, run};

fn reopen_cell(cell: &str, how: Reopen) {
    run(cell, |src| {
        let (p, copies) = reopen::reopen(src, how, matrix::scratch_dir())?;
        let refs: Vec<&Minted> = copies.iter().collect();
        check(src, &p, &refs)
    });
}

#[test]
fn the_parent_reopens_its_store_after_a_fork() {
    reopen_cell("parent reopens", Reopen::InTheParent);
}

#[test]
fn a_new_process_opens_the_store_after_a_fork() {
    reopen_cell("new process opens", Reopen::ByANewProcess);
}
