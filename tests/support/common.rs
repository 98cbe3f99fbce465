//! Shared memory and process helpers for the fork tests (Linux), and the
//! lock that runs them one at a time.
#![allow(dead_code)]

use std::sync::{Mutex, MutexGuard};

use kuuid::Kuuid;

/// `slots` arrays of `per_slot` ids in an anonymous `MAP_SHARED` mapping:
/// what a child writes there, the parent reads.
pub struct Shared {
    base: *mut u8,
    slots: usize,
    per_slot: usize,
}

// SAFETY: the mapping is plain bytes; tests write disjoint slots from
// different threads and processes and read only after they are done.
unsafe impl Sync for Shared {}

impl Shared {
    pub fn new(slots: usize, per_slot: usize) -> Self {
        let len = slots * per_slot * 32;
        // SAFETY: an anonymous shared mapping of `len` bytes, checked below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap");
        Shared {
            base: base.cast(),
            slots,
            per_slot,
        }
    }

    fn write(&self, slot: usize, i: usize, id: Kuuid) {
        assert!(slot < self.slots && i < self.per_slot);
        // SAFETY: in bounds (checked above); each (slot, i) has one writer.
        unsafe {
            std::ptr::copy_nonoverlapping(
                id.as_bytes().as_ptr(),
                self.base.add((slot * self.per_slot + i) * 32),
                32,
            )
        };
    }

    /// Writes `f()` into positions `from..to` of `slot`.
    pub fn write_range(&self, slot: usize, from: usize, to: usize, mut f: impl FnMut() -> Kuuid) {
        for i in from..to {
            self.write(slot, i, f());
        }
    }

    pub fn write_with(&self, slot: usize, n: usize, f: impl FnMut() -> Kuuid) {
        self.write_range(slot, 0, n, f);
    }

    /// `kuuid::id()` into positions `0..n` of `slot`.
    pub fn mint_into(&self, slot: usize, n: usize) {
        self.write_range(slot, 0, n, kuuid::id);
    }

    pub fn mint_into_from(&self, slot: usize, from: usize, to: usize) {
        self.write_range(slot, from, to, kuuid::id);
    }

    /// Every id of a slot; an unwritten position fails to parse and panics.
    pub fn slot(&self, slot: usize) -> Vec<Kuuid> {
        (0..self.per_slot)
            .map(|i| {
                // SAFETY: in bounds; all writers have finished.
                let bytes = unsafe {
                    std::slice::from_raw_parts(self.base.add((slot * self.per_slot + i) * 32), 32)
                };
                Kuuid::parse_bytes(bytes)
                    .unwrap_or_else(|e| panic!("slot {slot} position {i} not written: {e}"))
            })
            .collect()
    }

    pub fn all(&self) -> Vec<Kuuid> {
        (0..self.slots).flat_map(|s| self.slot(s)).collect()
    }

    /// Writes `f()` (the bytes of some other id, `L <= 32`) into positions
    /// `0..n` of `slot`.
    pub fn write_raw<const L: usize>(&self, slot: usize, n: usize, mut f: impl FnMut() -> [u8; L]) {
        assert!(L <= 32 && slot < self.slots && n <= self.per_slot);
        for i in 0..n {
            let bytes = f();
            // SAFETY: in bounds (checked above); each (slot, i) has one writer.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    bytes.as_ptr(),
                    self.base.add((slot * self.per_slot + i) * 32),
                    L,
                )
            };
        }
    }

    /// The first `L` bytes of every position of `slot`.
    pub fn slot_raw<const L: usize>(&self, slot: usize) -> Vec<[u8; L]> {
        assert!(L <= 32);
        (0..self.per_slot)
            .map(|i| {
                let mut bytes = [0u8; L];
                // SAFETY: in bounds; all writers have finished.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        self.base.add((slot * self.per_slot + i) * 32),
                        bytes.as_mut_ptr(),
                        L,
                    )
                };
                bytes
            })
            .collect()
    }

    /// Writes UUIDv7s from `f()` into positions `0..n` of `slot`.
    pub fn write_v7(&self, slot: usize, n: usize, mut f: impl FnMut() -> kuuid::Uuid7) {
        self.write_raw(slot, n, || *f().as_bytes());
    }

    /// The UUIDv7s of a slot; an unwritten position is not a v7 and panics.
    pub fn slot_v7(&self, slot: usize) -> Vec<kuuid::Uuid7> {
        self.slot_raw::<16>(slot)
            .into_iter()
            .enumerate()
            .map(|(i, b)| {
                kuuid::Uuid7::from_bytes(b)
                    .unwrap_or_else(|e| panic!("slot {slot} position {i} not written: {e}"))
            })
            .collect()
    }
}

