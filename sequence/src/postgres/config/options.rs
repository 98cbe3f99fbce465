//! The server settings in libpq's `options` (the backend's command-line
//! switches, `-c name=value` and `--name=value`), read as the server reads
//! them: split at white space not escaped with `\`, names compared without
//! case and with `-` as `_`.

/// Whether `options` sets the server setting `name` (lower case, `_`).
pub(in super::super) fn sets(options: &str, name: &str) -> bool {
    let words = words(options);
    let mut words = words.iter().map(String::as_str);
    while let Some(w) = words.next() {
        let setting = if w == "-c" {
            words.next()
        } else if let Some(s) = w.strip_prefix("--") {
            Some(s)
        } else {
            w.strip_prefix("-c")
        };
        if let Some((n, _)) = setting.and_then(|s| s.split_once('='))
            && n.len() == name.len()
            && n.bytes()
                .zip(name.bytes())
                .all(|(a, b)| a.to_ascii_lowercase() == b || (a == b'-' && b == b'_'))
        {
            return true;
        }
    }
    false
}

/// `options` split as the server splits it: at white space, a `\` taking
/// the next character as it is.
fn words(options: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = options.chars();
    while let Some(c) = chars.next() {
        if c.is_ascii_whitespace() {
            out.extend(cur.take());
            continue;
        }
        let c = if c == '\\' {
            chars.next().unwrap_or('\\')
        } else {
            c
        };
        cur.get_or_insert_with(String::new).push(c);
    }
    out.extend(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_is_found_in_every_spelling_the_server_reads() {
        for options in [
            "-c statement_timeout=5s",
            "-cstatement_timeout=5s",
            "--statement_timeout=5s",
            "--statement-timeout=5s",
            "-c Statement_Timeout=0",
            "-c search_path=x -c statement_timeout=1",
            "  -c\tstatement_timeout=1  ",
        ] {
            assert!(sets(options, "statement_timeout"), "{options}");
        }
    }

    /// The trial's: a schema named `statement_timeout_s` turned the
    /// server-side timeout off when `options` was searched as text.
    #[test]
    fn a_value_or_a_longer_name_is_not_the_setting() {
        for options in [
            "-c search_path=statement_timeout_s",
            "-c statement_timeout_s=1",
            "-c search_path=statement_timeout=1",
            "-c search_path=a\\ -c\\ statement_timeout=1",
            "statement_timeout=1",
            "-c statement_timeout",
            "",
        ] {
            assert!(!sets(options, "statement_timeout"), "{options}");
        }
    }
}
