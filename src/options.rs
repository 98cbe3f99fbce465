//! [`Options`]: npm's `id({timestamp, random, reverse, millisecond})`, with
//! `timestamp` spelled `at` as everywhere in the crate.

use crate::error::Error;
use crate::generator::check_groups;
use crate::kuuid::id::{AnyKuuid, MAX_GROUPS};
use crate::kuuid::layout::{Layout, Prefix, TimeOrder};
use crate::time::Precision;
use crate::time::{IntoTimestamp, TimeError, Timestamp};

/// The options of npm's `kuuid.id(opts)`: time, number of random groups,
/// order, precision. Errors (a bad time, groups outside 1 to 4) surface from
/// [`Options::id`] and [`Options::prefix`].
///
/// ```
/// let id = kuuid::Options::new()
///     .at("2018-01-01T00:00:00Z")
///     .random(2)
///     .reverse(true)
///     .millisecond(true)
///     .id()?;
/// assert_eq!(id.len(), 20);
/// assert_eq!(id.timestamp(kuuid::Layout::MILLIS_REVERSE).as_millis(), 1_514_764_800_000);
/// # Ok::<(), kuuid::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    timestamp: Option<Result<Timestamp, TimeError>>,
    random: usize,
    layout: Layout,
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// Now, 4 random groups, seconds, oldest first: `kuuid::id()`.
    ///
    /// ```
    /// assert_eq!(kuuid::Options::new().id()?.len(), 32);
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub const fn new() -> Self {
        Options {
            timestamp: None,
            random: MAX_GROUPS,
            layout: Layout::SECONDS,
        }
    }

    /// Mints at `t` instead of now. Unlike npm, time 0 means 1970, not now.
    ///
    /// ```
    /// let id = kuuid::Options::new().at(0u64).id()?;
    /// assert!(id.as_str().starts_with("00000000"));
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn at(mut self, t: impl IntoTimestamp) -> Self {
        self.timestamp = Some(t.into_timestamp());
        self
    }

    /// Number of random groups, 1 to 4 (default 4).
    ///
    /// ```
    /// assert_eq!(kuuid::Options::new().random(1).id()?.len(), 14);
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub const fn random(mut self, groups: usize) -> Self {
        self.random = groups;
        self
    }

    /// Newest first when `true`.
    ///
    /// ```
    /// let id = kuuid::Options::new().at(0u64).reverse(true).id()?;
    /// assert!(id.as_str().starts_with("zzzzzzzz"));
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub const fn reverse(mut self, reverse: bool) -> Self {
        self.layout.order = if reverse {
            TimeOrder::Reverse
        } else {
            TimeOrder::Forward
        };
        self
    }

    /// Millisecond precision when `true`.
    ///
    /// ```
    /// let id = kuuid::Options::new().at(1000u64).millisecond(true).id()?;
    /// assert!(id.as_str().starts_with("000000G8"));
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub const fn millisecond(mut self, ms: bool) -> Self {
        self.layout.precision = if ms {
            Precision::Millis
        } else {
            Precision::Seconds
        };
        self
    }

    /// The layout these options describe.
    ///
    /// ```
    /// let o = kuuid::Options::new().reverse(true);
    /// assert_eq!(o.layout(), kuuid::Layout::SECONDS_REVERSE);
    /// ```
    pub const fn layout(&self) -> Layout {
        self.layout
    }

    /// The prefix for these options.
    ///
    /// ```
    /// let p = kuuid::Options::new().at("2018-01-01T00:00:00Z").prefix()?;
    /// assert_eq!(p.as_str(), "001eVnWK");
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn prefix(&self) -> Result<Prefix, Error> {
        Ok(match &self.timestamp {
            None => crate::local::prefix_now(self.layout),
            Some(t) => self.layout.prefix(t.clone()?)?,
        })
    }

    /// Mints one id with these options, on this thread's secure generator.
    ///
    /// ```
    /// assert!(kuuid::Options::new().at("1969-12-31T23:59:55Z").id().is_err());
    /// assert!(kuuid::Options::new().at(1514764800000).id().is_ok());
    /// ```
    pub fn id(&self) -> Result<AnyKuuid, Error> {
        check_groups(self.random)?;
        let prefix = self.prefix()?;
        Ok(crate::local::mint_any(&prefix, self.random))
    }
}
