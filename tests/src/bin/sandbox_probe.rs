//! A confined worker for the sandbox tests (`tests/tests/sandbox.rs`).
//!
//! Started by `WorkerCommand` with one argument naming what to try and
//! an optional second (a path, an address, a process id). It starts one
//! thread, confines itself, reports `confined <closed descriptors>
//! <left|kept:why>` (whether it left the host's namespaces) on
//! its channel, waits for `go`, then tries the thing. What survives
//! reports `survived <what happened>`; a forbidden system call kills the
//! process before it can report anything.
//!
//! `host` mode plays the host instead: it holds secrets (its environment,
//! read into its heap), starts a worker of this binary in `echo` mode the
//! way the runtime will, prints `<its pid> <the worker's pid>` and waits
//! for stdin to close, so a test can look for the secrets in both.

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_default();
    let extra = args.next().unwrap_or_default();
    if what == "host" {
        host();
        return;
    }
    // First, while it has one thread.
    let namespaces = match codemode_sandbox::leave_host_namespaces() {
        codemode_sandbox::Namespaces::Left => "left".to_owned(),
        codemode_sandbox::Namespaces::Kept(why) => format!("kept:{}", why.replace(' ', "_")),
        codemode_sandbox::Namespaces::Threaded(n) => format!("threaded:{n}"),
    };
    let channel = codemode_sandbox::take_channel().expect("started as a worker");
    let mut reader = BufReader::new(&channel);
    let mut writer = &channel;
    // A thread started before confinement: the filter must reach it too.
    let (to_early, early_gets) = mpsc::channel::<String>();
    let (early_says, from_early) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        // Started: the C library's thread set-up (robust futex list,
        // restartable sequences, the signal stack) is done before the
        // filter, which would refuse it.
        let _ = early_says.send("ready".into());
        for path in early_gets {
            let result = std::fs::read(&path).map(|b| b.len());
            let _ = early_says.send(format!("{result:?}"));
        }
    });
    assert_eq!(from_early.recv().as_deref(), Ok("ready"));
    // Sized so that a 64 MiB heap fits and 2 GiB does not.
    let confinement =
        codemode_sandbox::Confinement::new().keep(codemode_sandbox::WORKER_FD).address_space(1024 * 1024 * 1024);
    let confined = codemode_sandbox::confine(&confinement).expect("the probe confines itself");
    writeln!(writer, "confined {} {namespaces}", confined.closed_fds).expect("the host reads");
    let mut line = String::new();
    reader.read_line(&mut line).expect("the host says go");
    let outcome = match what.as_str() {
        "js" => js(),
        "open" => format!("{:?}", std::fs::read(&extra).map(|b| b.len())),
        "create" => format!("{:?}", std::fs::write(&extra, b"escaped")),
        "connect" => format!("{:?}", std::net::TcpStream::connect(&extra).map(|_| ())),
        "exec" => format!("{:?}", std::process::Command::new(&extra).status()),
        "thread" => format!("{:?}", std::thread::Builder::new().spawn(|| ()).map(|_| ())),
        "kill" => kill(&extra),
        "mmap-exec" => mmap_exec(),
        "early-thread-open" => {
            to_early.send(extra).expect("the early thread listens");
            from_early.recv().unwrap_or_default()
        }
        "allocate" => allocate(&extra),
        "echo" => echo(&channel),
        "abort" => std::process::abort(),
        "garbage" => {
            // A header claiming 4 GiB, then noise; then waits for the host.
            let _ = writer.write_all(&u32::MAX.to_le_bytes());
            let _ = writer.write_all(b"not a frame");
            let _ = reader.read_line(&mut line);
            "the host hung up".to_owned()
        }
        other => format!("unknown probe {other}"),
    };
    // The host may have hung up already (`echo`, `garbage`).
    let _ = writeln!(writer, "survived {outcome}");
}

