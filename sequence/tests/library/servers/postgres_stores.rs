//! The PostgreSQL counter store at `KUUID_PG_URL` (`.ci/run` starts one;
//! without it the tests say why and pass) under faults and misuse: the
//! store checks every store runs (`sequence_stores.rs`), tables made
//! otherwise refused at connect, stores that create the table at once,
//! a terminated backend replaced, a role with only DML rights, a lease
//! that gets no answer timed out and its statement left running nowhere.
#![cfg(feature = "postgres")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use kuuid_sequence::{BlockSource, Counter};

use crate::sequence_stores::{all_store_checks, fresh};

#[test]
fn postgres_store_checks() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    all_store_checks(Arc::new(
        kuuid_sequence::PostgresCounters::connect(&url).unwrap(),
    ));
}

fn admin(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap()
}

/// In a schema of its own with a `numeric` column: refused with the
/// column lists (it panicked reading `next` before).
#[test]
fn a_postgres_table_made_otherwise_is_refused_at_connect() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let schema = format!("s{}", std::process::id());
    let mut a = admin(&url);
    a.batch_execute(&format!(
        "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema};
         CREATE TABLE {schema}.kuuid_counters (name text, shard bigint, next numeric, layout text, PRIMARY KEY (name, shard))"
    ))
    .unwrap();
    let scoped = with_option(&url, "options", &format!("-csearch_path={schema}"));
    let err = kuuid_sequence::PostgresCounters::connect(&scoped).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("next numeric") && text.contains("next bigint"),
        "{text}"
    );
    a.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
}

/// Processes that connect at once to a database without the table all
/// get a store: creating the table is serialized, so none sees another's
/// half-made catalog rows (seen: `type "kuuid_counters" already exists`,
/// a child of the fault test that never started). 6 threads at once, on a
/// fresh schema each round.
#[test]
fn postgres_stores_that_create_the_table_at_once_all_connect() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let mut a = admin(&url);
    for round in 0..8 {
        let schema = format!("race{}_{round}", std::process::id());
        a.batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .unwrap();
        let scoped = with_option(&url, "options", &format!("-csearch_path={schema}"));
        let start = std::sync::Barrier::new(6);
        let failures: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..6)
                .map(|_| {
                    s.spawn(|| {
                        start.wait();
                        kuuid_sequence::PostgresCounters::connect(&scoped).err()
                    })
                })
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().unwrap().map(|e| e.to_string()))
                .collect()
        });
        a.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
            .unwrap();
        assert!(failures.is_empty(), "round {round}: {failures:?}");
    }
}

/// `url` with one more libpq option (key=value strings and URLs).
fn with_option(url: &str, key: &str, value: &str) -> String {
    if url.contains("://") {
        let sep = if url.contains('?') { '&' } else { '?' };
        let value: String = value
            .bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                    (b as char).to_string()
                }
                b => format!("%{b:02X}"),
            })
            .collect();
        format!("{url}{sep}{key}={value}")
    } else {
        format!("{url} {key}='{value}'")
    }
}

/// The backend is terminated between leases: the next lease reconnects
/// and goes on above every value before (the unknown block, if any, is
/// burned).
#[test]
fn a_terminated_postgres_backend_is_replaced_on_the_next_lease() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let app = format!("kuuid-reconnect-{}", std::process::id());
    let store =
        kuuid_sequence::PostgresCounters::connect(&with_option(&url, "application_name", &app))
            .unwrap();
    let counter = Counter::new(store, fresh("reconnect"));
    let before = counter.lease(10).unwrap();
    let mut a = admin(&url);
    let killed: i64 = a
        .query_one(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1) t",
            &[&app],
        )
        .unwrap()
        .get(0);
    assert_eq!(killed, 1);
    let after = counter
        .lease(10)
        .expect("the lease after a terminated backend");
    assert!(after >= before + 10, "{after} after {before}");
}

/// A role with only `SELECT, INSERT, UPDATE` on an existing table (no
/// CREATE on the schema, as PostgreSQL 15 gives every role) leases.
#[test]
fn a_role_with_only_dml_rights_leases() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    // The table exists (made by the admin role).
    drop(kuuid_sequence::PostgresCounters::connect(&url).unwrap());
    let role = format!("dml{}", std::process::id());
    let mut a = admin(&url);
    a.batch_execute(&format!(
        "DROP ROLE IF EXISTS {role}; CREATE ROLE {role} LOGIN;
         REVOKE CREATE ON SCHEMA public FROM PUBLIC;
         GRANT SELECT, INSERT, UPDATE ON kuuid_counters TO {role}"
    ))
    .unwrap();
    let as_role = with_option(&url, "user", &role);
    let result = kuuid_sequence::PostgresCounters::connect(&as_role)
        .and_then(|store| Counter::new(store, fresh("dml")).lease(5));
    a.batch_execute(&format!(
        "REVOKE ALL ON kuuid_counters FROM {role}; DROP ROLE {role}"
    ))
    .unwrap();
    assert_eq!(result.unwrap(), 1);
}

