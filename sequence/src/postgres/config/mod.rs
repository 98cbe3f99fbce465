//! A PostgreSQL connection string read as libpq reads it: `key=value`
//! pairs or a `postgres://` URL (`conninfo`), the `PG*` environment
//! variables filling what the string leaves out, the password file
//! (`pgpass`), libpq's `sslmode` values (all six), its TLS files
//! (`sslrootcert`, `system` included; `sslcert` and `sslkey`) and their
//! defaults under `~/.postgresql`, and a connect timeout by default.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio_postgres::config::Host;

mod conninfo;
mod options;
mod pgpass;

pub(super) use options::sets as options_set;

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
            // The value is not shown: values are never quoted (a
            // misplaced one may be a secret).
            _ => {
                return Err(
                    "sslmode: not one of disable, allow, prefer, require, verify-ca or verify-full (its value not shown)"
                        .to_owned(),
                );
            }
        })
    }
}

/// Where the trusted roots come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Roots {
    /// A PEM file (`sslrootcert`, `PGSSLROOTCERT`, `~/.postgresql/root.crt`).
    File(PathBuf),
    /// The TLS library's trust store (`sslrootcert=system`): the OS's
    /// roots, or those of `SSL_CERT_FILE` / `SSL_CERT_DIR` when set.
    System,
}

/// A client certificate and its key (PEM files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ClientCert {
    pub(super) cert: PathBuf,
    pub(super) key: PathBuf,
}

/// What a connection needs: the driver's config, and the TLS settings the
/// driver does not read itself.
#[derive(Clone, Debug)]
pub(super) struct Target {
    pub(super) config: tokio_postgres::Config,
    pub(super) ssl: SslMode,
    /// The roots the server's certificate must chain to, if checked.
    #[cfg_attr(not(feature = "postgres-tls"), allow(dead_code))]
    pub(super) roots: Option<Roots>,
    /// The certificate to show the server, if any.
    #[cfg_attr(not(feature = "postgres-tls"), allow(dead_code))]
    pub(super) client_cert: Option<ClientCert>,
    /// One config a host, in the order to try them, when the password
    /// file gives the hosts different passwords (the driver has one
    /// password for all); empty otherwise.
    per_host: Vec<tokio_postgres::Config>,
}

impl Target {
    /// The configs to try in turn, until one connects: one for every host,
    /// or [`config`](Self::config) with them all.
    pub(super) fn attempts(&self) -> &[tokio_postgres::Config] {
        if self.per_host.is_empty() {
            std::slice::from_ref(&self.config)
        } else {
            &self.per_host
        }
    }

    /// The first host and port, for messages: `host:port`, or the socket
    /// file itself (`DIR/.s.PGSQL.PORT`, as libpq names it), so that a
    /// socket that is not there is named.
    pub(super) fn describe(&self) -> String {
        let port = self.config.get_ports().first().copied().unwrap_or(5432);
        match self.config.get_hosts().first() {
            Some(Host::Tcp(h)) => format!("{h}:{port}"),
            #[cfg(unix)]
            Some(Host::Unix(p)) => format!("{}", p.join(format!(".s.PGSQL.{port}")).display()),
            None => format!("?:{port}"),
        }
    }
}

