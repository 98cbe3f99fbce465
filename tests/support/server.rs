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

/// The value of `var`, or a server this binary started for it
/// (`KUUID_PG_URL`, `KUUID_COUCH_URL`), or `None` after saying why the test
/// skips.
pub fn address(var: &str) -> Option<String> {
    let found = match std::env::var(var) {
        Ok(v) => Ok((v, format!("from {var}"))),
        Err(_) => match var {
            "KUUID_PG_URL" => started(&POSTGRES, start_postgres),
            "KUUID_COUCH_URL" => started(&COUCH, start_couch),
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
static POSTGRES: Started = OnceLock::new();
static COUCH: Started = OnceLock::new();

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

/// The binary's shared server (for `KUUID_PG_URL`).
fn start_postgres() -> Result<String, String> {
    start_postgres_cluster("pg").map(|(url, _restart)| url)
}

/// A server of the test's own, with the shell command that restarts it,
/// for a test that restarts or kills the server: the shared one's other
/// users would see their connections drop (a filter such as `sequence`
/// runs the fault test beside the store tests). Started once per binary
/// where the server is installed; `Err` says why not.
pub fn private_postgres() -> Result<(String, String), String> {
    static PRIVATE: OnceLock<Result<(String, String), String>> = OnceLock::new();
    let found = PRIVATE.get_or_init(|| start_postgres_cluster("pg-private"));
    record_as(
        "PostgreSQL of the fault tests",
        found
            .as_ref()
            .map(|_| "started by the tests")
            .map_err(String::as_str),
    );
    found.clone()
}

/// A throwaway cluster named `name` on a Unix socket in a temp dir (no TCP
/// port), as `.ci/run` starts one, and the command that restarts it.
/// PostgreSQL refuses to run as root: as root, the cluster runs as
/// `nobody`.
fn start_postgres_cluster(name: &str) -> Result<(String, String), String> {
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
        let out = crate::child::run(c.args(args)).map_err(|e| format!("{program}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{program} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    };
    if root {
        let uid = crate::child::run(Command::new("id").args(["-u", "nobody"]))
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok()?.trim().parse().ok())
            .ok_or("running as root, and there is no user nobody to run PostgreSQL as")?;
        std::os::unix::fs::chown(&dir, Some(uid), None).map_err(|e| format!("chown: {e}"))?;
    }
    let data = dir.join("data");
    let data_s = data.display().to_string();
    run(
        "initdb",
        &["-D", &data_s, "-U", "kuuid", "-A", "trust", "--no-sync"],
    )?;
    let options = format!(
        "-c listen_addresses='' -p 5432 -k {} -c fsync=off -c synchronous_commit=off",
        dir.display()
    );
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
    let url = format!(
        "host={} port=5432 user=kuuid dbname=postgres",
        dir.display()
    );
    Ok((url, restart))
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
