//! Timestamp inputs: `SystemTime`, integer milliseconds since 1970, RFC 3339
//! text; the errors for times an id cannot hold are in `error.rs`.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod error;
mod rfc3339;
pub use error::{TimeError, TimeField};

/// The unit of the timestamp prefix.
///
/// ```
/// use kuuid::{Layout, Precision, TimeOrder};
///
/// assert_eq!(Precision::default(), Precision::Seconds);
/// assert_eq!(Layout::new(Precision::Millis, TimeOrder::Forward), Layout::MILLIS);
/// assert_eq!(Precision::Millis.to_string(), "millisecond");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precision {
    /// Seconds since 1970 (npm `id`, `idr`, `ids`, `idsr`).
    #[default]
    Seconds,
    /// Milliseconds since 1970 (npm `idms`, `idmsr`).
    Millis,
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Precision::Seconds => "second",
            Precision::Millis => "millisecond",
        })
    }
}

/// A point in time at or after 1970-01-01T00:00:00Z, with millisecond
/// resolution: what a kuuid prefix encodes.
///
/// ```
/// use kuuid::Timestamp;
///
/// let t: Timestamp = "2018-01-01T00:00:00Z".parse()?;
/// assert_eq!(t.as_millis(), 1_514_764_800_000);
/// assert_eq!(t, Timestamp::from_millis(1_514_764_800_000));
/// assert_eq!(t.to_string(), "2018-01-01T00:00:00Z");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    ms: u64,
}

impl Timestamp {
    /// 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// use kuuid::Timestamp;
    ///
    /// assert_eq!(Timestamp::EPOCH.as_millis(), 0);
    /// assert_eq!(Timestamp::EPOCH.to_string(), "1970-01-01T00:00:00Z");
    /// ```
    pub const EPOCH: Timestamp = Timestamp { ms: 0 };

    /// Milliseconds since 1970.
    ///
    /// ```
    /// assert_eq!(kuuid::Timestamp::from_millis(1500).as_secs(), 1);
    /// ```
    pub const fn from_millis(ms: u64) -> Self {
        Timestamp { ms }
    }

    /// Whole seconds since 1970, or `None` if the milliseconds overflow a `u64`.
    ///
    /// ```
    /// assert_eq!(kuuid::Timestamp::from_secs(2).unwrap().as_millis(), 2000);
    /// assert!(kuuid::Timestamp::from_secs(u64::MAX).is_none());
    /// ```
    pub const fn from_secs(secs: u64) -> Option<Self> {
        match secs.checked_mul(1000) {
            Some(ms) => Some(Timestamp { ms }),
            None => None,
        }
    }

    /// The wall clock now (1970 if the clock is set before it).
    ///
    /// ```
    /// assert!(kuuid::Timestamp::now().as_secs() > 1_700_000_000);
    /// ```
    pub fn now() -> Self {
        Timestamp {
            ms: crate::sys::unix_millis(),
        }
    }

    /// Milliseconds since 1970.
    ///
    /// ```
    /// assert_eq!(kuuid::Timestamp::from_millis(42).as_millis(), 42);
    /// ```
    pub const fn as_millis(self) -> u64 {
        self.ms
    }

    /// Whole seconds since 1970 (rounded down).
    ///
    /// ```
    /// assert_eq!(kuuid::Timestamp::from_millis(1999).as_secs(), 1);
    /// ```
    pub const fn as_secs(self) -> u64 {
        self.ms / 1000
    }

    /// The same instant as a `SystemTime`, or `None` where the platform's
    /// `SystemTime` cannot hold it.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let t = kuuid::Timestamp::from_millis(1500);
    /// assert_eq!(t.to_system_time(), Some(UNIX_EPOCH + Duration::from_millis(1500)));
    /// ```
    pub fn to_system_time(self) -> Option<SystemTime> {
        UNIX_EPOCH.checked_add(Duration::from_millis(self.ms))
    }