/// Reads `text` (libpq's `key=value` form or a URL), then fills what it
/// leaves out from `env` (the `PG*` variables, and `HOME` for the files
/// under it), then libpq's defaults.
pub(super) fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Target, String> {
    let pairs = conninfo::pairs(text)?;
    // A later pair overrides an earlier one, as in libpq.
    let get = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let mut config: tokio_postgres::Config =
        conninfo::driver_string(&pairs)
            .parse()
            .map_err(|e: tokio_postgres::Error| {
                let cause = std::error::Error::source(&e).map_or(e.to_string(), |c| c.to_string());
                format!("connection string: {cause}")
            })?;
    if config.get_hosts().is_empty() {
        let host = env("PGHOST").unwrap_or_else(default_host);
        for h in host.split(',') {
            config.host(h);
        }
    }
    if config.get_ports().is_empty()
        && let Some(port) = env("PGPORT")
    {
        let port = port.parse().map_err(|_| {
            "PGPORT is not a port number (1..=65535; its value not shown)".to_owned()
        })?;
        config.port(port);
    }
    if config.get_user().is_none() {
        let user = env("PGUSER")
            .or_else(|| env("USER"))
            .ok_or("no user: give user= in the connection string or PGUSER")?;
        config.user(user);
    }
    if config.get_dbname().is_none()
        && let Some(d) = env("PGDATABASE")
    {
        config.dbname(d);
    }
    if config.get_password().is_none()
        && let Some(p) = env("PGPASSWORD")
    {
        config.password(p);
    }
    // The password file's, looked up for each host, as libpq does.
    let mut from_file = Vec::new();
    if config.get_password().is_none() {
        let file = get("passfile")
            .or_else(|| env("PGPASSFILE"))
            .map(PathBuf::from)
            .or_else(|| home_file(&env, PASSFILE));
        if let Some(file) = file {
            from_file = passwords_from(&file, &config);
        }
        if from_file.windows(2).all(|w| w[0] == w[1]) {
            if let Some(Some(p)) = from_file.first() {
                config.password(p);
            }
            from_file.clear();
        }
    }
    if config.get_application_name().is_none() {
        let name = get("fallback_application_name")
            .or_else(|| env("PGAPPNAME"))
            .unwrap_or_else(|| "kuuid".into());
        config.application_name(name);
    }
    let timeout = match get("connect_timeout").or_else(|| env("PGCONNECT_TIMEOUT")) {
        Some(s) => {
            let secs: u64 = s
                .trim()
                .parse()
                .map_err(|_| {
                    "connect_timeout (or PGCONNECT_TIMEOUT) is not a number of seconds (its value not shown)"
                        .to_owned()
                })?;
            // libpq: 0 waits forever, and less than 2 s means 2 s.
            Duration::from_secs(if secs == 0 { 60 * 60 * 24 } else { secs.max(2) })
        }
        None => DEFAULT_CONNECT_TIMEOUT,
    };
    config.connect_timeout(timeout);
    let roots = match get("sslrootcert").or_else(|| env("PGSSLROOTCERT")) {
        Some(s) if s == "system" => Some(Roots::System),
        Some(s) => Some(Roots::File(PathBuf::from(s))),
        None => home_file(&env, ROOT_CERT)
            .filter(|p| p.is_file())
            .map(Roots::File),
    };
    let ssl = match get("sslmode").or_else(|| env("PGSSLMODE")) {
        Some(s) => SslMode::parse(&s)?,
        // libpq: the system's roots make verify-full the default.
        None if roots == Some(Roots::System) => SslMode::VerifyFull,
        None => SslMode::Prefer,
    };
    if roots == Some(Roots::System) && ssl != SslMode::VerifyFull {
        return Err(format!(
            "sslrootcert=system needs sslmode verify-full (given: {}): anyone can get a certificate the system trusts for a name they own",
            mode_name(ssl)
        ));
    }
    if matches!(ssl, SslMode::VerifyCa | SslMode::VerifyFull) && roots.is_none() {
        return Err(format!(
            "sslmode {}: give the server's root certificate with sslrootcert= (or PGSSLROOTCERT, \
             ~/.postgresql/root.crt), or sslrootcert=system",
            mode_name(ssl)
        ));
    }
    let client_cert = client_cert(&get, &env)?;
    config.ssl_mode(match ssl {
        SslMode::Disable => tokio_postgres::config::SslMode::Disable,
        SslMode::Prefer => tokio_postgres::config::SslMode::Prefer,
        _ => tokio_postgres::config::SslMode::Require,
    });
    let per_host = if from_file.is_empty() {
        Vec::new()
    } else {
        one_per_host(&pairs, &config, &from_file)?
    };
    Ok(Target {
        config,
        ssl,
        roots,
        client_cert,
        per_host,
    })
}

