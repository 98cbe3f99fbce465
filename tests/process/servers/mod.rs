//! Tests that need a server, each file named for it (`postgres*`: the
//! PostgreSQL at `KUUID_PG_URL`); without it each says why it skips.

mod postgres_processes;
mod postgres_signal;
