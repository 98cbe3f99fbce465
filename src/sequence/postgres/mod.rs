//! Counters in PostgreSQL (feature `postgres`).

use std::collections::HashMap;

use postgres::{Client, NoTls};

use super::connection::PerProcess;
use super::counter::CounterStore;
use super::error::{BoxError, Error, SchemaError};
use super::layout::{Layout, LayoutMismatch, Row};

/// The table, as `format_type` names its columns' types.
const COLUMNS: [(&str, &str); 4] = [
    ("name", "text"),
    ("shard", "bigint"),
    ("next", "bigint"),
    ("layout", "text"),
];

/// Counters in the table `kuuid_counters (name text, shard bigint, next
/// bigint, layout text, PRIMARY KEY (name, shard))` of a PostgreSQL
/// database, created if missing (so a role with only `SELECT, INSERT,
/// UPDATE` on an existing table works; a table with other columns is
/// refused at connect). Each counter has a row per shard, and a row at
/// shard -1 that records its [`Layout`]. A lease is one `UPDATE ... SET
/// next = next + len ... RETURNING` in autocommit (the rows are inserted
/// first when missing, and the layout checked on the connection's first
/// lease of the counter): the row lock serializes leases across processes,
/// and the commit is durable (`synchronous_commit = on`, set on every
/// connection) before the block is used.
///
/// A connection that breaks (the server restarted, the backend was
/// terminated, the network dropped it) is replaced on the next lease, and
/// a lease that failed because it broke is tried once more on the new one.
/// That is safe: a lease whose commit is unknown may have moved the
/// counter, and the retry leases the block after it, so the unknown one is
/// burned (a gap), never handed out twice.
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
    conn: PerProcess<Conn>,
}

/// A connection and the counters whose layout it has checked (a layout
/// row never changes once written).
struct Conn {
    client: Client,
    checked: HashMap<String, Layout>,
}

impl PostgresCounters {
    /// Connects, and creates the table if it is missing; refuses a table
    /// whose columns are not the ones above.
    pub fn connect(config: &str) -> Result<Self, Error> {
        let store = PostgresCounters {
            config: config.to_owned(),
            conn: PerProcess::new(),
        };
        store.conn.with(|| store.open(), |_| Ok(()))?;
        Ok(store)
    }

    fn open(&self) -> Result<Conn, Error> {
        let store = |e: postgres::Error| Error::Store(Box::new(e));
        let mut client = Client::connect(&self.config, NoTls).map_err(store)?;
        client
            .batch_execute("SET synchronous_commit = on")
            .map_err(store)?;
        let exists: bool = client
            .query_one("SELECT to_regclass('kuuid_counters') IS NOT NULL", &[])
            .and_then(|r| r.try_get(0))
            .map_err(store)?;
        if !exists {
            // CREATE needs a privilege on the schema that PostgreSQL 15
            // no longer grants to every role: asked for only when needed.
            let create = client.batch_execute(
                r#"CREATE TABLE IF NOT EXISTS kuuid_counters (
                     name text COLLATE "C" NOT NULL, shard bigint NOT NULL,
                     next bigint NOT NULL, layout text NOT NULL,
                     PRIMARY KEY (name, shard))"#,
            );
            match create {
                // Two processes creating the table at once: one wins the
                // catalog's unique index, and the table is there.
                Err(e) if e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION) => {}
                other => other.map_err(store)?,
            }
        }
        check_columns(&mut client)?;
        Ok(Conn {
            client,
            checked: HashMap::new(),
        })
    }
}

