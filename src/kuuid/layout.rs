//! What an id's 8-character prefix means: precision (seconds or
//! milliseconds) and order (oldest or newest first). The text does not record
//! either, so a reader must be told the layout the writer used.

use std::fmt;

use crate::engine::{self, PREFIX_LEN, PREFIX_LIMIT};
use crate::time::{IntoTimestamp, Precision, TimeError, Timestamp};

/// Which way ids sort by time: a prefix's order (the [`order`](crate::order)
/// module is something else, keys for ordered lists).
///
/// ```
/// use kuuid::{Layout, TimeOrder};
/// assert_eq!(Layout::SECONDS_REVERSE.order, TimeOrder::Reverse);
/// // Newest first: a later id sorts before an earlier one.
/// assert!(kuuid::idr_at("2019-01-01T00:00:00Z")? < kuuid::idr_at("2018-01-01T00:00:00Z")?);
/// # Ok::<(), kuuid::TimeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeOrder {
    /// Oldest first: the prefix is the time.
    #[default]
    Forward,
    /// Newest first: the prefix is `62^8 - 1 - time`.
    Reverse,
}

/// Precision and order of an id's prefix.
///
/// ```
/// use kuuid::{Layout, Timestamp};
/// let t = Timestamp::from_millis(1_514_764_800_000);
/// assert_eq!(Layout::SECONDS.prefix(t)?.as_str(), "001eVnWK");
/// assert_eq!(Layout::SECONDS_REVERSE.prefix(Timestamp::EPOCH)?.as_str(), "zzzzzzzz");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Seconds or milliseconds.
    pub precision: Precision,
    /// Oldest or newest first.
    pub order: TimeOrder,
}

impl Layout {
    /// Seconds, oldest first: npm `id()`.
    ///
    /// ```
    /// use kuuid::{Layout, Timestamp};
    ///
    /// let t = Timestamp::from_millis(1_514_764_800_999);
    /// let id = kuuid::id_at(t)?;
    /// // Seconds: the milliseconds are not kept.
    /// assert_eq!(id.timestamp(Layout::SECONDS).as_millis(), 1_514_764_800_000);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub const SECONDS: Layout = Layout::new(Precision::Seconds, TimeOrder::Forward);
    /// Milliseconds, oldest first: npm `idms()`.
    ///
    /// ```
    /// use kuuid::{Layout, Timestamp};
    ///
    /// let t = Timestamp::from_millis(1_514_764_800_999);
    /// assert_eq!(kuuid::idms_at(t)?.timestamp(Layout::MILLIS), t);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub const MILLIS: Layout = Layout::new(Precision::Millis, TimeOrder::Forward);
    /// Seconds, newest first: npm `idr()`.
    ///
    /// ```
    /// use kuuid::{Layout, Timestamp};
    ///
    /// let (old, new) = (Timestamp::from_millis(1_000), Timestamp::from_millis(2_000));
    /// let (a, b) = (kuuid::idr_at(old)?, kuuid::idr_at(new)?);
    /// assert!(b < a, "the newer id sorts first");
    /// assert_eq!(b.timestamp(Layout::SECONDS_REVERSE), new);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub const SECONDS_REVERSE: Layout = Layout::new(Precision::Seconds, TimeOrder::Reverse);
    /// Milliseconds, newest first: npm `idmsr()`.
    ///
    /// ```
    /// use kuuid::{Layout, Timestamp};
    ///
    /// let t = Timestamp::from_millis(1_514_764_800_999);
    /// assert_eq!(kuuid::idmsr_at(t)?.timestamp(Layout::MILLIS_REVERSE), t);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub const MILLIS_REVERSE: Layout = Layout::new(Precision::Millis, TimeOrder::Reverse);

    /// A layout from its two parts.
    ///
    /// ```
    /// use kuuid::{Layout, TimeOrder, Precision};
    /// assert_eq!(Layout::new(Precision::Millis, TimeOrder::Reverse), Layout::MILLIS_REVERSE);
    /// ```
    pub const fn new(precision: Precision, order: TimeOrder) -> Self {
        Layout { precision, order }
    }

