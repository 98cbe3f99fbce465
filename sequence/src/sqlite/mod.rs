//! Counters in a SQLite file (feature `sqlite` or `sqlite-system`): the embedded default.

use std::collections::HashMap;
use std::mem::ManuallyDrop;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use super::counter::CounterStore;
use super::error::{BoxError, Error, JournalModeError, SchemaError};
use super::sharding::{Row, Sharding, ShardingMismatchError};

mod fork;

use fork::{Inside, Slot};
#[cfg(feature = "__test-hooks")]
pub(crate) use fork::{busy_waits, hold};

/// The table, as SQLite reports its columns (`PRAGMA table_info`).
const COLUMNS: [(&str, &str); 4] = [
    ("name", "TEXT"),
    ("shard", "INTEGER"),
    ("next", "INTEGER"),
    ("layout", "TEXT"),
];

/// Counters in the table `kuuid_counters (name TEXT, shard INTEGER, next
/// INTEGER, layout TEXT, PRIMARY KEY (name, shard))` of a SQLite file,
/// created if missing (an existing table with other columns is refused at
/// open). Each counter has a row per shard, and a row at shard -1 that
/// records its [`Sharding`]. A lease is one `IMMEDIATE` transaction (insert
/// the rows if missing, check the sharding on the connection's first lease
/// of the counter, then `UPDATE ... SET next = next + len ... RETURNING`),
/// committed with `synchronous = FULL` (set on every connection) before the
/// block is used. Processes sharing the file take turns (a busy timeout of
/// 30 s, or the one given to [`SqliteCounters::open_with_busy_timeout`]).
///
/// # Fork
///
/// A forked child (or a raw `clone`) leases on connections of its own: its
/// first SQLite call closes every store connection it inherited, then
/// opens its own, so SQLite's per-process lock tables there describe the
/// child's locks only. `fork()` waits for this crate's SQLite calls in
/// flight, at most half a second (calls waiting for another process's lock
/// step out at once and go on after the fork); a child made while a call
/// was still inside (that wait ran out, a raw clone) gets
/// [`Error::CopiedMidCall`] from every SQLite store. A thread in a call
/// blocks asynchronous signals (but while it naps waiting for a lock), so
/// a signal handler that forks runs before or after the call, not inside
/// it. A SQLite connection of your own to the counters'
/// file, open across a fork, defeats SQLite's locking in the child (SQLite
/// says: never carry a connection across `fork`); close it first.
///
/// ```
/// use kuuid_sequence::{Counter, Sequence, SqliteCounters};
/// let path = std::env::temp_dir().join(format!("kuuid-doc-{}.db", std::process::id()));
/// let seq = Sequence::new(Counter::new(SqliteCounters::open(&path)?, "orders"), 1000)?;
/// assert_eq!(seq.next()?, 1);
/// # drop(seq);
/// # for ext in ["", "-wal", "-shm"] { let _ = std::fs::remove_file(format!("{}{ext}", path.display())); }
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
#[derive(Debug)]
pub struct SqliteCounters {
    path: PathBuf,
    busy_timeout: Duration,
    conn: Arc<Slot>,
}

/// How long a call waits for another process's transaction by default.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection, the process that opened it, and the counters whose
/// sharding it has checked (the row recording it never changes once
/// written). Dropped, it leaks its connection: only [`Conn::close`], inside the fork gate, closes
/// one (a poisoned copy must never call SQLite).
#[derive(Debug)]
struct Conn {
    pid: u32,
    db: ManuallyDrop<Connection>,
    checked: HashMap<String, Sharding>,
}

impl Conn {
    /// Closes the connection (inside the gate).
    fn close(self) {
        drop(ManuallyDrop::into_inner(self.db));
    }
}

