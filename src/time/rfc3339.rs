//! RFC 3339 `date-time` text (section 5.6) to milliseconds since 1970.
//!
//! By hand rather than through a date crate: the grammar is a fixed-width
//! pattern, and the parser that came with jiff cost a hello world that
//! calls `kuuid::id()` 5 s of its 10 s clean build (issue 42, item 9).
//! Civil parts, not an instant type, so that the last day of 9999 in any
//! offset is read, and a leap second is refused rather than read as :59.

use super::{Refused, TimeError, Timestamp, days_from_civil};

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)`. RFC 3339 allows
/// `t`, `z` and (section 5.6's note) a space for `T`; digits beyond the
/// millisecond are dropped toward 1970, as everywhere in kuuid.
pub(super) fn parse(t: &str) -> Result<Timestamp, Refused> {
    let mut p = Cursor {
        b: t.as_bytes(),
        at: 0,
    };
    let year = p.digits(4, "a 4-digit year")?;
    p.byte(b'-', "'-' after the year")?;
    let month = p.digits(2, "a 2-digit month")?;
    p.byte(b'-', "'-' after the month")?;
    let day = p.digits(2, "a 2-digit day")?;
    if !matches!(p.next(), Some(b'T' | b't' | b' ')) {
        return Err(syntax("RFC 3339 needs a time and an offset (Z or +hh:mm)"));
    }
    let hour = p.digits(2, "a 2-digit hour")?;
    p.byte(b':', "':' after the hour")?;
    let minute = p.digits(2, "a 2-digit minute")?;
    p.byte(b':', "':' after the minute")?;
    let second = p.digits(2, "2-digit seconds")?;
    let mut millis = 0;
    if p.peek() == Some(b'.') {
        p.at += 1;
        let start = p.at;
        while p.peek().is_some_and(|b| b.is_ascii_digit()) {
            let place = p.at - start;
            if place < 3 {
                millis += i64::from(p.b[p.at] - b'0') * [100, 10, 1][place];
            }
            p.at += 1;
        }
        if p.at == start {
            return Err(syntax("a digit after the decimal point"));
        }
    }
    let offset = match p.next() {
        Some(b'Z' | b'z') => 0,
        Some(sign @ (b'+' | b'-')) => {
            let h = p.digits(2, "a 2-digit offset hour")?;
            p.byte(b':', "':' in the offset")?;
            let m = p.digits(2, "2-digit offset minutes")?;
            if h > 23 || m > 59 {
                return Err(syntax("the offset is out of range"));
            }
            let secs = h * 3600 + m * 60;
            if sign == b'-' { -secs } else { secs }
        }
        _ => {
            return Err(syntax("RFC 3339 needs a time and an offset (Z or +hh:mm)"));
        }
    };
    if p.at != p.b.len() {
        return Err(syntax("text after the offset"));
    }
    if second == 60 {
        return Err(Refused::Time(TimeError::LeapSecond {
            input: t.to_owned(),
        }));
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return Err(syntax("no such date"));
    }
    if hour > 23 || minute > 59 || second > 59 {
        return Err(syntax("no such time of day"));
    }
    let secs =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    u64::try_from(secs * 1000 + millis)
        .map(Timestamp::from_millis)
        .map_err(|_| Refused::Time(TimeError::BeforeEpoch))
}

fn syntax(reason: &str) -> Refused {
    Refused::Syntax(reason.to_owned())
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek();
        self.at += usize::from(b.is_some());
        b
    }

    fn byte(&mut self, want: u8, what: &str) -> Result<(), Refused> {
        match self.next() {
            Some(b) if b == want => Ok(()),
            _ => Err(syntax(&format!("expected {what}"))),
        }
    }

    /// Exactly `n` ASCII digits, as a number.
    fn digits(&mut self, n: usize, what: &str) -> Result<i64, Refused> {
        let mut value = 0;
        for _ in 0..n {
            match self.next() {
                Some(b @ b'0'..=b'9') => value = value * 10 + i64::from(b - b'0'),
                _ => return Err(syntax(&format!("expected {what}"))),
            }
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(t: &str) -> Option<u64> {
        parse(t).ok().map(Timestamp::as_millis)
    }

    proptest! {
        /// Every RFC 3339 time jiff reaches (it ends at 9999-12-30T22:00Z)
        /// reads as jiff reads it; fractions are cut to milliseconds
        /// toward 1970.
        #[test]
        fn agrees_with_jiff(
            y in 1970i64..=9999, mo in 1i64..=12, d in 1i64..=31,
            h in 0i64..=23, mi in 0i64..=59, s in 0i64..=59,
            frac in proptest::option::of("[0-9]{1,9}"),
            off in proptest::option::of((any::<bool>(), 0i64..=23, 0i64..=59)),
            t in prop::sample::select(vec!['T', 't', ' ']),
        ) {
            let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
            let off = match off {
                None => "Z".to_owned(),
                Some((neg, oh, om)) => format!("{}{oh:02}:{om:02}", if neg { '-' } else { '+' }),
            };
            let text = format!("{y:04}-{mo:02}-{d:02}{t}{h:02}:{mi:02}:{s:02}{frac}{off}");
            let theirs = text.parse::<jiff::Timestamp>();
            match theirs {
                Ok(j) if j.as_millisecond() >= 0 => {
                    prop_assert_eq!(ours(&text), Some(j.as_millisecond() as u64), "{}", text);
                }
                // Before 1970, or past jiff's end (then a valid date).
                Ok(_) => prop_assert!(parse(&text).is_err()),
                Err(_) if d > days_in_month(y, mo) => prop_assert!(ours(&text).is_none(), "{}", text),
                Err(_) => prop_assert!(y == 9999 && mo == 12 && d >= 30, "{}", text),
            }
        }

        /// Any text: an answer or a typed refusal, never a panic; and what
        /// is read is what jiff reads.
        #[test]
        fn never_panics_and_reads_only_what_jiff_reads(text in "[0-9:Tt.Zz+ -]{0,40}") {
            if let Some(ms) = ours(&text) {
                let j: jiff::Timestamp = text.parse().unwrap();
                prop_assert_eq!(j.as_millisecond() as u64, ms);
            }
        }
    }

    #[test]
    fn refusals_say_why() {
        let cases = [
            (
                "2018-01-01",
                "RFC 3339 needs a time and an offset (Z or +hh:mm)",
            ),
            (
                "2018-01-01T00:00:00",
                "RFC 3339 needs a time and an offset (Z or +hh:mm)",
            ),
            ("2018-02-29T00:00:00Z", "no such date"),
            ("2018-13-01T00:00:00Z", "no such date"),
            ("2018-01-01T24:00:00Z", "no such time of day"),
            ("2018-01-01T00:00:00+24:00", "the offset is out of range"),
            ("2018-01-01T00:00:00.Z", "a digit after the decimal point"),
            ("2018-01-01T00:00:00Zx", "text after the offset"),
            ("18-01-01T00:00:00Z", "expected a 4-digit year"),
        ];
        for (text, why) in cases {
            match parse(text) {
                Err(Refused::Syntax(reason)) => assert_eq!(reason, why, "{text}"),
                _ => panic!("{text} was not refused as syntax"),
            }
        }
        assert!(matches!(
            parse("2016-12-31T23:59:60Z"),
            Err(Refused::Time(TimeError::LeapSecond { .. }))
        ));
        assert!(matches!(
            parse("1969-12-31T23:59:59Z"),
            Err(Refused::Time(TimeError::BeforeEpoch))
        ));
        // Past jiff's end: the last day of 9999, west of Greenwich.
        let utc = ours("9999-12-31T23:59:59.999Z").unwrap();
        assert_eq!(
            ours("9999-12-31T23:59:59.999-23:59"),
            Some(utc + (23 * 3600 + 59 * 60) * 1000)
        );
    }
}
