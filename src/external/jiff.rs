//! `jiff` interop (feature `jiff`): a `jiff::Timestamp` is a time to mint
//! at; a [`Timestamp`] reads back as one.

use crate::time::{IntoTimestamp, TimeError, Timestamp};

impl TryFrom<jiff::Timestamp> for Timestamp {
    type Error = TimeError;

    /// Fails for times before 1970. Sub-millisecond parts are dropped
    /// (rounded toward 1970), as a kuuid holds whole milliseconds at most.
    ///
    /// ```
    /// let t: jiff::Timestamp = "2018-01-01T01:00:00+01:00".parse().unwrap();
    /// let id = kuuid::v7_at(t)?;
    /// assert_eq!(id.timestamp().to_string(), "2018-01-01T00:00:00Z");
    /// assert!(kuuid::Timestamp::try_from(jiff::Timestamp::UNIX_EPOCH
    ///     - jiff::SignedDuration::from_nanos(1)).is_err());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    fn try_from(t: jiff::Timestamp) -> Result<Self, TimeError> {
        // jiff truncates toward zero: -0.5 ms reads as 0 ms with a negative
        // sub-second part.
        let ms = t.as_millisecond();
        if ms < 0 || (ms == 0 && t.subsec_nanosecond() < 0) {
            return Err(TimeError::BeforeEpoch);
        }
        Ok(Timestamp::from_millis(ms as u64))
    }
}

impl IntoTimestamp for jiff::Timestamp {
    fn into_timestamp(self) -> Result<Timestamp, TimeError> {
        Timestamp::try_from(self)
    }
}

impl Timestamp {
    /// The time as a `jiff::Timestamp`, or `None` past jiff's last instant
    /// (9999-12-30T22:00:00Z).
    ///
    /// ```
    /// let id = kuuid::v7_at("2018-01-01T00:00:00.250Z")?;
    /// let t = id.timestamp().to_jiff().unwrap();
    /// assert_eq!(t.to_string(), "2018-01-01T00:00:00.25Z");
    /// assert_eq!(kuuid::Timestamp::try_from(t)?, id.timestamp());
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn to_jiff(self) -> Option<jiff::Timestamp> {
        jiff::Timestamp::from_millisecond(i64::try_from(self.as_millis()).ok()?).ok()
    }
}

#[cfg(test)]
mod tests {
    use crate::Timestamp;

    #[test]
    fn round_trips_and_ends_where_jiff_does() {
        for ms in [0, 1, 999, 1_514_764_800_123, 253_402_207_199_999] {
            let t = Timestamp::from_millis(ms);
            assert_eq!(Timestamp::try_from(t.to_jiff().unwrap()), Ok(t));
        }
        assert_eq!(Timestamp::from_millis(253_402_207_200_001).to_jiff(), None);
        assert_eq!(Timestamp::from_millis(u64::MAX).to_jiff(), None);
        let before = jiff::Timestamp::UNIX_EPOCH - jiff::SignedDuration::from_nanos(1);
        assert!(Timestamp::try_from(before).is_err());
    }
}
