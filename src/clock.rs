//! Where "now" comes from, and the process-wide rule that it never goes
//! backwards.
//!
//! A `MonotonicClock` wraps a `TimeSource` and shares the newest second
//! and millisecond any thread has seen through two atomics. Each caller keeps
//! a small `Seen` memo (per thread, or per generator): while the source's
//! second and the shared newest second are unchanged, reading the time is
//! one `time()` call, one relaxed load and two compares, with no shared
//! write. When either moves, the caller publishes with `fetch_max` and takes
//! the larger of the two, so if the wall clock steps back, ids keep the
//! newest time until the clock catches up: no blocking, no spinning.
//!
//! A [`Ticker`] (opt-in) replaces the `time()` call with one load of a word
//! its thread keeps current.
//!
//! The ticker is the public part. `MonotonicClock`, its sources
//! (`TimeSource`, `SystemClock`, `ManualClock`) and `Seen` plug into no
//! public API: they are public only with feature `internals`, for kuuid's
//! own tests, benches and `kuuid bench`, with no stability promise.
//!
//! ```
//! use kuuid::clock::Ticker;
//!
//! let ticker = Ticker::start()?;
//! assert!(Ticker::is_running());
//! let id = kuuid::id(); // its time is the ticker's word, not a clock call
//! assert_eq!(id.as_str().len(), 32);
//! drop(ticker);
//! # Ok::<(), std::io::Error>(())
//! ```

mod millis;
mod monotonic;
mod ticker;
pub use millis::{MillisClock, millis_clock, set_millis_clock};
pub use ticker::Ticker;

#[cfg(not(feature = "internals"))]
pub(crate) use monotonic::Seen;
pub(crate) use monotonic::system;
#[cfg(feature = "internals")]
#[cfg_attr(docsrs, doc(cfg(feature = "internals")))]
pub use monotonic::{ManualClock, MonotonicClock, Seen, SystemClock, TimeSource};
