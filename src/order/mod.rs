//! Order keys: base62 strings that sort between any two others, for lists
//! whose items are separate documents (fractional indexing).
//!
//! CouchDB's guide to designing for replication keeps an ordered list as
//! one document per item, each holding a string index "which can grow as
//! the tree is subdivided": moving or inserting an item writes that item
//! alone, so two replicas editing different items never conflict. These
//! are those strings, byte-identical to npm `fractional-indexing` 4.0.0
//! (`generateKeyBetween`, `generateNKeysBetween`) on its default digits,
//! which are ours: `0-9A-Za-z` in ASCII order. Feature `order`.
//!
//! A key is an integer part, a head letter giving its length (`a0`..`az`,
//! then `b00`..`bzz`, ...; `Zz`, `Zy`, ... below `a0`), and an optional
//! fraction that never ends in `0`. Keys sort by byte.
//!
//! ```
//! use kuuid::order::{key_between, n_keys_between};
//!
//! let first = key_between(None, None)?;                      // a0
//! let second = key_between(Some(first.as_str()), None)?;      // a1
//! let between = key_between(Some("a0"), Some("a1"))?;         // a0V
//! assert!(first < between && between < second);
//! let three = n_keys_between(Some("a0"), Some("a1"), 3)?;     // a0G a0V a0l
//! assert_eq!(three[1], between);
//! # Ok::<(), kuuid::order::OrderError>(())
//! ```
//!
//! Two replicas that insert between the same neighbours while apart mint
//! the same plain key; the jittered forms ([`key_between_jittered`]) make
//! that a `2^-bits` chance. Keys grow by about one character per six
//! inserts in the same gap; [`rebalance`] gives the shortest evenly spaced
//! keys for a renumbering (read its note on replication first).
//!
//! Where npm lets bad input through, we refuse it with an
//! [`OrderError`]: bounds out of order (npm swaps them), bytes outside the
//! digits (npm reads them as `0`: `a0 ` is taken as `a0`), a fraction
//! ending in `0`.

mod between;
mod jitter;
mod jump;
mod key;
mod key_buf;
mod many;
mod out;
mod parts;
mod short_key;

pub use crate::error::order::{OrderError, OrderKeyError};
pub use between::key_between;
pub use jitter::{
    MAX_JITTER_BITS, key_between_jittered, n_keys_between_jittered, n_keys_between_jittered_into,
};
pub use key::{OrderKey, OrderKeyRef};
pub use key_buf::KeyBuf;
pub use many::{
    MAX_KEYS, key_between_into, n_keys_between, n_keys_between_into, rebalance, rebalance_into,
};
pub use parts::n_keys_between_part_into;
