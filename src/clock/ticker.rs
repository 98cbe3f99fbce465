//! An opt-in thread that keeps the current second in memory, so that minting
//! a second-precision id "now" reads one word instead of calling `time()`.
//!
//! The same trade as `coarsetime`'s or `quanta`'s upkeep thread: one wake-up
//! at each second boundary (and at least every [`MAX_SLEEP`], so a step of
//! the wall clock shows within that) buys a cheaper clock read on every id.
//! The second lives in a word that reads 0 in a forked child (`sys`), which
//! does not inherit the thread: there, ids fall back to `time()` at once.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::sys;

/// The longest the thread sleeps between two readings of the wall clock.
const MAX_SLEEP: Duration = Duration::from_millis(100);

/// Keeps the current second published while any handle lives: ids of second
/// precision minted "now" ([`crate::id`], [`crate::Generator::generate`]
/// without a fixed time, ...) then read it instead of calling `time()`.
///
/// Without a ticker, every such id calls `time(2)` (a vDSO read of the
/// kernel's coarse clock, which lags the precise one by up to one kernel
/// tick, 1-4 ms, at a second boundary). With one, an id carries the second
/// the ticker thread last published: it wakes at each second boundary, so
/// the lag is its wake-up latency (well under a millisecond on an idle
/// machine, more when every core is busy). Ids stay unique and, within the
/// process, never go back in time either way; millisecond ids always read
/// the precise clock and are not affected.
///
/// Handles share one thread (named `kuuid-ticker`); dropping the last one
/// stops it and joins it. A forked child does not inherit the thread: its
/// ids read `time()` until it starts a ticker of its own.
///
/// ```
/// let ticker = kuuid::clock::Ticker::start()?;
/// assert!(kuuid::clock::Ticker::is_running());
/// let id = kuuid::id(); // reads the published second
/// let now = std::time::SystemTime::now()
///     .duration_since(std::time::UNIX_EPOCH)
///     .unwrap()
///     .as_secs();
/// assert!(id.timestamp(kuuid::Layout::SECONDS).as_secs().abs_diff(now) <= 1);
/// drop(ticker);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
#[must_use = "the ticker stops when the handle is dropped"]
pub struct Ticker {
    _shared: Arc<Running>,
}

/// The thread behind every live handle.
#[derive(Debug)]
struct Running {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// The process that started the thread: a forked child holds a copy of
    /// this value but not the thread, so it must not join it.
    pid: u32,
}

/// The running ticker, if any: `start` joins it, the last handle's drop
/// stops it. The lock also orders a stop against a concurrent start.
static CURRENT: Mutex<Weak<Running>> = Mutex::new(Weak::new());

impl Ticker {
    /// Starts the ticker thread, or joins the one already running, and
    /// publishes the current second before returning.
    ///
    /// # Errors
    /// If the OS refuses a new thread; nothing is published then, and ids
    /// keep reading `time()`.
    ///
    /// In a child forked from a multi-threaded process, call it only if no
    /// other parent thread was starting or stopping a ticker at the fork: the
    /// lock it takes may be held by a thread the child does not have (and
    /// POSIX allows such a child no new threads before `exec` anyway).
    ///
    /// ```
    /// let a = kuuid::clock::Ticker::start()?;
    /// let b = kuuid::clock::Ticker::start()?; // the same thread
    /// drop(a);
    /// assert!(kuuid::clock::Ticker::is_running());
    /// drop(b);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn start() -> io::Result<Ticker> {
        let mut current = CURRENT.lock().unwrap_or_else(PoisonError::into_inner);
        let pid = std::process::id();
        if let Some(shared) = current.upgrade().filter(|r| r.pid == pid) {
            return Ok(Ticker { _shared: shared });
        }
        let stop = Arc::new(AtomicBool::new(false));
        // Spawn first: a second published for a thread that never started
        // would freeze every second-precision id at it.
        let thread = std::thread::Builder::new()
            .name("kuuid-ticker".into())
            .spawn({
                let stop = Arc::clone(&stop);
                move || run(&stop)
            })?;
        publish();
        let shared = Arc::new(Running {
            stop,
            thread: Some(thread),
            pid,
        });
        *current = Arc::downgrade(&shared);
        Ok(Ticker { _shared: shared })
    }

    /// Whether a ticker is publishing the second in this process.
    ///
    /// ```
    /// let ticker = kuuid::clock::Ticker::start()?;
    /// assert!(kuuid::clock::Ticker::is_running()); // while a handle lives
    /// # drop(ticker);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn is_running() -> bool {
        sys::process_words().ticked_secs.load(Ordering::Relaxed) != 0
    }
}

/// Publishes the precise clock's second (never 0: 0 means "no ticker").
fn publish() {
    let secs = sys::unix_millis() / 1000;
    sys::process_words()
        .ticked_secs
        .store(secs.max(1), Ordering::Relaxed);
}

/// The thread: publish, sleep to the next second boundary (at most
/// [`MAX_SLEEP`]), until told to stop.
fn run(stop: &AtomicBool) {
    while !stop.load(Ordering::Acquire) {
        publish();
        let into_second = sys::unix_millis() % 1000;
        let to_boundary = Duration::from_millis(1000 - into_second);
        std::thread::park_timeout(to_boundary.min(MAX_SLEEP));
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.pid != std::process::id() {
            // A forked child's copy: the thread is the parent's, so neither
            // join nor detach it.
            std::mem::forget(self.thread.take());
            return;
        }
        let current = CURRENT.lock().unwrap_or_else(PoisonError::into_inner);
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            // The thread only loops, publishes and sleeps: it cannot panic.
            let _ = thread.join();
        }
        // A ticker started while this one was stopping keeps publishing.
        if current.upgrade().is_none() {
            sys::process_words().ticked_secs.store(0, Ordering::Relaxed);
        }
    }
}
