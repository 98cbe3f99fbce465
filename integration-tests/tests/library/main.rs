//! The integration tests, in one binary. Tests that need a server (the
//! PostgreSQL at `KUUID_PG_URL`, CouchDB's API at `KUUID_COUCH_URL`) live
//! in `servers/`, named for it: `-- servers::` runs them, `-- --skip
//! servers::` runs the rest, which need nothing (SQLite is bundled). Named
//! `library` as kuuid's and kuuid-sequence's are, so one filter (`cargo
//! test --test library -- servers::postgres::`) reaches all three.

#[path = "../../../tests/support/child.rs"]
mod child;
#[path = "../../../tests/support/server.rs"]
mod server;

mod servers;
mod sqlite;
mod sqlx;
mod typeid_stores;
mod ulid_stores;