/// Refuses a `kuuid_counters` table made otherwise (by an older kuuid, or
/// by hand, say with a `numeric` column the driver cannot read as `i64`).
fn check_columns(client: &mut Client) -> Result<(), Error> {
    let store = |e: postgres::Error| Error::Store(Box::new(e));
    let rows = client
        .query(
            "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute
             WHERE attrelid = to_regclass('kuuid_counters') AND attnum > 0 AND NOT attisdropped
             ORDER BY attnum",
            &[],
        )
        .map_err(store)?;
    let found = rows
        .iter()
        .map(|r| Ok((r.try_get::<_, String>(0)?, r.try_get::<_, String>(1)?)))
        .collect::<Result<Vec<_>, postgres::Error>>()
        .map_err(store)?;
    let fits = COLUMNS
        .iter()
        .all(|(name, ty)| found.iter().any(|(n, t)| n == name && t == ty));
    if fits {
        return Ok(());
    }
    Err(Error::Store(Box::new(SchemaError {
        table: "kuuid_counters",
        found: found.iter().map(|(n, t)| format!("{n} {t}")).collect(),
        expected: COLUMNS.iter().map(|(n, t)| format!("{n} {t}")).collect(),
    })))
}

fn lease(
    client: &mut Client,
    row: Row<'_>,
    len: i64,
    limit: i64,
) -> Result<Option<i64>, postgres::Error> {
    let found = client.query_opt(
        "UPDATE kuuid_counters SET next = next + $3::bigint WHERE name = $1 AND shard = $2::bigint AND next <= $4::bigint - $3::bigint RETURNING next - $3::bigint",
        &[&row.name, &(row.shard as i64), &len, &limit],
    )?;
    found.map(|r| r.try_get(0)).transpose()
}

/// The layout recorded for `row.name` (recording `row.layout` if the
/// counter is new), checked against `row.layout`.
fn check_layout(client: &mut Client, row: Row<'_>) -> Result<(), BoxError> {
    let layout = row.layout.to_string();
    client.execute(
        "INSERT INTO kuuid_counters (name, shard, next, layout) VALUES ($1, -1, 0, $2) ON CONFLICT (name, shard) DO NOTHING",
        &[&row.name, &layout],
    )?;
    let stored: String = client
        .query_one(
            "SELECT layout FROM kuuid_counters WHERE name = $1 AND shard = -1",
            &[&row.name],
        )?
        .try_get(0)?;
    if stored != layout {
        return Err(Box::new(LayoutMismatch {
            name: row.name.to_owned(),
            stored,
            requested: row.layout,
        }));
    }
    Ok(())
}

/// One lease on `conn` (see [`CounterStore::advance`]).
fn advance_on(
    conn: &mut Conn,
    row: Row<'_>,
    first: i64,
    len: i64,
    limit: i64,
) -> Result<Option<i64>, BoxError> {
    let known = conn.checked.get(row.name) == Some(&row.layout);
    if !known {
        check_layout(&mut conn.client, row)?;
        conn.checked.insert(row.name.to_owned(), row.layout);
    }
    let old = lease(&mut conn.client, row, len, limit)?;
    if old.is_some() {
        return Ok(old);
    }
    // No row yet (or used up): create it if missing, then again.
    conn.client.execute(
        "INSERT INTO kuuid_counters (name, shard, next, layout) VALUES ($1, $2, $3, $4) ON CONFLICT (name, shard) DO NOTHING",
        &[&row.name, &(row.shard as i64), &first, &row.layout.to_string()],
    )?;
    Ok(lease(&mut conn.client, row, len, limit)?)
}

impl std::fmt::Debug for PostgresCounters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresCounters").finish_non_exhaustive()
    }
}

impl CounterStore for PostgresCounters {
    fn advance(
        &self,
        row: Row<'_>,
        first: u64,
        len: u64,
        limit: u64,
    ) -> Result<Option<u64>, BoxError> {
        // The callers check these against `max_value`.
        let [first, len, limit] = [first, len, limit].map(|v| v as i64);
        let old = self.conn.with_retry(
            || self.open().map_err(BoxError::from),
            |conn| advance_on(conn, row, first, len, limit),
            |conn| conn.client.is_closed(),
        )?;
        Ok(old.map(|v| v as u64))
    }

    fn max_value(&self) -> u64 {
        i64::MAX as u64
    }
}
