//! For tests against a real server or tool: its address comes from an
//! environment variable (`.ci/run` sets them all), and when that is unset
//! the tests start the server themselves where its program is installed
//! (Debian's PostgreSQL, npm's `pouchdb-server`), once per test binary, and
//! stop it when the binary exits. Without either, a test says why it skips
//! and passes. The binary's last line of output says which servers ran.
#![allow(dead_code)]

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Says why a test did not run, past the test harness's output capture
/// (which swallows `eprintln!` of passing tests).
pub fn skip(why: impl Display) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// `node ARGS` with stdin and stdout piped (and `NODE_PATH` when given),
/// or `None` after saying why the test skips.
pub fn node(args: &[&str], node_path: Option<&Path>) -> Option<std::process::Child> {
    let mut cmd = Command::new("node");
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped());
    if let Some(p) = node_path {
        cmd.env("NODE_PATH", p);
    }
    match cmd.spawn() {
        Ok(child) => Some(child),
        Err(e) => {
            skip(format_args!("cannot run node ({e})"));
            None
        }
    }
}

/// The variables `.ci/run` sets for its PostgreSQL, which a server this
/// binary starts also gives when `KUUID_PG_URL` is unset.
const POSTGRES_VARS: [&str; 7] = [
    "KUUID_PG_URL",
    "KUUID_PG_TLS",
    "KUUID_PG_TLS_ROOT",
    "KUUID_PG_TLS_OTHER_ROOT",
    "KUUID_PG_TLS_CLIENT_CERT",
    "KUUID_PG_TLS_CLIENT_KEY",
    "KUUID_PG_PASSWORD_ROLE",
];

/// The value of `var`, or a server this binary started for it
/// (`KUUID_PG_URL` and its TLS kin, `KUUID_COUCH_URL`), or `None` after
/// saying why the test skips.
pub fn address(var: &str) -> Option<String> {
    // The TLS variables name the server KUUID_PG_URL names: without it,
    // all of them come from the tests' own server, whatever else is set.
    let own_postgres = POSTGRES_VARS.contains(&var) && std::env::var_os("KUUID_PG_URL").is_none();
    let found = match std::env::var(var) {
        Ok(v) if !own_postgres => Ok((v, format!("from {var}"))),
        _ => match var {
            v if own_postgres => postgres_var(v),
            "KUUID_COUCH_URL" => started(&COUCH, start_couch),
            "KUUID_NPM_DIR" => started(&NPM, install_npm),
            _ => Err(format!("{var} is not set; .ci/run sets it")),
        },
    };
    record(var, &found);
    match found {
        Ok((v, _)) => Some(v),
        Err(why) => {
            skip(&why);
            None
        }
    }
}

type Started = OnceLock<Result<(String, String), String>>;
static COUCH: Started = OnceLock::new();
static NPM: Started = OnceLock::new();

/// The npm packages the differential tests run, at the versions `.ci/run`
/// pins: npm kuuid (the registry serves up to 1.0.3) and
/// fractional-indexing 4.0.0.
const NPM_PACKAGES: [&str; 2] = ["kuuid@1.0.3", "fractional-indexing@4.0.0"];

