//! The PostgreSQL clusters the tests start themselves (`server.rs` says
//! when): Debian's programs found, a throwaway cluster on a Unix socket
//! (and, with TLS, a loopback port) started as `.ci/run` starts one, and
//! its certificates.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::{on_exit, quote, record_as, server_dir};

/// Debian's server programs (the newest of `/usr/lib/postgresql/*/bin`),
/// else `pg_ctl` on `PATH`.
fn postgres_bin() -> Option<PathBuf> {
    let mut dirs: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin)| bin.join("pg_ctl").exists())
        .collect();
    dirs.sort();
    if let Some((_, bin)) = dirs.pop() {
        return Some(bin);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find(|d| d.join("pg_ctl").exists() && d.join("initdb").exists())
}

/// A server of the test's own, with the shell command that restarts it,
/// for a test that restarts or kills the server: the shared one's other
/// users would see their connections drop (a filter such as `sequence`
/// runs the fault test beside the store tests). Started once per binary
/// where the server is installed; `Err` says why not.
pub fn private_postgres() -> Result<(String, String), String> {
    static PRIVATE: OnceLock<Result<(String, String), String>> = OnceLock::new();
    let found = PRIVATE.get_or_init(|| {
        start_postgres_cluster("pg-private", false).map(|(url, restart, _)| (url, restart))
    });
    record_as(
        "PostgreSQL of the fault tests",
        found
            .as_ref()
            .map(|_| "started by the tests")
            .map_err(String::as_str),
    );
    found.clone()
}

/// The TLS variables a cluster with TLS gives, or why it has none.
type TlsVars = Result<Vec<(&'static str, String)>, String>;

/// A throwaway cluster named `name` on a Unix socket in a temp dir, as
/// `.ci/run` starts one, and the command that restarts it; with `tls`, as
/// `.ci/run`'s also on a free loopback port with TLS (certificates made
/// with `openssl`), the roles `kuuid_cert` (a client certificate only) and
/// `kuuid_pw` (a password only), and the variables that say so; without
/// `openssl`, why not. PostgreSQL refuses to run as root: as root, the
/// cluster runs as `nobody`.
pub(super) fn start_postgres_cluster(
    name: &str,
    tls: bool,
) -> Result<(String, String, TlsVars), String> {
    let bin = postgres_bin().ok_or("KUUID_PG_URL is not set and no PostgreSQL server is installed (Debian: apt install postgresql)")?;
    let dir = server_dir(name)?;
    let root = is_root();
    let run = |program: &str, args: &[&str]| -> Result<(), String> {
        let mut c = if root {
            let mut c = Command::new("runuser");
            c.args(["-u", "nobody", "--"]).arg(bin.join(program));
            c
        } else {
            Command::new(bin.join(program))
        };
        succeeds(program, c.args(args))
    };
    let mut uid = None;
    if root {
        let nobody = crate::child::run(Command::new("id").args(["-u", "nobody"]))
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok()?.trim().parse().ok())
            .ok_or("running as root, and there is no user nobody to run PostgreSQL as")?;
        std::os::unix::fs::chown(&dir, Some(nobody), None).map_err(|e| format!("chown: {e}"))?;
        uid = Some(nobody);
    }
    let data = dir.join("data");
    let data_s = data.display().to_string();
    run(
        "initdb",
        &["-D", &data_s, "-U", "kuuid", "-A", "trust", "--no-sync"],
    )?;
    let mut options = format!(
        "-k {} -c fsync=off -c synchronous_commit=off",
        dir.display()
    );
    let tls_port = if tls {
        tls_files(&dir, &data, uid).map(|()| {
            let port = free_port()?;
            let file = |f: &str| dir.join(f).display().to_string();
            options.push_str(&format!(
                " -c listen_addresses=127.0.0.1 -p {port} -c ssl=on -c ssl_cert_file={} -c ssl_key_file={} -c ssl_ca_file={}",
                file("server.crt"),
                file("server.key"),
                file("ca.crt")
            ));
            Ok(port)
        })
        .and_then(|p| p)
    } else {
        Err("not asked for".to_owned())
    };
    if tls_port.is_err() {
        options.push_str(" -c listen_addresses='' -p 5432");
    }
    let log = dir.join("log").display().to_string();
    run(
        "pg_ctl",
        &[
            "-D", &data_s, "-l", &log, "-w", "-t", "60", "-o", &options, "start",
        ],
    )?;
    let stop = format!(
        "{}{} -D {} -m immediate stop; rm -rf {}",
        if root { "runuser -u nobody -- " } else { "" },
        quote(&bin.join("pg_ctl")),
        quote(&data),
        quote(&dir)
    );
    on_exit(&stop)?;
    let restart = format!(
        "{}{} -D {} -l {} -w -t 60 -m fast restart",
        if root { "runuser -u nobody -- " } else { "" },
        quote(&bin.join("pg_ctl")),
        quote(&data),
        quote(&dir.join("log"))
    );
    let port = tls_port.as_ref().map_or(5432, |p| *p);
    let url = format!(
        "host={} port={port} user=kuuid dbname=postgres",
        dir.display()
    );
    let tls = tls_port.and_then(|port| {
        run(
            "psql",
            &[
                &url,
                "-qAt",
                "-c",
                "CREATE ROLE kuuid_cert LOGIN SUPERUSER",
                "-c",
                "CREATE ROLE kuuid_pw LOGIN SUPERUSER PASSWORD 'kuuid-pw-test'",
            ],
        )?;
        let file = |f: &str| dir.join(f).display().to_string();
        Ok(vec![
            (
                "KUUID_PG_TLS",
                format!("host=localhost port={port} user=kuuid dbname=postgres"),
            ),
            ("KUUID_PG_TLS_ROOT", file("ca.crt")),
            ("KUUID_PG_TLS_OTHER_ROOT", file("other-ca.crt")),
            ("KUUID_PG_TLS_CLIENT_CERT", file("client.crt")),
            ("KUUID_PG_TLS_CLIENT_KEY", file("client.key")),
            (
                "KUUID_PG_PASSWORD_ROLE",
                "kuuid_pw:kuuid-pw-test".to_owned(),
            ),
        ])
    });
    Ok((url, restart, tls))
}

