//! Tests that need a server, each file named for it (`postgres*`: the
//! PostgreSQL at `KUUID_PG_URL`; `couchdb*`: CouchDB's HTTP API at
//! `KUUID_COUCH_URL`). `.ci/run` provides them; without them each test
//! starts the server where its binary is installed, or says why it skips.

mod couchdb;
mod couchdb_order;
pub(crate) mod postgres;
pub(crate) mod postgres_sqlx;
mod postgres_ulid;
