//! The second boundary around a cell's engine: a worker process that holds
//! nothing of the host and can do nothing but compute and talk to the host
//! over the one channel it was given.
//!
//! Two halves:
//!
//! - **The host spawns** a worker with [`WorkerCommand`]: a fresh program
//!   (exec, never a fork of a host that has read its configuration), an
//!   empty environment, `/dev/null` for stdin and stdout, one end of a
//!   socket pair as descriptor [`WORKER_FD`] (and of each lane asked for,
//!   [`WorkerCommand::lanes`], from `WORKER_FD + 1` on); every other
//!   descriptor is closed before the program starts.
//! - **The worker confines itself** with [`confine`] once its threads are
//!   started and before it runs any guest code: it closes every
//!   descriptor it was not told to keep, lowers its resource limits (no
//!   core dumps, no files, no new descriptors or processes, bounded
//!   address space), and installs a seccomp-bpf allow-list on all its
//!   threads, which sets `no_new_privs` first. A system call outside the
//!   list kills the whole worker (`SIGSYS`); the host sees a worker that
//!   died, never a call that ran.
//!
//! Before confining itself, a worker leaves the host's namespaces where
//! the kernel offers them ([`leave_host_namespaces`]); the host keeps its
//! workers in a supervised [`WorkerPool`], each bound for life to one key
//! (a principal, a session).
//!
//! The allow-list is [`ALLOWED_SYSCALLS`], each entry with why it is
//! there: memory, futexes, clocks, reading and writing descriptors the
//! worker already has, signals to itself, and exit. No `open`, no
//! `socket`, no `connect`, no `execve`, no `clone` or `fork`, no `ptrace`,
//! no `kill` of another process, no executable mappings.
//!
//! ```no_run
//! // In the worker, first thing after starting its threads:
//! let confinement = codemode_sandbox::Confinement::new().keep(codemode_sandbox::WORKER_FD);
//! let confined = codemode_sandbox::confine(&confinement).expect("the worker confines itself before running a cell");
//! assert!(confined.syscalls_allowed > 0);
//! ```

pub mod frame;
#[cfg(target_os = "linux")]
mod linux;
pub mod pool;
mod spawn;

use std::os::fd::RawFd;

pub use pool::{Lease, PoolConfig, PoolError, PoolStats, ProcessWorker, Worker, WorkerFactory, WorkerPool};
pub use spawn::{SpawnedWorker, WorkerCommand, take_channel, take_lanes};

/// The descriptor a worker finds its channel to the host on.
pub const WORKER_FD: RawFd = 3;

/// What a confined worker keeps and how far it may grow.
#[derive(Clone, Debug, Default)]
pub struct Confinement {
    /// Descriptors kept besides stdin, stdout and stderr (its channel):
    /// every other one is closed.
    pub keep_fds: Vec<RawFd>,
    /// The most address space it may map, in bytes (`RLIMIT_AS`): an
    /// allocation past it fails in the worker instead of growing it.
    /// `None` keeps the limit it inherited.
    pub address_space: Option<u64>,
}

impl Confinement {
    /// Keeps nothing but stdin, stdout and stderr, with the inherited
    /// address-space limit.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Also keeps descriptor `fd`.
    #[must_use]
    pub fn keep(mut self, fd: RawFd) -> Self {
        self.keep_fds.push(fd);
        self
    }

    /// Bounds the address space at `bytes`.
    #[must_use]
    pub fn address_space(mut self, bytes: u64) -> Self {
        self.address_space = Some(bytes);
        self
    }
}

/// What [`confine`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Confined {
    /// Descriptors it closed (ones the worker inherited but was not told
    /// to keep).
    pub closed_fds: usize,
    /// System calls on the allow-list for this architecture.
    pub syscalls_allowed: usize,
}

/// Why a worker could not confine itself: it must not run a cell then.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// Not on Linux: there is no seccomp-bpf to confine with.
    #[error(
        "process isolation confines engine workers with Linux's seccomp-bpf, which this system ({0}) lacks; \
         use isolation = \"thread\" here"
    )]
    Unsupported(&'static str),
    /// The worker's open descriptors could not be listed or closed.
    #[error("could not close the worker's inherited descriptors: {0}")]
    Descriptors(std::io::Error),
    /// A resource limit could not be lowered.
    #[error("could not lower the worker's {limit} limit: {source}")]
    Limit {
        /// Which limit (`RLIMIT_…`).
        limit: &'static str,
        /// What the kernel said.
        source: std::io::Error,
    },
    /// The allow-list did not compile for this architecture.
    #[error("could not build the system-call filter for {arch}: {reason}")]
    Filter {
        /// The architecture.
        arch: &'static str,
        /// Why.
        reason: String,
    },
    /// The kernel refused the filter (or `no_new_privs`).
    #[error("could not install the system-call filter: {0}")]
    Install(String),
}

