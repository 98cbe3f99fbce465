//! The OS interface: the cheap clocks and the words a forked child must not
//! inherit. The crate's other `unsafe` blocks, each with its `SAFETY`
//! comment: SIMD (the intrinsics all under `engine/`, which
//! `tests/library/structure.rs` checks; the calls into them that a CPU
//! check guards in `rng/aes_ctr/mod.rs` and `rng/fast.rs`), the per-thread
//! state's slot (`local.rs`), the bulk fill's byte view of its ids
//! (`kuuid/id/mod.rs`), the SQLite stores' fork handlers and signal mask
//! (`sequence/sqlite/fork.rs`) and the thread CPU clock their wait reads
//! (`sequence/wait.rs`); tests (and `sequence/hooks.rs`, test-only)
//! also call `fork`, `waitpid` and `raise`.

mod clock;
mod process_words;
pub(crate) mod test_clock;

#[cfg(feature = "couch")]
pub(crate) use clock::unix_micros;
pub(crate) use clock::{coarse_millis, precise_millis, set_precise_millis, unix_millis, unix_secs};
#[cfg(feature = "__test-hooks")]
pub(crate) use process_words::{disable_fork_guard, fork_guard_disabled};
pub(crate) use process_words::{fork_word, process_words};
