//! loom models of kuuid's shared atomics (the tests are in `tests/`).
//!
//! ```sh
//! RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=2 cargo test -p kuuid-loom-tests --release
//! ```
//!
//! Without `--cfg loom` the tests compile to nothing.