    /// The layout for the two CLI-style switches.
    ///
    /// ```
    /// assert_eq!(kuuid::Layout::from_flags(true, false), kuuid::Layout::MILLIS);
    /// ```
    pub const fn from_flags(millis: bool, reverse: bool) -> Self {
        Layout::new(
            if millis {
                Precision::Millis
            } else {
                Precision::Seconds
            },
            if reverse {
                TimeOrder::Reverse
            } else {
                TimeOrder::Forward
            },
        )
    }

    /// The prefix for a time, or why the time does not fit.
    ///
    /// ```
    /// let p = kuuid::Layout::MILLIS.prefix(1_514_764_800_000u64)?;
    /// assert_eq!(p.as_str(), "0QfQsjKa");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn prefix(self, t: impl IntoTimestamp) -> Result<Prefix, TimeError> {
        let units = t.into_timestamp()?.units(self.precision)?;
        Ok(Prefix::from_value(self.apply_order(units)))
    }

    /// The prefix for a count of this layout's units (seconds or ms),
    /// clamped to the representable range: a clock read can only exceed it
    /// after the year 8888 (milliseconds).
    pub(crate) fn prefix_of_units(self, units: u64) -> Prefix {
        Prefix::from_value(self.apply_order(units.min(PREFIX_LIMIT - 1)))
    }

    /// Maps time units to the prefix value and back (the map is its own inverse).
    const fn apply_order(self, v: u64) -> u64 {
        match self.order {
            TimeOrder::Forward => v,
            TimeOrder::Reverse => PREFIX_LIMIT - 1 - v,
        }
    }

    /// The time a prefix value stands for in this layout.
    pub(crate) fn timestamp_of(self, value: u64) -> Timestamp {
        let units = self.apply_order(value);
        match self.precision {
            // units < 62^8, so units * 1000 < 2^58: no overflow.
            Precision::Seconds => Timestamp::from_millis(units * 1000),
            Precision::Millis => Timestamp::from_millis(units),
        }
    }
}

/// The 8-character timestamp prefix of an id: what npm `prefix()` returns and
/// what range queries are built from.
///
/// ```
/// let p = kuuid::prefix_at("2020-01-01T00:00:00Z")?;
/// assert_eq!(p.as_str(), "001imRQe");
/// assert_eq!(p.timestamp(kuuid::Layout::SECONDS).as_secs(), 1_577_836_800);
/// # Ok::<(), kuuid::TimeError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Prefix {
    text: [u8; PREFIX_LEN],
    value: u64,
}

impl Prefix {
    /// The prefix whose base62 value is `value`, which must be `< 62^8`.
    pub(crate) fn from_value(value: u64) -> Self {
        let mut text = [0u8; PREFIX_LEN];
        engine::scalar::encode_prefix(value, &mut text);
        Prefix { text, value }
    }

    /// The 8 characters.
    ///
    /// ```
    /// assert_eq!(kuuid::prefix_at(0u64)?.as_str(), "00000000");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text).expect("prefix text is base62 ASCII")
    }

    /// The 8 ASCII bytes.
    ///
    /// ```
    /// assert_eq!(kuuid::prefix_at(0u64)?.as_bytes(), b"00000000");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub const fn as_bytes(&self) -> &[u8; PREFIX_LEN] {
        &self.text
    }

    /// The base62 value of the 8 characters (`< 62^8`).
    ///
    /// ```
    /// assert_eq!(kuuid::prefix_reverse_at(0u64)?.value(), 62u64.pow(8) - 1);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub const fn value(&self) -> u64 {
        self.value
    }

    /// The time this prefix stands for under `layout` (the start of its second
    /// in seconds precision).
    ///
    /// ```
    /// use kuuid::Layout;
    /// let p = Layout::MILLIS_REVERSE.prefix(1234u64)?;
    /// assert_eq!(p.timestamp(Layout::MILLIS_REVERSE).as_millis(), 1234);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn timestamp(&self, layout: Layout) -> Timestamp {
        layout.timestamp_of(self.value)
    }
}

impl fmt::Display for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Prefix({:?})", self.as_str())
    }
}

impl AsRef<str> for Prefix {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}
