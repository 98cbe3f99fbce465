//! kuuid-sequence's tests, in one binary (one link instead of one per
//! file). Tests that fork or turn the fork guard off live in
//! `tests/process` and `tests/unguarded`, which have a process to
//! themselves. Tests that need a server (PostgreSQL) live in `servers/`:
//! `-- servers::` runs them, `-- --skip servers::` runs the rest, which
//! need nothing. The support modules are kuuid's (`../tests/support`).

#[path = "../../../tests/support/child.rs"]
mod child;
#[path = "../../../tests/support/report.rs"]
mod report;
#[path = "../../../tests/support/server.rs"]
mod server;

mod errors;
mod retry;
mod secrets;
mod sequence;
mod sequence_faults;
mod sequence_stores;
mod servers;