/// A statement that gets no answer (here: the table is locked by another
/// session) fails the lease within the statement timeout, naming the
/// server; once the lock is gone the next lease reconnects and goes on
/// above every value before.
#[test]
fn a_postgres_lease_that_gets_no_answer_times_out() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let (schema, scoped) = own_schema(&url, "timeout", "");
    let store =
        kuuid_sequence::PostgresCounters::connect_with_timeout(&scoped, Duration::from_secs(1))
            .unwrap();
    let counter = Counter::new(store, fresh("timeout"));
    let before = counter.lease(10).unwrap();
    let mut locker = admin(&url);
    let mut tx = locker.transaction().unwrap();
    tx.batch_execute(&format!(
        "LOCK TABLE {schema}.kuuid_counters IN ACCESS EXCLUSIVE MODE"
    ))
    .unwrap();
    let t = Instant::now();
    let err = counter.lease(10).unwrap_err().to_string();
    let waited = t.elapsed();
    assert!(
        err.contains("statement timeout") && err.contains("PostgreSQL at"),
        "{err}"
    );
    // The server ends it at the timeout, a second (the connection stays
    // sound, so no retry); bounded generously for a loaded machine.
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    tx.rollback().unwrap();
    let after = counter.lease(10).unwrap();
    admin(&url)
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
    assert!(after >= before + 10, "{after} after {before}");
}

/// A fresh schema for a test that locks the counters' table (so that it
/// blocks no other test, and none blocks it), and `url` scoped to it with
/// `more` libpq options besides.
fn own_schema(url: &str, tag: &str, more: &str) -> (String, String) {
    let schema = format!("{tag}{}", std::process::id());
    admin(url)
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .unwrap();
    let options = format!("-csearch_path={schema} {more}");
    (schema.clone(), with_option(url, "options", options.trim()))
}

/// Backends of `app` still running a statement (waiting on a lock).
fn running(a: &mut postgres::Client, app: &str) -> i64 {
    a.query_one(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'",
        &[&app],
    )
    .unwrap()
    .get(0)
}

/// Leases that time out against a table another session keeps locked
/// leave no backend of ours waiting on the server: four leases, and then
/// none running. `server_timeout`: whether the server's own
/// `statement_timeout` may end them (the store sets it), or the string
/// turns it off (`options=-c statement_timeout=0`) so that only the
/// client's cancel request can (two leases then, each tried twice: the
/// client waits out its grace second on each try).
fn timed_out_leases_leave_nothing_running(server_timeout: bool) {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let app = format!("kuuid-left-{}-{server_timeout}", std::process::id());
    let more = if server_timeout {
        ""
    } else {
        "-c statement_timeout=0"
    };
    let (schema, scoped) = own_schema(&url, &format!("left{server_timeout}"), more);
    let scoped = with_option(&scoped, "application_name", &app);
    let store =
        kuuid_sequence::PostgresCounters::connect_with_timeout(&scoped, Duration::from_millis(500))
            .unwrap();
    let counter = Counter::new(store, fresh("left"));
    counter.lease(10).unwrap();
    let mut a = admin(&url);
    let mut locker = admin(&url);
    let mut tx = locker.transaction().unwrap();
    tx.batch_execute(&format!(
        "LOCK TABLE {schema}.kuuid_counters IN ACCESS EXCLUSIVE MODE"
    ))
    .unwrap();
    for _ in 0..if server_timeout { 4 } else { 2 } {
        assert!(counter.lease(10).is_err(), "a lease got past the lock");
    }
    // The server ends a cancelled statement a moment after the request:
    // wait for it, bounded generously (the lock is held until the end, so
    // a statement left running would still be there).
    let start = Instant::now();
    let mut left = running(&mut a, &app);
    while left != 0 && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
        left = running(&mut a, &app);
    }
    tx.rollback().unwrap();
    a.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
    assert_eq!(
        left, 0,
        "{left} statements of ours still running after the leases failed"
    );
    assert_eq!(
        left, 0,
        "{left} statements of ours still running after the leases failed"
    );
}

#[test]
fn timed_out_postgres_leases_leave_nothing_running() {
    timed_out_leases_leave_nothing_running(true);
}

#[test]
fn timed_out_postgres_leases_are_cancelled_without_a_server_timeout() {
    timed_out_leases_leave_nothing_running(false);
}

/// The store's own connection commits with `synchronous_commit = on`,
/// whatever the server's default (the durability claim): the servers
/// `.ci/run` and the tests start default to `off`. (A unit test before,
/// which passed with no server at all: issue 54.)
#[cfg(feature = "__test-hooks")]
#[test]
fn connections_commit_with_synchronous_commit_on() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let default: String = admin
        .query_one("SHOW synchronous_commit", &[])
        .unwrap()
        .get(0);
    assert_eq!(default, "off", "the test server must default to off");
    let store = kuuid_sequence::PostgresCounters::connect(&url).unwrap();
    let setting =
        kuuid_sequence::__test_hooks::postgres_setting(&store, "synchronous_commit").unwrap();
    assert_eq!(setting, "on");
}
