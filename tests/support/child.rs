//! Child processes with a deadline: a child that hangs (a deadlock, a lost
//! wake-up, a server that never answers) is killed after [`LIMIT`] and its
//! test fails, instead of the suite hanging until CI's own timeout. Used
//! wherever a test starts a process with `Command`.
#![allow(dead_code)]

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How long any one child may run.
pub const LIMIT: Duration = Duration::from_secs(120);

/// A running child killed once [`LIMIT`] has passed, whatever the test is
/// blocked on meanwhile (reading its output, waiting for it). Take its
/// pipes before handing it over; dropping it kills a child still running.
pub struct Watched {
    child: Arc<Mutex<Child>>,
    /// Set (under the mutex) when the watch ends; the watchdog waits on it.
    stop: Arc<(Mutex<bool>, Condvar)>,
    timed_out: Arc<AtomicBool>,
}

impl Watched {
    pub fn new(child: Child) -> Self {
        let child = Arc::new(Mutex::new(child));
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let timed_out = Arc::new(AtomicBool::new(false));
        let (c, s, t) = (child.clone(), stop.clone(), timed_out.clone());
        std::thread::spawn(move || {
            let (lock, cvar) = &*s;
            let stopped = lock.lock().unwrap();
            let (stopped, _) = cvar
                .wait_timeout_while(stopped, LIMIT, |stopped| !*stopped)
                .unwrap();
            if !*stopped {
                t.store(true, Ordering::SeqCst);
                let _ = c.lock().unwrap().kill();
            }
        });
        Watched {
            child,
            stop,
            timed_out,
        }
    }

    /// Waits for the child to end; panics if the watchdog had to kill it.
    pub fn wait(&self) -> ExitStatus {
        loop {
            let done = self.child.lock().unwrap().try_wait().expect("try_wait");
            if let Some(status) = done {
                assert!(
                    !self.timed_out.load(Ordering::SeqCst),
                    "child still running after {LIMIT:?}: killed"
                );
                return status;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// SIGKILL now, then [`Watched::wait`] (which cannot time out).
    pub fn kill_and_wait(&self) -> ExitStatus {
        let _ = self.child.lock().unwrap().kill();
        self.wait()
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        let (lock, cvar) = &*self.stop;
        *lock.lock().unwrap() = true;
        cvar.notify_all();
        let mut child = self.child.lock().unwrap();
        if matches!(child.try_wait(), Ok(None)) {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `Child::wait_with_output` with the deadline: stdout and stderr (if
/// piped and not taken) drained by threads, so a full pipe cannot stall
/// the child.
pub fn output(mut child: Child) -> Output {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let status = Watched::new(child).wait();
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// `Command::output` with the deadline: stdin closed, stdout and stderr
/// captured (whatever the command had set; spawn and call [`output`] to
/// keep a redirect).
pub fn run(cmd: &mut Command) -> std::io::Result<Output> {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    Ok(output(child))
}

/// [`run`] as a method, where a test builds its `Command` in a chain.
pub trait BoundedOutput {
    /// `output()`, with the deadline.
    fn bounded_output(&mut self) -> std::io::Result<Output>;
}

impl BoundedOutput for Command {
    fn bounded_output(&mut self) -> std::io::Result<Output> {
        run(self)
    }
}