    /// RFC 3339 text in UTC, or `None` past 9999-12-31T23:59:59.999Z.
    /// Written from the civil parts, not through an instant type, whose
    /// range (jiff's) ends a day earlier.
    fn rfc3339(self) -> Option<String> {
        let secs = self.ms / 1000;
        let days = i64::try_from(secs / 86_400).ok()?;
        let (y, m, d) = civil_from_days(days);
        if y > 9999 {
            return None;
        }
        let rem = secs % 86_400;
        let (hh, mm, ss) = (rem / 3600, rem / 60 % 60, rem % 60);
        Some(match self.ms % 1000 {
            0 => format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z"),
            ms => format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}.{ms:03}Z"),
        })
    }

    /// RFC 3339 in UTC (`2018-01-01T00:00:00Z`, with `.sss` when the
    /// milliseconds are not zero), or `None` past 9999-12-31, which RFC 3339
    /// cannot write (a seconds-precision id reaches 6.9 million years).
    ///
    /// ```
    /// use kuuid::Timestamp;
    /// assert_eq!(Timestamp::from_millis(1_514_764_800_123).to_rfc3339().unwrap(),
    ///            "2018-01-01T00:00:00.123Z");
    /// assert_eq!(Timestamp::from_secs(62u64.pow(8) - 1).unwrap().to_rfc3339(), None);
    /// ```
    pub fn to_rfc3339(self) -> Option<String> {
        self.rfc3339()
    }

    /// Checks that this time fits an 8-character prefix of the given
    /// precision and returns the prefix's (forward) value: seconds or ms.
    pub(crate) fn units(self, precision: Precision) -> Result<u64, TimeError> {
        let v = match precision {
            Precision::Seconds => self.as_secs(),
            Precision::Millis => self.ms,
        };
        if v >= crate::engine::PREFIX_LIMIT {
            return Err(TimeError::OutOfRange {
                field: TimeField::prefix(precision),
                millis: self.ms,
            });
        }
        Ok(v)
    }
}

/// Shown as RFC 3339 (UTC) through 9999-12-31T23:59:59.999Z; past that,
/// which RFC 3339 cannot write, as `<ms> ms since 1970 (past year 9999)`.
///
/// ```
/// use kuuid::Timestamp;
/// assert_eq!(Timestamp::from_millis(1_514_764_800_000).to_string(), "2018-01-01T00:00:00Z");
/// assert_eq!(
///     Timestamp::from_millis(281_474_976_710_655).to_string(),
///     "281474976710655 ms since 1970 (past year 9999)"
/// );
/// ```
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rfc3339() {
            Some(t) => f.write_str(&t),
            None => write!(f, "{} ms since 1970 (past year 9999)", self.ms),
        }
    }
}

/// Parses RFC 3339 (`2018-01-01T00:00:00Z`, any offset), a date alone
/// (`2018-01-01`: midnight UTC, as JavaScript's `Date` and so npm kuuid read
/// it, and as the `kuuid` command does), or an integer count of
/// milliseconds since 1970.
///
/// ```
/// use kuuid::Timestamp;
/// let t: Timestamp = "2018-01-01".parse()?;
/// assert_eq!(t, "2018-01-01T00:00:00Z".parse()?);
/// assert!("2018-02-30".parse::<Timestamp>().is_err());
/// # Ok::<(), kuuid::TimeError>(())
/// ```
impl FromStr for Timestamp {
    type Err = TimeError;

    fn from_str(s: &str) -> Result<Self, TimeError> {
        let t = s.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return t
                .parse::<u64>()
                .map(Timestamp::from_millis)
                .map_err(|_| TimeError::Syntax {
                    input: s.to_owned(),
                    reason: "milliseconds do not fit in 64 bits".to_owned(),
                });
        }
        if let Some(digits) = t.strip_prefix('-')
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(TimeError::BeforeEpoch);
        }
        let b = t.as_bytes();
        let midnight;
        let t = if b.len() == 10 && b[4] == b'-' && b[7] == b'-' {
            midnight = format!("{t}T00:00:00Z");
            &midnight
        } else {
            t
        };
        rfc3339::parse(t).map_err(|reason| match reason {
            Refused::Time(e) => e,
            Refused::Syntax(reason) => TimeError::Syntax {
                input: s.to_owned(),
                reason,
            },
        })
    }
}

/// Why RFC 3339 text was refused.
enum Refused {
    Time(TimeError),
    Syntax(String),
}

/// The proleptic Gregorian date `days` after 1970-01-01 (`days >= 0`): the
/// inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (negative before).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    // Eras of 400 years (146,097 days), with March as the first month so
    // that the leap day ends the year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

impl TryFrom<SystemTime> for Timestamp {
    type Error = TimeError;

    /// Fails for times before 1970 (sub-millisecond parts are dropped).
    fn try_from(t: SystemTime) -> Result<Self, TimeError> {
        let d = t
            .duration_since(UNIX_EPOCH)
            .map_err(|_| TimeError::BeforeEpoch)?;
        let ms = u64::try_from(d.as_millis()).map_err(|_| TimeError::OutOfRange {
            field: TimeField::KuuidSeconds,
            millis: u64::MAX,
        })?;
        Ok(Timestamp::from_millis(ms))
    }
}

