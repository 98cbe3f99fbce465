//! `Sequence` under faults on a PostgreSQL of the test's own (started where
//! the server is installed; else the one at `KUUID_PG_URL`): the harness
//! of `sequence_faults.rs` (2 processes x 2 threads mint and print while a
//! driver SIGKILLs one), with PostgreSQL's faults: its backends terminated,
//! the server restarted (its own, or with the command in
//! `KUUID_PG_RESTART`), the table locked. No printed value repeats.
#![cfg(all(unix, feature = "sqlite", feature = "postgres"))]

use std::process::Command;
use std::time::Duration;

use crate::sequence_faults::with_faults;

#[test]
fn postgres_under_kill_terminate_restart_and_lock() {
    // A server of its own where one can be started: restarting the shared
    // one would drop the other tests' connections.
    let (url, restart_cmd) = match crate::server::private_postgres() {
        Ok((url, restart)) => (url, Some(restart)),
        Err(_) => {
            let Some(url) = crate::server::address("KUUID_PG_URL") else {
                return;
            };
            (url, std::env::var("KUUID_PG_RESTART").ok())
        }
    };
    let admin = || postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let terminate = || {
        let n: i64 = admin()
            .query_one(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'kuuid-fault-child') t",
                &[],
            )
            .unwrap()
            .get(0);
        assert!(n >= 1, "no backend to terminate");
    };
    let lock = || {
        let mut c = admin();
        let mut tx = c.transaction().unwrap();
        tx.batch_execute("LOCK TABLE kuuid_counters IN ACCESS EXCLUSIVE MODE")
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        tx.rollback().unwrap();
    };
    let restart = || {
        let cmd = restart_cmd.as_deref().expect("checked below");
        let s = crate::child::run(Command::new("sh").args(["-c", cmd]))
            .unwrap()
            .status;
        assert!(s.success(), "{cmd}");
    };
    let mut faults: Vec<&dyn Fn()> = vec![&terminate, &lock];
    if restart_cmd.is_some() {
        faults.push(&restart);
    } else {
        crate::server::skip(
            "the server restart (no PostgreSQL installed to start one for it, and KUUID_PG_RESTART is not set)",
        );
    }
    with_faults(&url, "postgres", &faults);
}
