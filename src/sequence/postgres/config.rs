//! A PostgreSQL connection string read as libpq reads it: `key=value`
//! pairs or a `postgres://` URL, with the `PG*` environment variables
//! filling what the string leaves out, libpq's `sslmode` values (all six)
//! and `sslrootcert`, and a connect timeout by default.

use std::path::PathBuf;
use std::time::Duration;

use tokio_postgres::config::Host;

/// The connect timeout when neither the string nor `PGCONNECT_TIMEOUT`
/// gives one (libpq waits forever; a counter service should not).
pub(super) const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// libpq's `sslmode`: how much TLS, and how much of the server's
/// certificate is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SslMode {
    /// No TLS.
    Disable,
    /// TLS if the server offers it; nothing checked (libpq's `allow` and
    /// `prefer`, the default).
    Prefer,
    /// TLS; the certificate is not checked (checked as `verify-ca` when a
    /// root certificate is given, as libpq does).
    Require,
    /// TLS; the certificate chains to the root certificate.
    VerifyCa,
    /// TLS; as `VerifyCa`, and the certificate names the host.
    VerifyFull,
}

impl SslMode {
    fn parse(s: &str) -> Result<Self, String> {
        Ok(match s {
            "disable" => SslMode::Disable,
            "allow" | "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => {
                return Err(format!(
                    "sslmode {other:?}: expected disable, allow, prefer, require, verify-ca or verify-full"
                ));
            }
        })
    }
}

/// What a connection needs: the driver's config, and the TLS settings the
/// driver does not read itself.
#[derive(Clone, Debug)]
pub(super) struct Target {
    pub(super) config: tokio_postgres::Config,
    pub(super) ssl: SslMode,
    /// `sslrootcert`, for the TLS connector.
    #[cfg_attr(not(feature = "postgres-tls"), allow(dead_code))]
    pub(super) root_cert: Option<PathBuf>,
}

impl Target {
    /// The first host and port, for messages (`host:port` or the socket
    /// directory).
    pub(super) fn describe(&self) -> String {
        let host = match self.config.get_hosts().first() {
            Some(Host::Tcp(h)) => h.clone(),
            #[cfg(unix)]
            Some(Host::Unix(p)) => p.display().to_string(),
            None => "?".into(),
        };
        let port = self.config.get_ports().first().copied().unwrap_or(5432);
        format!("{host}:{port}")
    }
}

/// Reads `text` (libpq's `key=value` form or a URL), then fills what it
/// leaves out from `env` (the `PG*` variables), then libpq's defaults.
pub(super) fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Target, String> {
    let (rest, ssl, root_cert) = take_tls_keys(text)?;
    let mut config: tokio_postgres::Config = rest
        .parse()
        .map_err(|e: tokio_postgres::Error| format!("connection string: {e}"))?;
    if config.get_hosts().is_empty() {
        let host = env("PGHOST").unwrap_or_else(default_host);
        for h in host.split(',') {
            config.host(h);
        }
    }
    if config.get_ports().is_empty()
        && let Some(port) = env("PGPORT")
    {
        let port = port
            .parse()
            .map_err(|_| format!("PGPORT {port:?} is not a port number"))?;
        config.port(port);
    }
    if config.get_user().is_none() {
        let user = env("PGUSER")
            .or_else(|| std::env::var("USER").ok())
            .ok_or("no user: give user= in the connection string or PGUSER")?;
        config.user(user);
    }
    if config.get_password().is_none()
        && let Some(p) = env("PGPASSWORD")
    {
        config.password(p);
    }
    if config.get_dbname().is_none()
        && let Some(d) = env("PGDATABASE")
    {
        config.dbname(d);
    }
    if config.get_application_name().is_none() {
        config.application_name(env("PGAPPNAME").unwrap_or_else(|| "kuuid".into()));
    }
    if config.get_connect_timeout().is_none() {
        let timeout = match env("PGCONNECT_TIMEOUT") {
            Some(s) => {
                let secs: u64 = s
                    .parse()
                    .map_err(|_| format!("PGCONNECT_TIMEOUT {s:?} is not a number of seconds"))?;
                // libpq: 0 waits forever, and less than 2 s means 2 s.
                Duration::from_secs(if secs == 0 { 60 * 60 * 24 } else { secs.max(2) })
            }
            None => DEFAULT_CONNECT_TIMEOUT,
        };
        config.connect_timeout(timeout);
    }
    let ssl = match ssl {
        Some(s) => s,
        None => env("PGSSLMODE").map_or(Ok(SslMode::Prefer), |s| SslMode::parse(&s))?,
    };
    let root_cert = root_cert.or_else(|| env("PGSSLROOTCERT").map(PathBuf::from));
    if matches!(ssl, SslMode::VerifyCa | SslMode::VerifyFull) && root_cert.is_none() {
        return Err(format!(
            "sslmode {}: give the server's root certificate with sslrootcert= (or PGSSLROOTCERT)",
            if ssl == SslMode::VerifyCa {
                "verify-ca"
            } else {
                "verify-full"
            }
        ));
    }
    config.ssl_mode(match ssl {
        SslMode::Disable => tokio_postgres::config::SslMode::Disable,
        SslMode::Prefer => tokio_postgres::config::SslMode::Prefer,
        _ => tokio_postgres::config::SslMode::Require,
    });
    Ok(Target {
        config,
        ssl,
        root_cert,
    })
}

