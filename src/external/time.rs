//! `time` interop (feature `time`): a `time::OffsetDateTime` is a time to
//! mint at; a [`Timestamp`] reads back as one in UTC.

use crate::time::{IntoTimestamp, TimeError, TimeField, Timestamp};

impl TryFrom<::time::OffsetDateTime> for Timestamp {
    type Error = TimeError;

    /// Fails for times before 1970. Sub-millisecond parts are dropped
    /// (rounded toward 1970), as a kuuid holds whole milliseconds at most.
    ///
    /// ```
    /// let t = time::OffsetDateTime::from_unix_timestamp(1_514_764_800).unwrap()
    ///     .to_offset(time::UtcOffset::from_hms(1, 0, 0).unwrap());
    /// let id = kuuid::v7_at(t)?;
    /// assert_eq!(id.timestamp().to_string(), "2018-01-01T00:00:00Z");
    /// assert!(kuuid::Timestamp::try_from(time::OffsetDateTime::UNIX_EPOCH
    ///     - time::Duration::nanoseconds(1)).is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    fn try_from(t: ::time::OffsetDateTime) -> Result<Self, TimeError> {
        let ms = t.unix_timestamp_nanos().div_euclid(1_000_000);
        if ms < 0 {
            return Err(TimeError::BeforeEpoch);
        }
        // time's years end at 9999 (±999999 with its large-dates feature):
        // well inside u64 milliseconds.
        u64::try_from(ms)
            .map(Timestamp::from_millis)
            .map_err(|_| TimeError::OutOfRange {
                field: TimeField::KuuidSeconds,
                millis: u64::MAX,
            })
    }
}

impl IntoTimestamp for ::time::OffsetDateTime {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        Timestamp::try_from(self)
    }
}

impl Timestamp {
    /// The time as a `time::OffsetDateTime` in UTC, or `None` past time's
    /// last year (9999, or 999999 with its `large-dates` feature).
    ///
    /// ```
    /// let id = kuuid::v7_at("2018-01-01T00:00:00.250Z")?;
    /// let t = id.timestamp().to_offset_date_time().unwrap();
    /// assert_eq!((t.year(), t.millisecond()), (2018, 250));
    /// assert_eq!(kuuid::Timestamp::try_from(t)?, id.timestamp());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn to_offset_date_time(self) -> Option<::time::OffsetDateTime> {
        let nanos = i128::from(self.as_millis()) * 1_000_000;
        ::time::OffsetDateTime::from_unix_timestamp_nanos(nanos).ok()
    }
}

#[cfg(test)]
mod tests {
    use crate::Timestamp;

    #[test]
    fn round_trips_and_ends_where_time_does() {
        for ms in [0, 1, 999, 1_514_764_800_123, 253_402_300_799_999] {
            let t = Timestamp::from_millis(ms);
            assert_eq!(Timestamp::try_from(t.to_offset_date_time().unwrap()), Ok(t));
        }
        let last = ::time::PrimitiveDateTime::MAX.assume_utc();
        let t = Timestamp::try_from(last).unwrap();
        assert_eq!(
            t.to_offset_date_time().unwrap().unix_timestamp(),
            last.unix_timestamp()
        );
        assert_eq!(
            Timestamp::from_millis(t.as_millis() + 1).to_offset_date_time(),
            None
        );
    }
}
