//! Where "now" comes from.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since 1970 by the wall clock; 0 if the clock reads earlier.
pub(crate) fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
