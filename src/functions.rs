//! The free functions: every id kind minted now on this thread's
//! generator (npm's names where npm has them), their `_at` twins at a
//! given time, the bulk fills, and [`reseed`]. Re-exported at the crate
//! root, where their documentation lives.

use crate::error::Error;
use crate::formats;
use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Simple, Uuid7};
use crate::generator;
use crate::kuuid::id::{Kuuid, MAX_GROUPS, RandomPart, ShortKuuid};
use crate::kuuid::layout::{Layout, Prefix};
use crate::local;
use crate::rng;
use crate::time::{IntoTimestamp, TimeError};

/// Defines an npm-named id function (now) and its `_at` twin (given time).
macro_rules! id_fns {
    ($($(#[$doc:meta])* $now:ident, $at:ident, $ty:ty, $layout:expr, $example:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// Minted now on this thread's secure generator.
        ///
        /// ```
        #[doc = concat!("let a = kuuid::", stringify!($now), "();")]
        #[doc = concat!("let b = kuuid::", stringify!($now), "();")]
        /// assert_ne!(a, b);
        #[doc = concat!("assert_eq!(a.as_str().len(), kuuid::", stringify!($ty), "::default().as_str().len());")]
        /// ```
        #[inline]
        pub fn $now() -> $ty {
            local::mint_now($layout)
        }

        $(#[$doc])*
        ///
        /// Minted at time `t` (RFC 3339 text, integer **milliseconds**
        /// since 1970 as npm's `Date.now()` gives them, `SystemTime`, a
        /// [`Timestamp`](crate::Timestamp): `Timestamp::from_secs` for seconds); fails before
        /// 1970 or past the prefix's range. `date +%s` seconds passed as a
        /// bare integer would mean January 1970.
        ///
        /// ```
        #[doc = concat!("let id = kuuid::", stringify!($at), "(\"2018-01-01T00:00:00Z\")?;")]
        #[doc = concat!("assert_eq!(&id.as_str()[..8], \"", $example, "\");")]
        /// // Integer milliseconds since 1970: a bare literal is a u64.
        #[doc = concat!("assert_eq!(kuuid::", stringify!($at), "(1514764800000)?.prefix(), id.prefix());")]
        #[doc = concat!("assert!(kuuid::", stringify!($at), "(\"1969-12-31T23:59:59Z\").is_err());")]
        /// # Ok::<(), kuuid::TimeError>(())
        /// ```
        pub fn $at(t: impl IntoTimestamp) -> Result<$ty, TimeError> {
            let prefix = $layout.prefix(t)?;
            Ok(local::mint(&prefix))
        }
    )*};
}

id_fns! {
    /// A 32-character id, seconds, oldest first (npm `id()`).
    id, id_at, Kuuid, Layout::SECONDS, "001eVnWK";
    /// A 32-character id, milliseconds, oldest first (npm `idms()`).
    idms, idms_at, Kuuid, Layout::MILLIS, "0QfQsjKa";
    /// A 32-character id, seconds, newest first (npm `idr()`).
    idr, idr_at, Kuuid, Layout::SECONDS_REVERSE, "zzyLUCTf";
    /// A 32-character id, milliseconds, newest first (npm `idmsr()`).
    idmsr, idmsr_at, Kuuid, Layout::MILLIS_REVERSE, "zZKZ7GfP";
    /// A 20-character id, seconds, oldest first (npm `ids()`, which is
    /// `id({timestamp, random: 2})`).
    ids, ids_at, ShortKuuid, Layout::SECONDS, "001eVnWK";
    /// A 20-character id, seconds, newest first (npm `idsr()`).
    idsr, idsr_at, ShortKuuid, Layout::SECONDS_REVERSE, "zzyLUCTf";
}

/// A UUIDv7 minted now (npm 3.x `v7()`, shown as 36 characters): strictly
/// after every other `v7()` in this process, on any thread, without a lock.
/// [`Uuid7`] has the layout, the counter and the clock.
///
/// ```
/// let a = kuuid::v7();
/// let b = kuuid::v7();
/// assert!(a < b);
/// assert_eq!(&a.to_string()[14..15], "7");
/// ```
#[inline]
pub fn v7() -> Uuid7 {
    formats::v7::now()
}

/// A UUIDv7 minted now, shown without dashes (npm 3.x `v7s()`, 32
/// characters).
///
/// ```
/// let s = kuuid::v7s().to_string();
/// assert_eq!(s.len(), 32);
/// assert_eq!(&s[12..13], "7");
/// assert!(matches!(&s[16..17], "8" | "9" | "a" | "b"));
/// ```
#[inline]
pub fn v7s() -> Simple {
    v7().simple()
}

/// A UUIDv7 at time `t` (RFC 3339 text, integer ms, `SystemTime`, ...;
/// milliseconds). Not ordered against other ids of the same millisecond.
///
/// ```
/// let id = kuuid::v7_at("2022-02-22T19:22:22Z")?;
/// assert_eq!(&id.to_string()[..13], "017f22e2-79b0");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
pub fn v7_at(t: impl IntoTimestamp) -> Result<Uuid7, TimeError> {
    formats::v7::at(t.into_timestamp()?)
}

/// [`v7_at`], shown without dashes (npm 3.x `v7s(t)`).
///
/// ```
/// assert_eq!(&kuuid::v7s_at(0u64)?.to_string()[..13], "0000000000007");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
pub fn v7s_at(t: impl IntoTimestamp) -> Result<Simple, TimeError> {
    v7_at(t).map(Uuid7::simple)
}

/// Fills a caller's slice with UUIDv7s minted now: strictly increasing
/// along the slice and after every UUIDv7 minted before in the process (one
/// atomic claim per 256 ids).
///
/// ```
/// let mut ids = vec![kuuid::Uuid7::MIN; 10_000];
/// kuuid::fill_v7(&mut ids);
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// ```
pub fn fill_v7(ids: &mut [Uuid7]) {
    formats::v7::fill_now(ids)
}

/// A ULID minted now: strictly after every other `ulid()` in this process,
/// on any thread, without a lock ([`Ulid`](crate::Ulid) says how; a forked
/// child starts its own sequence). Feature `ulid`.
///
/// ```
/// let a = kuuid::ulid();
/// let b = kuuid::ulid();
/// assert!(a < b);
/// assert_eq!(a.to_string().len(), 26);
/// ```
#[cfg(feature = "ulid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ulid")))]
#[inline]
pub fn ulid() -> crate::Ulid {
    formats::ulid::now()
}

/// A ULID at time `t` (RFC 3339 text, integer ms, `SystemTime`, ...): 80
/// random bits after it, no order within the millisecond (the spec's
/// `ulid(time)`); fails before 1970 and past 2^48 - 1 ms. Feature `ulid`.
///
/// ```
/// let id = kuuid::ulid_at("2016-07-30T23:54:10.259Z")?;
/// assert_eq!(&id.to_string()[..10], "01ARZ3NDEK");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
#[cfg(feature = "ulid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ulid")))]
pub fn ulid_at(t: impl IntoTimestamp) -> Result<crate::Ulid, TimeError> {
    formats::ulid::at(t.into_timestamp()?)
}

/// Fills a caller's slice with ULIDs minted now: strictly increasing along
/// the slice and after every ULID minted before in the process (one atomic
/// claim per 256 ids). Feature `ulid`.
///
/// ```
/// let mut ids = [kuuid::Ulid::MIN; 1000];
/// kuuid::fill_ulid(&mut ids);
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// assert!(ids[999] < kuuid::ulid());
/// ```
#[cfg(feature = "ulid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ulid")))]
pub fn fill_ulid(ids: &mut [crate::Ulid]) {
    formats::ulid::fill_now(ids)
}

/// [`fill_ulid`] straight to text: the 26 capitals of each ULID minted now
/// at the start of its `W`-byte slot (`W >= 26`; the rest of a slot is left
/// as it is), in the same order, without a slice of ids in between. For
/// bulk loads: about 1.5x faster than `fill_ulid` then `Ulid::encode_many`
/// into memory. Feature `ulid`.
///
/// ```
/// let mut lines = vec![[b'\n'; 27]; 1000];
/// kuuid::fill_ulid_text(&mut lines);
/// let first: kuuid::Ulid = std::str::from_utf8(&lines[0][..26])?.parse()?;
/// assert!(lines.windows(2).all(|w| w[0] < w[1]));
/// assert!(first < kuuid::ulid());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "ulid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ulid")))]
pub fn fill_ulid_text<const W: usize>(out: &mut [[u8; W]]) {
    const { assert!(W >= 26, "a slot holds at least the 26 characters") };
    formats::ulid::fill_text_now(out)
}

/// A TypeID of `prefix` minted now: its UUIDv7 is [`v7()`]'s, so TypeIDs
/// (of every prefix) are strictly increasing across the process, without a
/// lock. Feature `typeid`.
///
/// ```
/// let user = kuuid::TypeIdPrefix::new("user")?;
/// let a = kuuid::typeid(user);
/// assert!(a < kuuid::typeid(user));
/// assert_eq!(a.to_string().len(), 4 + 1 + 26);
/// # Ok::<(), kuuid::TypeIdParseError>(())
/// ```
#[cfg(feature = "typeid")]
#[cfg_attr(docsrs, doc(cfg(feature = "typeid")))]
#[inline]
pub fn typeid(prefix: crate::TypeIdPrefix) -> crate::TypeId {
    formats::typeid::now(prefix)
}

/// A TypeID of `prefix` at time `t` ([`v7_at`]'s UUIDv7: not ordered
/// within its millisecond). Feature `typeid`.
///
/// ```
/// let id = kuuid::typeid_at(kuuid::TypeIdPrefix::new("user")?, 1_688_000_000_000u64)?;
/// assert_eq!(id.timestamp().as_millis(), 1_688_000_000_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "typeid")]
#[cfg_attr(docsrs, doc(cfg(feature = "typeid")))]
pub fn typeid_at(
    prefix: crate::TypeIdPrefix,
    t: impl IntoTimestamp,
) -> Result<crate::TypeId, TimeError> {
    formats::typeid::at(prefix, t)
}

/// Fills a caller's slice with TypeIDs of `prefix` minted now, in the
/// process's UUIDv7 order ([`fill_v7`]). Feature `typeid`.
///
/// ```
/// let p = kuuid::TypeIdPrefix::new("user")?;
/// let mut ids = [kuuid::TypeId::new(p, kuuid::Uuid7::MIN); 500];
/// kuuid::fill_typeid(p, &mut ids);
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// # Ok::<(), kuuid::TypeIdParseError>(())
/// ```
#[cfg(feature = "typeid")]
#[cfg_attr(docsrs, doc(cfg(feature = "typeid")))]
pub fn fill_typeid(prefix: crate::TypeIdPrefix, ids: &mut [crate::TypeId]) {
    formats::typeid::fill_now(prefix, ids)
}

/// A KSUID minted now: the second, then 128 random bits of this thread's
/// generator (random within the second, as Segment's `ksuid.New()`).
/// Feature `ksuid`.
///
/// ```
/// let id = kuuid::ksuid();
/// assert_eq!(id.to_string().len(), 27);
/// ```
#[cfg(feature = "ksuid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ksuid")))]
#[inline]
pub fn ksuid() -> crate::Ksuid {
    formats::ksuid::now()
}

/// A KSUID at time `t` (to the second); fails before
/// 2014-05-13T16:53:20Z and after 2150-06-19T23:21:35Z. Feature `ksuid`.
///
/// ```
/// // The time of Segment's README example, 0ujtsYcgvSTl8PAuAdqWYSMnLOv.
/// let id = kuuid::ksuid_at("2017-10-09T21:00:47-07:00")?;
/// assert_eq!(&id.to_string()[..5], "0ujts"); // the sixth holds payload bits too
/// # Ok::<(), kuuid::TimeError>(())
/// ```
#[cfg(feature = "ksuid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ksuid")))]
pub fn ksuid_at(t: impl IntoTimestamp) -> Result<crate::Ksuid, TimeError> {
    crate::Ksuid::at(t)
}

/// Fills a caller's slice with KSUIDs minted now. Feature `ksuid`.
///
/// ```
/// let mut ids = [kuuid::Ksuid::MIN; 1000];
/// kuuid::fill_ksuid(&mut ids);
/// assert!(ids.iter().all(|id| *id != kuuid::Ksuid::MIN));
/// ```
#[cfg(feature = "ksuid")]
#[cfg_attr(docsrs, doc(cfg(feature = "ksuid")))]
pub fn fill_ksuid(ids: &mut [crate::Ksuid]) {
    formats::ksuid::fill_now(ids)
}

/// A 32-character millisecond kuuid (npm `idms()`'s layout, read by npm's
/// `prefixms`) strictly after every other `idms_monotonic()` in this
/// process, on any thread, without a lock: the "newest first" query of a
/// server that mints on many threads comes back in exact order, which
/// [`idms`]'s random part only gives to the millisecond.
///
/// The first random group carries a process-wide counter (a random start
/// each millisecond, one `fetch_add` an id), the other three 96 random
/// bits; a forked child starts its own counter. Past 2^21 ids in one
/// millisecond the time runs ahead of the clock rather than repeat.
/// Ordered until 2109-05-15, as [`v7`] is. No `try_` twin: ids at a given
/// time have no place in the process's order (use [`idms_at`]). "Now" is
/// the coarse clock, a few ms behind [`idms`]'s precise one, unless the
/// process chose [`clock::set_millis_clock`](crate::clock::set_millis_clock).
///
/// ```
/// let a = kuuid::idms_monotonic();
/// let b = kuuid::idms_monotonic();
/// assert!(a < b);
/// assert_eq!(a.as_str().len(), 32);
/// let t = a.timestamp(kuuid::Layout::MILLIS);
/// assert!(t <= b.timestamp(kuuid::Layout::MILLIS));
/// ```
#[inline]
pub fn idms_monotonic() -> Kuuid {
    formats::kuuid_ordered::now()
}

/// Fills a caller's slice with [`idms_monotonic`] ids: strictly increasing
/// along the slice and after every one minted before in the process (one
/// atomic claim per 256 ids).
///
/// ```
/// let mut ids = vec![kuuid::Kuuid::default(); 10_000];
/// kuuid::fill_idms_monotonic(&mut ids);
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// assert!(ids[9_999] < kuuid::idms_monotonic());
/// ```
pub fn fill_idms_monotonic(ids: &mut [Kuuid]) {
    formats::kuuid_ordered::fill_now(ids)
}

/// A MongoDB ObjectId minted now: the current second, a 5-byte value
/// random per process (a forked child draws its own), and a 3-byte counter
/// shared by every thread: each thread claims 256 counter values with one
/// `fetch_add` and mints from them. [`ObjectId`] says why
/// none repeats within a process even past 2^24 ids a second.
///
/// ```
/// let a = kuuid::object_id();
/// let b = kuuid::object_id();
/// assert_ne!(a, b);
/// assert_eq!(a.as_bytes()[4..9], b.as_bytes()[4..9]); // the process value
/// ```
#[inline]
pub fn object_id() -> ObjectId {
    formats::objectid::now()
}

/// A MongoDB ObjectId at time `t` (seconds); fails past
/// 2106-02-07T06:28:15Z, the last second its 4-byte timestamp holds.
///
/// ```
/// let id = kuuid::object_id_at(0u64)?;
/// assert_eq!(&id.to_string()[..8], "00000000");
/// assert!(kuuid::object_id_at("2106-02-07T06:28:16Z").is_err());
/// # Ok::<(), kuuid::TimeError>(())
/// ```
pub fn object_id_at(t: impl IntoTimestamp) -> Result<ObjectId, TimeError> {
    formats::objectid::at(t.into_timestamp()?)
}

/// Fills a caller's slice with ObjectIds minted now (one atomic add per 256).
///
/// ```
/// let mut ids = vec![kuuid::ObjectId::default(); 1000];
/// kuuid::fill_object_id(&mut ids);
/// let set: std::collections::HashSet<_> = ids.iter().collect();
/// assert_eq!(set.len(), 1000);
/// ```
///
/// A fill is named for the function whose ids it makes in bulk: [`fill`]
/// ([`id`]), [`fill_v7`] ([`v7`]), [`fill_idms_monotonic`], this one.
pub fn fill_object_id(ids: &mut [ObjectId]) {
    formats::objectid::fill_now(ids)
}

/// Defines an npm-named prefix function (now) and its `_at` twin.
macro_rules! prefix_fns {
    ($($(#[$doc:meta])* $now:ident, $at:ident, $layout:expr, $epoch:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// For now.
        ///
        /// ```
        #[doc = concat!("assert_eq!(kuuid::", stringify!($now), "().as_str().len(), 8);")]
        /// ```
        pub fn $now() -> Prefix {
            local::prefix_now($layout)
        }

        $(#[$doc])*
        ///
        /// For time `t`; fails before 1970 or past the prefix's range.
        ///
        /// ```
        #[doc = concat!("assert_eq!(kuuid::", stringify!($at), "(\"1970-01-01T00:00:00Z\")?.as_str(), \"", $epoch, "\");")]
        /// # Ok::<(), kuuid::TimeError>(())
        /// ```
        pub fn $at(t: impl IntoTimestamp) -> Result<Prefix, TimeError> {
            $layout.prefix(t)
        }
    )*};
}

prefix_fns! {
    /// The 8-character prefix in seconds, oldest first (npm `prefix()`).
    prefix, prefix_at, Layout::SECONDS, "00000000";
    /// The 8-character prefix in milliseconds, oldest first (npm `prefixms()`).
    prefixms, prefixms_at, Layout::MILLIS, "00000000";
    /// The 8-character prefix in seconds, newest first (npm `prefixReverse()`).
    prefix_reverse, prefix_reverse_at, Layout::SECONDS_REVERSE, "zzzzzzzz";
    /// The 8-character prefix in milliseconds, newest first (npm `prefixReverseMs()`).
    prefix_reverse_ms, prefix_reverse_ms_at, Layout::MILLIS_REVERSE, "zzzzzzzz";
}

/// Fills a caller's slice with 32-character ids (seconds, oldest first) on
/// this thread's secure generator: the bulk path.
///
/// ```
/// let mut ids = vec![kuuid::Kuuid::default(); 100_000];
/// kuuid::fill(&mut ids);
/// ids.sort();
/// ids.dedup();
/// assert_eq!(ids.len(), 100_000);
/// ```
pub fn fill(ids: &mut [Kuuid]) {
    local::fill(ids)
}

/// 128 random bits as four 6-character groups (npm `rand()`).
///
/// ```
/// assert_eq!(kuuid::rand().as_str().len(), 24);
/// ```
pub fn rand() -> RandomPart {
    local::random_part(MAX_GROUPS)
}

/// `groups` random groups of 6 characters (npm `rand(n)`); fails unless
/// `groups` is 1 to 4.
///
/// ```
/// assert_eq!(kuuid::try_rand(1)?.as_str().len(), 6);
/// assert!(kuuid::try_rand(0).is_err());
/// # Ok::<(), kuuid::Error>(())
/// ```
pub fn try_rand(groups: usize) -> Result<RandomPart, Error> {
    generator::check_groups(groups)?;
    Ok(local::random_part(groups))
}

/// Makes every id source in the process part ways with any copy of it:
/// every generator (the per-thread ones behind the free functions, every
/// [`Generator`](crate::Generator) and
/// [`V7Generator`](crate::V7Generator)) draws a fresh key from the OS
/// before its next id and drops pre-drawn randomness; per-thread blocks
/// (ObjectId's; kuuid-sequence's `Sequence`, which watches
/// [`process::token`](crate::process::token)) are dropped; the ObjectId process value and CouchDB `sequential`'s prefix
/// are drawn afresh from the OS. The v7, ULID and
/// `utc_*` order words keep their place: the random parts after them
/// differ between copies.
///
/// A forked child does this by itself; call it where the process cannot
/// know it was copied, such as after a VM snapshot is restored. It covers
/// the ids minted after it returns; an id minted on another thread while it
/// runs may come from the state before.
///
/// ```
/// let a = kuuid::id();
/// kuuid::reseed();
/// assert_ne!(kuuid::id(), a);
/// ```
pub fn reseed() {
    // The words first, from the OS; then the token, which makes every
    // generator and block stale.
    formats::objectid::reseed();
    #[cfg(feature = "couch")]
    formats::couch::reseed();
    rng::fork::reseed_all();
}
