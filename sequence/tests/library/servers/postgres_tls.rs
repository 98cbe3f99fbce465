//! `PostgresCounters` over TLS against the PostgreSQL that `.ci/run` starts
//! with `ssl=on` on a loopback port (`KUUID_PG_TLS`, a self-signed
//! certificate for `localhost` in `KUUID_PG_TLS_ROOT`, another one in
//! `KUUID_PG_TLS_OTHER_ROOT`): each `sslmode` checks what libpq's does, and
//! the session really is encrypted. And libpq's other ways in: a client
//! certificate for a role the server admits only with one
//! (`KUUID_PG_TLS_CLIENT_CERT`/`_KEY`), the password file for a role that
//! needs a password (`KUUID_PG_PASSWORD_ROLE`, `role:password`), and
//! `sslrootcert=system` (in a child process whose `SSL_CERT_FILE` names the
//! store).
#![cfg(feature = "postgres-tls")]

use kuuid_sequence::{BlockSource, Counter, PostgresCounters};

struct Tls {
    url: String,
    root: String,
    other: String,
}

fn tls() -> Option<Tls> {
    Some(Tls {
        url: crate::server::address("KUUID_PG_TLS")?,
        root: crate::server::address("KUUID_PG_TLS_ROOT")?,
        other: crate::server::address("KUUID_PG_TLS_OTHER_ROOT")?,
    })
}

/// Connects with `extra` options and leases; the error text on failure.
fn lease(url: &str, extra: &str) -> Result<u64, String> {
    let store = PostgresCounters::connect(&format!("{url} {extra}")).map_err(|e| e.to_string())?;
    Counter::new(store, format!("tls-{}", kuuid::id()))
        .lease(10)
        .map_err(|e| e.to_string())
}

/// Whether the backends of `app` use TLS, asked over the plain socket.
fn encrypted(app: &str) -> Vec<bool> {
    let admin = crate::server::address("KUUID_PG_URL").unwrap();
    let mut c = postgres::Client::connect(&admin, postgres::NoTls).unwrap();
    c.query(
        "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = $1",
        &[&app],
    )
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect()
}

#[test]
fn require_encrypts_without_checking_the_certificate() {
    let Some(t) = tls() else { return };
    let app = format!("kuuid-tls-{}", std::process::id());
    let store =
        PostgresCounters::connect(&format!("{} sslmode=require application_name={app}", t.url))
            .unwrap();
    let counter = Counter::new(store, format!("tls-{}", kuuid::id()));
    assert_eq!(counter.lease(1).unwrap(), 1);
    assert_eq!(encrypted(&app), [true]);
}

#[test]
fn verify_full_checks_the_chain_and_the_name() {
    let Some(t) = tls() else { return };
    let root = format!("sslrootcert={}", t.root);
    assert_eq!(lease(&t.url, &format!("sslmode=verify-full {root}")), Ok(1));
    // The certificate names localhost, not 127.0.0.1: refused for the
    // name, not for anything else at that host.
    let by_ip = t.url.replace("host=localhost", "host=127.0.0.1");
    let e = lease(&by_ip, &format!("sslmode=verify-full {root}")).unwrap_err();
    assert!(
        e.contains("not valid for name") && e.contains("127.0.0.1"),
        "{e}"
    );
    // An untrusted root.
    let e = lease(
        &t.url,
        &format!("sslmode=verify-full sslrootcert={}", t.other),
    )
    .unwrap_err();
    assert!(e.to_lowercase().contains("certificate"), "{e}");
}

#[test]
fn verify_ca_checks_the_chain_only() {
    let Some(t) = tls() else { return };
    let by_ip = t.url.replace("host=localhost", "host=127.0.0.1");
    assert_eq!(
        lease(&by_ip, &format!("sslmode=verify-ca sslrootcert={}", t.root)),
        Ok(1)
    );
    let e = lease(
        &by_ip,
        &format!("sslmode=verify-ca sslrootcert={}", t.other),
    )
    .unwrap_err();
    assert!(e.to_lowercase().contains("certificate"), "{e}");
    // `require` with a root given checks the chain too, as libpq does.
    let e = lease(&by_ip, &format!("sslmode=require sslrootcert={}", t.other)).unwrap_err();
    assert!(e.to_lowercase().contains("certificate"), "{e}");
}

#[test]
fn verify_modes_need_a_root_and_a_bad_file_is_named() {
    let Some(t) = tls() else { return };
    let e = lease(&t.url, "sslmode=verify-full").unwrap_err();
    assert!(e.contains("sslrootcert"), "{e}");
    let e = lease(
        &t.url,
        "sslmode=verify-full sslrootcert=/nonexistent/root.crt",
    )
    .unwrap_err();
    assert!(e.contains("/nonexistent/root.crt"), "{e}");
}

