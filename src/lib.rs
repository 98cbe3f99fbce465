//! Time-sortable unique document ids, byte-compatible with the npm package
//! [`kuuid`](https://www.npmjs.com/package/kuuid).
//!
//! A kuuid is 32 characters of base62 (`0-9A-Za-z`, in ASCII order): 8
//! characters of seconds since 1970, then 128 random bits as four 6-character
//! groups. Because the alphabet is in ASCII order and every field has a fixed
//! width, ids sort by byte in the order they were minted, so a database keyed
//! by them (CouchDB, Cloudant, MongoDB `_id`) keeps its B-tree appending at the
//! right edge, and the primary index alone answers "the newest documents".
//!
//! ```
//! let id = kuuid::id();                    // now, seconds, oldest first
//! assert_eq!(id.as_str().len(), 32);
//!
//! let old = kuuid::id_at("2018-01-01T00:00:00Z")?;
//! assert_eq!(&old.as_str()[..8], "001eVnWK");
//! assert!(old < id);                       // byte order is time order
//!
//! // Reading back needs the layout the id was minted with.
//! assert_eq!(old.timestamp(kuuid::Layout::SECONDS).to_string(), "2018-01-01T00:00:00Z");
//! # Ok::<(), kuuid::TimeError>(())
//! ```
//!
//! The free functions (npm's names) use a generator kept per thread, seeded
//! once from the OS, on the secure RNG (AES-128-CTR, or ChaCha12 on CPUs
//! without AES instructions). For bulk work use a [`Generator`] of your own,
//! or [`fill`]. They panic only if the OS refuses randomness when a thread
//! first mints (a working Linux, macOS or Windows never does);
//! [`Generator::new`] returns that error instead.
//!
//! | npm | here | prefix | groups |
//! |---|---|---|---|
//! | `id()` | [`id`], [`id_at`] | seconds | 4 |
//! | `idms()` | [`idms`], [`idms_at`] | milliseconds | 4 |
//! | `idr()` | [`idr`], [`idr_at`] | seconds, newest first | 4 |
//! | `idmsr()` | [`idmsr`], [`idmsr_at`] | milliseconds, newest first | 4 |
//! | `ids()` | [`ids`], [`ids_at`] | seconds | 2 |
//! | `idsr()` | [`idsr`], [`idsr_at`] | seconds, newest first | 2 |
//! | `prefix()` ... | [`prefix`], [`prefixms`], [`prefix_reverse`], [`prefix_reverse_ms`] | | |
//! | `rand()` | [`rand`], [`try_rand`] | | 4 |
//! | `id({...})` | [`Options`] | any | 1 to 4 |
//!
//! # Every id kind
//!
//! | kind | mint | value type | text |
//! |---|---|---|---|
//! | kuuid (npm's) | [`id`], [`fill`], [`Generator`] | [`Kuuid`] and shorter [`Id`]s | 32 base62 characters |
//! | UUIDv7 (npm kuuid 3.x `v7`, `v7s`) | [`v7`], [`v7s`], [`fill_v7`], [`V7Generator`], [`V7GeneratorAt`] | [`Uuid7`], [`Simple`] | 36 with dashes, or 32 hex |
//! | MongoDB ObjectId | [`object_id`], [`fill_object_id`] | [`ObjectId`] | 24 hex |
//! | CouchDB `/_uuids` (`random`, `sequential`, `utc_random`, `utc_id`, `uuid_v4`, `uuid_v7`); feature `couch` | [`couch::Uuids`] | text | as CouchDB writes them |
//!
//! ```
//! let v7 = kuuid::v7();                    // strictly increasing in the process
//! assert!(v7 < kuuid::v7());
//! assert_eq!(v7.hyphenated_bytes().len(), 36);
//!
//! let oid = kuuid::object_id();            // 4 bytes of seconds, 8 of process and counter
//! assert_eq!(oid.hex_bytes().len(), 24);
//!
//! # #[cfg(feature = "couch")] {
//! let couch = kuuid::couch::Uuids::new(kuuid::couch::Algorithm::Sequential); // feature `couch`
//! assert_eq!(couch.generate()?.len(), 32);
//! # }
//! # Ok::<(), kuuid::Error>(())
//! ```
//!
//! # Which id for what
//!
//! | you key | mint with | column type | why |
//! |---|---|---|---|
//! | rows loaded in bulk (many ids a second), any B-tree | [`idms_monotonic`] or [`v7`], **not** [`id`] | as below | [`id`] is random within its second: 10^6 ids minted in one second load as UUIDv4s do (SQLite: 20.9-29.7x an integer key) |
//! | CouchDB / Cloudant `_id`, documents written over time | [`id`] (npm's format), or [`idms_monotonic`] for exact newest-first order across the process's threads | the `_id` string | `_all_docs` orders ids by raw bytes: the key answers time ranges and "newest" |
//! | a PostgreSQL primary key | [`v7`] | `uuid` | 0.99x an integer key's insert time at 10^7 rows (UUIDv4: 5.3x); compares by bytes whatever the collation |
//! | a SQLite key | [`v7`] | `BLOB` (16 bytes) | 1.27x an integer key (UUIDv4: 21.6x) |
//! | MongoDB `_id` | [`object_id`] | ObjectId | MongoDB's own type and order |
//! | keys another system already mints | `ulid()`, `typeid(prefix)`, `ksuid()` (features `ulid`, `typeid`, `ksuid`) | `uuid`/`BLOB`, text, `bytea`/`BLOB` | the references' text (differential tests); ULIDs and TypeIDs ordered across the process as [`v7`] |
//! | an ordered list | [`order::key_between`] (feature `order`) | text, binary collation | a move writes one item |
//! | numbers people read | [`kuuid_sequence::Sequence`](../kuuid_sequence/struct.Sequence.html) (crate kuuid-sequence, this repository's `sequence/`) | integer | never repeats across processes and crashes |
//!
//! The figures are the README's B-tree measurements (`benches/btree.rs`).
//! Text kuuids keep time order only under a byte-order collation
//! (`COLLATE "C"`, SQLite's `BINARY`).
//!
//! Every source stays unique across threads, `fork()` and (after
//! [`reseed`]) restored VM snapshots. Feature-gated items (CouchDB's
//! algorithms, order keys, database types, serde, `uuid`, `bson`, `jiff`,
//! `chrono` and `time` interop) are marked with the feature they need.
//!
//! # Features
//!
//! | feature | what it adds |
//! |---|---|
//! | (none) | kuuids, UUIDv7, ObjectIds: minting, bulk fills, parsing, time ranges; [`process`] |
//! | `couch` | [`couch`]: CouchDB's six `/_uuids` algorithms, minted and decoded |
//! | `order` | [`order`]: order keys between keys (npm `fractional-indexing`'s) |
//! | `serde` | every id type as text in human-readable formats and bytes in binary ones; `serde::as_str`, `serde::any` |
//! | `uuid` | [`Uuid7`] to and from `uuid::Uuid` |
//! | `bson` | [`ObjectId`] to and from `bson::oid::ObjectId` |
//! | `jiff` | [`Timestamp`] to and from `jiff::Timestamp` |
//! | `chrono` | [`Timestamp`] to and from `chrono::DateTime` |
//! | `time` | [`Timestamp`] to and from `time::OffsetDateTime` |
//! | `rusqlite` | `ToSql`/`FromSql` for every id type (SQLite linked as your own `rusqlite` line says: this feature builds none) |
//! | `js` | wasm32-unknown-unknown under JavaScript: `Date.now()` and `crypto.getRandomValues` |
//! | `postgres-types` | `ToSql`/`FromSql` for postgres and tokio-postgres |
//! | `sqlx-postgres`, `sqlx-sqlite` | sqlx `Type`/`Encode`/`Decode` |
//! | `internals` | not for minting: the engine per path (`engine::encode_with`, ...), the clock's parts, for kuuid's own benches, fuzz targets and tests (the CLI does without); no stability promise |
//!
//! # Names
//!
//! One spelling for one thing, across every id kind:
//!
//! - **Minting**: free functions say the kind (`id`, `v7`, `object_id`); a
//!   generator's method is `generate` ([`Generator::generate`],
//!   [`V7Generator::generate`], [`couch::Uuids::generate`]); a counter's
//!   `next` (kuuid-sequence) hands out numbers, not ids.
//! - **At a time**: `_at` ([`id_at`], [`Generator::at`], [`Options::at`]).
//! - **Fallible twin**: `try_` and nothing else ([`try_rand`],
//!   [`Generator::try_generate_id`]).
//! - **Many at once**: `fill_` plus the function it batches ([`fill_v7`],
//!   [`fill_object_id`]); `_many` encodes or parses a batch of texts.
//! - **Text into a caller's buffer**: `encode_<form>` writes into the front
//!   of the buffer and returns the text as `&mut str`, as uuid's do: a
//!   `&mut [u8; N]` where the form has one length (no error possible,
//!   [`Uuid7::encode_hyphenated`]), a slice and a `Result` otherwise
//!   ([`Kuuid::encode_to`]). `_into` appends to a growable `String` or
//!   `Vec<u8>` ([`couch::Uuids::generate_into`]); `_bytes` returns the text
//!   as an array ([`Uuid7::hyphenated_bytes`]).
//! - **Errors**: a module's error for all its calls is its `Error`
//!   ([`Error`], [`couch::Error`]), an error of one
//!   kind of input `<What>Error` ([`ParseError`], [`order::OrderKeyError`]);
//!   every one converts into [`Error`]. A fault has one shape wherever it
//!   occurs: a wrong length is `Length { expected, found }` (`expected`
//!   the lengths the format takes), a bad byte `InvalidByte { index, byte
//!   }`, a short buffer `BufferTooSmall { needed, found }`.
//!
//! # Guides
//!
//! The repository's guides are pages here too (module `guide`, in the
//! documentation only): [id formats and the library](guide::formats),
//! [databases and the B-tree effect](guide::databases), [order
//! keys](guide::order_keys), [threads and fork](guide::concurrency),
//! [performance](guide::performance), [the command line](guide::cli),
//! [what differs from npm kuuid](guide::npm), [tests and CI](guide::testing).
//! The counters' guide is kuuid-sequence's:
//! [`kuuid_sequence::guide::counters`](../kuuid_sequence/guide/counters/index.html).
//!
//! # Install
//!
//! Not on crates.io yet (a `cargo add kuuid` would fetch nothing, or
//! someone else's crate): from a checkout, or from the repository by git.
//!
//! ```sh
//! git clone <this repository> kuuid
//! cargo add --path ../kuuid                       # in your project
//! cargo add --path ../kuuid --features serde,uuid  # with integrations
//! cargo add --git <this repository> kuuid         # without a checkout
//! cargo install --path kuuid/cli --locked         # the `kuuid` command
//! ```
//!
//! Links to kuuid-sequence's pages are relative: they work where both
//! crates' docs are built together (`cargo doc` in the repository), until
//! the first release gives them addresses.

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The module map, top layer first; a module imports only modules below it
// (`tests/library/structure.rs` checks the engine's and the errors' floors).
//
//   lib.rs          re-exports, the test and fuzz hooks, the guides
//   functions.rs    the free functions (npm's names), on local.rs
//   external/       integrations with other crates (serde, databases, ...)
//   formats/        UUIDv7, ObjectId, CouchDB's ids, ordered kuuids
//   order/          order keys (fractional indexing)
//   options.rs      npm's `id(options)`
//   local.rs        the per-thread generator behind the free functions
//   generator/      `Generator`: an RNG, a layout and a clock, in batches
//   kuuid/          npm's format: the value types (id/), prefix layouts,
//                   key ranges, the monotonic walk, line parsing
//   error/          every error type, and the umbrella `Error`
//   process.rs      the process token and the fork-aware lock, public for
//                   kuuid-sequence (which lives in ../sequence)
//   rng/, clock/, time/
//                   randomness, "now", timestamps
//   sys/            the OS: cheap clocks, the words a fork must not inherit,
//                   the test clock
//   parse/, word.rs strict text decoding; lock-free words
//   engine/, owner.rs
//                   base62 and hex codecs (SIMD per ISA); a fork-aware lock

