//! Counters in a SQLite file (feature `rusqlite`): the embedded default.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use super::connection::PerProcess;
use super::counter::CounterStore;
use super::error::{BoxError, Error};

/// Counters in the table `kuuid_counters (name TEXT PRIMARY KEY, next
/// INTEGER)` of a SQLite file, created if missing. A lease is one
/// `IMMEDIATE` transaction (insert the row if missing, then `UPDATE ...
/// SET next = next + len ... RETURNING`), committed before the block is
/// used: with the file's default `synchronous = FULL` it is on disk when
/// the value is handed out. Processes sharing the file take turns (a busy
/// timeout of 30 s).
///
/// ```
/// use kuuid::sequence::{Counter, Sequence, SqliteCounters};
/// let path = std::env::temp_dir().join(format!("kuuid-doc-{}.db", std::process::id()));
/// let seq = Sequence::new(Counter::new(SqliteCounters::open(&path)?, "orders"), 1000)?;
/// assert_eq!(seq.next()?, 1);
/// # drop(seq);
/// # for ext in ["", "-wal", "-shm"] { let _ = std::fs::remove_file(format!("{}{ext}", path.display())); }
/// # Ok::<(), kuuid::sequence::Error>(())
/// ```
#[derive(Debug)]
pub struct SqliteCounters {
    path: PathBuf,
    conn: PerProcess<Connection>,
}

impl SqliteCounters {
    /// Opens (or creates) the file and the table, in WAL mode.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Error> {
        let store = SqliteCounters {
            path: path.as_ref().to_owned(),
            conn: PerProcess::new(),
        };
        store
            .conn
            .with(|| store.connect(), |_| Ok(()))
            .map_err(|e| Error::Store(Box::new(e)))?;
        Ok(store)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn connect(&self) -> rusqlite::Result<Connection> {
        let conn = Connection::open(&self.path)?;
        conn.busy_timeout(Duration::from_secs(30))?;
        // Switching a new file to WAL while another process does the same
        // fails at once with SQLITE_BUSY (SQLite calls no busy handler
        // there): retry for up to 30 s, as the busy timeout would.
        let mut tries = 0;
        loop {
            let setup = conn
                .query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))
                .and_then(|_| {
                    conn.execute_batch(
                        "CREATE TABLE IF NOT EXISTS kuuid_counters (name TEXT PRIMARY KEY, next INTEGER NOT NULL) STRICT",
                    )
                });
            match setup {
                Err(e) if is_busy(&e) && tries < 3000 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                other => return other.map(|()| conn),
            }
        }
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Moves the counter on by `len` if it stays within `limit`; the old value.
fn lease(conn: &Connection, name: &str, len: i64, limit: i64) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "UPDATE kuuid_counters SET next = next + ?2 WHERE name = ?1 AND next <= ?3 - ?2 RETURNING next - ?2",
        (name, len, limit),
        |r| r.get(0),
    )
    .optional()
}

impl CounterStore for SqliteCounters {
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
            || self.connect(),
            |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let mut old = lease(&tx, name, len, limit)?;
                if old.is_none() {
                    // No row yet (or used up): create it if missing, then again.
                    tx.execute(
                        "INSERT INTO kuuid_counters (name, next) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
                        (name, first),
                    )?;
                    old = lease(&tx, name, len, limit)?;
                }
                tx.commit()?;
                Ok::<_, rusqlite::Error>(old)
            },
        )?;
        Ok(old.map(|v| v as u64))
    }

    fn max_value(&self) -> u64 {
        i64::MAX as u64
    }
}
