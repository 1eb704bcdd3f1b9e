//! [`confine`](crate::confine) on Linux: descriptors, resource limits and
//! the seccomp-bpf filter built from [`ALLOWED_SYSCALLS`].

use std::collections::BTreeMap;
use std::io;
use std::os::fd::RawFd;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule, TargetArch,
};

use crate::{ALLOWED_SYSCALLS, ConfineError, Confined, Confinement, Restriction};

/// `unshare` into new user, network, IPC and UTS namespaces.
pub(crate) fn leave_host_namespaces() -> io::Result<()> {
    let flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNET | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
    #[expect(unsafe_code, reason = "unshare is a libc call")]
    // SAFETY: plain flags; on failure nothing changed.
    let rc = unsafe { libc::unshare(flags) };
    if rc == 0 { Ok(()) } else { Err(io::Error::last_os_error()) }
}

/// See [`crate::drop_root`].
#[expect(unsafe_code, reason = "setgroups, setresgid and setresuid are libc calls")]
pub(crate) fn drop_root() -> io::Result<u32> {
    // SAFETY: plain calls reading or setting this process's credentials.
    unsafe {
        if libc::geteuid() != 0 {
            return Ok(libc::geteuid());
        }
        let id = crate::UNPRIVILEGED_ID;
        // Groups first: once the user is not root, they cannot be dropped.
        if libc::setgroups(0, std::ptr::null()) != 0
            || libc::setresgid(id, id, id) != 0
            || libc::setresuid(id, id, id) != 0
        {
            return Err(io::Error::last_os_error());
        }
        // A switch that could be undone would not be one.
        if libc::setresuid(0, 0, 0) == 0 {
            return Err(io::Error::other("root could be taken back after dropping it"));
        }
        Ok(libc::geteuid())
    }
}

pub(crate) fn confine(confinement: &Confinement) -> Result<Confined, ConfineError> {
    // Built before anything is closed or limited: building allocates, and
    // a filter that does not compile leaves the worker as it was.
    let filter = filter()?;
    let closed_fds = close_others(&confinement.keep_fds).map_err(ConfineError::Descriptors)?;
    let highest = confinement.keep_fds.iter().copied().chain([2]).max().unwrap_or(2);
    let fds = u64::try_from(highest).unwrap_or(2) + 1;
    limit(libc::RLIMIT_CORE, "RLIMIT_CORE", 0)?;
    limit(libc::RLIMIT_FSIZE, "RLIMIT_FSIZE", 0)?;
    limit(libc::RLIMIT_NOFILE, "RLIMIT_NOFILE", fds)?;
    limit(libc::RLIMIT_NPROC, "RLIMIT_NPROC", 0)?;
    if let Some(bytes) = confinement.address_space {
        limit(libc::RLIMIT_AS, "RLIMIT_AS", bytes)?;
    }
    // Sets no_new_privs, then the filter on every thread (TSYNC): threads
    // started before this are confined too.
    seccompiler::apply_filter_all_threads(&filter).map_err(|e| ConfineError::Install(e.to_string()))?;
    Ok(Confined { closed_fds, syscalls_allowed: ALLOWED_SYSCALLS.len() })
}

/// Closes every open descriptor above 2 that is not in `keep`; how many.
fn close_others(keep: &[RawFd]) -> io::Result<usize> {
    // Listed first, closed after: closing while reading the directory
    // would close the directory's own descriptor under it.
    let mut open = Vec::new();
    for entry in std::fs::read_dir("/proc/self/fd")? {
        let name = entry?.file_name();
        if let Some(fd) = name.to_str().and_then(|n| n.parse::<RawFd>().ok()) {
            open.push(fd);
        }
    }
    let mut closed = 0;
    for fd in open.into_iter().filter(|fd| *fd > 2 && !keep.contains(fd)) {
        #[expect(unsafe_code, reason = "closing a descriptor by number is a libc call")]
        // SAFETY: the worker owns no Rust object for these descriptors
        // (the directory handle listed above is dropped and its
        // descriptor is gone, so close fails with EBADF, which is fine).
        let rc = unsafe { libc::close(fd) };
        if rc == 0 {
            closed += 1;
        }
    }
    Ok(closed)
}

/// Lowers resource `resource` to `value`, both soft and hard.
fn limit(resource: libc::__rlimit_resource_t, name: &'static str, value: u64) -> Result<(), ConfineError> {
    let rlim = libc::rlimit { rlim_cur: value, rlim_max: value };
    #[expect(unsafe_code, reason = "setrlimit is a libc call")]
    // SAFETY: `rlim` is a valid rlimit for the duration of the call.
    let rc = unsafe { libc::setrlimit(resource, &rlim) };
    if rc != 0 {
        return Err(ConfineError::Limit { limit: name, source: io::Error::last_os_error() });
    }
    Ok(())
}