pub mod clock;
pub mod engine;
mod error;
mod external;
mod formats;
mod functions;
mod generator;
mod kuuid;
mod local;
mod options;
#[cfg(feature = "order")]
pub mod order;
mod owner;
mod parse;
pub mod process;
mod rng;
mod sys;
mod time;
mod word;

/// Serde adapters for ids (feature `serde`): `#[serde(with =
/// "kuuid::serde::as_str")]` writes text in every format, `any` reads text
/// or bytes from self-describing ones, `braced` and `urn` write a
/// [`Uuid7`] field as those texts (as uuid's modules of those names). The
/// plain `Serialize`/`Deserialize` impls need no adapter.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Doc {
///     #[serde(with = "kuuid::serde::as_str")]
///     _id: kuuid::Uuid7,
/// }
/// let json = serde_json::to_string(&Doc { _id: kuuid::Uuid7::MIN }).unwrap();
/// assert_eq!(json, r#"{"_id":"00000000-0000-7000-8000-000000000000"}"#);
/// ```
#[cfg(feature = "serde")]
pub mod serde {
    pub use crate::external::serde::{IdText, any, as_str, braced, urn};
}

/// The fork token's protocol and the claims on the process words (UUIDv7,
/// ObjectId, CouchDB `sequential` and `utc_*`), for the loom models in
/// `loom-tests/` only.
#[cfg(loom)]
#[doc(hidden)]
pub mod __loom {
    #[cfg(feature = "couch")]
    pub use crate::formats::couch::{
        claim_sequential as couch_sequential_claim, claim_utc as couch_utc_claim,
    };
    pub use crate::formats::kuuid_ordered::parts as kuuid_ordered_parts;
    pub use crate::formats::objectid::{claim as object_id_claim, reseed_word as object_id_reseed};
    pub use crate::formats::sequence::claim as v7_claim;
    pub use crate::rng::fork::{TokenWord, replace_token, token_of};
    pub use crate::word::Word64;
    #[cfg(feature = "couch")]
    pub use crate::word::Word128;
}

