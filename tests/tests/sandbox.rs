//! The engine worker's confinement, proved on real processes: a worker
//! started by `WorkerCommand` and confined by `confine` runs a QuickJS
//! engine, holds nothing of the host (no environment, no descriptor but
//! its channel), and dies the moment it makes a system call outside the
//! allow-list: it opens, creates, connects, executes, starts a thread or
//! process, signals another process, or maps memory executable from none
//! of its threads.

#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use codemode_sandbox::{SpawnedWorker, WorkerCommand};

/// A started probe, confined and waiting for `go`.
struct Probe {
    worker: SpawnedWorker,
    reader: BufReader<UnixStream>,
    /// What `confine` said it closed.
    closed: usize,
    /// `left`, or `kept:<why>`: whether it left the host's namespaces.
    namespaces: String,
}

fn start(what: &str, extra: &str) -> Probe {
    let worker =
        WorkerCommand::new(env!("CARGO_BIN_EXE_sandbox_probe")).arg(what).arg(extra).spawn().expect("the probe starts");
    worker.channel.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut reader = BufReader::new(worker.channel.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).expect("the probe reports");
    let mut said = line.trim().strip_prefix("confined ").unwrap_or_else(|| panic!("{line:?}")).split(' ');
    let closed = said.next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{line:?}"));
    let namespaces = said.next().unwrap_or_else(|| panic!("{line:?}")).to_owned();
    Probe { worker, reader, closed, namespaces }
}

impl Probe {
    fn pid(&self) -> u32 {
        self.worker.child.id()
    }