/// One system call a confined worker may make, and why it needs it.
#[derive(Clone, Copy, Debug)]
pub struct AllowedSyscall {
    /// Its name.
    pub name: &'static str,
    /// What its arguments are restricted to.
    pub only: Restriction,
    /// Why the worker needs it.
    pub why: &'static str,
}

/// What an allowed system call's arguments must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restriction {
    /// Any arguments.
    None,
    /// A protection argument without `PROT_EXEC` (`mmap`, `mprotect`):
    /// nothing is ever mapped executable.
    NoExec,
    /// Its first argument is the worker's own process id (`tgkill`).
    OwnProcess,
    /// No destination address (`sendto` on the connected channel): it
    /// sends only where the descriptor is already connected.
    NoAddress,
    /// Only `F_GETFD` (`fcntl`): reading a descriptor's own flags.
    GetFdFlags,
}

impl Restriction {
    /// How the documentation says it.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::None => "any arguments",
            Self::NoExec => "without PROT_EXEC",
            Self::OwnProcess => "to its own process",
            Self::NoAddress => "without a destination address",
            Self::GetFdFlags => "F_GETFD only",
        }
    }
}

/// The allow-list, as documented (the filter is built from the same
/// table on Linux).
pub const ALLOWED_SYSCALLS: &[AllowedSyscall] = &[
    AllowedSyscall { name: "read", only: Restriction::None, why: "frames from the host on the channel" },
    AllowedSyscall {
        name: "write",
        only: Restriction::None,
        why: "frames to the host on the channel; a panic message on stderr",
    },
    AllowedSyscall {
        name: "sendto",
        only: Restriction::NoAddress,
        why: "the standard library's writes to a socket (send with MSG_NOSIGNAL), on the connected channel",
    },
    AllowedSyscall { name: "recvfrom", only: Restriction::None, why: "the standard library's reads from a socket" },
    AllowedSyscall {
        name: "writev",
        only: Restriction::None,
        why: "the standard library's vectored writes of the same",
    },
    AllowedSyscall { name: "close", only: Restriction::None, why: "dropping a descriptor it has (it can open none)" },
    AllowedSyscall {
        name: "fcntl",
        only: Restriction::GetFdFlags,
        why: "the standard library checking, as it closes a descriptor, that it was open",
    },
    AllowedSyscall {
        name: "mmap",
        only: Restriction::NoExec,
        why: "the allocator's large blocks and arenas; QuickJS has no JIT, so nothing is ever mapped executable",
    },
    AllowedSyscall { name: "mprotect", only: Restriction::NoExec, why: "the allocator's arena growth" },
    AllowedSyscall { name: "munmap", only: Restriction::None, why: "the allocator returning memory" },
    AllowedSyscall { name: "mremap", only: Restriction::None, why: "the allocator growing a large block in place" },
    AllowedSyscall { name: "madvise", only: Restriction::None, why: "the allocator releasing pages it keeps mapped" },
    AllowedSyscall { name: "brk", only: Restriction::None, why: "the allocator's main heap" },
    AllowedSyscall {
        name: "futex",
        only: Restriction::None,
        why: "mutexes and condition variables between the worker's threads",
    },
    AllowedSyscall { name: "sched_yield", only: Restriction::None, why: "spin locks backing off" },
    AllowedSyscall {
        name: "clock_gettime",
        only: Restriction::None,
        why: "deadlines, the CPU budget (a thread's CPU clock is not in the vDSO), Date.now",
    },
    AllowedSyscall { name: "clock_getres", only: Restriction::None, why: "the standard library's clock setup" },
    AllowedSyscall {
        name: "gettimeofday",
        only: Restriction::None,
        why: "the engine's wall clock where the vDSO is not used",
    },
    AllowedSyscall { name: "clock_nanosleep", only: Restriction::None, why: "a worker thread sleeping (back-off)" },
    AllowedSyscall { name: "nanosleep", only: Restriction::None, why: "the same, through the older call" },
    AllowedSyscall { name: "getrandom", only: Restriction::None, why: "hash-map seeds; it reads only random bytes" },
    AllowedSyscall { name: "rt_sigreturn", only: Restriction::None, why: "returning from a signal handler" },
    AllowedSyscall {
        name: "rt_sigprocmask",
        only: Restriction::None,
        why: "abort() blocking signals before it raises SIGABRT",
    },
    AllowedSyscall {
        name: "sigaltstack",
        only: Restriction::None,
        why: "a thread's stack-overflow handler, set and removed",
    },
    AllowedSyscall { name: "getpid", only: Restriction::None, why: "abort() naming itself" },
    AllowedSyscall { name: "gettid", only: Restriction::None, why: "abort() naming its thread" },
    AllowedSyscall {
        name: "tgkill",
        only: Restriction::OwnProcess,
        why: "abort() raising SIGABRT on itself, so an allocation failure ends the worker as an abort",
    },
    AllowedSyscall {
        name: "restart_syscall",
        only: Restriction::None,
        why: "the kernel resuming an interrupted sleep",
    },
    AllowedSyscall { name: "exit", only: Restriction::None, why: "a thread ending" },
    AllowedSyscall { name: "exit_group", only: Restriction::None, why: "the worker ending" },
];

