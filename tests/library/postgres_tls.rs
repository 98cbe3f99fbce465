//! `PostgresCounters` over TLS against the PostgreSQL that `.ci/run` starts
//! with `ssl=on` on a loopback port (`KUUID_PG_TLS`, a self-signed
//! certificate for `localhost` in `KUUID_PG_TLS_ROOT`, another one in
//! `KUUID_PG_TLS_OTHER_ROOT`): each `sslmode` checks what libpq's does, and
//! the session really is encrypted.
#![cfg(feature = "postgres-tls")]

use kuuid::sequence::{BlockSource, Counter, PostgresCounters};

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
    let admin = std::env::var("KUUID_PG_URL").unwrap();
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
    // The certificate names localhost, not 127.0.0.1.
    let by_ip = t.url.replace("host=localhost", "host=127.0.0.1");
    let e = lease(&by_ip, &format!("sslmode=verify-full {root}")).unwrap_err();
    assert!(e.contains("127.0.0.1"), "{e}");
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
