//! `chrono` interop (feature `chrono`): a `chrono::DateTime` in any time
//! zone is a time to mint at; a [`Timestamp`] reads back as one in UTC.

use crate::time::{IntoTimestamp, TimeError, Timestamp};

impl<Tz: chrono::TimeZone> TryFrom<chrono::DateTime<Tz>> for Timestamp {
    type Error = TimeError;

    /// Fails for times before 1970. Sub-millisecond parts are dropped
    /// (rounded toward 1970), as a kuuid holds whole milliseconds at most.
    ///
    /// ```
    /// use chrono::TimeZone;
    /// let t = chrono::FixedOffset::east_opt(3600).unwrap()
    ///     .with_ymd_and_hms(2018, 1, 1, 1, 0, 0).unwrap();
    /// let id = kuuid::v7_at(t)?;
    /// assert_eq!(id.timestamp().to_string(), "2018-01-01T00:00:00Z");
    /// assert!(kuuid::Timestamp::try_from(chrono::DateTime::UNIX_EPOCH
    ///     - chrono::TimeDelta::nanoseconds(1)).is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    fn try_from(t: chrono::DateTime<Tz>) -> Result<Self, TimeError> {
        // Floored: -1 ns is -1 ms, so before 1970.
        let ms = t.timestamp_millis();
        u64::try_from(ms)
            .map(Timestamp::from_millis)
            .map_err(|_| TimeError::BeforeEpoch)
    }
}

impl<Tz: chrono::TimeZone> IntoTimestamp for chrono::DateTime<Tz> {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        Timestamp::try_from(self)
    }
}

impl Timestamp {
    /// The time as a `chrono::DateTime<Utc>`, or `None` past chrono's last
    /// year (262142).
    ///
    /// ```
    /// let id = kuuid::v7_at("2018-01-01T00:00:00.250Z")?;
    /// let t = id.timestamp().to_chrono().unwrap();
    /// assert_eq!(t.to_rfc3339(), "2018-01-01T00:00:00.250+00:00");
    /// assert_eq!(kuuid::Timestamp::try_from(t)?, id.timestamp());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn to_chrono(self) -> Option<chrono::DateTime<chrono::Utc>> {
        chrono::DateTime::from_timestamp_millis(i64::try_from(self.as_millis()).ok()?)
    }
}

#[cfg(test)]
mod tests {
    use crate::Timestamp;

    #[test]
    fn round_trips_and_ends_where_chrono_does() {
        for ms in [0, 1, 999, 1_514_764_800_123, 253_402_300_799_999] {
            let t = Timestamp::from_millis(ms);
            assert_eq!(Timestamp::try_from(t.to_chrono().unwrap()), Ok(t));
        }
        let last = chrono::DateTime::<chrono::Utc>::MAX_UTC;
        let t = Timestamp::try_from(last).unwrap();
        assert_eq!(
            t.to_chrono().unwrap().timestamp_millis(),
            last.timestamp_millis()
        );
        assert_eq!(Timestamp::from_millis(t.as_millis() + 1).to_chrono(), None);
        assert_eq!(Timestamp::from_millis(u64::MAX).to_chrono(), None);
    }
}
