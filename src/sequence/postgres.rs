//! Counters in PostgreSQL (feature `postgres`).

use postgres::{Client, NoTls};

use super::connection::PerProcess;
use super::counter::CounterStore;
use super::error::{BoxError, Error};

/// Counters in the table `kuuid_counters (name text PRIMARY KEY, next
/// bigint)` of a PostgreSQL database, created if missing. A lease is one
/// `UPDATE ... SET next = next + len ... RETURNING` in autocommit (the row
/// is inserted first when missing): the row lock serializes leases across
/// processes, and the commit is durable under the server's
/// `synchronous_commit` before the block is used.
///
/// The connection string is libpq's (`host=/tmp user=app dbname=app` or a
/// `postgres://` URL), without TLS: for a loopback or socket server.
///
/// ```no_run
/// use kuuid::sequence::{Counter, PostgresCounters, Sequence};
/// let store = PostgresCounters::connect("postgres://app@localhost/app")?;
/// let seq = Sequence::new(Counter::new(store, "orders"), 1000)?;
/// let id = seq.next()?;
/// # Ok::<(), kuuid::sequence::Error>(())
/// ```
pub struct PostgresCounters {
    config: String,
    conn: PerProcess<Client>,
}

impl PostgresCounters {
    /// Connects and creates the table if missing.
    pub fn connect(config: &str) -> Result<Self, Error> {
        let store = PostgresCounters {
            config: config.to_owned(),
            conn: PerProcess::new(),
        };
        store
            .conn
            .with(|| store.open(), |_| Ok(()))
            .map_err(|e| Error::Store(Box::new(e)))?;
        Ok(store)
    }

    fn open(&self) -> Result<Client, postgres::Error> {
        let mut client = Client::connect(&self.config, NoTls)?;
        let create = client.batch_execute(
            r#"CREATE TABLE IF NOT EXISTS kuuid_counters (name text COLLATE "C" PRIMARY KEY, next bigint NOT NULL)"#,
        );
        match create {
            // Two processes creating the table at once: one wins the
            // catalog's unique index, and the table is there.
            Err(e) if e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION) => {}
            other => other?,
        }
        Ok(client)
    }
}

/// Moves the counter on by `len` if it stays within `limit`; the old value.
fn lease(
    client: &mut Client,
    name: &str,
    len: i64,
    limit: i64,
) -> Result<Option<i64>, postgres::Error> {
    let row = client.query_opt(
        "UPDATE kuuid_counters SET next = next + $2::bigint WHERE name = $1 AND next <= $3::bigint - $2::bigint RETURNING next - $2::bigint",
        &[&name, &len, &limit],
    )?;
    Ok(row.map(|r| r.get(0)))
}

/// Without the connection string, which may hold a password.
impl std::fmt::Debug for PostgresCounters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresCounters").finish_non_exhaustive()
    }
}

impl CounterStore for PostgresCounters {
    fn advance(
        &self,
        name: &str,
        first: u64,
        len: u64,
        limit: u64,
    ) -> Result<Option<u64>, BoxError> {
        // The callers check these against `max_value`.
        let [first, len, limit] = [first, len, limit].map(|v| v as i64);
        let old = self.conn.with(
            || self.open(),
            |client| {
                let old = lease(client, name, len, limit)?;
                if old.is_some() {
                    return Ok(old);
                }
                // No row yet (or used up): create it if missing, then again.
                client.execute(
                    "INSERT INTO kuuid_counters (name, next) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                    &[&name, &first],
                )?;
                lease(client, name, len, limit)
            },
        )?;
        Ok(old.map(|v| v as u64))
    }

    fn max_value(&self) -> u64 {
        i64::MAX as u64
    }
}
