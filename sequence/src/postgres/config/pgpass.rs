//! libpq's password file (`passfile`, `PGPASSFILE`, `~/.pgpass`): lines of
//! `hostname:port:database:username:password`, the first four a literal
//! or `*`, `\:` and `\\` escaped; the first line that matches gives the
//! password. As libpq: a file others may read is ignored (Unix), and
//! `localhost` also matches a connection over the default socket directory.

use std::path::Path;

/// What a connection needs a password for.
pub(super) struct Want<'a> {
    /// The host as given (a name, an address, or a socket directory).
    pub host: &'a str,
    pub port: u16,
    pub dbname: &'a str,
    pub user: &'a str,
}

/// Socket directories libpq builds in (upstream's and Debian's).
const DEFAULT_SOCKET_DIRS: &[&str] = &["/tmp", "/var/run/postgresql", "/run/postgresql"];

/// The password for `want` in the file at `path`; `None` if the file is
/// missing, not a plain file, readable by others, or has no line for it.
pub(super) fn lookup(path: &Path, want: &Want<'_>) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || readable_by_others(&meta) {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    find(&text, want)
}

#[cfg(unix)]
fn readable_by_others(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o077 != 0
}

#[cfg(not(unix))]
fn readable_by_others(_: &std::fs::Metadata) -> bool {
    false
}

/// The first line of `text` that matches `want`.
fn find(text: &str, want: &Want<'_>) -> Option<String> {
    let host = if want.host.starts_with('/') && DEFAULT_SOCKET_DIRS.contains(&want.host) {
        "localhost"
    } else {
        want.host
    };
    let port = want.port.to_string();
    let wanted = [host, port.as_str(), want.dbname, want.user];
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .find_map(|line| {
            let fields = split(line)?;
            let matches = fields[..4]
                .iter()
                .zip(wanted)
                .all(|(f, w)| f == "*" || f == w);
            matches.then(|| fields[4].clone())
        })
}

/// The five fields of a line (the fifth is the rest), unescaped.
fn split(line: &str) -> Option<[String; 5]> {
    let mut fields: [String; 5] = Default::default();
    let mut n = 0;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields[n].push(chars.next().unwrap_or('\\')),
            ':' if n < 4 => n += 1,
            c => fields[n].push(c),
        }
    }
    (n == 4).then_some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# comment line\n\
        db.example:5432:app:alice:first\n\
        *:*:*:alice:wild\n\
        localhost:6000:*:bob:local\\:colon\n\
        h:1:d:esc\\\\aped:x\n";

    fn want<'a>(host: &'a str, port: u16, user: &'a str) -> Want<'a> {
        Want {
            host,
            port,
            dbname: "app",
            user,
        }
    }

    #[test]
    fn the_first_matching_line_wins() {
        assert_eq!(
            find(FILE, &want("db.example", 5432, "alice")).as_deref(),
            Some("first")
        );
        assert_eq!(
            find(FILE, &want("other", 5432, "alice")).as_deref(),
            Some("wild")
        );
        assert_eq!(find(FILE, &want("other", 5432, "carol")), None);
    }

    #[test]
    fn escapes_and_the_default_socket_directory() {
        assert_eq!(
            find(FILE, &want("/var/run/postgresql", 6000, "bob")).as_deref(),
            Some("local:colon")
        );
        assert_eq!(
            find(FILE, &want("localhost", 6000, "bob")).as_deref(),
            Some("local:colon")
        );
        assert_eq!(find(FILE, &want("/srv/sock", 6000, "bob")), None);
        let w = Want {
            host: "h",
            port: 1,
            dbname: "d",
            user: "esc\\aped",
        };
        assert_eq!(find(FILE, &w).as_deref(), Some("x"));
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_can_read_is_ignored() {
        use std::os::unix::fs::PermissionsExt;
        let path = std::env::temp_dir().join(format!("kuuid-pgpass-{}", std::process::id()));
        std::fs::write(&path, "*:*:*:*:secret\n").unwrap();
        let w = want("h", 1, "u");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(lookup(&path, &w).as_deref(), Some("secret"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(lookup(&path, &w), None);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(lookup(&path, &w), None);
    }
}
