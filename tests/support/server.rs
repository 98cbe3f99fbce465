//! For tests against a real server or tool that `.ci/run` provides: its
//! address comes from an environment variable, and without it a test says
//! why it skips and passes.
#![allow(dead_code)]

use std::fmt::Display;

/// Says why a test did not run, past the test harness's output capture
/// (which swallows `eprintln!` of passing tests).
pub fn skip(why: impl Display) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// The value of `var`, or `None` after saying that the test skips.
pub fn address(var: &str) -> Option<String> {
    let value = std::env::var(var).ok();
    if value.is_none() {
        skip(format_args!(
            "{var} is not set (.ci/run provides it and sets it)"
        ));
    }
    value
}