    /// Says go; what the probe reported (empty if it died first) and how
    /// it ended.
    fn go(mut self) -> (String, ExitStatus) {
        self.worker.channel.write_all(b"go\n").unwrap();
        let mut line = String::new();
        let _ = self.reader.read_line(&mut line);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.worker.child.try_wait().unwrap() {
                return (line.trim().to_owned(), status);
            }
            assert!(Instant::now() < deadline, "the probe never ended");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Starts a probe that tries `what`, and checks the filter killed it
/// before it could say what happened.
fn killed_by_the_filter(what: &str, extra: &str) {
    let (said, status) = start(what, extra).go();
    assert_eq!(status.signal(), Some(libc::SIGSYS), "{what}: {status:?}, said {said:?}");
    assert_eq!(said, "", "{what}: the call never returned");
}

#[test]
fn a_confined_worker_runs_a_quickjs_engine_and_holds_nothing_of_the_host() {
    let probe = start("js", "");
    let proc = format!("/proc/{}", probe.pid());
    let status = std::fs::read_to_string(format!("{proc}/status")).unwrap();
    assert!(status.contains("Seccomp:\t2"), "filtered: {status}");
    assert!(status.contains("NoNewPrivs:\t1"), "no new privileges: {status}");
    let environ = std::fs::read(format!("{proc}/environ")).unwrap();
    assert!(std::env::vars_os().count() > 0 && environ.is_empty(), "the host's environment stays in the host");
    let mut fds: Vec<u32> = std::fs::read_dir(format!("{proc}/fd"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_str().unwrap().parse().unwrap())
        .collect();
    fds.sort_unstable();
    assert_eq!(fds, [0, 1, 2, 3], "stdin, stdout, stderr and the channel only");
    let limits = std::fs::read_to_string(format!("{proc}/limits")).unwrap();
    let limit = |name: &str| -> String {
        let line = limits.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} in {limits}"));
        line[name.len()..].split_whitespace().next().unwrap().to_owned()
    };
    assert_eq!(limit("Max core file size"), "0");
    assert_eq!(limit("Max file size"), "0");
    assert_eq!(limit("Max open files"), "4");
    assert_eq!(limit("Max processes"), "0");
    assert_eq!(limit("Max address space"), (1024u64 * 1024 * 1024).to_string());
    let (said, status) = probe.go();
    assert!(status.success(), "{status:?}: {said}");
    assert_eq!(said, r#"survived [1000,3,1572864,true,true,200000,"number"]"#);
}

#[test]
fn a_descriptor_the_host_left_inheritable_never_reaches_the_worker() {
    let file = std::fs::File::open("/proc/self/status").unwrap();
    let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
    #[expect(unsafe_code, reason = "clearing close-on-exec is a libc call")]
    // SAFETY: `fd` is open for the duration of the call.
    let rc = unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
    assert_eq!(rc, 0);
    let probe = start("js", "");
    let fds = std::fs::read_dir(format!("/proc/{}/fd", probe.pid())).unwrap().count();
    assert_eq!((fds, probe.closed), (4, 0), "closed before the program started");
    drop(file);
    assert!(probe.go().1.success());
}

#[test]
fn opening_or_creating_a_file_kills_the_worker() {
    killed_by_the_filter("open", "/etc/hostname");
    let path = std::env::temp_dir().join(format!("codemode-sandbox-escape-{}", std::process::id()));
    killed_by_the_filter("create", path.to_str().unwrap());
    assert!(!path.exists(), "nothing was written");
}

#[test]
fn a_thread_started_before_confinement_is_confined_too() {
    killed_by_the_filter("early-thread-open", "/etc/hostname");
}

#[test]
fn connecting_a_socket_kills_the_worker_and_the_listener_sees_no_one() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    killed_by_the_filter("connect", &listener.local_addr().unwrap().to_string());
    assert!(listener.accept().is_err(), "no connection was made");
}

#[test]
fn starting_a_program_or_a_thread_kills_the_worker() {
    killed_by_the_filter("exec", "/bin/true");
    killed_by_the_filter("thread", "");
}

#[test]
fn signalling_another_process_kills_the_worker_and_the_other_lives() {
    let mut other = std::process::Command::new("sleep").arg("30").spawn().unwrap();
    killed_by_the_filter("kill", &other.id().to_string());
    assert!(other.try_wait().unwrap().is_none(), "the other process is alive");
    other.kill().unwrap();
    other.wait().unwrap();
}

#[test]
fn mapping_memory_executable_kills_the_worker() {
    killed_by_the_filter("mmap-exec", "");
}

#[test]
fn the_address_space_bound_refuses_an_allocation_past_it_and_admits_one_within() {
    let (said, status) = start("allocate", "64").go();
    assert!(status.success() && said.starts_with("survived allocated"), "{status:?}: {said}");
    let (said, status) = start("allocate", "2048").go();
    assert!(status.success() && said.starts_with("survived refused"), "{status:?}: {said}");
}

/// A probe past `go`, speaking frames on a tokio channel.
fn framed(what: &str) -> (std::process::Child, tokio::net::UnixStream) {
    let probe = start(what, "");
    let SpawnedWorker { child, channel, .. } = probe.worker;
    (&channel).write_all(b"go\n").unwrap();
    channel.set_nonblocking(true).unwrap();
    (child, tokio::net::UnixStream::from_std(channel).unwrap())
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(10)
}

const MAX: usize = 1 << 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_worker_costs_the_host_a_silent_error_at_the_deadline_and_nothing_more() {
    use codemode_sandbox::frame::{FrameError, check_hello, receive_frame, send_frame};
    let (mut child, mut channel) = framed("echo");
    check_hello(&receive_frame(&mut channel, MAX, soon()).await.unwrap(), 1).unwrap();
    send_frame(&mut channel, b"ping", MAX, soon()).await.unwrap();
    assert_eq!(receive_frame(&mut channel, MAX, soon()).await.unwrap(), b"ping", "a confined worker speaks frames");
    let stopped = std::process::Command::new("kill").args(["-STOP", &child.id().to_string()]).status().unwrap();
    assert!(stopped.success());
    send_frame(&mut channel, b"are you there", MAX, soon()).await.unwrap();
    let err = receive_frame(&mut channel, MAX, Instant::now() + Duration::from_millis(300)).await.unwrap_err();
    assert!(matches!(err, FrameError::Silent(_)), "{err}");
    child.kill().unwrap();
    assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_sending_a_frame_past_the_bound_is_refused_from_its_header() {
    use codemode_sandbox::frame::{FrameError, receive_frame};
    let (mut child, mut channel) = framed("garbage");
    let err = receive_frame(&mut channel, MAX, soon()).await.unwrap_err();
    assert!(matches!(err, FrameError::Oversized { len, max: MAX } if len == u64::from(u32::MAX)), "{err}");
    drop(channel);
    let status = child.wait().unwrap();
    assert!(status.success(), "it saw the host hang up: {status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_ends_cleanly_when_the_host_hangs_up() {
    use codemode_sandbox::frame::{check_hello, receive_frame};
    let (mut child, mut channel) = framed("echo");
    check_hello(&receive_frame(&mut channel, MAX, soon()).await.unwrap(), 1).unwrap();
    drop(channel);
    assert!(child.wait().unwrap().success(), "a confined worker exits when its host goes");
}

#[test]
fn an_abort_ends_the_worker_as_an_abort_not_as_a_filter_kill() {
    let (said, status) = start("abort", "").go();
    assert_eq!((status.signal(), said.as_str()), (Some(libc::SIGABRT), ""), "{status:?}");
}

#[test]
fn the_security_docs_list_exactly_the_allowed_system_calls_and_why() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/security.md")).unwrap();
    let rows: Vec<&str> = docs.lines().filter(|l| l.starts_with("| `") && l.matches(" | ").count() == 2).collect();
    for allowed in codemode_sandbox::ALLOWED_SYSCALLS {
        let row = format!("| `{}` | {} | {} |", allowed.name, allowed.only.describe(), allowed.why);
        assert!(rows.contains(&row.as_str()), "docs/security.md lacks {row}");
    }
    assert_eq!(rows.len(), codemode_sandbox::ALLOWED_SYSCALLS.len(), "no row for a call the filter does not allow");
}

/// Whether `needle` is anywhere in the readable memory of process `pid`
/// (its mappings, read through `/proc/<pid>/mem`).
fn in_memory_of(pid: u32, needle: &[u8]) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap();
    let mut mem = std::fs::File::open(format!("/proc/{pid}/mem")).unwrap();
    let mut regions = 0;
    for line in maps.lines() {
        let mut fields = line.split_whitespace();
        let (Some(range), Some(perms)) = (fields.next(), fields.next()) else { continue };
        if !perms.starts_with('r') {
            continue;
        }
        let (start, end) = range.split_once('-').unwrap();
        let (start, end) = (u64::from_str_radix(start, 16).unwrap(), u64::from_str_radix(end, 16).unwrap());
        let mut bytes = vec![0u8; usize::try_from(end - start).unwrap()];
        // Some regions ([vvar]) cannot be read: they hold no process data.
        if mem.seek(SeekFrom::Start(start)).is_err() || mem.read_exact(&mut bytes).is_err() {
            continue;
        }
        regions += 1;
        if bytes.windows(needle.len()).any(|w| w == needle) {
            return true;
        }
    }
    assert!(regions > 0, "nothing of process {pid} could be read");
    false
}

#[test]
fn the_hosts_secrets_are_in_the_hosts_memory_and_nowhere_in_its_workers() {
    let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let nonce = format!("{:x}{:x}", std::process::id(), since_epoch.as_nanos());
    let url = format!("postgres://codemode:pw-{nonce}@db.internal/codemode");
    let token = format!("bearer-{nonce}-token");
    let mut host = std::process::Command::new(env!("CARGO_BIN_EXE_sandbox_probe"))
        .arg("host")
        .env("PROBE_SECRET_STORE_URL", &url)
        .env("PROBE_SECRET_TOKEN", &token)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(host.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let pids: Vec<u32> = line.split_whitespace().map(|p| p.parse().unwrap()).collect();
    let [host_pid, worker_pid] = pids[..] else { panic!("{line:?}") };
    for secret in [&url, &token] {
        assert!(in_memory_of(host_pid, secret.as_bytes()), "the scan finds {secret} in the host");
        assert!(!in_memory_of(worker_pid, secret.as_bytes()), "{secret} is in the worker's memory");
    }
    drop(host.stdin.take());
    assert!(host.wait().unwrap().success());
}

/// Confined probes waiting for `go`, as pool workers: started when the
/// probe reports it confined itself.
struct Probes;

impl codemode_sandbox::WorkerFactory for Probes {
    type Worker = codemode_sandbox::ProcessWorker;

    fn start(&self) -> std::io::Result<codemode_sandbox::ProcessWorker> {
        let worker = WorkerCommand::new(env!("CARGO_BIN_EXE_sandbox_probe")).arg("echo").arg("").spawn()?;
        worker.channel.set_read_timeout(Some(Duration::from_secs(20)))?;
        let mut line = String::new();
        BufReader::new(worker.channel.try_clone()?).read_line(&mut line)?;
        if !line.starts_with("confined ") {
            return Err(std::io::Error::other(format!("the probe said {line:?}")));
        }
        Ok(worker.into())
    }
}

/// Whether process `pid` exists (a zombie counts: it was never reaped).
fn exists(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn the_pool_keeps_keys_apart_replaces_a_killed_worker_and_leaves_no_process_behind() {
    use codemode_sandbox::{PoolConfig, Worker, WorkerPool};
    let config = PoolConfig { warm: 2, max_workers: 4, cells_per_worker: 4, ..PoolConfig::default() };
    let pool = WorkerPool::start(Probes, config).expect("the pool starts");
    let alice = pool.lease(&"alice").expect("a worker for alice");
    let bob = pool.lease(&"bob").expect("a worker for bob");
    let (alice_pid, bob_pid) = (alice.worker().pid(), bob.worker().pid());
    assert_ne!(alice_pid, bob_pid, "two principals, two processes");
    assert_eq!(pool.lease(&"alice").unwrap().worker().pid(), alice_pid, "alice's next cell shares her worker");

    // kill -9 of alice's worker: her lease sees it dead and fails it; her
    // next cell gets a fresh process, and bob's worker goes on.
    let killed = std::process::Command::new("kill").args(["-KILL", &alice_pid.to_string()]).status().unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    while alice.worker().alive() {
        assert!(Instant::now() < deadline, "the killed worker still looks alive");
        std::thread::sleep(Duration::from_millis(2));
    }
    alice.fail();
    assert!(!exists(alice_pid), "the killed worker was reaped");
    let again = pool.lease(&"alice").expect("a fresh worker for alice");
    assert!(![alice_pid, bob_pid].contains(&again.worker().pid()));
    assert!(bob.worker().alive());
    assert!(pool.stats().crashed >= 1);

    // The pool gone, its idle workers are stopped and reaped.
    let pids = [again.worker().pid(), bob.worker().pid()];
    drop((again, bob));
    drop(pool);
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|p| exists(*p)) {
        assert!(Instant::now() < deadline, "a worker outlived its pool");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The namespace a process is in, as `/proc/<pid>/ns/<kind>` names it.
fn namespace_of(pid: &str, kind: &str) -> String {
    std::fs::read_link(format!("/proc/{pid}/ns/{kind}")).unwrap().to_string_lossy().into_owned()
}

/// The kernel's answer, asked the same way by another program: can this
/// machine give a process user, network, IPC and UTS namespaces of its own?
fn namespaces_offered() -> bool {
    std::process::Command::new("unshare")
        .args(["--user", "--net", "--ipc", "--uts", "true"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_worker_leaves_the_hosts_user_network_ipc_and_uts_namespaces_where_the_kernel_offers_them() {
    let probe = start("js", "");
    let pid = probe.pid().to_string();
    if namespaces_offered() {
        assert_eq!(probe.namespaces, "left", "the kernel offers namespaces");
        for kind in ["user", "net", "ipc", "uts"] {
            assert_ne!(namespace_of(&pid, kind), namespace_of("self", kind), "{kind}: the host's");
        }
    } else {
        // Refused here (a container's filter, a kernel without them): the
        // worker says why and goes on, behind the allow-list alone.
        assert!(probe.namespaces.starts_with("kept:"), "{}", probe.namespaces);
        assert_eq!(namespace_of(&pid, "net"), namespace_of("self", "net"));
    }
    // Either way, it runs an engine as before.
    let (said, status) = probe.go();
    assert!(said.starts_with("survived "), "{said}");
    assert!(status.success(), "{status:?}");
}