/// No two ids equal, and no two random parts equal either (a repeated RNG
/// stream shows up there even when the second ticked over).
pub fn assert_all_unique(ids: &[Kuuid]) {
    let mut full: Vec<&str> = ids.iter().map(|i| i.as_str()).collect();
    full.sort_unstable();
    let dup = full.windows(2).find(|w| w[0] == w[1]);
    assert!(dup.is_none(), "duplicate id {:?}", dup);
    let mut random: Vec<&str> = ids.iter().map(|i| i.random_str()).collect();
    random.sort_unstable();
    let dup = random.windows(2).find(|w| w[0] == w[1]);
    assert!(dup.is_none(), "duplicate random part {:?}", dup);
}

/// Number of random parts that repeat.
pub fn repeated_random_parts(ids: &[Kuuid]) -> usize {
    let mut random: Vec<&str> = ids.iter().map(|i| i.random_str()).collect();
    random.sort_unstable();
    random.windows(2).filter(|w| w[0] == w[1]).count()
}

/// Runs `f` in the child; exits 0 if it returns, 1 if it panics.
fn child(f: impl FnOnce()) -> ! {
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_ok();
    // SAFETY: _exit ends the child without running the parent's atexit
    // handlers or the test harness.
    unsafe { libc::_exit(if ok { 0 } else { 1 }) }
}