/// The architecture the filter is compiled for.
fn arch() -> Result<TargetArch, ConfineError> {
    std::env::consts::ARCH.try_into().map_err(|e: seccompiler::BackendError| ConfineError::Filter {
        arch: std::env::consts::ARCH,
        reason: e.to_string(),
    })
}

/// The number of system call `name` on this architecture (the libc crate
/// has each architecture's table); `None` for a name not listed here.
fn number(name: &str) -> Option<i64> {
    let nr = match name {
        "read" => libc::SYS_read,
        "write" => libc::SYS_write,
        "writev" => libc::SYS_writev,
        "sendto" => libc::SYS_sendto,
        "recvfrom" => libc::SYS_recvfrom,
        "close" => libc::SYS_close,
        "fcntl" => libc::SYS_fcntl,
        "mmap" => libc::SYS_mmap,
        "mprotect" => libc::SYS_mprotect,
        "munmap" => libc::SYS_munmap,
        "mremap" => libc::SYS_mremap,
        "madvise" => libc::SYS_madvise,
        "brk" => libc::SYS_brk,
        "futex" => libc::SYS_futex,
        "sched_yield" => libc::SYS_sched_yield,
        "clock_gettime" => libc::SYS_clock_gettime,
        "clock_getres" => libc::SYS_clock_getres,
        "gettimeofday" => libc::SYS_gettimeofday,
        "clock_nanosleep" => libc::SYS_clock_nanosleep,
        "nanosleep" => libc::SYS_nanosleep,
        "getrandom" => libc::SYS_getrandom,
        "rt_sigreturn" => libc::SYS_rt_sigreturn,
        "rt_sigprocmask" => libc::SYS_rt_sigprocmask,
        "sigaltstack" => libc::SYS_sigaltstack,
        "getpid" => libc::SYS_getpid,
        "gettid" => libc::SYS_gettid,
        "tgkill" => libc::SYS_tgkill,
        "restart_syscall" => libc::SYS_restart_syscall,
        "exit" => libc::SYS_exit,
        "exit_group" => libc::SYS_exit_group,
        _ => return None,
    };
    Some(nr)
}

/// The filter: the allow-list, and death for everything else.
fn filter() -> Result<BpfProgram, ConfineError> {
    let arch_name = std::env::consts::ARCH;
    let bad = |reason: String| ConfineError::Filter { arch: arch_name, reason };
    let no_exec = || -> Result<Vec<SeccompRule>, ConfineError> {
        let prot = SeccompCondition::new(2, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(libc::PROT_EXEC as u64), 0)
            .map_err(|e| bad(e.to_string()))?;
        Ok(vec![SeccompRule::new(vec![prot]).map_err(|e| bad(e.to_string()))?])
    };
    let own_process = || -> Result<Vec<SeccompRule>, ConfineError> {
        let pid = u64::from(std::process::id());
        let me =
            SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, pid).map_err(|e| bad(e.to_string()))?;
        Ok(vec![SeccompRule::new(vec![me]).map_err(|e| bad(e.to_string()))?])
    };
    let no_address = || -> Result<Vec<SeccompRule>, ConfineError> {
        let none =
            SeccompCondition::new(4, SeccompCmpArgLen::Qword, SeccompCmpOp::Eq, 0).map_err(|e| bad(e.to_string()))?;
        Ok(vec![SeccompRule::new(vec![none]).map_err(|e| bad(e.to_string()))?])
    };
    let get_fd_flags = || -> Result<Vec<SeccompRule>, ConfineError> {
        let get = SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::F_GETFD as u64)
            .map_err(|e| bad(e.to_string()))?;
        Ok(vec![SeccompRule::new(vec![get]).map_err(|e| bad(e.to_string()))?])
    };
    let mut rules = BTreeMap::new();
    for syscall in ALLOWED_SYSCALLS {
        let nr = number(syscall.name).ok_or_else(|| bad(format!("no system call {} here", syscall.name)))?;
        let chain = match syscall.only {
            Restriction::None => Vec::new(),
            Restriction::NoExec => no_exec()?,
            Restriction::OwnProcess => own_process()?,
            Restriction::NoAddress => no_address()?,
            Restriction::GetFdFlags => get_fd_flags()?,
        };
        rules.insert(nr, chain);
    }
    let filter = SeccompFilter::new(rules, SeccompAction::KillProcess, SeccompAction::Allow, arch()?)
        .map_err(|e| bad(e.to_string()))?;
    filter.try_into().map_err(|e: seccompiler::BackendError| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_allowed_syscall_exists_here_and_the_filter_compiles() {
        for syscall in ALLOWED_SYSCALLS {
            assert!(number(syscall.name).is_some(), "{} has a number on {}", syscall.name, std::env::consts::ARCH);
        }
        let program = filter().unwrap();
        assert!(!program.is_empty());
    }
}
