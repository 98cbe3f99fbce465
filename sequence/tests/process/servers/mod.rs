//! Tests that need the PostgreSQL at `KUUID_PG_URL`; without it each says
//! why it skips.

mod postgres_processes;
mod postgres_signal;