/// libpq's default host: its socket directory where it exists (Debian's),
/// else the loopback address.
fn default_host() -> String {
    let dir = "/var/run/postgresql";
    if cfg!(unix) && std::path::Path::new(dir).is_dir() {
        dir.into()
    } else {
        "localhost".into()
    }
}

/// Takes `sslmode` and `sslrootcert` out of the string (the driver knows
/// only three `sslmode` values and no `sslrootcert`); returns the rest.
#[allow(clippy::type_complexity)]
fn take_tls_keys(text: &str) -> Result<(String, Option<SslMode>, Option<PathBuf>), String> {
    let mut ssl = None;
    let mut root = None;
    let mut take = |key: &str, value: &str| -> Result<bool, String> {
        match key {
            "sslmode" => ssl = Some(SslMode::parse(value)?),
            "sslrootcert" => root = Some(PathBuf::from(value)),
            _ => return Ok(false),
        }
        Ok(true)
    };
    let rest = if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        match text.split_once('?') {
            None => text.to_owned(),
            Some((base, query)) => {
                let mut kept = Vec::new();
                for pair in query.split('&') {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    if !take(k, &percent_decode(v)?)? {
                        kept.push(pair);
                    }
                }
                if kept.is_empty() {
                    base.to_owned()
                } else {
                    format!("{base}?{}", kept.join("&"))
                }
            }
        }
    } else {
        let mut kept = Vec::new();
        for (k, v, raw) in pairs(text)? {
            if !take(&k, &v)? {
                kept.push(raw);
            }
        }
        kept.join(" ")
    };
    Ok((rest, ssl, root))
}

/// `key = value` pairs of libpq's form: values bare, or in single quotes
/// with `\'` and `\\` escapes. Each with its raw text, to pass on.
fn pairs(text: &str) -> Result<Vec<(String, String, String)>, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let skip_space = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_space(&mut i);
        if i == b.len() {
            return Ok(out);
        }
        let start = i;
        while i < b.len() && b[i] != b'=' && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = text[start..i].to_owned();
        skip_space(&mut i);
        if i == b.len() || b[i] != b'=' {
            return Err(format!("connection string: {key:?} has no value"));
        }
        i += 1;
        skip_space(&mut i);
        let mut value = String::new();
        if i < b.len() && b[i] == b'\'' {
            i += 1;
            loop {
                match b.get(i) {
                    None => return Err(format!("connection string: {key:?} has no closing quote")),
                    Some(b'\'') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') if i + 1 < b.len() => {
                        value.push(b[i + 1] as char);
                        i += 2;
                    }
                    Some(_) => {
                        let c = text[i..].chars().next().expect("in bounds");
                        value.push(c);
                        i += c.len_utf8();
                    }
                }
            }
        } else {
            let v0 = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            value = text[v0..i].to_owned();
        }
        out.push((key, value, text[start..i].to_owned()));
    }
}