#[cfg(feature = "couch")]
pub use formats::couch;

pub use self::kuuid::id::{
    AnyKuuid, Id, Kuuid, Kuuid1, Kuuid3, MAX_GROUPS, RandomPart, RandomWords, ShortKuuid,
};
pub use self::kuuid::layout::{Layout, Prefix, TimeOrder};
pub use self::kuuid::lines::{ParseLines, ParsedLine, parse_lines};
pub use self::kuuid::range::{KeyRange, PrefixedKeyRange};
pub use error::Error;
#[cfg(feature = "ksuid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ksuid")))]
pub use formats::ksuid::Ksuid;
pub use formats::objectid::ObjectId;
#[cfg(feature = "typeid")]
#[cfg_attr(docsrs, doc(cfg(feature = "typeid")))]
pub use formats::typeid::{TypeId, TypeIdGenerator, TypeIdPrefix};
#[cfg(feature = "ulid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ulid")))]
pub use formats::ulid::{Ulid, UlidGenerator};
pub use formats::v7::{Braced, Simple, Urn, Uuid7, V7Generator, V7GeneratorAt};
pub use generator::Generator;
pub use options::Options;
#[cfg(feature = "ksuid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ksuid")))]
pub use parse::KsuidParseError;
#[cfg(feature = "typeid")]
#[cfg_attr(docsrs, doc(cfg(feature = "typeid")))]
pub use parse::TypeIdParseError;
#[cfg(feature = "ulid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ulid")))]
pub use parse::UlidParseError;
pub use parse::{ManyError, ObjectIdParseError, ParseError, UuidParseError};
pub use rng::RngKind;
pub use time::{IntoTimestamp, Precision, TimeError, TimeField, Timestamp};

