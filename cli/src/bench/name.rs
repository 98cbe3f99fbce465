//! The figures' names, spelled in one place: a figure is pushed and looked
//! up (for a ratio, a baseline) by the same value, so a renamed figure
//! cannot silently lose its ratio.

use std::fmt;

use kuuid::couch::Algorithm;
use kuuid::engine::Isa;

/// One figure of `kuuid bench`. Its text (`fill/avx2/aes-ctr`,
/// `threads/avx2/id/2`) is the stable key in the table, the JSON and a
/// baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    /// 32-byte stores into a buffer of half the L1 data cache.
    StoreL1,
    /// 32-byte stores into a buffer of half the L2: the per-id rows'
    /// denominator.
    StoreL2,
    /// 32-byte stores into a buffer of half the L3.
    StoreL3,
    /// 32-byte stores into a DRAM-sized buffer.
    StoreDram,
    /// An RNG alone (its name), 16 bytes an item.
    Rng(&'static str),
    /// A millisecond clock read: a part of `id()`, not a bound on a row
    /// (until issue 63 named `limit/clock/millis`).
    ClockMillis,
    /// Bulk `fill` on a path with an RNG.
    Fill(Isa, &'static str),
    /// The CLI's line writer on a path with an RNG.
    Lines(Isa, &'static str),
    /// Decoding newline-separated ids on a path.
    Decode(Isa),
    /// `Kuuid::parse_many` (the process's path only).
    ParseMany(Isa),
    /// `kuuid::id()` one at a time.
    Id(Isa),
    /// `kuuid::id()` with the ticker running.
    IdTicker(Isa),
    V7Single,
    V7BulkText,
    ObjectIdSingle,
    ObjectIdBulkText,
    UlidSingle,
    UlidBulkText,
    /// `Ulid::parse_many` of the bulk row's texts.
    UlidParseMany,
    KsuidSingle,
    KsuidBulkText,
    /// One of CouchDB's algorithms, one id at a time.
    Couch(Algorithm),
    /// Bulk `fill` on this many threads at once.
    ThreadsFill(Isa, usize),
    /// `kuuid::id()` on this many threads at once.
    ThreadsId(Isa, usize),
}

/// A figure's former name, as saved runs (a `--baseline`) may hold it.
pub fn former(name: &str) -> Option<&'static str> {
    match name {
        "clock/millis" => Some("limit/clock/millis"),
        _ => None,
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Name::StoreL1 => f.write_str("limit/store/l1"),
            Name::StoreL2 => f.write_str("limit/store/l2"),
            Name::StoreL3 => f.write_str("limit/store/l3"),
            Name::StoreDram => f.write_str("limit/store/dram"),
            Name::Rng(rng) => write!(f, "limit/rng/{rng}"),
            Name::ClockMillis => f.write_str("clock/millis"),
            Name::Fill(isa, rng) => write!(f, "fill/{isa}/{rng}"),
            Name::Lines(isa, rng) => write!(f, "lines/{isa}/{rng}"),
            Name::Decode(isa) => write!(f, "decode/{isa}"),
            Name::ParseMany(isa) => write!(f, "parse_many/{isa}"),
            Name::Id(isa) => write!(f, "id/{isa}"),
            Name::IdTicker(isa) => write!(f, "id+ticker/{isa}"),
            Name::V7Single => f.write_str("v7/single"),
            Name::V7BulkText => f.write_str("v7/bulk-text"),
            Name::ObjectIdSingle => f.write_str("objectid/single"),
            Name::ObjectIdBulkText => f.write_str("objectid/bulk-text"),
            Name::UlidSingle => f.write_str("ulid/single"),
            Name::UlidBulkText => f.write_str("ulid/bulk-text"),
            Name::UlidParseMany => f.write_str("ulid/parse_many"),
            Name::KsuidSingle => f.write_str("ksuid/single"),
            Name::KsuidBulkText => f.write_str("ksuid/bulk-text"),
            Name::Couch(a) => write!(f, "couch/{a}"),
            Name::ThreadsFill(isa, t) => write!(f, "threads/{isa}/fill/{t}"),
            Name::ThreadsId(isa, t) => write!(f, "threads/{isa}/id/{t}"),
        }
    }
}
