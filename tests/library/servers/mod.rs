//! Tests that need a tool: node and the npm packages in `KUUID_NPM_DIR`
//! (`.ci/run` provides them; without it each test installs the packages
//! with npm where npm is installed, or says why it skips). The database
//! and CouchDB tests are in `integration-tests/` (a package of their own,
//! compiled without optimization: see its manifest).

#[cfg(feature = "ksuid")]
mod node_ksuid;
mod node_npm;
mod node_order;
#[cfg(feature = "typeid")]
mod node_typeid;
#[cfg(feature = "ulid")]
mod node_ulid;
