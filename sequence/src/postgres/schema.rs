//! The `kuuid_counters` table: made when missing (creators queue on an
//! advisory lock), and refused when made otherwise.

use super::{Conn, PostgresCounters};
use crate::error::{BoxError, SchemaError};

/// The table, as `format_type` names its columns' types.
const COLUMNS: [(&str, &str); 4] = [
    ("name", "text"),
    ("shard", "bigint"),
    ("next", "bigint"),
    ("layout", "text"),
];

/// The advisory lock key that creators of `kuuid_counters` queue on (the
/// bytes of "kuuid_ct" as a big-endian integer).
const CREATE_LOCK: i64 = i64::from_be_bytes(*b"kuuid_ct");

impl PostgresCounters {
    /// Durable commits, the server's own statement timeout (unless the
    /// connection string sets one in `options`), the table (created when
    /// missing), its columns.
    pub(super) fn setup(&self, conn: &mut Conn) -> Result<(), BoxError> {
        let c = conn.client.clone();
        let user_set = self
            .target
            .config
            .get_options()
            .is_some_and(|o| super::config::options_set(o, "statement_timeout"));
        let timeout = if user_set {
            String::new()
        } else {
            format!(
                "; SET statement_timeout = {}",
                self.timeout.as_millis().max(1)
            )
        };
        self.wait(
            conn,
            c.batch_execute(&format!("SET synchronous_commit = on{timeout}")),
        )?;
        let row = self.wait(
            conn,
            c.query_one("SELECT to_regclass('kuuid_counters') IS NOT NULL", &[]),
        )?;
        let exists: bool = row.try_get(0).map_err(|e| self.at(e))?;
        if !exists {
            // CREATE needs a privilege on the schema that PostgreSQL 15
            // no longer grants to every role: asked for only when needed.
            // `IF NOT EXISTS` does not make two creators at once safe (the
            // loser meets the winner's uncommitted catalog rows: "type
            // kuuid_counters already exists"), so creators queue on a
            // transaction-scoped advisory lock: the two statements are one
            // implicit transaction, which ends (and lets go) on an error too.
            let create = self.wait(
                conn,
                c.batch_execute(&format!(
                    r#"SELECT pg_advisory_xact_lock({CREATE_LOCK});
                       CREATE TABLE IF NOT EXISTS kuuid_counters (
                         name text COLLATE "C" NOT NULL, shard bigint NOT NULL,
                         next bigint NOT NULL, layout text NOT NULL,
                         PRIMARY KEY (name, shard))"#
                )),
            );
            // A creator that takes no lock (an older kuuid, by hand) can
            // still race us: the table is there all the same.
            if let Err(e) = create
                && !is_created_by_another(&*e)
            {
                return Err(e);
            }
        }
        self.check_columns(conn)
    }

    /// Refuses a `kuuid_counters` table made otherwise (by an older kuuid,
    /// or by hand, say with a `numeric` column the driver cannot read as
    /// `i64`).
    fn check_columns(&self, conn: &mut Conn) -> Result<(), BoxError> {
        let c = conn.client.clone();
        let rows = self.wait(
            conn,
            c.query(
                "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute
                 WHERE attrelid = to_regclass('kuuid_counters') AND attnum > 0 AND NOT attisdropped
                 ORDER BY attnum",
                &[],
            ),
        )?;
        let found = rows
            .iter()
            .map(|r| Ok((r.try_get::<_, String>(0)?, r.try_get::<_, String>(1)?)))
            .collect::<Result<Vec<_>, tokio_postgres::Error>>()
            .map_err(|e| self.at(e))?;
        let fits = COLUMNS
            .iter()
            .all(|(name, ty)| found.iter().any(|(n, t)| n == name && t == ty));
        if fits {
            return Ok(());
        }
        Err(Box::new(SchemaError {
            table: "kuuid_counters",
            found: found.iter().map(|(n, t)| format!("{n} {t}")).collect(),
            expected: COLUMNS.iter().map(|(n, t)| format!("{n} {t}")).collect(),
        }))
    }
}

/// Whether creating the table failed (`e` at any depth) because another
/// session created it at the same moment: one of the errors PostgreSQL
/// gives the loser (the catalog's unique index, the row type, the table).
fn is_created_by_another(e: &(dyn std::error::Error + 'static)) -> bool {
    use tokio_postgres::error::SqlState;
    let mut cur = Some(e);
    while let Some(e) = cur {
        if let Some(pg) = e.downcast_ref::<tokio_postgres::Error>()
            && let Some(code) = pg.code()
            && [
                SqlState::UNIQUE_VIOLATION,
                SqlState::DUPLICATE_OBJECT,
                SqlState::DUPLICATE_TABLE,
            ]
            .contains(code)
        {
            return true;
        }
        cur = e.source();
    }
    false
}
