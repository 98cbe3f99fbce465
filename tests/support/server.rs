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

// Beside this file (a `#[path]` module: nested files resolve from here).
#[path = "server_postgres.rs"]
mod postgres;
#[allow(unused_imports)]
pub use postgres::private_postgres;
use postgres::start_postgres_cluster;

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
/// pins: npm kuuid (the registry serves up to 1.0.3),
/// fractional-indexing 4.0.0, ulid 3.0.2, typeid-js 1.2.0 and ksuid 3.0.0.
const NPM_PACKAGES: [&str; 5] = [
    "kuuid@1.0.3",
    "fractional-indexing@4.0.0",
    "ulid@3.0.2",
    "typeid-js@1.2.0",
    "ksuid@3.0.0",
];

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
            && ["ulid", "typeid-js", "ksuid"].iter().all(|p| {
                d.join("node_modules")
                    .join(p)
                    .join("package.json")
                    .is_file()
            })
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