/// Runs `cmd` (`name` in messages); `Err` says why it could not run or
/// what it printed on failing.
fn succeeds(name: &str, cmd: &mut Command) -> Result<(), String> {
    let out = crate::child::run(cmd).map_err(|e| format!("{name}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{name} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// A loopback port free a moment ago.
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("a free port: {e}"))
}

/// What `.ci/run`'s `pg_certs` and `pg_hba_auth` make: two throwaway CAs,
/// a certificate for `localhost` signed by the first, a client certificate
/// for `kuuid_cert`, and the `pg_hba.conf` lines that admit `kuuid_cert`
/// only with it and `kuuid_pw` only with its password. The server's files
/// go to `owner` (the user it runs as).
fn tls_files(dir: &Path, data: &Path, owner: Option<u32>) -> Result<(), String> {
    let openssl = |args: &[&str]| {
        succeeds(
            "openssl (for TLS)",
            Command::new("openssl").args(args).current_dir(dir),
        )
    };
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))
    };
    for ca in ["ca", "other-ca"] {
        let (subject, key, crt) = (
            format!("/CN=kuuid test {ca}"),
            format!("{ca}.key"),
            format!("{ca}.crt"),
        );
        openssl(&[
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", &subject,
            "-keyout", &key, "-out", &crt,
        ])?;
    }
    let signed = |who: &str, subject: &str, ext: &str| -> Result<(), String> {
        let (key, csr, crt, ext_file) = (
            format!("{who}.key"),
            format!("{who}.csr"),
            format!("{who}.crt"),
            format!("{who}.ext"),
        );
        openssl(&[
            "req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", &key, "-out", &csr,
        ])?;
        write(&ext_file, ext)?;
        openssl(&[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            &ext_file,
            "-out",
            &crt,
        ])
    };
    signed(
        "server",
        "/CN=localhost",
        "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n",
    )?;
    signed(
        "client",
        "/CN=kuuid_cert",
        "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n",
    )?;
    for key in ["ca.key", "other-ca.key", "server.key", "client.key"] {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir.join(key), std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("{key}: {e}"))?;
    }
    for file in ["server.crt", "server.key", "ca.crt"] {
        std::os::unix::fs::chown(dir.join(file), owner, None)
            .map_err(|e| format!("chown {file}: {e}"))?;
    }
    let hba = data.join("pg_hba.conf");
    let old = std::fs::read_to_string(&hba).map_err(|e| format!("pg_hba.conf: {e}"))?;
    let lines = [
        "hostssl all kuuid_cert 127.0.0.1/32 trust clientcert=verify-full",
        "hostssl all kuuid_cert ::1/128 trust clientcert=verify-full",
        "host all kuuid_cert 0.0.0.0/0 reject",
        "host all kuuid_cert ::/0 reject",
        "local all kuuid_cert reject",
        "host all kuuid_pw 127.0.0.1/32 scram-sha-256",
        "host all kuuid_pw ::1/128 scram-sha-256",
        "local all kuuid_pw scram-sha-256",
    ];
    std::fs::write(&hba, format!("{}\n{old}", lines.join("\n")))
        .map_err(|e| format!("pg_hba.conf: {e}"))
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}