pub use functions::*;

/// Fuzz-only: the secure RNG's AES-128-CTR stream for `seed` (key,
/// nonce, first counter as the RNG reads them) with the first counter
/// replaced by `counter`, drawn on `isa`'s path in requests of `sizes`
/// words, concatenated. `None` where the CPU lacks AES instructions or the
/// path. For `fuzz/fuzz_targets/aes_ctr.rs` (feature `internals`); not
/// part of the API.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub fn __aes_ctr_stream(
    isa: engine::Isa,
    seed: &[u8; 32],
    counter: u64,
    sizes: &[usize],
) -> Option<Vec<u32>> {
    if !isa.is_supported() {
        return None;
    }
    let mut seed = *seed;
    seed[24..].copy_from_slice(&counter.to_le_bytes());
    rng::aes_ctr_stream(isa, &seed, sizes)
}

/// Test-only (feature `__test-hooks`, not part of the API): the crate's
/// own tests step the wall clock every id source reads, as an NTP step or a
/// restored snapshot would, turn the fork guard off for their negative
/// controls. Never enable the feature
/// outside them.
#[cfg(feature = "__test-hooks")]
#[doc(hidden)]
pub mod __test_hooks {
    /// Turns off fork detection for this process, so a child repeats its
    /// parent's ids (the negative control of the fork tests), and a SQLite
    /// store's copy keeps the connections it inherited. Works only before
    /// the first id; returns whether it took effect.
    pub fn disable_fork_guard() -> bool {
        crate::sys::disable_fork_guard()
    }

    /// Whether [`disable_fork_guard`] was called (kuuid-sequence's own
    /// test hooks read it, for their negative controls).
    pub fn fork_guard_disabled() -> bool {
        crate::sys::fork_guard_disabled()
    }