/// Waits at most `limit` for our child `pid` to end: its wait status, or
/// `None` if it was still running, when it is killed and reaped.
pub fn wait_within(pid: libc::pid_t, limit: std::time::Duration) -> Option<libc::c_int> {
    let deadline = std::time::Instant::now() + limit;
    let mut status = 0;
    loop {
        // SAFETY: waiting for our own child, without blocking.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            return Some(status);
        }
        assert_eq!(r, 0, "waitpid");
        if std::time::Instant::now() > deadline {
            // SAFETY: killing and reaping our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Waits (at most 60 s) for our child `pid` to end and returns its wait
/// status; a child still running then is killed and the test fails (a
/// hang is a bug too).
fn wait_bounded(pid: libc::pid_t) -> libc::c_int {
    wait_within(pid, std::time::Duration::from_secs(60))
        .unwrap_or_else(|| panic!("child {pid} hung for 60 s"))
}

/// Waits (bounded, as [`wait_bounded`]) for our child `pid` and asserts
/// that it exited 0.
pub fn wait_ok(pid: libc::pid_t) {
    assert!(pid > 0, "fork/clone failed");
    let status = wait_bounded(pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child {pid} failed (status {status:#x})"
    );
}

/// `fork()`, run `f` in the child, wait for it to succeed.
pub fn fork_and_wait(f: impl FnOnce()) {
    // SAFETY: fork in a test; the child only mints ids into shared memory
    // and calls _exit.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        child(f);
    }
    wait_ok(pid);
}

/// A raw `clone(SIGCHLD)` system call: a copy of the process made
/// without libc's bookkeeping (no atfork handlers run, libc's cached pid is
/// stale in the child). Returns 0 in the child, as `fork` does.
///
/// # Safety
/// As `fork`: the child must only do what is safe after a fork in a
/// threaded process (mint, write a file, `_exit`).
pub unsafe fn raw_clone() -> libc::pid_t {
    // No thread is inside the allocator at the copy, and the copy allocates
    // from memory of its own: it never waits on a lock of glibc's malloc
    // held by a thread it does not have (`clone_alloc`).
    while_another_thread_allocates(|| {
        crate::clone_alloc::closed(|| {
            // SAFETY: clone without CLONE_VM and with a null stack behaves like
            // fork; the caller keeps the child to what is safe there.
            unsafe {
                libc::syscall(
                    libc::SYS_clone,
                    libc::SIGCHLD as libc::c_long,
                    0usize,
                    0usize,
                    0usize,
                    0usize,
                ) as libc::pid_t
            }
        })
    })
}

/// Runs `copy` while another thread allocates and frees in a loop, as a
/// server's threads would while it is copied. The blocks are too big for
/// glibc's per-thread cache, so each call takes an arena lock: with one
/// arena for all threads (`GLIBC_TUNABLES=glibc.malloc.arena_max=1`, as
/// `.ci/run` runs these binaries once more) a copy that called into glibc's
/// malloc would find that lock held and hang (with `clone_alloc` bypassed,
/// both matrices' raw clone cells did, every time). The copy does not
/// have this thread.
fn while_another_thread_allocates(copy: impl FnOnce() -> libc::pid_t) -> libc::pid_t {
    use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
    static STOP: AtomicBool = AtomicBool::new(false);
    static RUNNING: AtomicBool = AtomicBool::new(false);
    STOP.store(false, SeqCst);
    RUNNING.store(false, SeqCst);
    let other = std::thread::spawn(|| {
        let mut n = 0usize;
        while !STOP.load(SeqCst) {
            let block = vec![1u8; 4096 + n % 64];
            n = n.wrapping_add(usize::from(std::hint::black_box(block)[n % 4096]));
            RUNNING.store(true, SeqCst);
        }
    });
    while !RUNNING.load(SeqCst) {
        std::thread::yield_now();
    }
    let pid = copy();
    if pid == 0 {
        // The copy has no such thread: joining would wait forever.
        std::mem::forget(other);
        return pid;
    }
    STOP.store(true, SeqCst);
    other.join().expect("the allocating thread");
    pid
}

/// Runs `f` on a new thread and waits for it, made with `pthread_create`,
/// not `std::thread::spawn`: std takes a process-wide mutex in every thread
/// it starts (the stack-overflow handler's thread list), and a copy of the
/// process made while another thread started or exited finds it locked
/// forever. A stress loop (forks beside threads that start and exit; each
/// child starts one thread) hung 2-4 children in 5000-8000 with std's
/// threads, none in 8000 with these; CI saw one such hang. The matrix's
/// copies start their "other thread" with this.
pub fn on_new_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    extern "C" fn start<F: FnOnce()>(arg: *mut libc::c_void) -> *mut libc::c_void {
        // SAFETY: `arg` is the `Box<F>` that `run` leaked for this thread,
        // taken back once, here.
        let job = unsafe { Box::from_raw(arg.cast::<F>()) };
        job();
        std::ptr::null_mut()
    }
    fn run<F: FnOnce() + Send>(job: F) {
        let job = Box::into_raw(Box::new(job));
        let mut thread: libc::pthread_t = 0;
        // SAFETY: `start::<F>` takes back exactly this `Box<F>`; `run`
        // joins the thread before returning, so what `job` borrows outlives
        // it.
        let r =
            unsafe { libc::pthread_create(&mut thread, std::ptr::null(), start::<F>, job.cast()) };
        if r != 0 {
            // SAFETY: the thread was not made, so the box is still ours.
            drop(unsafe { Box::from_raw(job) });
            panic!("pthread_create failed: {r}");
        }
        // SAFETY: a thread made above and joined once.
        let r = unsafe { libc::pthread_join(thread, std::ptr::null_mut()) };
        assert_eq!(r, 0, "pthread_join");
    }
    let mut out = None;
    // A panic is caught on the thread (it must not unwind out of `start`)
    // and resumed here.
    run(|| out = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))));
    match out.expect("the thread ran") {
        Ok(r) => r,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A raw `clone(SIGCHLD)` syscall (no atfork handlers run), `f` in the
/// child, wait for it to succeed.
pub fn raw_clone_and_wait(f: impl FnOnce()) {
    // SAFETY: the child only mints and calls _exit.
    let pid = unsafe { raw_clone() };
    if pid == 0 {
        child(f);
    }
    wait_ok(pid);
}

/// Tests that fork, step the clock or start a ticker run one at a time: a
/// fork while another test thread holds a lock (the allocator's are handled
/// by libc; others are not) could hang a child, and a stepped clock or a
/// running ticker is seen by the whole process.
pub fn serial() -> MutexGuard<'static, ()> {
    static M: Mutex<()> = Mutex::new(());
    M.lock().unwrap_or_else(|e| e.into_inner())
}