/// `config` split into one config a host (with its port and address), each
/// with the password the file gives that host; in the order libpq tries
/// them (shuffled under `load_balance_hosts=random`).
fn one_per_host(
    pairs: &[(String, String)],
    config: &tokio_postgres::Config,
    passwords: &[Option<String>],
) -> Result<Vec<tokio_postgres::Config>, String> {
    let (ports, addrs) = (config.get_ports(), config.get_hostaddrs());
    let mut out = Vec::new();
    for (i, host) in config.get_hosts().iter().enumerate() {
        let mut own: Vec<(String, String)> = pairs
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "host" | "hostaddr" | "port"))
            .cloned()
            .collect();
        own.push(("host".into(), host_text(host)));
        if let Some(a) = addrs.get(i) {
            own.push(("hostaddr".into(), a.to_string()));
        }
        if let Some(p) = ports.get(i).or(ports.first()) {
            own.push(("port".into(), p.to_string()));
        }
        let mut c: tokio_postgres::Config = conninfo::driver_string(&own)
            .parse()
            .map_err(|_| "connection string: cannot split it by host".to_owned())?;
        // What `parse` filled in after the driver read the string.
        if let Some(u) = config.get_user() {
            c.user(u);
        }
        if let Some(d) = config.get_dbname() {
            c.dbname(d);
        }
        if let Some(a) = config.get_application_name() {
            c.application_name(a);
        }
        if let Some(t) = config.get_connect_timeout() {
            c.connect_timeout(*t);
        }
        c.ssl_mode(config.get_ssl_mode());
        if let Some(p) = &passwords[i] {
            c.password(p.as_str());
        }
        out.push(c);
    }
    if config.get_load_balance_hosts() == tokio_postgres::config::LoadBalanceHosts::Random {
        // Fisher-Yates, as the driver shuffles its hosts.
        for i in (1..out.len()).rev() {
            let j = getrandom::u64().map_err(|e| format!("load_balance_hosts=random: {e}"))?
                % (i as u64 + 1);
            out.swap(i, j as usize);
        }
    }
    Ok(out)
}

/// A host as the connection string names it.
fn host_text(host: &Host) -> String {
    match host {
        Host::Tcp(h) => h.clone(),
        #[cfg(unix)]
        Host::Unix(p) => p.display().to_string(),
    }
}

/// libpq's name for `mode`.
fn mode_name(mode: SslMode) -> &'static str {
    match mode {
        SslMode::Disable => "disable",
        SslMode::Prefer => "prefer",
        SslMode::Require => "require",
        SslMode::VerifyCa => "verify-ca",
        SslMode::VerifyFull => "verify-full",
    }
}

/// The password file under the home directory (libpq's default).
#[cfg(not(windows))]
const PASSFILE: &str = ".pgpass";
#[cfg(windows)]
const PASSFILE: &str = "postgresql/pgpass.conf";
/// libpq's default files for TLS, under the home directory.
#[cfg(not(windows))]
const ROOT_CERT: &str = ".postgresql/root.crt";
#[cfg(windows)]
const ROOT_CERT: &str = "postgresql/root.crt";
#[cfg(not(windows))]
const CLIENT_CERT: (&str, &str) = (".postgresql/postgresql.crt", ".postgresql/postgresql.key");
#[cfg(windows)]
const CLIENT_CERT: (&str, &str) = ("postgresql/postgresql.crt", "postgresql/postgresql.key");

/// `name` under the home directory (`%APPDATA%` on Windows), as libpq
/// looks for its default files.
fn home_file(env: &impl Fn(&str) -> Option<String>, name: &str) -> Option<PathBuf> {
    let home = if cfg!(windows) {
        env("APPDATA")
    } else {
        env("HOME")
    }?;
    Some(Path::new(&home).join(name))
}

