//! kuuid's integrations tested against the real stores (the tests are in
//! `tests/library/`): ids in SQLite through rusqlite and sqlx, in
//! PostgreSQL through postgres-types and sqlx, and in CouchDB's HTTP API.
//!
//! ```sh
//! cargo test --all-features -p kuuid-integration-tests
//! ```
//!
//! A package of its own so that its test binary builds without
//! optimization (the workspace's test profile, `Cargo.toml`): sqlx's,
//! tokio's and postgres's generics instantiated at -O2 made kuuid's
//! `library` test binary take 52 s to build instead of 22, and these tests
//! wait on databases, not on the CPU.