    /// CouchDB `sequential` takes its locked path (the one for CPUs
    /// without a 128-bit compare-and-swap) whatever this CPU has.
    #[cfg(feature = "couch")]
    pub fn force_locked_couch_sequential(on: bool) {
        crate::word::FORCE_LOCKED.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Holds the lock of CouchDB `sequential`'s locked path until the guard
    /// drops, as a thread inside a claim would.
    #[cfg(feature = "couch")]
    pub fn hold_couch_sequential_lock() -> impl Drop {
        crate::sys::process_words().couch_sequential.hold_lock()
    }

    /// Moves the clock `ms` from the real time (negative: back; 0: real).
    pub fn shift(ms: i64) {
        crate::sys::test_clock::shift(ms);
    }

    /// Holds the clock at `ms` since 1970 (`None`: it runs again).
    pub fn freeze(ms: Option<u64>) {
        crate::sys::test_clock::freeze(ms);
    }
}

/// The guides' links, for these pages: each guide links to the others and
/// to the README with reference labels it defines at its end for the
/// repository (`[readme]: ../README.md`); these definitions come first on
/// each page here, and the first definition of a label wins (CommonMark),
/// so the same text links to the repository's files on GitHub and to these
/// pages here. (The guides' own definitions go unused on these pages.)
#[cfg(doc)]
macro_rules! guide_links {
    () => {
        "[readme]: ../../index.html\n\
         [concurrency-guide]: ../concurrency/index.html\n\
         [order-guide]: ../order_keys/index.html\n\
         [databases-guide]: ../databases/index.html\n"
    };
}

/// The guides: the repository's `docs/` pages, shown here as they read on
/// GitHub (their examples run as doctests). Links between guides go to
/// these pages, and the B-tree charts are drawn in place (each an SVG in a
/// `data:` URI: docs.rs serves no file of the repository).
#[cfg(doc)]
pub mod guide {
    #[doc = guide_links!()]
    #[doc = include_str!("../docs/formats.md")]
    pub mod formats {}
    #[doc = guide_links!()]
    #[doc = concat!(
        "[btree-sqlite]: data:image/svg+xml;base64,",
        include_str!("../docs/btree-sqlite.svg.b64"),
        "\n[btree-postgres]: data:image/svg+xml;base64,",
        include_str!("../docs/btree-postgres.svg.b64"),
        "\n"
    )]
    #[doc = include_str!("../docs/databases.md")]
    pub mod databases {}
    #[doc = guide_links!()]
    // The types the guide names, as links to their pages (on GitHub the
    // guide's own definitions, later in the text, link their source).
    #[doc = "[`OrderKey`]: crate::order::OrderKey\n\
             [`OrderKeyRef`]: crate::order::OrderKeyRef\n\
             [`OrderKeyError`]: crate::order::OrderKeyError\n\
             [`OrderError`]: crate::order::OrderError\n\
             [`KeyBuf`]: crate::order::KeyBuf\n"]
    #[doc = include_str!("../docs/order.md")]
    pub mod order_keys {}
    #[doc = guide_links!()]
    #[doc = include_str!("../docs/concurrency.md")]
    pub mod concurrency {}
    #[doc = guide_links!()]
    #[doc = include_str!("../docs/performance.md")]
    pub mod performance {}
    #[doc = guide_links!()]
    #[doc = include_str!("../docs/cli.md")]
    pub mod cli {}
    #[doc = guide_links!()]
    #[doc = include_str!("../docs/npm.md")]
    pub mod npm {}
    #[doc = guide_links!()]
    #[doc = include_str!("../docs/testing.md")]
    pub mod testing {}
}

/// The README's and the guides' examples, compiled and run as doctests so
/// they stay true (with every feature: the test command's).
#[cfg(all(
    doctest,
    feature = "couch",
    feature = "order",
    feature = "rusqlite",
    feature = "serde",
    feature = "uuid"
))]
mod guide_doctests {
    #[doc = include_str!("../README.md")]
    pub struct Readme;
    #[doc = include_str!("../docs/formats.md")]
    pub struct Formats;
    #[doc = include_str!("../docs/databases.md")]
    pub struct Databases;
    #[doc = include_str!("../docs/cli.md")]
    pub struct Cli;
    #[doc = include_str!("../docs/performance.md")]
    pub struct Performance;
    #[doc = include_str!("../docs/concurrency.md")]
    pub struct Concurrency;
    #[doc = include_str!("../docs/order.md")]
    pub struct OrderKeys;
    #[doc = include_str!("../docs/npm.md")]
    pub struct Npm;
    #[doc = include_str!("../docs/testing.md")]
    pub struct Testing;
}
