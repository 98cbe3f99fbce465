//! Random ids retried on a unique index in the PostgreSQL at
//! `KUUID_PG_URL` (skipped, saying why, without it): a small space filled
//! to a tenth, the retries against the birthday expectation, every row
//! there once (the same on SQLite and the cap and errors: `retry.rs`).
#![cfg(all(feature = "sqlite", feature = "postgres", feature = "sqlx"))]

use std::collections::HashSet;

use crate::retry::{check, fill};

#[test]
fn postgres_a_tenth_full_space_retries_as_the_birthday_bound_says() {
    let Some(url) = crate::server::address("KUUID_PG_URL") else {
        return;
    };
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    db.batch_execute("CREATE TEMP TABLE accounts (number text PRIMARY KEY)")
        .unwrap();
    let st = db.prepare("INSERT INTO accounts VALUES ($1)").unwrap();
    let (n, digits) = (20_000, 5);
    let (values, retries) = {
        // Each insert commits on its own: a refused one aborts nothing.
        let db = &mut db;
        fill(n, digits, |v| db.execute(&st, &[&v]).map(drop))
    };
    let stored: HashSet<String> = db
        .query("SELECT number FROM accounts", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    check(n, 100_000, &values, retries, stored);
}