/// Whether a worker left the host's namespaces (see
/// [`leave_host_namespaces`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Namespaces {
    /// It is in user, network, IPC and UTS namespaces of its own.
    Left,
    /// The kernel (or a container's own filter) refused: the worker has
    /// the host's, and the allow-list is its only wall. Why, as the kernel
    /// said it.
    Kept(String),
    /// The process already ran this many threads, which the kernel
    /// refuses to move (a `main` that started a runtime first, as
    /// `#[tokio::main]` does): the program's doing, not the kernel's, so
    /// a host refuses such a worker unless told to accept it.
    Threaded(usize),
}

/// Moves the calling process into user, network, IPC and UTS namespaces
/// of its own, where the kernel offers them: a second wall behind the
/// allow-list, so that even a call the filter let through would find no
/// network interface but a loopback that is down, no System V IPC object
/// of the host's, and no privilege over anything of the host's (its user
/// namespace maps no user of the host). Call it first thing in the
/// worker's `main`, while it has one thread (the kernel requires that for
/// a user namespace). Optional: a kernel or container that refuses it
/// leaves the worker as it was, and the answer says why.
pub fn leave_host_namespaces() -> Namespaces {
    #[cfg(target_os = "linux")]
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        let threads = tasks.count();
        if threads > 1 {
            return Namespaces::Threaded(threads);
        }
    }
    #[cfg(target_os = "linux")]
    return match linux::leave_host_namespaces() {
        Ok(()) => Namespaces::Left,
        Err(e) => Namespaces::Kept(e.to_string()),
    };
    #[cfg(not(target_os = "linux"))]
    Namespaces::Kept(format!("{} has no namespaces", std::env::consts::OS))
}

/// The user and group a worker started as root runs as: the kernel's
/// conventional `nobody` (65534), which owns nothing.
pub const UNPRIVILEGED_ID: u32 = 65_534;

/// Drops root: a worker started by a host running as root switches, for
/// good, to [`UNPRIVILEGED_ID`] (no supplementary groups), so that even
/// a call its filter wrongly let through acts as a user that owns and
/// may read nothing of the host's. Call it first thing, while the
/// process has one thread, before [`leave_host_namespaces`]. Returns the
/// user id the process runs as now; a process not running as root is
/// left as it is.
///
/// # Errors
/// The kernel refused a switch (the process then stops: running on as
/// root would be the weaker boundary it asked not to have).
pub fn drop_root() -> std::io::Result<u32> {
    #[cfg(target_os = "linux")]
    return linux::drop_root();
    #[cfg(not(target_os = "linux"))]
    Ok(0)
}

/// Makes every thread allocate from the C library's main arena. Call it
/// before the worker starts its threads.
///
/// Why: glibc gives threads arenas of their own, and the first time such
/// an arena's heap shrinks it *opens* `/proc/sys/vm/overcommit_memory` to
/// decide how — an `openat` the allow-list refuses by killing the worker,
/// at a moment no test chooses. The main arena never makes that read. The
/// cost is that engine threads share one arena's lock (a worker has a
/// few). Other C libraries (musl) have no such arenas: nothing to do.
pub fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[expect(unsafe_code, reason = "mallopt is a libc call")]
    // SAFETY: a plain integer setting, made while the process has one
    // thread.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Confines the calling process for good: closes every descriptor not in
/// `confinement` (and not 0, 1, 2), lowers its resource limits, and
/// installs the allow-list on every thread it has. Call it once every
/// thread of the worker is running (each has said so: a thread still in
/// the C library's set-up makes calls the list refuses, and a confined
/// process cannot start one) and before it reads any guest code. Not
/// undoable.
///
/// # Errors
/// Any step failed, or this is not Linux. A worker that gets an error
/// must exit without running a cell.
pub fn confine(confinement: &Confinement) -> Result<Confined, ConfineError> {
    #[cfg(target_os = "linux")]
    return linux::confine(confinement);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = confinement;
        Err(ConfineError::Unsupported(std::env::consts::OS))
    }
}