/// Turns the fork guard off for this process (the negative controls'
/// binary): every test there calls it first, before any id.
#[cfg(feature = "__test-hooks")]
pub fn guard_off() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        assert!(
            kuuid::__test_hooks::disable_fork_guard(),
            "must run before any id"
        )
    });
}

/// A pipe for `u64`s between a process and its forked copy (both keep
/// both ends). A read waits at most [`PIPE_LIMIT`] for the other side, so
/// a copy that hangs fails the test instead of blocking it.
pub struct Pipe {
    read: libc::c_int,
    write: libc::c_int,
}

/// How long [`Pipe`] reads wait: generous, a hang rather than slowness.
pub const PIPE_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

impl Pipe {
    pub fn new() -> Self {
        let mut fds = [0; 2];
        // SAFETY: pipe(2) writes two fds into the array we own.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
        Pipe {
            read: fds[0],
            write: fds[1],
        }
    }

    /// Sends one value.
    pub fn send(&self, v: u64) {
        self.write_bytes(&v.to_le_bytes());
    }

    /// Sends a count, then the values.
    pub fn send_all(&self, vs: &[u64]) {
        self.send(vs.len() as u64);
        for &v in vs {
            self.send(v);
        }
    }

    /// Receives one value.
    pub fn recv(&self) -> u64 {
        let mut b = [0u8; 8];
        self.read_bytes(&mut b);
        u64::from_le_bytes(b)
    }

    /// Receives what [`send_all`](Self::send_all) sent.
    pub fn recv_all(&self) -> Vec<u64> {
        let n = self.recv();
        (0..n).map(|_| self.recv()).collect()
    }

    fn write_bytes(&self, mut b: &[u8]) {
        while !b.is_empty() {
            // SAFETY: writes bytes we own to our pipe.
            let n = unsafe { libc::write(self.write, b.as_ptr().cast(), b.len()) };
            assert!(n > 0, "pipe write: {}", std::io::Error::last_os_error());
            b = &b[n as usize..];
        }
    }

    fn read_bytes(&self, mut b: &mut [u8]) {
        while !b.is_empty() {
            let mut p = libc::pollfd {
                fd: self.read,
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = PIPE_LIMIT.as_millis() as libc::c_int;
            // SAFETY: polls one pollfd we own.
            let ready = unsafe { libc::poll(&mut p, 1, ms) };
            if ready < 0
                && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
            {
                continue;
            }
            assert!(
                ready > 0,
                "nothing on the pipe for {PIPE_LIMIT:?}: the other side hangs"
            );
            // SAFETY: reads into a buffer we own.
            let n = unsafe { libc::read(self.read, b.as_mut_ptr().cast(), b.len()) };
            assert!(n > 0, "pipe read: {}", std::io::Error::last_os_error());
            b = &mut b[n as usize..];
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        // SAFETY: closes the fds we own.
        unsafe {
            libc::close(self.read);
            libc::close(self.write);
        }
    }
}
