//! Tests that need a server or a tool: each file is named for it
//! (`postgres*`: the PostgreSQL at `KUUID_PG_URL`; `couchdb*`: CouchDB's
//! HTTP API at `KUUID_COUCH_URL`; `node*`: node and the npm packages in
//! `KUUID_NPM_DIR`). `.ci/run` provides them; without them each test
//! starts the server where its binary is installed (or installs the npm
//! packages with npm), or says why it skips.

mod couchdb;
mod couchdb_order;
#[cfg(feature = "ksuid")]
mod node_ksuid;
mod node_npm;
mod node_order;
#[cfg(feature = "typeid")]
mod node_typeid;
#[cfg(feature = "ulid")]
mod node_ulid;
pub(crate) mod postgres;
pub(crate) mod postgres_sqlx;
mod postgres_ulid;
