//! Counters in PostgreSQL (feature `postgres`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio_postgres::{Client, NoTls};

use super::connection::PerProcess;
use super::counter::CounterStore;
use super::error::{BoxError, Error};
use super::sharding::{Row, ShardingMismatchError};

mod config;
mod conn;
mod schema;
#[cfg(feature = "postgres-tls")]
mod tls;

use config::Target;
use conn::{AtServer, Cancel, Conn};

/// How long one statement may wait for the server ([`PostgresCounters::connect`]).
///
/// ```
/// assert_eq!(kuuid_sequence::DEFAULT_STATEMENT_TIMEOUT.as_secs(), 30);
/// ```
pub const DEFAULT_STATEMENT_TIMEOUT: Duration = Duration::from_secs(30);

/// Counters in the table `kuuid_counters (name text, shard bigint, next
/// bigint, layout text, PRIMARY KEY (name, shard))` of a PostgreSQL
/// database, created if missing (so a role with only `SELECT, INSERT,
/// UPDATE` on an existing table works; a table with other columns is
/// refused at connect). Each counter has a row per shard, and a row at
/// shard -1 that records its [`Sharding`](crate::Sharding). A lease is one `UPDATE ... SET
/// next = next + len ... RETURNING` in autocommit (the rows are inserted
/// first when missing, and the sharding checked on the connection's first
/// lease of the counter): the row lock serializes leases across processes,
/// and the commit is durable (`synchronous_commit = on`, set on every
/// connection) before the block is used.
///
/// # Connecting as libpq does
///
/// The string is libpq's (`host=/tmp
/// user=app dbname=app` or a `postgres://` URL); `PGHOST`, `PGPORT`,
/// `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGCONNECT_TIMEOUT`, `PGAPPNAME`,
/// `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY` and `PGPASSFILE`
/// fill what it leaves out, and a missing password comes from the password
/// file (`~/.pgpass` by default). Server settings go in `options`
/// (`options='-c lock_timeout=5s'`). A key libpq does not know, or a value
/// that cannot be, is refused by name. Connecting gives up after
/// `connect_timeout` (10 s unless set), and every statement after
/// [`DEFAULT_STATEMENT_TIMEOUT`] (see [`connect_with_timeout`]), so a
/// server that accepts and never answers fails the lease instead of
/// hanging it; errors name the host and port.
///
/// # Nothing left running
///
/// The statement timeout is set on the server
/// (`statement_timeout`, unless `options` in the string sets one), which
/// ends a statement waiting on a lock itself; a statement the server does
/// not answer for a second longer is cancelled (a cancel request) before
/// the connection is given up. A failed lease leaves no statement of this
/// store waiting on the server.
///
/// # TLS
///
/// Feature `postgres-tls` (rustls on ring, no system OpenSSL), as
/// libpq's `sslmode` says: `disable` plain; `allow`/`prefer` (the default)
/// TLS when the server offers it, nothing checked; `require` TLS, nothing
/// checked unless `sslrootcert` is given (then as `verify-ca`);
/// `verify-ca` the certificate chains to `sslrootcert` (also
/// `PGSSLROOTCERT`, `~/.postgresql/root.crt`, or `system`: the system's
/// trust store, which makes `verify-full` the default and the only mode
/// allowed); `verify-full` that and it names the host. A client certificate
/// comes from `sslcert` and `sslkey` (or `~/.postgresql/postgresql.crt`
/// and `.key`). Unlike
/// OpenSSL, the root must be a CA: a self-signed server certificate given
/// as its own root is refused (`CaUsedAsEndEntity`). Without the feature,
/// `require` and the `verify-*` modes are refused at connect.
///
/// # Broken connections
///
/// A connection that breaks or times out (the
/// server restarted, the backend was terminated, the network dropped it)
/// is replaced on the next lease, and a lease that failed because it broke
/// is tried once more on the new one. That is safe: a lease whose commit
/// is unknown may have moved the counter, and the retry leases the block
/// after it, so the unknown one is burned (a gap), never handed out twice.
///
/// [`connect_with_timeout`]: PostgresCounters::connect_with_timeout
///
/// # Example
///
/// ```
/// use kuuid_sequence::{Counter, PostgresCounters, Sequence};
/// // Your server, e.g. "postgres://app@localhost/app" (here KUUID_PG_URL's, as in CI).
/// let Ok(url) = std::env::var("KUUID_PG_URL") else { return Ok(()) };
/// let seq = Sequence::new(Counter::new(PostgresCounters::connect(&url)?, "doc-orders"), 1000)?;
/// assert!(seq.next()? < seq.next()?);
/// # Ok::<(), kuuid_sequence::Error>(())
/// ```
pub struct PostgresCounters {
    target: Target,
    /// The most one statement may wait.
    timeout: Duration,
    conn: PerProcess<Conn>,
}

