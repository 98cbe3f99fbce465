//! [`V7GeneratorAt`]: UUIDv7s carrying a given time, strictly increasing,
//! and an error where the 48-bit millisecond runs out.

use super::super::sequence::{COUNTER_BITS, fill_runs};
use super::state::from_sequence;
use super::{MAX_UNIX_MILLIS, Uuid7, at};
use crate::time::{IntoTimestamp, TimeError, TimeField};

/// One past the last sequence value (`ms << 22 | counter`) a UUIDv7 holds:
/// the counter of the last millisecond used up.
const END: u128 = (MAX_UNIX_MILLIS as u128 + 1) << COUNTER_BITS;

/// UUIDv7s that carry time `t` instead of now (test data, back-fills): a
/// random counter start in `t`'s millisecond, then +1 an id, so its ids are
/// strictly increasing. After 2^21 ids at least the counter carries into
/// the next millisecond, as the sequence of ids minted now does; at the
/// last millisecond a UUIDv7 holds (2^48 - 1, in the year 10889) there is
/// no next one, and [`generate`](Self::generate) and
/// [`fill`](Self::fill) fail with [`TimeError::OutOfRange`] instead of
/// wrapping out of order.
///
/// Unlike ids minted now ([`V7Generator`](crate::V7Generator)), these are
/// unique only within the generator: another generator at the same time
/// starts at another random counter, and 52 random bits follow the counter
/// in each id.
///
/// ```
/// let mut g = kuuid::V7GeneratorAt::new("2024-01-01T00:00:00Z")?;
/// let ids: Vec<_> = (0..1000).map(|_| g.generate()).collect::<Result<_, _>>()?;
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// assert_eq!(ids[0].timestamp().to_string(), "2024-01-01T00:00:00Z");
/// # Ok::<(), kuuid::TimeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct V7GeneratorAt {
    /// The next sequence value, `ms << 22 | counter`.
    next: u128,
}

impl V7GeneratorAt {
    /// A generator at `t`; fails past the 48-bit millisecond range.
    ///
    /// ```
    /// use kuuid::{TimeError, TimeField, V7GeneratorAt};
    /// assert!(V7GeneratorAt::new(1_700_000_000_000u64).is_ok());
    /// let e = V7GeneratorAt::new(1u64 << 48).unwrap_err();
    /// assert!(matches!(e, TimeError::OutOfRange { field: TimeField::Uuid7, .. }));
    /// ```
    pub fn new(t: impl IntoTimestamp) -> Result<Self, TimeError> {
        let first = at(t.into_timestamp()?)?;
        Ok(V7GeneratorAt {
            next: u128::from(first.timestamp().as_millis()) << COUNTER_BITS
                | u128::from(first.counter()),
        })
    }

    /// The next id: strictly after this generator's previous ones; an
    /// error, and no id, when none is left in the last millisecond.
    ///
    /// ```
    /// // The last millisecond: at least 2^21 ids, then an error.
    /// let mut g = kuuid::V7GeneratorAt::new((1u64 << 48) - 1)?;
    /// let mut last = g.generate()?;
    /// let mut n = 1u64;
    /// let err = loop {
    ///     match g.generate() {
    ///         Ok(id) => { assert!(last < id); last = id; n += 1 }
    ///         Err(e) => break e,
    ///     }
    /// };
    /// assert!(n >= 1 << 21 && n <= 1 << 22, "{n}");
    /// assert!(err.to_string().contains("48-bit"), "{err}");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn generate(&mut self) -> Result<Uuid7, TimeError> {
        self.take(1)?;
        Ok(from_sequence(self.next - 1, crate::local::random_u64()))
    }

    /// Fills `ids`, strictly increasing along the slice and after this
    /// generator's previous ids; when fewer ids are left in the last
    /// millisecond than `ids` holds, an error, and `ids` untouched.
    ///
    /// ```
    /// let mut g = kuuid::V7GeneratorAt::new("2024-01-01T00:00:00Z")?;
    /// let first = g.generate()?;
    /// let mut ids = [kuuid::Uuid7::MIN; 100];
    /// g.fill(&mut ids)?;
    /// assert!(first < ids[0] && ids.windows(2).all(|w| w[0] < w[1]));
    /// assert!(ids[99] < g.generate()?);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn fill(&mut self, ids: &mut [Uuid7]) -> Result<(), TimeError> {
        let mut next = self.next;
        self.take(ids.len() as u128)?;
        let first_of = |len| {
            next += u128::from(len);
            next - u128::from(len)
        };
        fill_runs(ids, first_of, Uuid7::build);
        Ok(())
    }

    /// Takes `n` sequence values, or none when fewer are left.
    fn take(&mut self, n: u128) -> Result<(), TimeError> {
        if END - self.next < n {
            // The ids would need the millisecond after the last.
            return Err(TimeError::OutOfRange {
                field: TimeField::Uuid7,
                millis: MAX_UNIX_MILLIS + 1,
            });
        }
        self.next += n;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last two milliseconds: every id strictly increasing until the
    /// last millisecond's counter is used up, then errors (issue 63, item
    /// 8: the counter wrapped inside the last millisecond, silently).
    #[test]
    fn the_last_milliseconds_end_in_an_error_not_a_wrap() {
        for ms in [MAX_UNIX_MILLIS - 1, MAX_UNIX_MILLIS] {
            let mut g = V7GeneratorAt::new(ms).unwrap();
            let mut ids = vec![Uuid7::MIN; 1 << 16];
            let mut last = Uuid7::MIN;
            let mut n = 0u64;
            while g.fill(&mut ids).is_ok() {
                assert!(last < ids[0], "after {n} ids");
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "after {n} ids");
                last = *ids.last().unwrap();
                n += ids.len() as u64;
            }
            // What is left is less than a slice: taken one by one.
            while let Ok(id) = g.generate() {
                assert!(last < id, "after {n} ids");
                last = id;
                n += 1;
            }
            assert_eq!(last.timestamp().as_millis(), MAX_UNIX_MILLIS);
            assert_eq!(last.counter(), (1 << COUNTER_BITS) - 1);
            // The starts are below 2^21: at least 2^21 ids a millisecond.
            let ms_count = MAX_UNIX_MILLIS + 1 - ms;
            assert!(n > (ms_count - 1) << COUNTER_BITS | 1 << 21, "{ms}: {n}");
            assert!(n <= ms_count << COUNTER_BITS, "{ms}: {n}");
            let e = g.generate().unwrap_err();
            assert_eq!(
                e,
                TimeError::OutOfRange {
                    field: TimeField::Uuid7,
                    millis: MAX_UNIX_MILLIS + 1
                }
            );
            // A refused fill writes nothing.
            let mut one = [Uuid7::MIN; 1];
            assert!(g.fill(&mut one).is_err());
            assert_eq!(one, [Uuid7::MIN]);
        }
    }
}