/// A QuickJS engine doing what cells do: allocate, collect, parse JSON,
/// match regular expressions, read the clock and randomness, run jobs.
fn js() -> String {
    let runtime = rquickjs::Runtime::new().expect("a runtime");
    runtime.set_memory_limit(256 * 1024 * 1024);
    let context = rquickjs::Context::full(&runtime).expect("a context");
    let value = context.with(|ctx| {
        let source = r#"
            const big = [];
            for (let i = 0; i < 200000; i++) big.push({ i, s: "x".repeat(i % 50) });
            const text = JSON.stringify(big.slice(0, 1000));
            const back = JSON.parse(text).length;
            const words = "alpha beta gamma".match(/\w+/g).length;
            const typed = new Float64Array(1 << 20).fill(1.5).reduce((a, b) => a + b, 0);
            let resolved = 0;
            Promise.resolve(2).then((v) => { resolved = v; });
            [back, words, typed, Date.now() > 0, Math.random() < 1, big.length, typeof resolved]
        "#;
        let value: rquickjs::Value = ctx.eval(source).expect("the workload runs");
        ctx.json_stringify(value).expect("stringify").map(|s| s.to_string().expect("a string")).unwrap_or_default()
    });
    while runtime.is_job_pending() {
        let _ = runtime.execute_pending_job();
    }
    runtime.run_gc();
    value
}

/// Sends SIGKILL to process `pid` (another process the test started).
fn kill(pid: &str) -> String {
    let pid: libc::pid_t = pid.parse().expect("a pid");
    #[expect(unsafe_code, reason = "kill is a libc call")]
    // SAFETY: plain integers.
    let rc = unsafe { libc::kill(pid, libc::SIGKILL) };
    format!("kill returned {rc}")
}

/// Maps a page readable and executable.
fn mmap_exec() -> String {
    #[expect(unsafe_code, reason = "mmap is a libc call")]
    // SAFETY: an anonymous private mapping at an address the kernel picks.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_EXEC,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    format!("mmap returned {p:?}")
}

/// Allocates and touches `mib` MiB.
fn allocate(mib: &str) -> String {
    let bytes = mib.parse::<usize>().expect("MiB") * 1024 * 1024;
    let mut v: Vec<u8> = Vec::new();
    match v.try_reserve_exact(bytes) {
        Ok(()) => {
            v.resize(bytes, 1);
            format!("allocated {}", v.iter().step_by(4096).map(|b| usize::from(*b)).sum::<usize>())
        }
        Err(e) => format!("refused: {e}"),
    }
}

/// The engine protocol version the echo probe says hello with.
const ECHO_VERSION: u32 = 1;

/// Says hello, then sends back every frame it gets until the host hangs up.
fn echo(channel: &std::os::unix::net::UnixStream) -> String {
    use codemode_sandbox::frame::{FrameError, hello, read_frame, write_frame};
    let (mut from, mut to) = (channel, channel);
    write_frame(&mut to, &hello(ECHO_VERSION), 64).expect("hello");
    let mut echoed = 0;
    loop {
        match read_frame(&mut from, 1 << 20) {
            Ok(frame) => {
                write_frame(&mut to, &frame, 1 << 20).expect("echo");
                echoed += 1;
            }
            Err(FrameError::Closed) => return format!("echoed {echoed}"),
            Err(e) => return format!("failed: {e}"),
        }
    }
}

/// Plays the host: secrets in its environment and heap, one confined
/// worker speaking frames.
fn host() {
    use std::io::Read;
    let secrets: Vec<String> =
        std::env::vars().filter(|(k, _)| k.starts_with("PROBE_SECRET")).map(|(_, v)| v).collect();
    let program = std::env::current_exe().expect("this binary");
    let worker = codemode_sandbox::WorkerCommand::new(program).arg("echo").spawn().expect("a worker");
    let mut reader = BufReader::new(&worker.channel);
    let mut line = String::new();
    reader.read_line(&mut line).expect("the worker confines itself");
    (&worker.channel).write_all(b"go\n").expect("go");
    let hello = codemode_sandbox::frame::read_frame(&mut reader, 64).expect("its hello");
    codemode_sandbox::frame::check_hello(&hello, ECHO_VERSION).expect("the same protocol");
    println!("{} {}", std::process::id(), worker.child.id());
    std::io::stdout().flush().expect("the test reads");
    let mut rest = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut rest);
    // Kept alive, on the heap, until the test has looked.
    std::hint::black_box(&secrets);
}
