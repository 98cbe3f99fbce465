//! Tests that need the PostgreSQL at `KUUID_PG_URL` (and its TLS side,
//! `KUUID_PG_TLS*`). `.ci/run` provides it; without it each test starts a
//! server where its binary is installed, or says why it skips.

mod postgres_faults;
mod postgres_retry;
mod postgres_stores;
mod postgres_tls;
