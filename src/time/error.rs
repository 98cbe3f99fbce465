//! The errors for times an id cannot hold, and the time fields of the
//! formats they name.

use std::fmt;

use super::{Precision, Timestamp};

/// A time that cannot become an id: before 1970, past what the format's
/// time field holds, or not a time.
///
/// ```
/// use kuuid::{TimeError, TimeField};
/// assert_eq!(kuuid::prefix_at("1969-12-31T23:59:59Z"), Err(TimeError::BeforeEpoch));
/// // 62^8 milliseconds is in the year 8888.
/// assert!(matches!(
///     kuuid::prefixms_at(62u64.pow(8)),
///     Err(TimeError::OutOfRange { field: TimeField::KuuidMillis, .. })
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeError {
    /// Before 1970-01-01T00:00:00Z: kuuid prefixes start at the Unix epoch.
    BeforeEpoch,
    /// Before the first time `field` holds (a KSUID's epoch,
    /// 2014-05-13T16:53:20Z).
    BeforeStart {
        /// The time field, and so the format, that starts later.
        field: TimeField,
        /// The time, in ms since 1970.
        millis: u64,
    },
    /// Past the last time `field` holds ([`TimeField::last_millis`]).
    OutOfRange {
        /// The time field, and so the format, that ran out.
        field: TimeField,
        /// The time, in ms since 1970 (saturated at `u64::MAX`).
        millis: u64,
    },
    /// A leap second (`23:59:60`): Unix time, and so a kuuid prefix, has
    /// none; it is refused rather than read as `:59`.
    LeapSecond {
        /// The text as given.
        input: String,
    },
    /// Text that is neither RFC 3339 nor integer milliseconds.
    Syntax {
        /// The text as given.
        input: String,
        /// What the parser objected to (kept for logs; the message says
        /// what a time may be instead).
        reason: String,
    },
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeError::BeforeEpoch => f.write_str("time is before 1970-01-01T00:00:00Z"),
            TimeError::BeforeStart { field, millis } => write!(
                f,
                "time {millis} ms since 1970 is before {}, the first second {}",
                Timestamp::from_millis(field.first_millis()),
                field.name()
            ),
            TimeError::OutOfRange { field, millis } => field.past(f, *millis),
            TimeError::LeapSecond { input } => write!(
                f,
                "{input:?} is a leap second, which Unix time (and so a kuuid prefix) cannot hold"
            ),
            // The parser's reason stays in the value (Debug), not in the
            // message: it speaks of the parser's internals, not of what a
            // time may be.
            TimeError::Syntax { input, .. } => write!(
                f,
                "{input:?} is not a time: give RFC 3339 (2018-01-01T00:00:00Z, any offset, years 1970 to 9999), a date alone (2018-01-01, midnight UTC) or integer milliseconds since 1970 (1514764800000; also for years past 9999)"
            ),
        }
    }
}

impl std::error::Error for TimeError {}

/// The time field of an id format, named in [`TimeError::OutOfRange`]:
/// whose time ran out, and where it ends.
///
/// ```
/// use kuuid::{TimeError, TimeField, Timestamp};
/// let e = kuuid::object_id_at("2106-02-07T06:28:16Z").unwrap_err();
/// let TimeError::OutOfRange { field, .. } = e else { unreachable!() };
/// assert_eq!(field, TimeField::ObjectId);
/// assert_eq!(Timestamp::from_millis(field.last_millis()).to_string(),
///            "2106-02-07T06:28:15.999Z");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeField {
    /// A kuuid prefix in seconds: 62^8 - 1 seconds (about 6.9 million
    /// years) in 8 base62 characters.
    KuuidSeconds,
    /// A kuuid prefix in milliseconds: 62^8 - 1 ms, in the year 8888.
    KuuidMillis,
    /// A UUIDv7's 48-bit milliseconds: 2^48 - 1 ms, in the year 10889.
    Uuid7,
    /// An ObjectId's 32-bit (unsigned) seconds: through 2106-02-07T06:28:15Z.
    ObjectId,
    /// A ULID's 48-bit milliseconds: 2^48 - 1 ms, in the year 10889.
    Ulid,
    /// A KSUID's 32-bit seconds from 2014-05-13T16:53:20Z (1,400,000,000
    /// s since 1970): through 2150-06-19T23:21:35Z.
    Ksuid,
    /// CouchDB `utc_random` and `utc_id`: 14 hex digits of microseconds,
    /// 2^56 - 1 µs, in the year 4253.
    CouchUtc,
}