/// A folder whose `node_modules` holds [`NPM_PACKAGES`]: a cache under the
/// target directory, installed with `npm` from `PATH` on first use (into
/// a folder of this process's, then renamed into place, so two test
/// binaries at once both end with one whole copy).
fn install_npm() -> Result<String, String> {
    let base = option_env!("CARGO_TARGET_TMPDIR").map_or_else(std::env::temp_dir, PathBuf::from);
    let cache = base.join(format!("npm-{}", NPM_PACKAGES.join("-")));
    let ready = |d: &Path| {
        d.join("node_modules/kuuid/index.js").is_file()
            && d.join("node_modules/fractional-indexing/src/index.js")
                .is_file()
    };
    if ready(&cache) {
        return Ok(cache.display().to_string());
    }
    let fresh = base.join(format!("npm-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    std::fs::create_dir_all(&fresh).map_err(|e| format!("{}: {e}", fresh.display()))?;
    let installed = crate::child::run(
        Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent"])
            .args(NPM_PACKAGES)
            .current_dir(&fresh),
    );
    let outcome = match installed {
        Err(e) => Err(format!("KUUID_NPM_DIR is not set and npm cannot run ({e})")),
        Ok(out) if !out.status.success() || !ready(&fresh) => Err(format!(
            "KUUID_NPM_DIR is not set and npm install {} failed: {}",
            NPM_PACKAGES.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        // Another binary may have put its copy there first: either is whole.
        Ok(_) => match std::fs::rename(&fresh, &cache) {
            Ok(()) => Ok(()),
            Err(_) if ready(&cache) => Ok(()),
            Err(e) => Err(format!("{}: {e}", cache.display())),
        },
    };
    let _ = std::fs::remove_dir_all(&fresh);
    outcome.map(|()| cache.display().to_string())
}

/// The binary's own PostgreSQL: `KUUID_PG_URL`, and the TLS variables or
/// why there are none.
struct SelfStarted {
    url: String,
    tls: Result<Vec<(&'static str, String)>, String>,
}
static POSTGRES: OnceLock<Result<SelfStarted, String>> = OnceLock::new();

/// `var`'s value from the binary's own PostgreSQL, started on first use.
fn postgres_var(var: &str) -> Result<(String, String), String> {
    let started = POSTGRES
        .get_or_init(|| {
            start_postgres_cluster("pg", true).map(|(url, _restart, tls)| SelfStarted { url, tls })
        })
        .as_ref()
        .map_err(Clone::clone)?;
    let how = "started by the tests".to_owned();
    if var == "KUUID_PG_URL" {
        return Ok((started.url.clone(), how));
    }
    let tls = started.tls.as_ref().map_err(Clone::clone)?;
    let (_, value) = tls
        .iter()
        .find(|(k, _)| *k == var)
        .ok_or_else(|| format!("{var}: not given by the tests' PostgreSQL"))?;
    Ok((value.clone(), how))
}

/// The server in `cell`, started by `start` on first use.
fn started(
    cell: &Started,
    start: fn() -> Result<String, String>,
) -> Result<(String, String), String> {
    cell.get_or_init(|| start().map(|a| (a, "started by the tests".to_owned())))
        .clone()
}

/// What each server or tool gave this binary (by name), in first-use
/// order, for the line printed at exit.
static OUTCOMES: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

fn record(var: &str, found: &Result<(String, String), String>) {
    let name = match var {
        "KUUID_PG_URL" => "PostgreSQL",
        "KUUID_COUCH_URL" => "CouchDB",
        "KUUID_NPM_DIR" => "npm kuuid",
        "KUUID_PG_TLS" | "KUUID_PG_TLS_ROOT" | "KUUID_PG_TLS_OTHER_ROOT" => "PostgreSQL over TLS",
        "KUUID_PG_TLS_CLIENT_CERT" | "KUUID_PG_TLS_CLIENT_KEY" => "PostgreSQL client certificates",
        "KUUID_PG_PASSWORD_ROLE" => "PostgreSQL password file",
        v => v,
    };
    record_as(
        name,
        found
            .as_ref()
            .map(|(_, how)| how.as_str())
            .map_err(String::as_str),
    );
}

/// Records what `name` gave this binary: how it ran, or why it was skipped.
fn record_as(name: &str, found: Result<&str, &str>) {
    let mut all = OUTCOMES.lock().unwrap_or_else(|e| e.into_inner());
    // One entry per server or tool, from the first variable asked for it.
    if all.iter().any(|(n, _)| n == name) {
        return;
    }
    if all.is_empty() {
        // SAFETY: registers a plain function without arguments, which only
        // locks a mutex and writes one line to stderr.
        unsafe { libc::atexit(say_outcomes) };
    }
    all.push((
        name.to_owned(),
        match found {
            Ok(how) => format!("{name} ran ({how})"),
            Err(why) => format!("{name} skipped ({why})"),
        },
    ));
}

extern "C" fn say_outcomes() {
    use std::io::Write as _;
    if let Ok(all) = OUTCOMES.lock() {
        let said: Vec<&str> = all.iter().map(|(_, s)| s.as_str()).collect();
        let _ = writeln!(std::io::stderr(), "servers and tools: {}", said.join("; "));
    }
}

/// A directory for one server, removed with it.
fn server_dir(what: &str) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("kuuid-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// Runs `script` with `sh` once this process has exited (the server's
/// stop), detached from it.
fn on_exit(script: &str) -> Result<(), String> {
    use std::os::unix::process::CommandExt as _;
    let me = std::process::id();
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "while kill -0 {me} 2>/dev/null; do sleep 0.2; done; {script}"
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map(drop)
        .map_err(|e| format!("sh: {e}"))
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

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
fn start_postgres_cluster(name: &str, tls: bool) -> Result<(String, String, TlsVars), String> {
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

/// `pouchdb-server --in-memory` on a free loopback port, from `PATH` (as
/// `npm install -g pouchdb-server` puts it).
fn start_couch() -> Result<String, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let program = std::env::split_paths(&path)
        .map(|d| d.join("pouchdb-server"))
        .find(|p| p.exists())
        .ok_or("KUUID_COUCH_URL is not set and pouchdb-server is not on PATH (npm install -g pouchdb-server)")?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("a free port: {e}"))?
        .port();
    let dir = server_dir("couch")?;
    let child = Command::new(&program)
        .args([
            "--in-memory",
            "-o",
            "127.0.0.1",
            "-p",
            &port.to_string(),
            "-n",
        ])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    on_exit(&format!("kill {}; rm -rf {}", child.id(), quote(&dir)))?;
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(url);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Err(format!(
        "pouchdb-server did not listen on {url} within 60 s"
    ))
}