/// The password file's password for each host, in order (libpq looks
/// each host up with its own port).
fn passwords_from(file: &Path, config: &tokio_postgres::Config) -> Vec<Option<String>> {
    let Some(user) = config.get_user() else {
        return Vec::new();
    };
    let ports = config.get_ports();
    config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            pgpass::lookup(
                file,
                &pgpass::Want {
                    host: &host_text(host),
                    port: ports.get(i).or(ports.first()).copied().unwrap_or(5432),
                    // libpq's default database is the user's name.
                    dbname: config.get_dbname().unwrap_or(user),
                    user,
                },
            )
        })
        .collect()
}

/// `sslcert` and `sslkey` (or `PGSSLCERT`, `PGSSLKEY`, or libpq's files
/// under `~/.postgresql` when the certificate is there).
fn client_cert(
    get: &impl Fn(&str) -> Option<String>,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Option<ClientCert>, String> {
    let given = |key: &str, var: &str| get(key).or_else(|| env(var)).map(PathBuf::from);
    let (cert, key) = (given("sslcert", "PGSSLCERT"), given("sslkey", "PGSSLKEY"));
    let cert = match cert {
        Some(c) => c,
        None => match home_file(env, CLIENT_CERT.0).filter(|c| c.is_file()) {
            Some(c) => c,
            None if key.is_some() => {
                return Err("sslkey without sslcert: give the certificate too".into());
            }
            None => return Ok(None),
        },
    };
    let key = key
        .or_else(|| home_file(env, CLIENT_CERT.1))
        .ok_or("sslcert without sslkey: give the key too")?;
    Ok(Some(ClientCert { cert, key }))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
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

    /// A Unix socket is named as libpq names it: the file, not the
    /// directory and a port.
    #[cfg(unix)]
    #[test]
    fn a_socket_is_named_by_its_file() {
        let t = parse("host=/nonexistent/dir user=x port=5433", env(&[])).unwrap();
        assert_eq!(t.describe(), "/nonexistent/dir/.s.PGSQL.5433");
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
        assert_eq!(t.roots, Some(Roots::File("/tmp/my root.crt".into())));
        let t = parse(
            "postgres://u@h:7/d?sslmode=verify-ca&sslrootcert=%2Ftmp%2Fr.crt&application_name=z",
            env(&[]),
        )
        .unwrap();
        assert_eq!(t.ssl, SslMode::VerifyCa);
        assert_eq!(t.roots, Some(Roots::File("/tmp/r.crt".into())));
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

    #[test]
    fn system_roots_mean_verify_full() {
        let t = parse("host=h user=u sslrootcert=system", env(&[])).unwrap();
        assert_eq!((t.ssl, t.roots), (SslMode::VerifyFull, Some(Roots::System)));
        let e = parse("host=h user=u sslrootcert=system sslmode=require", env(&[])).unwrap_err();
        assert!(e.contains("verify-full") && e.contains("require"), "{e}");
        let t = parse("host=h user=u", env(&[("PGSSLROOTCERT", "system")])).unwrap();
        assert_eq!(t.ssl, SslMode::VerifyFull);
    }

    /// A home directory with libpq's files in it, for the defaults.
    fn home(files: &[(&str, &str)]) -> PathBuf {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "kuuid-home-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(dir.join(".postgresql")).unwrap();
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            }
        }
        dir
    }

    #[test]
    fn the_password_file_fills_a_missing_password() {
        let h = home(&[(".pgpass", "db:5432:app:u:from-home\n*:*:*:*:other\n")]);
        let home_dir = h.display().to_string();
        let with_home = env(&[("HOME", &home_dir)]);
        let t = parse("host=db user=u dbname=app", &with_home).unwrap();
        assert_eq!(t.config.get_password(), Some(&b"from-home"[..]));
        // The string's or PGPASSWORD win over the file.
        let t = parse("host=db user=u dbname=app password=given", &with_home).unwrap();
        assert_eq!(t.config.get_password(), Some(&b"given"[..]));
        // passfile= names another file.
        let other = home(&[("pw", "*:*:*:u:named\n")]);
        let named = format!("host=db user=u passfile={}", other.join("pw").display());
        let t = parse(&named, &with_home).unwrap();
        assert_eq!(t.config.get_password(), Some(&b"named"[..]));
        for d in [h, other] {
            std::fs::remove_dir_all(d).unwrap();
        }
    }

    /// libpq looks each host up in the password file on its own (issue
    /// 54: the first host's password went to every host).
    #[test]
    fn each_host_gets_its_own_password_from_the_file() {
        let h = home(&[(
            ".pgpass",
            "a:5432:app:u:pw-a\nb:6000:app:u:pw-b\n*:5433:*:*:pw-any\n",
        )]);
        let home_dir = h.display().to_string();
        let with_home = env(&[("HOME", &home_dir)]);
        let t = parse(
            "host=a,b,c port=5432,6000,5433 user=u dbname=app",
            &with_home,
        )
        .unwrap();
        let got: Vec<_> = t
            .attempts()
            .iter()
            .map(|c| {
                let Host::Tcp(host) = &c.get_hosts()[0] else {
                    panic!("a TCP host")
                };
                (
                    host.clone(),
                    c.get_ports().to_vec(),
                    c.get_password()
                        .map(|p| String::from_utf8_lossy(p).into_owned()),
                    c.get_user().map(str::to_owned),
                )
            })
            .collect();
        let want = |h: &str, p: u16, pw: &str| {
            (
                h.to_owned(),
                vec![p],
                Some(pw.to_owned()),
                Some("u".to_owned()),
            )
        };
        assert_eq!(
            got,
            [
                want("a", 5432, "pw-a"),
                want("b", 6000, "pw-b"),
                want("c", 5433, "pw-any")
            ]
        );
        // One port for all hosts; a host the file lacks gets none.
        let t = parse("host=a,b port=6000 user=u dbname=app", &with_home).unwrap();
        let pws: Vec<_> = t
            .attempts()
            .iter()
            .map(|c| c.get_password().is_some())
            .collect();
        assert_eq!(pws, [false, true]);
        // The same password for every host: one config, as before.
        let t = parse("host=a,a user=u dbname=app", &with_home).unwrap();
        assert_eq!(t.attempts().len(), 1);
        assert_eq!(t.config.get_password(), Some(&b"pw-a"[..]));
        std::fs::remove_dir_all(h).unwrap();
    }

    #[test]
    fn tls_files_default_to_the_home_directory() {
        let h = home(&[
            (".postgresql/root.crt", "x"),
            (".postgresql/postgresql.crt", "x"),
            (".postgresql/postgresql.key", "x"),
        ]);
        let home_dir = h.display().to_string();
        let t = parse(
            "host=h user=u sslmode=verify-full",
            env(&[("HOME", &home_dir)]),
        )
        .unwrap();
        assert_eq!(t.roots, Some(Roots::File(h.join(".postgresql/root.crt"))));
        assert_eq!(
            t.client_cert,
            Some(ClientCert {
                cert: h.join(".postgresql/postgresql.crt"),
                key: h.join(".postgresql/postgresql.key"),
            })
        );
        let t = parse("host=h user=u sslcert=/c sslkey=/k", env(&[])).unwrap();
        assert_eq!(
            t.client_cert,
            Some(ClientCert {
                cert: "/c".into(),
                key: "/k".into()
            })
        );
        let e = parse("host=h user=u sslkey=/k", env(&[])).unwrap_err();
        assert!(e.contains("sslkey without sslcert"), "{e}");
        std::fs::remove_dir_all(h).unwrap();
    }
}