/// What a timestamp argument may be: anything that converts, or fails to
/// convert, into a [`Timestamp`].
///
/// Implemented for [`Timestamp`], `SystemTime`, `jiff::Timestamp`,
/// `chrono::DateTime` and `time::OffsetDateTime` (features `jiff`, `chrono`,
/// `time`),
/// integer **milliseconds** since 1970 (`u64` only, so that a bare literal
/// such as `id_at(1514764800000)` infers: with a second integer type the
/// literal would fall back to `i32` and not compile; an `i64` converts with
/// `Timestamp::try_from`), and text, borrowed or owned (RFC 3339, a date
/// alone as midnight UTC, or integer milliseconds). Seconds
/// go through [`Timestamp::from_secs`]: a bare `1514764800` is January
/// 1970, not 2018.
///
/// ```
/// let secs = kuuid::Timestamp::from_secs(1_514_764_800).unwrap();
/// assert_eq!(kuuid::id_at(secs)?.timestamp(kuuid::Layout::SECONDS).to_string(), "2018-01-01T00:00:00Z");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
///
/// ```
/// use kuuid::IntoTimestamp;
/// assert_eq!("1970-01-01T00:00:01Z".into_timestamp()?.as_millis(), 1000);
/// assert_eq!(1000.into_timestamp()?.as_millis(), 1000);
/// assert!("-1".into_timestamp().is_err());
/// # Ok::<(), kuuid::TimeError>(())
/// ```
pub trait IntoTimestamp {
    /// Converts, or says why not.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use kuuid::IntoTimestamp;
    ///
    /// let t = (UNIX_EPOCH + Duration::from_millis(1500)).into_timestamp()?;
    /// assert_eq!(t.as_millis(), 1500);
    /// assert!((UNIX_EPOCH - Duration::from_secs(1)).into_timestamp().is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    fn into_timestamp(self) -> Result<Timestamp, TimeError>;
}

impl IntoTimestamp for Timestamp {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        Ok(self)
    }
}

impl IntoTimestamp for SystemTime {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        Timestamp::try_from(self)
    }
}

impl IntoTimestamp for u64 {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        Ok(Timestamp::from_millis(self))
    }
}

impl IntoTimestamp for &str {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        self.parse()
    }
}

impl IntoTimestamp for &String {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        self.parse()
    }
}

/// So that `id_at(format!(...))` takes the string it built.
///
/// ```
/// let day = 1;
/// let id = kuuid::v7_at(format!("2024-01-{day:02}T00:00:00Z"))?;
/// assert_eq!(id.timestamp().to_string(), "2024-01-01T00:00:00Z");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
impl IntoTimestamp for String {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        self.parse()
    }
}

/// Milliseconds since 1970 as a signed integer (a database's `bigint`, a
/// JavaScript `Date.now()` through serde): negative is before 1970.
/// (`IntoTimestamp` is for `u64` alone, so that a bare literal infers;
/// an `i64` goes through this.)
///
/// ```
/// use kuuid::{TimeError, Timestamp};
/// let ms: i64 = 1_514_764_800_000;
/// let id = kuuid::v7_at(Timestamp::try_from(ms)?)?;
/// assert_eq!(id.timestamp().to_string(), "2018-01-01T00:00:00Z");
/// assert_eq!(Timestamp::try_from(-1i64), Err(TimeError::BeforeEpoch));
/// # Ok::<(), kuuid::TimeError>(())
/// ```
impl TryFrom<i64> for Timestamp {
    type Error = TimeError;

    fn try_from(ms: i64) -> Result<Self, TimeError> {
        u64::try_from(ms)
            .map(Timestamp::from_millis)
            .map_err(|_| TimeError::BeforeEpoch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Civil dates and day counts agree both ways over the whole range RFC
    /// 3339 can write, and with jiff where jiff reaches.
    #[test]
    fn civil_days_round_trip_and_agree_with_jiff() {
        let last = days_from_civil(9999, 12, 31);
        for days in (0..=last).step_by(7).chain([last]) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
            if y < 9999 {
                let j = jiff::civil::date(y as i16, m as i8, d as i8);
                let epoch = jiff::civil::date(1970, 1, 1);
                assert_eq!(i64::from(j.since(epoch).unwrap().get_days()), days);
            }
        }
    }
}
