//! What `inspect` says beside a kuuid it cannot read, or reads as a time
//! no one minted: the format the text may be instead, the layout flags
//! that read it closest to now.

use kuuid::{AnyKuuid, Layout, Timestamp};

/// Why `text` is not a kuuid, and what it may be instead: a UUID a few
/// characters off (dashes), an ObjectId a few hex digits off, or this
/// CLI's own `--format couch-utc-id` (14 hex digits of microseconds, then
/// any suffix), which a kuuid of the same length may look like too, so the
/// shape alone cannot choose.
pub(super) fn kuuid_err(text: &[u8], e: &kuuid::ParseError) -> String {
    let hex = |t: &[u8]| t.iter().all(u8::is_ascii_hexdigit);
    let dashes = text.iter().filter(|&&b| b == b'-').count();
    let hint = if dashes >= 3 && text.len().abs_diff(36) <= 4 {
        " (a UUID? it has 36 characters: 8-4-4-4-12 hex digits)"
    } else if (20..=28).contains(&text.len()) && hex(text) {
        " (an ObjectId? it has 24 hex digits; a CouchDB utc_id? use --format couch-utc-id)"
    } else if text.len() >= 14 && hex(&text[..14]) {
        " (a CouchDB utc_id? use --format couch-utc-id)"
    } else {
        ""
    };
    format!("{e}{hint}")
}

/// Where a kuuid read with `--ms` as `ms` and `--reverse` as `reverse`
/// gives a time before 2000 or past year 9999, what to say: which way it
/// is off, and the other layout that reads it closest to now (with that
/// time, for the user to judge), if any reads it from 2000 to 9999.
pub(super) fn layout_hint(id: &AnyKuuid, ms: bool, reverse: bool) -> Option<String> {
    const Y2000: u64 = 946_684_800_000;
    let at = |ms, reverse| id.timestamp(Layout::from_flags(ms, reverse));
    let plausible = |t: Timestamp| t.as_millis() >= Y2000 && t.to_rfc3339().is_some();
    let t = at(ms, reverse);
    // The all-zero prefix is the least kuuid, a sentinel (range bounds,
    // test data), not a misread.
    if plausible(t) || id.prefix().value() == 0 {
        return None;
    }
    let when = if t.as_millis() < Y2000 {
        "before 2000"
    } else {
        "past year 9999"
    };
    let now = Timestamp::now().as_millis();
    let best = [(false, false), (true, false), (false, true), (true, true)]
        .into_iter()
        .filter(|&(m, r)| (m, r) != (ms, reverse) && plausible(at(m, r)))
        .min_by_key(|&(m, r)| at(m, r).as_millis().abs_diff(now));
    Some(match best {
        None => format!("reads as a time {when}, and in no other layout as one from 2000 to 9999"),
        Some((m, r)) => {
            let flags = match (m, r) {
                (false, false) => "without --ms and --reverse",
                (true, false) => "with --ms",
                (false, true) => "with --reverse",
                (true, true) => "with --ms --reverse",
            };
            format!("reads as a time {when}; read {flags} it is {}", at(m, r))
        }
    })
}
