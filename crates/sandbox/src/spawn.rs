//! Starting a worker with nothing of the host but its channel, and the
//! worker taking that channel.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::WORKER_FD;

/// How to start a worker: a program and its arguments. Nothing else of
/// the host reaches it: not its environment, not its descriptors.
#[derive(Clone, Debug)]
pub struct WorkerCommand {
    program: PathBuf,
    args: Vec<OsString>,
    stderr_inherited: bool,
    lanes: usize,
}

/// A started worker: the process, and the host's end of its channel.
#[derive(Debug)]
pub struct SpawnedWorker {
    /// The worker process.
    pub child: Child,
    /// The host's end of the socket pair whose other end is the worker's
    /// descriptor [`WORKER_FD`].
    pub channel: UnixStream,
    /// The host's ends of the worker's lanes ([`WorkerCommand::lanes`]),
    /// in order: lane `i` is the worker's descriptor `WORKER_FD + 1 + i`.
    pub lanes: Vec<UnixStream>,
}

impl WorkerCommand {
    /// Runs `program` (an executable path: the same binary re-executed,
    /// or a worker binary).
    pub fn new(program: impl Into<PathBuf>) -> Self {
        Self { program: program.into(), args: Vec::new(), stderr_inherited: false, lanes: 0 }
    }

    /// Gives the worker `count` more socket pairs besides its channel, at
    /// descriptors `WORKER_FD + 1` on ([`take_lanes`]): one per thread
    /// that talks to the host, so each reads its own messages instead of
    /// having them handed over by another thread.
    #[must_use]
    pub fn lanes(mut self, count: usize) -> Self {
        self.lanes = count;
        self
    }

    /// Adds an argument.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Lets the worker write to the host's stderr (a panic message, for
    /// debugging); by default it goes to `/dev/null`, so a hostile worker
    /// cannot write into the host's logs.
    #[must_use]
    pub fn inherit_stderr(mut self) -> Self {
        self.stderr_inherited = true;
        self
    }

    /// Starts the worker: an empty environment, stdin and stdout on
    /// `/dev/null`, the worker's end of a fresh socket pair as descriptor
    /// [`WORKER_FD`], and every other descriptor closed before the
    /// program starts, whether or not the host marked it close-on-exec.
    ///
    /// # Errors
    /// The socket pair or the process could not be made.
    pub fn spawn(&self) -> io::Result<SpawnedWorker> {
        let pairs: Vec<(UnixStream, UnixStream)> =
            (0..=self.lanes).map(|_| UnixStream::pair()).collect::<io::Result<_>>()?;
        let worker_ends: Vec<RawFd> = pairs.iter().map(|(_, worker)| worker.as_raw_fd()).collect();
        // Written in the child: made here, as the child may not allocate.
        let mut moved = vec![0 as RawFd; worker_ends.len()];
        let count = RawFd::try_from(worker_ends.len()).map_err(|_| io::Error::other("too many lanes"))?;
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(if self.stderr_inherited { Stdio::inherit() } else { Stdio::null() });
        #[expect(unsafe_code, reason = "placing the channels at fixed descriptors happens between fork and exec")]
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (dup2, fcntl, close,
        // close_range through syscall); it allocates nothing (`moved` was
        // made before the fork).
        unsafe {
            command.pre_exec(move || {
                // First above every target, so that placing one end never
                // closes another that happens to sit on a target.
                for (slot, &end) in moved.iter_mut().zip(&worker_ends) {
                    *slot = libc::fcntl(end, libc::F_DUPFD, WORKER_FD + count);
                    if *slot < 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                for (target, &end) in (WORKER_FD..).zip(moved.iter()) {
                    // dup2 leaves the new descriptor without close-on-exec.
                    if libc::dup2(end, target) < 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                close_from(WORKER_FD + count);
                Ok(())
            });
        }
        let child = command.spawn()?;
        let mut hosts = pairs.into_iter().map(|(host, _worker)| host);
        let channel = hosts.next().ok_or_else(|| io::Error::other("no channel was made"))?;
        Ok(SpawnedWorker { child, channel, lanes: hosts.collect() })
    }
}

/// Closes every descriptor from `first` up, in a child about to exec.
fn close_from(first: i32) {
    #[cfg(target_os = "linux")]
    {
        #[expect(unsafe_code, reason = "close_range is a raw system call")]
        // SAFETY: close_range takes plain integers; it fails harmlessly on
        // kernels before 5.9, handled below.
        let rc = unsafe { libc::syscall(libc::SYS_close_range, first, u32::MAX, 0) };
        if rc == 0 {
            return;
        }
    }
    // No close_range: every descriptor up to the open-files limit (a
    // loop of close calls is async-signal-safe; reading /proc is not).
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    #[expect(unsafe_code, reason = "getrlimit and close are libc calls")]
    // SAFETY: `limit` is valid for the call; closing a descriptor that is
    // not open fails with EBADF and nothing else.
    unsafe {
        let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 { limit.rlim_cur.min(65_536) } else { 1024 };
        for fd in first..i32::try_from(top).unwrap_or(1024) {
            libc::close(fd);
        }
    }
}

/// Set once the channel was taken, so that two owners never close it.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Set once the lanes were taken.
static LANES_TAKEN: AtomicBool = AtomicBool::new(false);

/// In a worker started by [`WorkerCommand`]: its channel to the host, at
/// descriptor [`WORKER_FD`]. Once per process.
///
/// # Errors
/// Taken before, or the descriptor is not a socket (the process was not
/// started as a worker).
pub fn take_channel() -> io::Result<UnixStream> {
    if TAKEN.swap(true, Ordering::SeqCst) {
        return Err(io::Error::other("the worker's channel was taken already"));
    }
    take_socket(WORKER_FD)
}

/// In a worker started by [`WorkerCommand::lanes`]: its `count` lanes, at
/// descriptors `WORKER_FD + 1` on. Once per process.
///
/// # Errors
/// Taken before, or a descriptor is not a socket (the worker was started
/// with fewer lanes).
pub fn take_lanes(count: usize) -> io::Result<Vec<UnixStream>> {
    if LANES_TAKEN.swap(true, Ordering::SeqCst) {
        return Err(io::Error::other("the worker's lanes were taken already"));
    }
    (WORKER_FD + 1..).take(count).map(take_socket).collect()
}

/// The inherited socket at `fd`, owned from now on.
fn take_socket(fd: RawFd) -> io::Result<UnixStream> {
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    #[expect(unsafe_code, reason = "fstat is a libc call")]
    // SAFETY: `stat` is valid for writing for the call.
    let rc = unsafe { libc::fstat(fd, stat.as_mut_ptr()) };
    if rc != 0 {
        return Err(io::Error::other(format!(
            "descriptor {fd} is not open ({}): this process was not started as a codemode engine worker (with as many lanes)",
            io::Error::last_os_error()
        )));
    }
    #[expect(unsafe_code, reason = "fstat succeeded, so it wrote the struct")]
    // SAFETY: fstat returned 0 and filled `stat`.
    let mode = unsafe { stat.assume_init() }.st_mode;
    if mode & libc::S_IFMT != libc::S_IFSOCK {
        return Err(io::Error::other(format!(
            "descriptor {fd} is not a socket: this process was not started as a codemode engine worker"
        )));
    }
    #[expect(unsafe_code, reason = "taking ownership of an inherited descriptor")]
    // SAFETY: the descriptor is open, is a socket, and nothing else in this
    // process owns it (`TAKEN` and `LANES_TAKEN` make each taken once).
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    Ok(UnixStream::from(fd))
}
