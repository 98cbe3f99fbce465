//! Counts (`-n`/`--count`, and every other flag that counts: `bench -n`,
//! `seq --block`, `--shards`, `--shard-size`): how many, read as a user
//! writes it (`1000000`, `1e6`, `10^6`), and a negative or fractional
//! count refused with what a count is.

/// What the error says a count is.
const TAKES: &str = "a whole number, 0 or more: 1000000, 1e6 or 10^6";

/// Parses a count up to `u64::MAX`.
pub fn parse(text: &str) -> Result<u64, String> {
    let refuse = || format!("{text:?} is not a count: a count is {TAKES}");
    if let Ok(n) = text.parse::<u64>() {
        return Ok(n);
    }
    // Digits alone that do not fit: the one message for a count too large.
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(past(text, u64::MAX));
    }
    // m e k and b ^ k: exact integers only.
    let (mantissa, base, exp) = if let Some((m, e)) = text.split_once(['e', 'E']) {
        (m, 10u64, e)
    } else if let Some((b, e)) = text.split_once('^') {
        ("1", b.parse::<u64>().map_err(|_| refuse())?, e)
    } else {
        return Err(refuse());
    };
    let m: u64 = mantissa.parse().map_err(|_| refuse())?;
    let e: u32 = exp.parse().map_err(|_| refuse())?;
    base.checked_pow(e)
        .and_then(|p| m.checked_mul(p))
        .ok_or_else(|| past(text, u64::MAX))
}

/// The one message for a count too large, whichever limit it passed.
fn past(text: &str, max: u64) -> String {
    format!("{text:?} is past the largest count here, {max}")
}

/// [`parse`] for a count held in a `usize`.
pub fn parse_usize(text: &str) -> Result<usize, String> {
    let n = parse(text)?;
    usize::try_from(n).map_err(|_| past(text, usize::MAX as u64))
}

/// [`parse`], for a flag whose counts run `lo..=hi`.
pub fn within(lo: u64, hi: u64) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync {
    move |text| match parse(text)? {
        n if n > hi => Err(past(text, hi)),
        n if n < lo => Err(format!("{text:?} is below the smallest count here, {lo}")),
        n => Ok(n),
    }
}

/// [`within`], for a flag held in a narrower integer (`hi` fits `T`).
pub fn within_as<T: TryFrom<u64>>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync {
    let read = within(lo, hi);
    move |text| read(text).and_then(|n| T::try_from(n).map_err(|_| past(text, hi)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_users_write_and_refuses_the_rest() {
        assert_eq!(parse("1000000"), Ok(1_000_000));
        assert_eq!(parse("1e6"), Ok(1_000_000));
        assert_eq!(parse("5e7"), Ok(50_000_000));
        assert_eq!(parse("10^12"), Ok(1_000_000_000_000));
        assert_eq!(parse("0"), Ok(0));
        for bad in ["-1", "1.5", "1e-3", "x", "", "2^", "1e99"] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(&format!("{bad:?}")), "{e}");
        }
        assert!(
            parse("-1")
                .unwrap_err()
                .contains("a count is a whole number")
        );
        assert_eq!(within(1, 1000)("1e3"), Ok(1000));
        // Too large is one message, in digits or with an exponent.
        assert_eq!(
            parse("99999999999999999999999"),
            Err(past("99999999999999999999999", u64::MAX))
        );
        assert_eq!(parse("1e30"), Err(past("1e30", u64::MAX)));
        assert_eq!(within_as::<u8>(1, 4)("4"), Ok(4u8));
        assert!(
            within_as::<u8>(1, 4)("-1")
                .unwrap_err()
                .contains("a count is")
        );
        assert!(
            within(1, 1000)("1e4")
                .unwrap_err()
                .contains("past the largest count here, 1000")
        );
        assert!(
            within(1, 1000)("0")
                .unwrap_err()
                .contains("below the smallest count here, 1")
        );
    }
}
