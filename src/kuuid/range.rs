//! Range keys: the `startkey`/`endkey` pair that selects every id minted in a
//! time interval from an index sorted by raw bytes (CouchDB `_all_docs`).

use std::fmt;

use crate::engine::PREFIX_LEN;
use crate::error::Error;
use crate::kuuid::id::MAX_LEN;
use crate::kuuid::layout::{Layout, Prefix, TimeOrder};
use crate::time::IntoTimestamp;

/// The inclusive key range `[startkey, endkey]` covering every id (of any
/// length) minted from `from` to `to`, both inclusive, in one layout.
///
/// `startkey` is the prefix of the earliest key; `endkey` is the prefix of
/// the latest followed by 24 `z`s, the largest random part there is. In
/// reverse layouts the newest time gives the start.
///
/// ```
/// use kuuid::{KeyRange, Layout};
/// let r = KeyRange::new(Layout::SECONDS, "2018-01-01T00:00:00Z", "2020-01-01T00:00:00Z")?;
/// assert_eq!(r.startkey(), "001eVnWK");
/// assert_eq!(r.endkey(), "001imRQezzzzzzzzzzzzzzzzzzzzzzzz");
/// let id = kuuid::id_at("2019-06-01T12:00:00Z")?;
/// assert!(r.contains(id.as_str()));
/// # Ok::<(), kuuid::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyRange {
    start: Prefix,
    end: [u8; MAX_LEN],
}

impl KeyRange {
    /// The keys for `from..=to` under `layout`; fails if either time does not
    /// fit, or `from` is after `to`.
    ///
    /// ```
    /// use kuuid::{KeyRange, Layout};
    /// let r = KeyRange::new(Layout::SECONDS_REVERSE, 0u64, 1000u64)?;
    /// assert_eq!(r.startkey(), "zzzzzzzy");
    /// assert_eq!(r.endkey(), "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
    /// assert!(KeyRange::new(Layout::SECONDS, 1000u64, 0u64).is_err());
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn new(
        layout: Layout,
        from: impl IntoTimestamp,
        to: impl IntoTimestamp,
    ) -> Result<Self, Error> {
        let (from, to) = (from.into_timestamp()?, to.into_timestamp()?);
        if from > to {
            return Err(Error::InvertedRange);
        }
        let (first, last) = (layout.prefix(from)?, layout.prefix(to)?);
        let (start, end) = match layout.order {
            TimeOrder::Forward => (first, last),
            TimeOrder::Reverse => (last, first),
        };
        let mut end_key = [b'z'; MAX_LEN];
        end_key[..PREFIX_LEN].copy_from_slice(end.as_bytes());
        Ok(KeyRange {
            start,
            end: end_key,
        })
    }

    /// The smallest key: an 8-character prefix, below every id it begins.
    ///
    /// ```
    /// let r = kuuid::KeyRange::new(kuuid::Layout::SECONDS, 0u64, 0u64)?;
    /// assert_eq!(r.startkey(), "00000000");
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn startkey(&self) -> &str {
        self.start.as_str()
    }

    /// The largest key: the last prefix and 24 `z`s (32 characters).
    ///
    /// ```
    /// let r = kuuid::KeyRange::new(kuuid::Layout::SECONDS, 0u64, 0u64)?;
    /// assert_eq!(r.endkey().len(), 32);
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn endkey(&self) -> &str {
        std::str::from_utf8(&self.end).expect("base62 ASCII")
    }

    /// Whether a key falls in `[startkey, endkey]` by byte order, as
    /// CouchDB compares `_id`s.
    ///
    /// ```
    /// let r = kuuid::KeyRange::new(kuuid::Layout::SECONDS, 0u64, 999u64)?;
    /// assert!(r.contains("00000000000000"));
    /// assert!(!r.contains("00000001000000"));
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn contains(&self, key: &str) -> bool {
        self.startkey() <= key && key <= self.endkey()
    }