fn percent_decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("connection string: bad escape in {s:?}"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("connection string: {s:?} is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    #[test]
    fn the_environment_fills_what_the_string_leaves_out() {
        let t = parse(
            "host=db.example dbname=app",
            env(&[
                ("PGUSER", "postgres"),
                ("PGPORT", "6543"),
                ("PGPASSWORD", "pw"),
                ("PGDATABASE", "ignored"),
                ("PGAPPNAME", "svc"),
                ("PGCONNECT_TIMEOUT", "3"),
                ("PGSSLMODE", "require"),
            ]),
        )
        .unwrap();
        assert_eq!(t.config.get_user(), Some("postgres"));
        assert_eq!(t.config.get_ports(), [6543]);
        assert_eq!(t.config.get_password(), Some(&b"pw"[..]));
        assert_eq!(t.config.get_dbname(), Some("app"));
        assert_eq!(t.config.get_application_name(), Some("svc"));
        assert_eq!(
            t.config.get_connect_timeout(),
            Some(&Duration::from_secs(3))
        );
        assert_eq!(t.ssl, SslMode::Require);
        assert_eq!(t.describe(), "db.example:6543");
    }

    #[test]
    fn the_string_wins_and_defaults_hold() {
        let t = parse(
            "host=h port=1 user=u application_name=a sslmode=disable connect_timeout=5",
            env(&[("PGUSER", "x"), ("PGPORT", "2"), ("PGSSLMODE", "require")]),
        )
        .unwrap();
        assert_eq!(t.config.get_user(), Some("u"));
        assert_eq!(t.config.get_ports(), [1]);
        assert_eq!(t.ssl, SslMode::Disable);
        assert_eq!(
            t.config.get_connect_timeout(),
            Some(&Duration::from_secs(5))
        );
        let t = parse("host=h user=u", env(&[])).unwrap();
        assert_eq!(
            t.config.get_connect_timeout(),
            Some(&DEFAULT_CONNECT_TIMEOUT)
        );
        assert_eq!(t.ssl, SslMode::Prefer);
        assert_eq!(t.config.get_application_name(), Some("kuuid"));
    }

    #[test]
    fn tls_keys_are_read_in_both_forms() {
        let t = parse(
            "host=h user=u sslmode=verify-full sslrootcert='/tmp/my root.crt'",
            env(&[]),
        )
        .unwrap();
        assert_eq!(t.ssl, SslMode::VerifyFull);
        assert_eq!(t.root_cert, Some(PathBuf::from("/tmp/my root.crt")));
        let t = parse(
            "postgres://u@h:7/d?sslmode=verify-ca&sslrootcert=%2Ftmp%2Fr.crt&application_name=z",
            env(&[]),
        )
        .unwrap();
        assert_eq!(t.ssl, SslMode::VerifyCa);
        assert_eq!(t.root_cert, Some(PathBuf::from("/tmp/r.crt")));
        assert_eq!(t.config.get_application_name(), Some("z"));
        assert_eq!(t.config.get_ports(), [7]);
    }

    #[test]
    fn bad_values_say_what_is_wrong() {
        let e = parse("host=h user=u sslmode=sometimes", env(&[])).unwrap_err();
        assert!(e.contains("verify-full"), "{e}");
        let e = parse("host=h user=u sslmode=verify-full", env(&[])).unwrap_err();
        assert!(e.contains("sslrootcert"), "{e}");
        let e = parse("host=h user=u", env(&[("PGPORT", "x")])).unwrap_err();
        assert!(e.contains("PGPORT"), "{e}");
        let e = parse("host=h user='u", env(&[])).unwrap_err();
        assert!(e.contains("closing quote"), "{e}");
    }
}