impl SqliteCounters {
    /// Opens (or creates) the file and the table, in WAL mode; refuses a
    /// table whose columns are not the ones above.
    ///
    /// ```
    /// use kuuid_sequence::{BlockSource, Counter, SqliteCounters};
    /// let path = std::env::temp_dir().join(format!("kuuid-doc-open-{}.db", std::process::id()));
    /// let first = Counter::new(SqliteCounters::open(&path)?, "n").lease(10)?;
    /// // The file keeps the counter: a second store on it leases on.
    /// assert_eq!(Counter::new(SqliteCounters::open(&path)?, "n").lease(10)?, first + 10);
    /// # for ext in ["", "-wal", "-shm"] { let _ = std::fs::remove_file(format!("{}{ext}", path.display())); }
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::open_with_busy_timeout(path, BUSY_TIMEOUT)
    }

    /// [`open`](Self::open), with how long each call may wait while
    /// another process holds the file's write lock (30 s for `open`);
    /// past it a lease fails with the store's "database is locked".
    ///
    /// ```
    /// use std::time::Duration;
    /// use kuuid_sequence::SqliteCounters;
    /// let path = std::env::temp_dir().join(format!("kuuid-doc-busy-{}.db", std::process::id()));
    /// let store = SqliteCounters::open_with_busy_timeout(&path, Duration::from_secs(2))?;
    /// # drop(store);
    /// # for ext in ["", "-wal", "-shm"] { let _ = std::fs::remove_file(format!("{}{ext}", path.display())); }
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn open_with_busy_timeout(
        path: impl AsRef<Path>,
        busy_timeout: Duration,
    ) -> Result<Self, Error> {
        let store = SqliteCounters {
            path: path.as_ref().to_owned(),
            busy_timeout,
            conn: Arc::default(),
        };
        fork::register(&store.conn, &Inside::enter()?);
        store.call(|_| Ok(()))?;
        Ok(store)
    }

    /// The file.
    ///
    /// ```
    /// use kuuid_sequence::SqliteCounters;
    /// let path = std::env::temp_dir().join(format!("kuuid-doc-path-{}.db", std::process::id()));
    /// assert_eq!(SqliteCounters::open(&path)?.path(), path);
    /// # for ext in ["", "-wal", "-shm"] { let _ = std::fs::remove_file(format!("{}{ext}", path.display())); }
    /// # Ok::<(), kuuid_sequence::Error>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` on this process's connection (opened first if needed),
    /// through the fork gate, waiting for other processes' locks until the
    /// busy timeout. A call that stepped out for a fork goes again after
    /// it, with what is left of the timeout.
    fn call<R>(&self, f: impl Fn(&mut Conn) -> Result<R, BoxError>) -> Result<R, Error> {
        let deadline = Instant::now() + self.busy_timeout;
        loop {
            let inside = Inside::enter()?;
            let pid = inside.pid();
            let (result, stepped_out) = fork::with_deadline(deadline, || {
                let mut slot = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
                if slot.as_ref().is_some_and(|c| c.pid != pid) {
                    if !fork::fork_guard_disabled() {
                        // The gate closed every inherited connection: one
                        // here means this process must not trust SQLite.
                        return Err(Error::CopiedMidCall);
                    }
                    // The negative control: leak it, as the store once did.
                    drop(slot.take());
                }
                if slot.is_none() {
                    *slot = Some(self.connect(pid)?);
                }
                f(slot.as_mut().expect("connected above")).map_err(Error::from_store)
            });
            if !inside.leave() {
                // A fork from a signal handler on this thread copied the
                // call: what it returned belongs to the parent.
                return Err(Error::CopiedMidCall);
            }
            match result {
                Err(_) if stepped_out => continue,
                other => return other,
            }
        }
    }

    fn connect(&self, pid: u32) -> Result<Conn, Error> {
        let store = |e: rusqlite::Error| Error::Store(Box::new(e));
        // `mut`: rusqlite 0.43 takes the busy handler through `&mut self`,
        // 0.37-0.42 through `&self`; the range allows both.
        #[allow(unused_mut)]
        let mut db = Connection::open(&self.path).map_err(store)?;
        db.busy_handler(Some(fork::busy)).map_err(store)?;
        // Switching a new file to WAL while another process does the same
        // fails at once with SQLITE_BUSY (SQLite calls no busy handler
        // there): retry every 10 ms for as long as the busy timeout.
        let max_tries = self.busy_timeout.as_millis() / 10;
        let mut tries = 0;
        let mut mode = String::new();
        loop {
            let setup = db
                .query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))
                .and_then(|m| {
                    mode = m;
                    db.execute_batch(
                        "PRAGMA synchronous = FULL;
                         CREATE TABLE IF NOT EXISTS kuuid_counters (
                           name TEXT NOT NULL, shard INTEGER NOT NULL,
                           next INTEGER NOT NULL, layout TEXT NOT NULL,
                           PRIMARY KEY (name, shard)) STRICT",
                    )
                });
            match setup {
                Err(e) if is_busy(&e) && tries < max_tries && !fork::step_out() => {
                    tries += 1;
                    if !fork::nap(Duration::from_millis(10)) {
                        // A fork waits: go again after it. A copy made in
                        // the nap leaves the connection open (leaked): a
                        // poisoned copy never calls SQLite.
                        if std::process::id() != pid {
                            std::mem::forget(db);
                        }
                        return Err(store(e));
                    }
                }
                other => {
                    other.map_err(store)?;
                    break;
                }
            }
        }
        // Only WAL lets a lease waiting for a lock hold nothing (issue 63,
        // item 6): SQLite answers with the mode it stayed in.
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::Store(Box::new(JournalModeError { mode })));
        }
        check_columns(&db)?;
        Ok(Conn {
            pid,
            db: ManuallyDrop::new(db),
            checked: HashMap::new(),
        })
    }
}

