//! Random ids retried on a unique index, in a real SQLite: a small space
//! filled to a tenth, the retries against the birthday expectation, every
//! row there once, and the cap and other errors typed (the same fill in
//! PostgreSQL: `servers/postgres_retry.rs`).
#![cfg(all(feature = "sqlite", feature = "postgres", feature = "sqlx"))]

use std::collections::HashSet;

use kuuid_sequence::render::encode_decimal;
use kuuid_sequence::retry::{RetryError, UniqueViolation, insert_unique, random_decimal};

/// The mean and standard deviation of the total retries when `n` distinct
/// values go one by one into a space of `space`: with `i` taken, an
/// attempt fails with probability `q = i / space`, so the retries are
/// geometric with mean `q / (1 - q)` and variance `q / (1 - q)^2`.
fn birthday(n: u64, space: u64) -> (f64, f64) {
    let (mut mean, mut var) = (0.0, 0.0);
    for i in 0..n {
        let q = i as f64 / space as f64;
        mean += q / (1.0 - q);
        var += q / ((1.0 - q) * (1.0 - q));
    }
    (mean, var.sqrt())
}

/// Inserts `n` random `digits`-digit numbers through `insert`; returns
/// the values and the total retries.
pub(crate) fn fill<E: UniqueViolation + std::fmt::Debug>(
    n: u64,
    digits: usize,
    mut insert: impl FnMut(&str) -> Result<(), E>,
) -> (Vec<String>, u64) {
    let mut values = Vec::new();
    let mut retries = 0u64;
    for _ in 0..n {
        let done = insert_unique(
            1000,
            || {
                let mut buf = [0u8; 20];
                let v = random_decimal(digits).unwrap();
                encode_decimal(v, digits, &mut buf).unwrap().to_owned()
            },
            |v: &String| insert(v),
        )
        .unwrap();
        retries += u64::from(done.retries);
        values.push(done.value);
    }
    (values, retries)
}

pub(crate) fn check(n: u64, space: u64, values: &[String], retries: u64, stored: HashSet<String>) {
    let (mean, sd) = birthday(n, space);
    assert!(
        (retries as f64 - mean).abs() < 6.0 * sd,
        "{retries} retries, expected {mean:.0} +- {sd:.0}"
    );
    let minted: HashSet<String> = values.iter().cloned().collect();
    assert_eq!(
        minted.len() as u64,
        n,
        "a value was reported inserted twice"
    );
    assert_eq!(
        stored, minted,
        "the table holds other rows than those reported"
    );
}

#[test]
fn sqlite_a_tenth_full_space_retries_as_the_birthday_bound_says() {
    let db = rusqlite::Connection::open_in_memory().unwrap();
    db.execute_batch("CREATE TABLE accounts (number TEXT PRIMARY KEY) WITHOUT ROWID; BEGIN")
        .unwrap();
    let (n, digits) = (100_000, 6);
    let mut st = db.prepare("INSERT INTO accounts VALUES (?1)").unwrap();
    let (values, retries) = fill(n, digits, |v| st.execute([v]).map(drop));
    drop(st);
    let stored: HashSet<String> = db
        .prepare("SELECT number FROM accounts")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    check(n, 1_000_000, &values, retries, stored);
}

#[test]
fn a_full_space_is_a_typed_error_after_the_cap() {
    let db = rusqlite::Connection::open_in_memory().unwrap();
    db.execute_batch("CREATE TABLE t (d TEXT PRIMARY KEY)")
        .unwrap();
    for d in 0..10 {
        db.execute("INSERT INTO t VALUES (?1)", [d.to_string()])
            .unwrap();
    }
    let mut tries = 0;
    let got = insert_unique(
        50,
        || {
            tries += 1;
            random_decimal(1).unwrap().to_string()
        },
        |v: &String| db.execute("INSERT INTO t VALUES (?1)", [v]).map(drop),
    );
    assert!(
        matches!(got, Err(RetryError::Exhausted { attempts: 50 })),
        "{got:?}"
    );
    assert_eq!(tries, 50);
    assert!(got.unwrap_err().to_string().contains("50"));
}

#[test]
fn other_errors_end_the_retries_at_once() {
    let db = rusqlite::Connection::open_in_memory().unwrap();
    let mut tries = 0;
    let got = insert_unique(
        50,
        || {
            tries += 1;
            kuuid::id()
        },
        |v: &kuuid::Kuuid| db.execute("INSERT INTO missing VALUES (?1)", [v]).map(drop),
    );
    assert!(matches!(got, Err(RetryError::Insert(_))), "{got:?}");
    assert_eq!(tries, 1);
    // A NOT NULL violation is a constraint too, but not a duplicate.
    db.execute_batch("CREATE TABLE n (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        .unwrap();
    let e = db
        .execute("INSERT INTO n VALUES ('a', NULL)", [])
        .unwrap_err();
    assert!(!e.is_unique_violation());
}

#[tokio::test]
async fn sqlx_reports_duplicates_as_unique_violations() {
    use sqlx::Connection;
    let mut db = sqlx::SqliteConnection::connect("sqlite::memory:")
        .await
        .unwrap();
    sqlx::query("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        .execute(&mut db)
        .await
        .unwrap();
    let insert = "INSERT INTO t VALUES ('a', 'x')";
    sqlx::query(insert).execute(&mut db).await.unwrap();
    let dup = sqlx::query(insert).execute(&mut db).await.unwrap_err();
    assert!(dup.is_unique_violation());
    let null = sqlx::query("INSERT INTO t VALUES ('b', NULL)")
        .execute(&mut db)
        .await
        .unwrap_err();
    assert!(!null.is_unique_violation());
}
