//! A connection on a one-thread runtime of its own, and the statements
//! waited for on it: under the timeout, cancelled when the server does not
//! answer, and never on a connection a fork copied.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio_postgres::{CancelToken, Client};

use super::PostgresCounters;
use super::config;
use crate::error::BoxError;
use crate::sharding::Sharding;

/// How much longer than the server's `statement_timeout` the client waits
/// for an answer: the server's own cancellation normally comes first, with
/// its error, and leaves the connection usable.
pub(super) const CLIENT_GRACE: Duration = Duration::from_secs(1);

/// Sends a cancel request for the statement running on a connection, over
/// the connection's own TLS settings.
pub(super) type Cancel = Box<
    dyn Fn(CancelToken) -> Pin<Box<dyn Future<Output = Result<(), tokio_postgres::Error>> + Send>>
        + Send
        + Sync,
>;

/// A connection on a one-thread runtime of its own, and the counters
/// whose sharding it has checked (the row recording it never changes once
/// written).
pub(super) struct Conn {
    pub(super) runtime: tokio::runtime::Runtime,
    /// Shared with the statement futures, which must not borrow `Conn`.
    pub(super) client: Arc<Client>,
    pub(super) cancel: Cancel,
    pub(super) checked: HashMap<String, Sharding>,
    /// A statement timed out: the connection's state is unknown.
    pub(super) timed_out: bool,
    /// The process that opened it: a copy made by a fork (from a signal
    /// handler, in the middle of a call) sends nothing on it.
    pub(super) pid: u32,
}

/// A failure talking to one server: says which.
#[derive(Debug)]
pub(super) struct AtServer {
    pub(super) at: String,
    pub(super) what: BoxError,
}

impl std::fmt::Display for AtServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PostgreSQL at {}", self.at)
    }
}

impl std::error::Error for AtServer {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.what)
    }
}

impl PostgresCounters {
    /// Runs one statement's future (on a handle of `conn.client`) under
    /// the timeout. The server ends the statement itself at the timeout
    /// (its `statement_timeout`, set by [`setup`](Self::setup)); if no
    /// answer comes [`CLIENT_GRACE`] later, the client asks the server to
    /// cancel it before giving the connection up, so that no statement of
    /// ours is left waiting there (a backend whose client is gone goes on
    /// waiting for its lock: PostgreSQL notices only when it writes).
    pub(super) fn wait<T>(
        &self,
        conn: &mut Conn,
        f: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, BoxError> {
        if std::process::id() != conn.pid {
            // The socket is the parent's: the caller (`PerProcess`) sees
            // the new process id and goes again on a connection of its own.
            return Err(self.at("this process is a copy of the one that opened the connection"));
        }
        match conn
            .runtime
            .block_on(async { tokio::time::timeout(self.timeout + CLIENT_GRACE, f).await })
        {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(self.at(e)),
            Err(_) => {
                conn.timed_out = true;
                let sent = self.cancel(conn);
                Err(self.at(format!(
                    "no answer within the statement timeout ({:?}); {}",
                    self.timeout,
                    match sent {
                        Ok(()) => "asked the server to cancel it".to_owned(),
                        Err(e) => format!("could not ask the server to cancel it: {e}"),
                    }
                )))
            }
        }
    }

    /// Asks the server to cancel the statement running on `conn`, waiting
    /// at most the connect timeout (capped at the statement timeout).
    fn cancel(&self, conn: &Conn) -> Result<(), String> {
        let limit = self
            .target
            .config
            .get_connect_timeout()
            .copied()
            .unwrap_or(config::DEFAULT_CONNECT_TIMEOUT)
            .min(self.timeout);
        let request = (conn.cancel)(conn.client.cancel_token());
        match conn
            .runtime
            .block_on(async { tokio::time::timeout(limit, request).await })
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {limit:?}")),
        }
    }
}