impl Drop for SqliteCounters {
    fn drop(&mut self) {
        // Closed inside the gate; in a poisoned copy, left open (leaked).
        if let Ok(_inside) = Inside::enter()
            && let Some(conn) = self
                .conn
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
                .filter(|c| c.pid == _inside.pid())
        {
            conn.close();
        }
    }
}

/// Refuses a `kuuid_counters` table made otherwise (by an older kuuid, or
/// by hand): reading one with other types would fail or mislead later.
fn check_columns(db: &Connection) -> Result<(), Error> {
    let store = |e: rusqlite::Error| Error::Store(Box::new(e));
    let mut stmt = db
        .prepare("SELECT name, type FROM pragma_table_info('kuuid_counters')")
        .map_err(store)?;
    let found: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(store)?
        .collect::<Result<_, _>>()
        .map_err(store)?;
    let fits = COLUMNS.iter().all(|(name, ty)| {
        found
            .iter()
            .any(|(n, t)| n == name && t.eq_ignore_ascii_case(ty))
    });
    if fits {
        return Ok(());
    }
    Err(Error::Store(Box::new(SchemaError {
        table: "kuuid_counters",
        found: found.iter().map(|(n, t)| format!("{n} {t}")).collect(),
        expected: COLUMNS.iter().map(|(n, t)| format!("{n} {t}")).collect(),
    })))
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn lease(conn: &Connection, row: Row<'_>, len: i64, limit: i64) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "UPDATE kuuid_counters SET next = next + ?3 WHERE name = ?1 AND shard = ?2 AND next <= ?4 - ?3 RETURNING next - ?3",
        (row.name, row.shard as i64, len, limit),
        |r| r.get(0),
    )
    .optional()
}

/// The sharding recorded for `row.name` (recording `row.sharding` if the
/// counter is new), checked against `row.sharding`.
fn check_sharding(conn: &Connection, row: Row<'_>) -> Result<(), BoxError> {
    let layout = row.sharding.to_string();
    conn.execute(
        "INSERT INTO kuuid_counters (name, shard, next, layout) VALUES (?1, -1, 0, ?2) ON CONFLICT (name, shard) DO NOTHING",
        (row.name, &layout),
    )?;
    let stored: String = conn.query_row(
        "SELECT layout FROM kuuid_counters WHERE name = ?1 AND shard = -1",
        [row.name],
        |r| r.get(0),
    )?;
    if stored != layout {
        return Err(Box::new(ShardingMismatchError {
            name: row.name.to_owned(),
            stored,
            requested: row.sharding,
        }));
    }
    Ok(())
}

impl CounterStore for SqliteCounters {
    fn advance(
        &self,
        row: Row<'_>,
        first: u64,
        len: u64,
        limit: u64,
    ) -> Result<Option<u64>, BoxError> {
        // The callers check these against `max_value`.
        let [first, len, limit] = [first, len, limit].map(|v| v as i64);
        let old = self.call(|conn| {
            let tx = conn
                .db
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let known = conn.checked.get(row.name) == Some(&row.sharding);
            if !known {
                check_sharding(&tx, row)?;
            }
            let mut old = lease(&tx, row, len, limit)?;
            if old.is_none() {
                // No row yet (or used up): create it if missing, then again.
                tx.execute(
                    "INSERT INTO kuuid_counters (name, shard, next, layout) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (name, shard) DO NOTHING",
                    (row.name, row.shard as i64, first, row.sharding.to_string()),
                )?;
                old = lease(&tx, row, len, limit)?;
            }
            #[cfg(feature = "__test-hooks")]
            crate::__test_hooks::in_lease();
            #[cfg(all(unix, feature = "__test-hooks"))]
            crate::__test_hooks::before_commit();
            tx.commit()?;
            #[cfg(feature = "__test-hooks")]
            crate::__test_hooks::after_lease_reply();
            if !known {
                conn.checked.insert(row.name.to_owned(), row.sharding);
            }
            Ok(old)
        })
        .map_err(Error::into_store)?;
        Ok(old.map(|v| v as u64))
    }

    fn max_value(&self) -> u64 {
        i64::MAX as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The store's own connection commits with `synchronous = FULL` (2),
    /// whatever the linked SQLite's default (the durability claim).
    #[test]
    fn connections_commit_with_synchronous_full() {
        let dir = std::env::temp_dir().join(format!("kuuid-sync-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = SqliteCounters::open(dir.join("c.sqlite")).unwrap();
        let level: i64 = store
            .call(|c| Ok(c.db.query_row("PRAGMA synchronous", [], |r| r.get(0))?))
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(level, 2, "PRAGMA synchronous reads {level}, not FULL (2)");
    }
}