impl PostgresCounters {
    /// Connects, and creates the table if it is missing; refuses a table
    /// whose columns are not the ones above.
    ///
    /// ```
    /// // Nothing listens there: the error names the server, never the password.
    /// let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    /// let url = format!("postgres://app:hunter2@127.0.0.1:{port}/app?sslmode=disable");
    /// let err = format!("{0} {0:?}", kuuid_sequence::PostgresCounters::connect(&url).unwrap_err());
    /// assert!(err.contains(&format!("127.0.0.1:{port}")) && !err.contains("hunter2"), "{err}");
    /// ```
    pub fn connect(config: &str) -> Result<Self, Error> {
        Self::connect_with_timeout(config, DEFAULT_STATEMENT_TIMEOUT)
    }

    /// As [`connect`](Self::connect), with `timeout` as the longest one
    /// statement (a lease is one to three) may wait for the server.
    ///
    /// ```
    /// use kuuid_sequence::PostgresCounters;
    /// use std::time::{Duration, Instant};
    /// // A loopback port that accepts and never answers.
    /// let silent = std::net::TcpListener::bind("127.0.0.1:0")?;
    /// let port = silent.local_addr()?.port();
    /// let t = Instant::now();
    /// let url = format!("host=127.0.0.1 port={port} user=u connect_timeout=2 sslmode=disable");
    /// let err = PostgresCounters::connect_with_timeout(&url, Duration::from_secs(1)).unwrap_err();
    /// assert!(err.to_string().contains(&format!("127.0.0.1:{port}")), "{err}");
    /// assert!(t.elapsed() < Duration::from_secs(10));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn connect_with_timeout(config: &str, timeout: Duration) -> Result<Self, Error> {
        let target =
            config::parse(config, |k| std::env::var(k).ok()).map_err(|e| Error::Store(e.into()))?;
        #[cfg(not(feature = "postgres-tls"))]
        if matches!(
            target.ssl,
            config::SslMode::Require | config::SslMode::VerifyCa | config::SslMode::VerifyFull
        ) || target.client_cert.is_some()
        {
            return Err(Error::Store(
                "sslmode require, verify-ca and verify-full, and sslcert, need TLS: build kuuid with the postgres-tls feature".into(),
            ));
        }
        let store = PostgresCounters {
            target,
            timeout,
            conn: PerProcess::new(),
        };
        store.conn.with(|| store.open(), |_| Ok(()))?;
        Ok(store)
    }

    /// A failure at this store's server.
    fn at(&self, what: impl Into<BoxError>) -> BoxError {
        Box::new(AtServer {
            at: self.target.describe(),
            what: what.into(),
        })
    }

    fn open(&self) -> Result<Conn, Error> {
        let store = |e: BoxError| Error::Store(self.at(e));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| store(e.into()))?;
        let connect_timeout = self
            .target
            .config
            .get_connect_timeout()
            .copied()
            .unwrap_or(config::DEFAULT_CONNECT_TIMEOUT);
        // The driver's own timeout covers the socket's connect only: the
        // whole handshake gets one here.
        let (client, cancel) = match self.target.ssl {
            config::SslMode::Disable => self.handshake(&runtime, connect_timeout, NoTls),
            #[cfg(feature = "postgres-tls")]
            mode => {
                let tls = tls::connector(
                    mode,
                    self.target.roots.as_ref(),
                    self.target.client_cert.as_ref(),
                )
                .map_err(|e| store(e.into()))?;
                self.handshake(&runtime, connect_timeout, tls)
            }
            #[cfg(not(feature = "postgres-tls"))]
            _ => self.handshake(&runtime, connect_timeout, NoTls),
        }?;
        let mut conn = Conn {
            runtime,
            client: Arc::new(client),
            cancel,
            checked: HashMap::new(),
            timed_out: false,
            pid: std::process::id(),
        };
        self.setup(&mut conn).map_err(Error::Store)?;
        Ok(conn)
    }

    /// Connects with `tls` under `timeout` (the driver's own covers the
    /// socket's connect only: the whole handshake gets one here), and
    /// leaves the connection's task on `runtime`, which drives it whenever
    /// a statement is waited for. Also returns how to cancel a statement
    /// on it (a new connection, with the same TLS settings).
    fn handshake<T>(
        &self,
        runtime: &tokio::runtime::Runtime,
        timeout: Duration,
        tls: T,
    ) -> Result<(Client, Cancel), Error>
    where
        T: tokio_postgres::tls::MakeTlsConnect<tokio_postgres::Socket>
            + Clone
            + Send
            + Sync
            + 'static,
        T::Stream: Send + 'static,
        T::TlsConnect: Send,
        <T::TlsConnect as tokio_postgres::tls::TlsConnect<tokio_postgres::Socket>>::Future: Send,
    {
        let store = |e: BoxError| Error::Store(self.at(e));
        let cancel_tls = tls.clone();
        let cancel: Cancel = Box::new(move |token| {
            let tls = cancel_tls.clone();
            Box::pin(async move { token.cancel_query(tls).await })
        });
        // The timer is made inside the runtime (it needs its clock).
        // Host by host where each has a password of its own; the last
        // failure is the one reported, as the driver does within one config.
        let connected = runtime.block_on(async {
            tokio::time::timeout(timeout, async {
                let mut failed = None;
                for config in self.target.attempts() {
                    match config.connect(tls.clone()).await {
                        Ok(c) => return Ok(c),
                        Err(e) => failed = Some(e),
                    }
                }
                Err(failed.expect("one attempt at least"))
            })
            .await
        });
        let (client, connection) = match connected {
            Ok(c) => c.map_err(|e| store(e.into()))?,
            Err(_) => {
                return Err(store(
                    format!("no answer within the connect timeout ({timeout:?})").into(),
                ));
            }
        };
        runtime.spawn(async move {
            let _ = connection.await;
        });
        Ok((client, cancel))
    }

    fn lease(
        &self,
        conn: &mut Conn,
        row: Row<'_>,
        len: i64,
        limit: i64,
    ) -> Result<Option<i64>, BoxError> {
        let c = conn.client.clone();
        let shard = row.shard as i64;
        #[cfg(feature = "__test-hooks")]
        crate::__test_hooks::in_lease();
        let found = self.wait(
            conn,
            c.query_opt(
                "UPDATE kuuid_counters SET next = next + $3::bigint WHERE name = $1 AND shard = $2::bigint AND next <= $4::bigint - $3::bigint RETURNING next - $3::bigint",
                &[&row.name, &shard, &len, &limit],
            ),
        )?;
        #[cfg(feature = "__test-hooks")]
        crate::__test_hooks::after_lease_reply();
        found
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(|e| self.at(e))
    }

    /// The sharding recorded for `row.name` (recording `row.sharding` if the
    /// counter is new), checked against `row.sharding`.
    fn check_sharding(&self, conn: &mut Conn, row: Row<'_>) -> Result<(), BoxError> {
        let c = conn.client.clone();
        let layout = row.sharding.to_string();
        self.wait(
            conn,
            c.execute(
                "INSERT INTO kuuid_counters (name, shard, next, layout) VALUES ($1, -1, 0, $2) ON CONFLICT (name, shard) DO NOTHING",
                &[&row.name, &layout],
            ),
        )?;
        let stored = self.wait(
            conn,
            c.query_one(
                "SELECT layout FROM kuuid_counters WHERE name = $1 AND shard = -1",
                &[&row.name],
            ),
        )?;
        let stored: String = stored.try_get(0).map_err(|e| self.at(e))?;
        if stored != layout {
            return Err(Box::new(ShardingMismatchError {
                name: row.name.to_owned(),
                stored,
                requested: row.sharding,
            }));
        }
        Ok(())
    }

    /// One lease on `conn` (see [`CounterStore::advance`]).
    fn advance_on(
        &self,
        conn: &mut Conn,
        row: Row<'_>,
        first: i64,
        len: i64,
        limit: i64,
    ) -> Result<Option<i64>, BoxError> {
        if conn.checked.get(row.name) != Some(&row.sharding) {
            self.check_sharding(conn, row)?;
            conn.checked.insert(row.name.to_owned(), row.sharding);
        }
        let old = self.lease(conn, row, len, limit)?;
        if old.is_some() {
            return Ok(old);
        }
        // No row yet (or used up): create it if missing, then again.
        let c = conn.client.clone();
        let shard = row.shard as i64;
        let layout = row.sharding.to_string();
        self.wait(
            conn,
            c.execute(
                "INSERT INTO kuuid_counters (name, shard, next, layout) VALUES ($1, $2, $3, $4) ON CONFLICT (name, shard) DO NOTHING",
                &[&row.name, &shard, &first, &layout],
            ),
        )?;
        self.lease(conn, row, len, limit)
    }
}

impl PostgresCounters {
    /// The server setting `name` as this process's connection has it (test
    /// hook: the durability claim reads `synchronous_commit` back).
    #[cfg(feature = "__test-hooks")]
    pub(crate) fn setting(&self, name: &str) -> Result<String, BoxError> {
        self.conn.with(
            || self.open().map_err(BoxError::from),
            |conn| {
                let c = conn.client.clone();
                let row = self.wait(conn, c.query_one("SELECT current_setting($1)", &[&name]))?;
                row.try_get(0).map_err(|e| self.at(e))
            },
        )
    }
}

impl std::fmt::Debug for PostgresCounters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresCounters")
            .field("server", &self.target.describe())
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
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
            |conn| self.advance_on(conn, row, first, len, limit),
            |conn| conn.timed_out || conn.client.is_closed(),
        )?;
        Ok(old.map(|v| v as u64))
    }

    fn max_value(&self) -> u64 {
        i64::MAX as u64
    }
}