    /// The same interval among keys that begin with `prefix`: the "type
    /// prefix" idiom (`user:` + kuuid sorts by type, then by time), where
    /// one `_all_docs` range reads one type's documents of an interval.
    ///
    /// End the prefix with a character outside base62 (`:` or `/`):
    /// otherwise another type that starts with this one and continues in
    /// base62 (`user` and `userX`) can fall inside the range.
    ///
    /// ```
    /// use kuuid::{KeyRange, Layout};
    /// let r = KeyRange::new(Layout::SECONDS, "2018-01-01T00:00:00Z", "2020-01-01T00:00:00Z")?
    ///     .with_prefix("user:");
    /// assert_eq!(r.startkey(), "user:001eVnWK");
    /// let id = kuuid::id_at("2019-06-01T12:00:00Z")?;
    /// assert!(r.contains(&format!("user:{id}")));
    /// assert!(!r.contains(&format!("order:{id}")));
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn with_prefix(&self, prefix: &str) -> PrefixedKeyRange {
        PrefixedKeyRange {
            startkey: format!("{prefix}{}", self.startkey()),
            endkey: format!("{prefix}{}", self.endkey()),
        }
    }
}

/// A [`KeyRange`] among keys that share a prefix (a document type), from
/// [`KeyRange::with_prefix`]: the same interval, with the prefix in front
/// of both keys.
///
/// ```
/// use kuuid::{KeyRange, Layout};
///
/// let day = KeyRange::new(Layout::SECONDS, "2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z")?;
/// let orders = day.with_prefix("order:");
/// let id = kuuid::id_at("2024-05-01T12:00:00Z")?;
/// assert!(orders.contains(&format!("order:{id}")));
/// assert!(!orders.contains(&format!("user:{id}")));
/// assert!(orders.startkey().starts_with("order:"));
/// # Ok::<(), kuuid::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PrefixedKeyRange {
    startkey: String,
    endkey: String,
}

impl PrefixedKeyRange {
    /// The smallest key: the prefix and an 8-character time prefix.
    ///
    /// ```
    /// let r = kuuid::KeyRange::new(kuuid::Layout::SECONDS, 0u64, 0u64)?.with_prefix("a/");
    /// assert_eq!(r.startkey(), "a/00000000");
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn startkey(&self) -> &str {
        &self.startkey
    }

    /// The largest key: the prefix, the last time prefix and 24 `z`s.
    ///
    /// ```
    /// let r = kuuid::KeyRange::new(kuuid::Layout::SECONDS, 0u64, 0u64)?.with_prefix("a/");
    /// assert_eq!(r.endkey().len(), 34);
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn endkey(&self) -> &str {
        &self.endkey
    }

    /// Whether a key falls in `[startkey, endkey]` by byte order.
    ///
    /// ```
    /// let r = kuuid::KeyRange::new(kuuid::Layout::SECONDS, 0u64, 999u64)?.with_prefix("a:");
    /// assert!(r.contains("a:00000000000000"));
    /// assert!(!r.contains("b:00000000000000"));
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn contains(&self, key: &str) -> bool {
        self.startkey() <= key && key <= self.endkey()
    }
}

/// As the JSON object `{"startkey":"…","endkey":"…"}`, the prefix escaped
/// as a JSON string.
impl fmt::Display for PrefixedKeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(r#"{"startkey":"#)?;
        json_string(f, &self.startkey)?;
        f.write_str(r#","endkey":"#)?;
        json_string(f, &self.endkey)?;
        f.write_str("}")
    }
}

/// `s` as a JSON string literal (RFC 8259 section 7).
fn json_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// As the JSON object `{"startkey":"…","endkey":"…"}` (base62 needs no escaping).
impl fmt::Display for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            r#"{{"startkey":"{}","endkey":"{}"}}"#,
            self.startkey(),
            self.endkey()
        )
    }
}

impl fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyRange")
            .field("startkey", &self.startkey())
            .field("endkey", &self.endkey())
            .finish()
    }
}