impl TimeField {
    /// The field of a kuuid prefix in `precision`.
    pub(crate) const fn prefix(precision: Precision) -> Self {
        match precision {
            Precision::Seconds => TimeField::KuuidSeconds,
            Precision::Millis => TimeField::KuuidMillis,
        }
    }

    /// The last millisecond since 1970 the field holds (the last one of
    /// its last second, for fields in seconds).
    ///
    /// ```
    /// use kuuid::TimeField;
    /// assert_eq!(TimeField::Uuid7.last_millis(), (1 << 48) - 1);
    /// assert_eq!(TimeField::KuuidMillis.last_millis(), 62u64.pow(8) - 1);
    /// ```
    pub const fn last_millis(self) -> u64 {
        let limit = crate::engine::PREFIX_LIMIT;
        match self {
            TimeField::KuuidSeconds => (limit - 1) * 1000 + 999,
            TimeField::KuuidMillis => limit - 1,
            TimeField::Uuid7 | TimeField::Ulid => (1 << 48) - 1,
            TimeField::ObjectId => u32::MAX as u64 * 1000 + 999,
            TimeField::CouchUtc => ((1 << 56) - 1) / 1000,
            TimeField::Ksuid => (1_400_000_000 + u32::MAX as u64) * 1000 + 999,
        }
    }

    /// The first millisecond since 1970 the field holds: 0 but for a KSUID.
    ///
    /// ```
    /// assert_eq!(kuuid::TimeField::Ksuid.first_millis(), 1_400_000_000_000);
    /// ```
    pub const fn first_millis(self) -> u64 {
        match self {
            TimeField::Ksuid => 1_400_000_000_000,
            _ => 0,
        }
    }

    /// What holds the field, for messages: "a KSUID holds".
    const fn name(self) -> &'static str {
        match self {
            TimeField::Ksuid => "a KSUID holds",
            _ => "the field holds",
        }
    }

    /// The one wording of a time past the field: the time, the field's
    /// last time (RFC 3339 where it has one), and what it is the last of.
    fn past(self, f: &mut fmt::Formatter<'_>, millis: u64) -> fmt::Result {
        let (last, what): (&dyn fmt::Display, _) = match self {
            TimeField::KuuidSeconds => (
                &"62^8 - 1 seconds (about 6.9 million years)",
                "second an 8-character prefix holds",
            ),
            TimeField::KuuidMillis => (
                &Timestamp::from_millis(self.last_millis()),
                "millisecond an 8-character prefix holds",
            ),
            TimeField::Uuid7 => (
                &"281474976710655 ms (2^48 - 1, in year 10889)",
                "millisecond a UUIDv7's 48-bit timestamp holds",
            ),
            TimeField::Ulid => (
                &"281474976710655 ms (2^48 - 1, in year 10889)",
                "millisecond a ULID's 48-bit timestamp holds",
            ),
            TimeField::ObjectId => (
                &Timestamp::from_millis(u64::from(u32::MAX) * 1000),
                "second an ObjectId's 32-bit timestamp holds",
            ),
            TimeField::Ksuid => (
                &Timestamp::from_millis(self.last_millis() - 999),
                "second a KSUID's 32-bit timestamp holds",
            ),
            TimeField::CouchUtc => (
                &Timestamp::from_millis(self.last_millis()),
                "millisecond a CouchDB utc_random or utc_id id holds (2^56 - 1 microseconds)",
            ),
        };
        write!(
            f,
            "time {millis} ms since 1970 is past {last}, the last {what}"
        )
    }
}
