//! The crates' rule for causes, as a check: an error's Display is the
//! whole message, and `source()` gives only what it did not print, so that
//! an anyhow or eyre report (each level's Display, then "Caused by" each
//! source) says every cause once.
#![allow(dead_code)]

/// Fails if any level of `e`'s chain repeats what an earlier one printed.
pub fn says_each_cause_once(e: &(dyn std::error::Error + 'static)) {
    let mut said: Vec<String> = Vec::new();
    let mut cur = Some(e);
    while let Some(level) = cur {
        let text = level.to_string();
        for earlier in &said {
            assert!(
                !earlier.contains(&text),
                "{text:?} said again after {earlier:?}"
            );
        }
        said.push(text);
        cur = level.source();
    }
}

/// An error with a message and a cause, printed without it (a driver's
/// error in the shape of tokio-postgres's).
#[derive(Debug)]
pub struct ChainedError(pub &'static str, pub std::io::Error);

impl std::fmt::Display for ChainedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ChainedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.1)
    }
}
