//! The matrix's rows in kuuid's own tests: every id source, and no
//! counter (kuuid-sequence's tests run the same cells on its counters,
//! with rows of their own in `sequence/tests/support/rows.rs`).

use crate::matrix::{Copy, Source};

/// No counter row here: a value of this type cannot exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {}

impl Counter {
    pub fn refuses_in_a_copy(self) -> bool {
        match self {}
    }

    pub fn may_refuse(self, _how: Copy) -> Option<&'static str> {
        match self {}
    }

    pub fn has_a_store(self) -> bool {
        match self {}
    }

    pub fn mint(self) -> Result<Vec<u8>, String> {
        match self {}
    }

    pub fn mint_bulk(self, _n: usize) -> Result<Vec<Vec<u8>>, String> {
        match self {}
    }
}

/// The rows: every id source.
pub fn sources() -> Vec<Source> {
    crate::matrix::id_sources()
}