/// The role that needs a client certificate, and the certificate's files.
fn client_cert() -> Option<(Tls, String, String)> {
    Some((
        tls()?,
        crate::server::address("KUUID_PG_TLS_CLIENT_CERT")?,
        crate::server::address("KUUID_PG_TLS_CLIENT_KEY")?,
    ))
}

/// The server admits `kuuid_cert` only with a certificate naming it: with
/// sslcert/sslkey the lease goes through; without, the server refuses; a
/// key file others may read is refused before connecting, naming it.
#[test]
fn a_client_certificate_gets_in_where_the_server_requires_one() {
    let Some((t, cert, key)) = client_cert() else {
        return;
    };
    let url = t.url.replace("user=kuuid", "user=kuuid_cert");
    let verify = format!("sslmode=verify-full sslrootcert={}", t.root);
    assert_eq!(
        lease(&url, &format!("{verify} sslcert={cert} sslkey={key}")),
        Ok(1)
    );
    let e = lease(&url, &verify).unwrap_err();
    assert!(e.contains("certificate"), "{e}");
    let open = std::env::temp_dir().join(format!("kuuid-open-key-{}", std::process::id()));
    std::fs::copy(&key, &open).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let e = lease(
        &url,
        &format!("{verify} sslcert={cert} sslkey={}", open.display()),
    )
    .unwrap_err();
    std::fs::remove_file(&open).unwrap();
    assert!(
        e.contains("sslkey") && e.contains("group or world access"),
        "{e}"
    );
}

/// `kuuid_pw` logs in only with its password: the password file named by
/// passfile= gives it; a file with a wrong one, or one others may read
/// (ignored, as libpq does), does not.
#[test]
fn the_password_file_gives_the_password() {
    let (Some(t), Some(role)) = (tls(), crate::server::address("KUUID_PG_PASSWORD_ROLE")) else {
        return;
    };
    let (user, password) = role.split_once(':').unwrap();
    let port = t
        .url
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("port="))
        .unwrap();
    let url = t.url.replace("user=kuuid", &format!("user={user}"));
    let file = std::env::temp_dir().join(format!("kuuid-pgpass-{}", std::process::id()));
    let with = |line: String, mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(&file, format!("# for the test\n{line}\n")).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        lease(
            &url,
            &format!("sslmode=require passfile={}", file.display()),
        )
    };
    let right = with(format!("localhost:{port}:*:{user}:{password}"), 0o600);
    let wrong = with(format!("localhost:{port}:*:{user}:not-it"), 0o600);
    let open = with(format!("*:*:*:{user}:{password}"), 0o644);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(right, Ok(1));
    let wrong = wrong.unwrap_err();
    assert!(wrong.contains("password authentication failed"), "{wrong}");
    let open = open.unwrap_err();
    assert!(open.contains("password"), "{open}");
}

const SYSTEM_ROOTS_CHILD: &str = "KUUID_SYSTEM_ROOTS_CHILD";

/// In a child process (see below): one lease with sslrootcert=system at
/// the host the environment names, printed as `lease=` and the outcome.
#[test]
#[ignore = "a child of system_roots_are_the_systems_store_and_verify_the_name"]
fn system_roots_child() {
    let Ok(url) = std::env::var(SYSTEM_ROOTS_CHILD) else {
        return;
    };
    println!("lease={:?}", lease(&url, "sslrootcert=system"));
}

/// `sslrootcert=system` trusts the system's store (here SSL_CERT_FILE, as
/// OpenSSL reads it, so a child process gets a store of the test's
/// choosing) and checks as verify-full: the server's CA in the store and
/// the right name pass; another CA, or the address for the name, do not.
#[test]
fn system_roots_are_the_systems_store_and_verify_the_name() {
    let Some(t) = tls() else { return };
    // The child test's harness name: its path less the binary's name.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let child = format!("{module}::system_roots_child");
    let run = |store: &str, url: &str| {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                child.as_str(),
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(SYSTEM_ROOTS_CHILD, url)
            .env("SSL_CERT_FILE", store)
            .env_remove("SSL_CERT_DIR")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        text.lines()
            .find_map(|l| l.split_once("lease=").map(|(_, r)| r.to_owned()))
            .unwrap_or_else(|| panic!("no lease line: {text}"))
    };
    assert_eq!(run(&t.root, &t.url), "Ok(1)");
    let other = run(&t.other, &t.url);
    assert!(other.contains("certificate"), "{other}");
    let by_ip = run(&t.root, &t.url.replace("host=localhost", "host=127.0.0.1"));
    assert!(by_ip.contains("not valid for name"), "{by_ip}");
}
