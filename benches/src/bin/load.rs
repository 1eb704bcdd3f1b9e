//! Load and soak benchmarks against a real `codemode serve --http` process:
//! how it holds up under many clients, and that a long soak leaks nothing.
//! Not a test: run it by hand.
//!
//! ```sh
//! cargo build --release -p codemode-cli
//! cargo build --release -p codemode-benches --bin load
//! ./target/release/load held              # 1,000 cells in flight across 50 MCP clients
//! ./target/release/load parked            # 10,000 parked cells across 100 sessions
//! ./target/release/load soak --minutes 20 # mixed cells with session churn
//! ```
//!
//! Each scenario spawns `target/release/codemode serve --http 127.0.0.1:PORT
//! --metrics 127.0.0.1:PORT2` (`--bin PATH` or `CODEMODE_BIN` to use another
//! binary) with a `codemode.toml` it writes into a temporary directory, and
//! drives it with rmcp's streamable-HTTP client, the way an MCP host does:
//! tools `exec {code}` and `wait {runId}`, results as JSON text in
//! `content[0].text`. Every result is checked; anything unexpected counts as
//! a failure. The server's RSS, threads, open fds and child processes come
//! from `/proc/<pid>`; its live and parked cells from `/metrics`. Every loop
//! is bounded in count and time; only loopback addresses are used.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

/// Any error, as text (this binary only reports errors).
type Error = Box<dyn std::error::Error + Send + Sync>;
type Result<T, E = Error> = std::result::Result<T, E>;

/// An [`Error`] from a format string.
macro_rules! anyhow {
    ($($t:tt)*) => { Error::from(format!($($t)*)) };
}

/// Returns an [`Error`] from a format string.
macro_rules! bail {
    ($($t:tt)*) => { return Err(anyhow!($($t)*)) };
}

/// Adds what was being done to an error or a missing value.
trait Context<T> {
    fn context(self, what: &str) -> Result<T>;
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E: std::fmt::Display> Context<T> for Result<T, E> {
    fn context(self, what: &str) -> Result<T> {
        self.map_err(|e| anyhow!("{what}: {e}"))
    }
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| anyhow!("{}: {e}", what()))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, what: &str) -> Result<T> {
        self.ok_or_else(|| anyhow!("{what}"))
    }
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T> {
        self.ok_or_else(|| anyhow!("{}", what()))
    }
}

/// The longest any one MCP call may take before it counts as a failure.
const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// The most `wait` calls one cell gets before it counts as a failure.
const MAX_WAITS: usize = 50;

// ---------------------------------------------------------------------------
// Options

#[derive(Clone, Debug)]
struct Options {
    scenario: String,
    bin: PathBuf,
    clients: Option<usize>,
    in_flight: Option<usize>,
    cells_per_client: Option<usize>,
    duration: Duration,
    max_cells: u64,
    workers: usize,
    sample_every: u64,
    rounds: usize,
    /// `KEY=VALUE` pairs set in the server's environment.
    server_env: Vec<(String, String)>,
    /// Soak cell kinds left out (by name prefix, e.g. `store`).
    without: Vec<String>,
}

fn usage() -> &'static str {
    "usage: load <held|parked|soak|all> [--bin PATH] [--clients N] [--in-flight N] [--cells-per-client N]\n\
     \x20      [--minutes M | --secs S] [--max-cells N] [--workers N] [--sample-every N] [--rounds N]\n\
     \x20      [--server-env KEY=VALUE]... [--without KIND]...\n\
     held:   50 clients x 20 cells in flight (trivial / 50 ms timer / yield_control + wait), 200 cells each, 3 rounds\n\
     parked: 100 clients x 100 parked yield_control cells, then wait them all\n\
     soak:   mixed cells with session churn for --minutes (default 20), a row every 1,000 cells"
}

fn parse_options() -> Result<Options> {
    let mut args = std::env::args().skip(1);
    let default_bin = std::env::var_os("CODEMODE_BIN").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/codemode")),
        PathBuf::from,
    );
    let mut o = Options {
        scenario: String::new(),
        bin: default_bin,
        clients: None,
        in_flight: None,
        cells_per_client: None,
        duration: Duration::from_secs(20 * 60),
        max_cells: 5_000_000,
        workers: 8,
        sample_every: 1_000,
        rounds: 3,
        server_env: Vec::new(),
        without: Vec::new(),
    };
    let num = |v: Option<String>, flag: &str| -> Result<u64> {
        v.ok_or_else(|| anyhow!("{flag} needs a value"))?.parse::<u64>().with_context(|| flag.to_owned())
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bin" => o.bin = PathBuf::from(args.next().ok_or_else(|| anyhow!("--bin needs a path"))?),
            "--clients" => o.clients = Some(usize::try_from(num(args.next(), &a)?)?),
            "--in-flight" => o.in_flight = Some(usize::try_from(num(args.next(), &a)?)?),
            "--cells-per-client" => o.cells_per_client = Some(usize::try_from(num(args.next(), &a)?)?),
            "--minutes" => o.duration = Duration::from_secs(num(args.next(), &a)? * 60),
            "--secs" => o.duration = Duration::from_secs(num(args.next(), &a)?),
            "--max-cells" => o.max_cells = num(args.next(), &a)?,
            "--workers" => o.workers = usize::try_from(num(args.next(), &a)?)?.max(1),
            "--server-env" => {
                let kv = args.next().ok_or_else(|| anyhow!("--server-env needs KEY=VALUE"))?;
                let (k, v) = kv.split_once('=').ok_or_else(|| anyhow!("--server-env needs KEY=VALUE"))?;
                o.server_env.push((k.to_owned(), v.to_owned()));
            }
            "--without" => o.without.push(args.next().ok_or_else(|| anyhow!("--without needs a cell kind"))?),
            "--rounds" => o.rounds = usize::try_from(num(args.next(), &a)?)?.max(1),
            "--sample-every" => o.sample_every = num(args.next(), &a)?.max(1),
            "-h" | "--help" => {
                println!("{}", usage());
                std::process::exit(0);
            }
            // `cargo bench` passes `--bench`; nothing to do then.
            "--bench" | "--list" => std::process::exit(0),
            s if o.scenario.is_empty() && !s.starts_with('-') => o.scenario = s.to_owned(),
            other => bail!("unknown argument {other:?}\n{}", usage()),
        }
    }
    if o.scenario.is_empty() {
        bail!("{}", usage());
    }
    if !o.bin.exists() {
        bail!("{} does not exist: run `cargo build --release -p codemode-cli` or pass --bin", o.bin.display());
    }
    Ok(o)
}

// ---------------------------------------------------------------------------
// The server process

/// What `/proc/<pid>` says about the server.
#[derive(Clone, Copy, Debug, Default)]
struct ProcStats {
    rss_kib: u64,
    hwm_kib: u64,
    threads: u64,
    fds: u64,
    children: u64,
}

/// A `codemode serve --http` child process, killed on drop.
struct Server {
    child: Child,
    pid: u32,
    url: String,
    metrics_addr: String,
    dir: PathBuf,
    stderr_tail: Arc<Mutex<Vec<String>>>,
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

impl Server {
    fn start(o: &Options, name: &str, config: &str) -> Result<Self> {
        let bin = &o.bin;
        let dir = std::env::temp_dir().join(format!("codemode-load-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        let config_path = dir.join("codemode.toml");
        std::fs::write(&config_path, config)?;
        let (port, metrics_port) = (free_port()?, free_port()?);
        let mut child = Command::new(bin)
            .arg("--config")
            .arg(&config_path)
            .arg("--store")
            .arg(dir.join("store"))
            .args(["serve", "--http", &format!("127.0.0.1:{port}"), "--metrics", &format!("127.0.0.1:{metrics_port}")])
            .envs(o.server_env.iter().map(|(k, v)| (k, v)))
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("spawning {}", bin.display()))?;
        let pid = child.id();
        let mut stderr = BufReader::new(child.stderr.take().context("stderr")?);
        let mut ready = false;
        for _ in 0..50 {
            let mut line = String::new();
            if stderr.read_line(&mut line)? == 0 {
                break;
            }
            if line.contains("serving MCP over HTTP") {
                ready = true;
                break;
            }
        }
        if !ready {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the server did not say it serves MCP over HTTP");
        }
        // Keep draining stderr (so the server never blocks on it); keep the
        // last lines for diagnosis.
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                let mut t = tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if t.len() >= 20 {
                    t.remove(0);
                }
                t.push(line);
            }
        });
        Ok(Self {
            child,
            pid,
            url: format!("http://127.0.0.1:{port}/mcp"),
            metrics_addr: format!("127.0.0.1:{metrics_port}"),
            dir,
            stderr_tail,
        })
    }

    fn stats(&self) -> ProcStats {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap_or_default();
        let field = |name: &str| -> u64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        let fds = std::fs::read_dir(format!("/proc/{}/fd", self.pid)).map_or(0, |d| d.count() as u64);
        let mut children = 0;
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", self.pid)) {
            for task in tasks.flatten() {
                let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
                children += list.split_whitespace().count() as u64;
            }
        }
        ProcStats { rss_kib: field("VmRSS:"), hwm_kib: field("VmHWM:"), threads: field("Threads:"), fds, children }
    }

    /// `(live cells, parked cells)` from the server's `/metrics`.
    fn cells(&self) -> Result<(u64, u64)> {
        let mut socket = std::net::TcpStream::connect(&self.metrics_addr)?;
        socket.set_read_timeout(Some(Duration::from_secs(5)))?;
        socket.write_all(b"GET /metrics HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")?;
        let mut body = String::new();
        socket.read_to_string(&mut body)?;
        let gauge = |name: &str| -> Result<u64> {
            body.lines()
                .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| anyhow!("no {name} in /metrics"))
        };
        Ok((gauge("codemode_live_cells")?, gauge("codemode_parked_cells")?))
    }

    fn store_kib(&self) -> u64 {
        fn walk(p: &Path) -> u64 {
            let Ok(entries) = std::fs::read_dir(p) else { return 0 };
            entries
                .flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => walk(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        }
        walk(&self.dir.join("store")) / 1024
    }

    /// Whether the process still runs (not exited, not a zombie).
    fn alive(&self) -> bool {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap_or_default();
        status.lines().find_map(|l| l.strip_prefix("State:")).is_some_and(|s| !s.trim_start().starts_with('Z'))
    }

    fn stderr_tail(&self) -> String {
        self.stderr_tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner).join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Samples the server every 100 ms until stopped: peak RSS, threads, fds,
/// live and parked cells.
#[derive(Default)]
struct Peaks {
    rss_kib: AtomicU64,
    threads: AtomicU64,
    fds: AtomicU64,
    live: AtomicU64,
    parked: AtomicU64,
}

fn monitor(server: &Arc<Server>, stop: &Arc<AtomicBool>) -> (Arc<Peaks>, std::thread::JoinHandle<()>) {
    let peaks = Arc::new(Peaks::default());
    let (p, s, stop) = (Arc::clone(&peaks), Arc::clone(server), Arc::clone(stop));
    let handle = std::thread::spawn(move || {
        // Bounded: stops when told, or after two hours at most.
        for _ in 0..72_000 {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let st = s.stats();
            p.rss_kib.fetch_max(st.rss_kib, Ordering::Relaxed);
            p.threads.fetch_max(st.threads, Ordering::Relaxed);
            p.fds.fetch_max(st.fds, Ordering::Relaxed);
            if let Ok((live, parked)) = s.cells() {
                p.live.fetch_max(live, Ordering::Relaxed);
                p.parked.fetch_max(parked, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    (peaks, handle)
}

// ---------------------------------------------------------------------------
// The MCP client

type Client = RunningService<RoleClient, ()>;

async fn connect(url: &str, max_concurrent: usize) -> Result<Client> {
    let config = StreamableHttpClientTransportConfig::with_uri(url).max_concurrent_requests(max_concurrent);
    let transport = StreamableHttpClientTransport::from_config(config);
    let client = tokio::time::timeout(CALL_TIMEOUT, ().serve(transport)).await.context("connect timed out")??;
    Ok(client)
}

/// Calls `tool` and parses `content[0].text` as the cell's JSON result.
async fn call(peer: &Peer<RoleClient>, tool: &'static str, args: Value) -> Result<Value> {
    let Value::Object(args) = args else { bail!("arguments must be an object") };
    let request = CallToolRequestParams::new(tool).with_arguments(args);
    let result = tokio::time::timeout(CALL_TIMEOUT, peer.call_tool(request))
        .await
        .with_context(|| format!("{tool} took over {CALL_TIMEOUT:?}"))??;
    let text = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
    serde_json::from_str(&text).map_err(|_| anyhow!("{tool}: not a cell result: {}", clip(&text)))
}

fn clip(s: &str) -> String {
    s.chars().take(300).collect()
}

fn status(v: &Value) -> &str {
    v["status"].as_str().unwrap_or("?")
}

/// Calls `wait` while the cell is `waiting`; returns its final result.
async fn wait_out(peer: &Peer<RoleClient>, mut result: Value) -> Result<Value> {
    for _ in 0..MAX_WAITS {
        if status(&result) != "waiting" {
            return Ok(result);
        }
        let run_id = result["runId"].as_str().ok_or_else(|| anyhow!("waiting without runId: {result}"))?.to_owned();
        result = call(peer, "wait", json!({ "runId": run_id })).await?;
    }
    bail!("still waiting after {MAX_WAITS} waits: {}", clip(&result.to_string()))
}

// ---------------------------------------------------------------------------
// Cells

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// `return` a small object.
    Trivial,
    /// A 50 ms timer (20 ms in the soak).
    Timer,
    /// `yield_control`, then `wait`.
    Yield,
    /// `throw`: a failed cell.
    Throw,
    /// A busy loop past `[limits] timeout_ms`: failed with a timeout.
    Busy,
    /// `store` then `load` in the session store.
    Store,
    /// A 40 KB string value (fits the output budget).
    Large,
    /// A ~100 KB value (50 strings of 2,000): past the output budget,
    /// saved and returned truncated.
    Huge,
    /// 200 `console.log` lines.
    Output,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Self::Trivial => "trivial",
            Self::Timer => "timer",
            Self::Yield => "yield+wait",
            Self::Throw => "throw",
            Self::Busy => "timeout (busy loop)",
            Self::Store => "store+load",
            Self::Large => "large value (40 KB)",
            Self::Huge => "huge value (truncated)",
            Self::Output => "console output",
        }
    }

    fn code(self, i: u64, timer_ms: u64) -> String {
        match self {
            Self::Trivial => format!("return {{ i: {i}, ok: true }}"),
            Self::Timer => format!("await new Promise(r => setTimeout(r, {timer_ms})); return {{ i: {i} }}"),
            Self::Yield => format!("await yield_control('load'); return {{ i: {i} }}"),
            Self::Throw => format!("throw new Error('boom {i}')"),
            Self::Busy => "let n = 0; while (true) { n++; }".to_owned(),
            Self::Store => format!(
                "await store('k{k}', {{ i: {i}, pad: 'y'.repeat(1000) }}); return {{ i: (await load('k{k}')).i }}",
                k = i % 8
            ),
            Self::Large => format!("return {{ i: {i}, s: 'z'.repeat(40000) }}"),
            Self::Huge => format!("return {{ i: {i}, rows: Array(50).fill('v'.repeat(2000)) }}"),
            Self::Output => {
                format!("for (let k = 0; k < 200; k++) console.log('line', k, {{ i: {i} }}); return {{ i: {i} }}")
            }
        }
    }

    /// Runs one cell to its end and checks the result.
    async fn run(self, peer: &Peer<RoleClient>, i: u64, timer_ms: u64) -> Result<()> {
        let first = call(peer, "exec", json!({ "code": self.code(i, timer_ms) })).await?;
        if self == Self::Yield && (status(&first) != "waiting" || first["reason"] != "yield") {
            bail!("yield: expected waiting/yield, got {}", clip(&first.to_string()));
        }
        let end = wait_out(peer, first).await?;
        let want_i = |v: &Value| v["i"].as_u64() == Some(i);
        let ok = match self {
            Self::Trivial | Self::Timer | Self::Yield | Self::Store | Self::Output => {
                status(&end) == "completed" && want_i(&end["value"])
            }
            Self::Large => {
                status(&end) == "completed"
                    && want_i(&end["value"])
                    && end["value"]["s"].as_str().map(str::len) == Some(40_000)
            }
            Self::Huge => {
                status(&end) == "completed"
                    && (end["value"]["truncated"] == true || end["value"]["rows"].as_array().map(Vec::len) == Some(50))
            }
            Self::Throw => status(&end) == "failed" && end["error"].to_string().contains(&format!("boom {i}")),
            Self::Busy => status(&end) == "failed" && end["code"].as_str().is_some_and(|c| c.contains("timeout")),
        };
        if !ok {
            bail!("{}: unexpected result {}", self.name(), clip(&end.to_string()));
        }
        Ok(())
    }
}

/// Counts failures and keeps the first few messages.
#[derive(Default)]
struct Failures {
    count: AtomicU64,
    first: Mutex<Vec<String>>,
}

impl Failures {
    fn record(&self, what: &str, e: &Error) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if first.len() < 10 {
            first.push(format!("{what}: {e}"));
        }
    }

    fn report(&self) {
        let n = self.count.load(Ordering::Relaxed);
        println!("failures: {n}");
        for f in self.first.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            println!("  {f}");
        }
    }
}

/// Latencies per kind, in milliseconds.
type Latencies = Arc<Mutex<BTreeMap<Kind, Vec<f64>>>>;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn print_latencies(lat: &Latencies) {
    println!("| cell | n | p50 ms | p90 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|---|");
    for (kind, samples) in lat.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter_mut() {
        samples.sort_by(f64::total_cmp);
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} |",
            kind.name(),
            samples.len(),
            percentile(samples, 0.5),
            percentile(samples, 0.9),
            percentile(samples, 0.99),
            samples.last().copied().unwrap_or(f64::NAN)
        );
    }
}

async fn timed_cell(peer: &Peer<RoleClient>, kind: Kind, i: u64, timer_ms: u64, lat: &Latencies) -> Result<()> {
    let start = Instant::now();
    let r = kind.run(peer, i, timer_ms).await;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    lat.lock().unwrap_or_else(std::sync::PoisonError::into_inner).entry(kind).or_default().push(ms);
    r
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn print_stats(label: &str, st: ProcStats, cells: Option<(u64, u64)>) {
    let (live, parked) = cells.map_or(("?".to_owned(), "?".to_owned()), |(l, p)| (l.to_string(), p.to_string()));
    println!(
        "| {label} | {:.1} | {} | {} | {} | {live} | {parked} |",
        mib(st.rss_kib),
        st.threads,
        st.fds,
        st.children
    );
}

fn stats_header() {
    println!("| moment | RSS MiB | threads | fds | children | live cells | parked cells |");
    println!("|---|---|---|---|---|---|---|");
}

async fn settle(ms: u64) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

// ---------------------------------------------------------------------------
// Scenario (a): load held

async fn held(o: &Options) -> Result<u64> {
    let clients = o.clients.unwrap_or(50);
    let in_flight = o.in_flight.unwrap_or(20);
    let per_client = o.cells_per_client.unwrap_or(200);
    let rounds = o.rounds;
    let cap = (clients * in_flight * 2).max(1024);
    let config = format!(
        "# load held: every loopback client is principal `local`, so the per-principal\n\
         # quota (default 512) and the global one (default 1,024) are raised.\n\
         [limits]\nmax_live_cells = {cap}\nmax_live_cells_per_principal = {cap}\n\n[serve]\ndispose_grace_ms = 1000\n"
    );
    println!(
        "## load held: {clients} MCP HTTP clients x {in_flight} cells in flight, {per_client} cells each \
         (trivial / 50 ms timer / yield_control + wait), {rounds} rounds with fresh clients on one server\n"
    );
    println!("config: max_live_cells = {cap}, max_live_cells_per_principal = {cap}, dispose_grace_ms = 1000\n");
    let server = Arc::new(Server::start(o, "held", &config)?);
    settle(500).await;
    stats_header();
    print_stats("server started", server.stats(), server.cells().ok());
    let failures = Arc::new(Failures::default());
    let lat: Latencies = Arc::default();
    let mut summary = Vec::new();
    for round in 1..=rounds {
        let mut peers = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..clients {
            let c = connect(&server.url, in_flight * 2).await?;
            peers.push(c.peer().clone());
            handles.push(c);
        }
        // One warm-up cell per client binds its session.
        for p in &peers {
            let r = call(p, "exec", json!({"code": "return 0"})).await?;
            if status(&r) != "completed" {
                bail!("warm-up: {r}");
            }
        }
        settle(300).await;
        let before = server.stats();
        print_stats(&format!("round {round}: {clients} clients connected"), before, server.cells().ok());

        let stop = Arc::new(AtomicBool::new(false));
        let (peaks, mon) = monitor(&server, &stop);
        let max_seen = Arc::new(AtomicUsize::new(0));
        let outstanding = Arc::new(AtomicUsize::new(0));
        let start = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for (c, peer) in peers.iter().enumerate() {
            let (peer, failures, lat) = (peer.clone(), Arc::clone(&failures), Arc::clone(&lat));
            let (max_seen, outstanding) = (Arc::clone(&max_seen), Arc::clone(&outstanding));
            let base = ((round - 1) * clients + c) * per_client;
            tasks.spawn(async move {
                let mut set = tokio::task::JoinSet::new();
                let mut next = 0usize;
                loop {
                    while set.len() < in_flight && next < per_client {
                        let kind = [Kind::Trivial, Kind::Timer, Kind::Yield][next % 3];
                        let i = (base + next) as u64;
                        let (peer, lat) = (peer.clone(), Arc::clone(&lat));
                        let now = outstanding.fetch_add(1, Ordering::Relaxed) + 1;
                        max_seen.fetch_max(now, Ordering::Relaxed);
                        set.spawn(async move { (kind, i, timed_cell(&peer, kind, i, 50, &lat).await) });
                        next += 1;
                    }
                    let Some(done) = set.join_next().await else { break };
                    outstanding.fetch_sub(1, Ordering::Relaxed);
                    match done {
                        Ok((_, _, Ok(()))) => {}
                        Ok((kind, i, Err(e))) => failures.record(&format!("cell {i} ({})", kind.name()), &e),
                        Err(e) => failures.record("task", &anyhow!("{e}")),
                    }
                }
            });
        }
        while let Some(r) = tasks.join_next().await {
            if let Err(e) = r {
                failures.record("client task", &anyhow!("{e}"));
            }
        }
        let elapsed = start.elapsed();
        stop.store(true, Ordering::Relaxed);
        let _ = mon.join();
        print_stats(&format!("round {round}: load done"), server.stats(), server.cells().ok());
        for c in handles {
            let _ = tokio::time::timeout(Duration::from_secs(10), c.cancel()).await;
        }
        settle(2500).await;
        let after = server.stats();
        print_stats(&format!("round {round}: clients gone + 2.5 s"), after, server.cells().ok());
        summary.push((round, elapsed, max_seen.load(Ordering::Relaxed), peaks, before, after));
    }
    println!();
    println!(
        "| round | cells | seconds | cells/s | client in flight peak | server live peak | parked peak | RSS before MiB \
         | RSS peak MiB | RSS after MiB | VmHWM MiB | threads peak | fds peak |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let total = clients * per_client;
    for (round, elapsed, max_seen, peaks, before, after) in &summary {
        let rate = total as f64 / elapsed.as_secs_f64();
        println!(
            "| {round} | {total} | {:.1} | {rate:.0} | {max_seen} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} |",
            elapsed.as_secs_f64(),
            peaks.live.load(Ordering::Relaxed),
            peaks.parked.load(Ordering::Relaxed),
            mib(before.rss_kib),
            mib(peaks.rss_kib.load(Ordering::Relaxed)),
            mib(after.rss_kib),
            mib(after.hwm_kib),
            peaks.threads.load(Ordering::Relaxed),
            peaks.fds.load(Ordering::Relaxed)
        );
    }
    println!(
        "\n(live/parked/RSS/threads/fds peaks sampled every 100 ms from /metrics and /proc; VmHWM is the kernel's)\n"
    );
    print_latencies(&lat);
    if !server.alive() {
        println!("the server exited; its stderr:\n{}", server.stderr_tail());
    }
    failures.report();
    println!();
    Ok(failures.count.load(Ordering::Relaxed))
}

// ---------------------------------------------------------------------------
// Scenario (b): 10,000 parked cells

async fn parked(o: &Options) -> Result<u64> {
    let clients = o.clients.unwrap_or(100);
    let per_client = o.cells_per_client.unwrap_or(100);
    let concurrency = o.in_flight.unwrap_or(10);
    let total = clients * per_client;
    let cap = (total + 1024).min(100_000);
    let config = format!(
        "# load parked: all clients are principal `local`; {total} parked cells need\n\
         # the global and per-principal quotas raised (per session: {per_client} <= 256).\n\
         [limits]\nmax_live_cells = {cap}\nmax_live_cells_per_principal = {cap}\n\n[serve]\ndispose_grace_ms = 1000\n"
    );
    println!("## load parked: {clients} MCP HTTP clients x {per_client} parked yield_control cells, then wait all\n");
    println!("config: max_live_cells = {cap}, max_live_cells_per_principal = {cap}, dispose_grace_ms = 1000\n");
    let server = Arc::new(Server::start(o, "parked", &config)?);
    settle(500).await;
    stats_header();
    print_stats("server started", server.stats(), server.cells().ok());
    let failures = Arc::new(Failures::default());
    let mut summary = Vec::new();
    for round in 1..=o.rounds {
        let mut peers = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..clients {
            let c = connect(&server.url, concurrency * 2).await?;
            peers.push(c.peer().clone());
            handles.push(c);
        }
        for p in &peers {
            let r = call(p, "exec", json!({"code": "return 0"})).await?;
            if status(&r) != "completed" {
                bail!("warm-up: {r}");
            }
        }
        settle(1000).await;
        let base = server.stats();
        print_stats(&format!("round {round}: {clients} sessions, 1 cell each"), base, server.cells().ok());

        // Park.
        let start = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for (c, peer) in peers.iter().enumerate() {
            let (peer, failures) = (peer.clone(), Arc::clone(&failures));
            tasks.spawn(async move {
                let mut runs = Vec::with_capacity(per_client);
                let mut set = tokio::task::JoinSet::new();
                let mut next = 0usize;
                loop {
                    while set.len() < concurrency && next < per_client {
                        let i = (c * per_client + next) as u64;
                        let peer = peer.clone();
                        set.spawn(async move {
                            let code = format!("await yield_control('parked'); return {{ i: {i} }}");
                            (i, call(&peer, "exec", json!({ "code": code })).await)
                        });
                        next += 1;
                    }
                    let Some(done) = set.join_next().await else { break };
                    match done {
                        Ok((i, Ok(r))) if status(&r) == "waiting" && r["reason"] == "yield" => {
                            runs.push((i, r["runId"].as_str().unwrap_or_default().to_owned()));
                        }
                        Ok((i, Ok(r))) => failures.record(&format!("park {i}"), &anyhow!("{}", clip(&r.to_string()))),
                        Ok((i, Err(e))) => failures.record(&format!("park {i}"), &e),
                        Err(e) => failures.record("task", &anyhow!("{e}")),
                    }
                }
                (c, runs)
            });
        }
        // Each client waits on its own runs: a run belongs to its session.
        let mut all_runs = vec![Vec::new(); peers.len()];
        while let Some(r) = tasks.join_next().await {
            match r {
                Ok((c, runs)) => all_runs[c] = runs,
                Err(e) => failures.record("client task", &anyhow!("{e}")),
            }
        }
        let park_time = start.elapsed();
        settle(1000).await;
        let held = server.stats();
        let cells = server.cells().ok();
        print_stats(
            &format!("round {round}: {} cells parked", all_runs.iter().map(Vec::len).sum::<usize>()),
            held,
            cells,
        );
        // Wait them all.
        let start = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for (peer, runs) in peers.iter().zip(all_runs) {
            let (peer, failures) = (peer.clone(), Arc::clone(&failures));
            tasks.spawn(async move {
                let mut set = tokio::task::JoinSet::new();
                let mut it = runs.into_iter();
                loop {
                    while set.len() < concurrency {
                        let Some((i, run_id)) = it.next() else { break };
                        let peer = peer.clone();
                        set.spawn(async move {
                            let r = call(&peer, "wait", json!({ "runId": run_id })).await;
                            let r = match r {
                                Ok(v) => wait_out(&peer, v).await,
                                Err(e) => Err(e),
                            };
                            (i, r)
                        });
                    }
                    let Some(done) = set.join_next().await else { break };
                    match done {
                        Ok((i, Ok(r))) if status(&r) == "completed" && r["value"]["i"].as_u64() == Some(i) => {}
                        Ok((i, Ok(r))) => failures.record(&format!("wait {i}"), &anyhow!("{}", clip(&r.to_string()))),
                        Ok((i, Err(e))) => failures.record(&format!("wait {i}"), &e),
                        Err(e) => failures.record("task", &anyhow!("{e}")),
                    }
                }
            });
        }
        while tasks.join_next().await.is_some() {}
        let wait_time = start.elapsed();
        settle(1000).await;
        let waited = server.stats();
        print_stats(&format!("round {round}: all waited, clients connected"), waited, server.cells().ok());
        for c in handles {
            let _ = tokio::time::timeout(Duration::from_secs(10), c.cancel()).await;
        }
        settle(2500).await;
        let after = server.stats();
        print_stats(&format!("round {round}: clients gone + 2.5 s"), after, server.cells().ok());
        let parked_n = cells.map_or(0, |c| c.1);
        summary.push((round, park_time, wait_time, parked_n, base, held, waited, after));
    }
    println!();
    println!(
        "| round | parked (server) | park s | wait s | RSS baseline MiB | RSS parked MiB | KiB per parked cell \
         | RSS after wait MiB | RSS after disconnect MiB | VmHWM MiB |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (round, park_time, wait_time, parked_n, base, held, waited, after) in &summary {
        let per_cell = held.rss_kib.saturating_sub(base.rss_kib) as f64 / (*parked_n).max(1) as f64;
        println!(
            "| {round} | {parked_n} | {:.1} | {:.1} | {:.1} | {:.1} | {per_cell:.0} | {:.1} | {:.1} | {:.1} |",
            park_time.as_secs_f64(),
            wait_time.as_secs_f64(),
            mib(base.rss_kib),
            mib(held.rss_kib),
            mib(waited.rss_kib),
            mib(after.rss_kib),
            mib(after.hwm_kib)
        );
    }
    println!();
    if !server.alive() {
        println!("the server exited; its stderr:\n{}", server.stderr_tail());
    }
    failures.report();
    println!();
    Ok(failures.count.load(Ordering::Relaxed))
}

// ---------------------------------------------------------------------------
// Soak

/// The soak's mix: each kind with its weight.
const MIX: [(Kind, u64); 9] = [
    (Kind::Trivial, 4),
    (Kind::Throw, 2),
    (Kind::Busy, 1),
    (Kind::Yield, 3),
    (Kind::Store, 3),
    (Kind::Timer, 3),
    (Kind::Large, 1),
    (Kind::Huge, 1),
    (Kind::Output, 2),
];

fn pick(mix: &[(Kind, u64)], r: u64) -> Kind {
    let total: u64 = mix.iter().map(|m| m.1).sum();
    let mut x = r % total.max(1);
    for &(kind, w) in mix {
        if x < w {
            return kind;
        }
        x -= w;
    }
    Kind::Trivial
}

/// xorshift64*: enough randomness for a workload mix.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[derive(Clone, Copy, Debug)]
struct Sample {
    cells: u64,
    secs: f64,
    stats: ProcStats,
    live: u64,
    parked: u64,
    store_kib: u64,
    sessions: u64,
    failures: u64,
}

fn print_sample_header() {
    println!(
        "| cells | elapsed s | RSS MiB | threads | fds | children | live cells | parked | store KiB | sessions | failures |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
}

fn print_sample(s: &Sample) {
    println!(
        "| {} | {:.0} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} |",
        s.cells,
        s.secs,
        mib(s.stats.rss_kib),
        s.stats.threads,
        s.stats.fds,
        s.stats.children,
        s.live,
        s.parked,
        s.store_kib,
        s.sessions,
        s.failures
    );
}

/// Least-squares slope of `y` over `x`.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 { 0.0 } else { sxy / sxx }
}

async fn soak(o: &Options) -> Result<u64> {
    let timeout_ms = 200;
    let grace_ms = 1000;
    let config = format!(
        "# soak: short cell timeout (busy loops end fast), short dispose grace (churned\n\
         # sessions' parked cells are disposed soon); quotas raised for principal `local`.\n\
         [limits]\ntimeout_ms = {timeout_ms}\nmax_live_cells = 4096\nmax_live_cells_per_principal = 4096\n\n\
         [serve]\ndispose_grace_ms = {grace_ms}\n"
    );
    let workers = o.workers;
    println!(
        "## soak: {workers} workers, each connecting an MCP client, running 3-8 mixed cells, sometimes leaving one \
         parked, and disconnecting; for {:.0} s or {} cells\n",
        o.duration.as_secs_f64(),
        o.max_cells
    );
    println!("config: timeout_ms = {timeout_ms}, dispose_grace_ms = {grace_ms}, max_live_cells(_per_principal) = 4096");
    let chosen: Arc<Vec<(Kind, u64)>> = Arc::new(
        MIX.iter().copied().filter(|(k, _)| !o.without.iter().any(|w| k.name().starts_with(w.as_str()))).collect(),
    );
    if chosen.is_empty() {
        bail!("--without left no cells to run");
    }
    let total_w: u64 = chosen.iter().map(|m| m.1).sum();
    let mix: Vec<String> = chosen.iter().map(|(k, w)| format!("{} {w}/{total_w}", k.name())).collect();
    println!("mix: {}; 1 in 4 sessions leaves a parked cell behind\n", mix.join(", "));
    let server = Arc::new(Server::start(o, "soak", &config)?);
    settle(500).await;
    let cells_done = Arc::new(AtomicU64::new(0));
    let sessions = Arc::new(AtomicU64::new(0));
    let abandoned = Arc::new(AtomicU64::new(0));
    let failures = Arc::new(Failures::default());
    let lat: Latencies = Arc::default();
    let samples: Arc<Mutex<Vec<Sample>>> = Arc::default();
    let start = Instant::now();
    let deadline = start + o.duration;
    let take_sample = {
        let (server, failures, samples, sessions) =
            (Arc::clone(&server), Arc::clone(&failures), Arc::clone(&samples), Arc::clone(&sessions));
        move |cells: u64| {
            let (live, parked) = server.cells().unwrap_or((u64::MAX, u64::MAX));
            let s = Sample {
                cells,
                secs: start.elapsed().as_secs_f64(),
                stats: server.stats(),
                live,
                parked,
                store_kib: server.store_kib(),
                sessions: sessions.load(Ordering::Relaxed),
                failures: failures.count.load(Ordering::Relaxed),
            };
            print_sample(&s);
            samples.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(s);
        }
    };
    let take_sample = Arc::new(Mutex::new(take_sample));
    print_sample_header();
    (take_sample.lock().unwrap_or_else(std::sync::PoisonError::into_inner))(0);
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..workers {
        let (server, cells_done, sessions, abandoned) =
            (Arc::clone(&server), Arc::clone(&cells_done), Arc::clone(&sessions), Arc::clone(&abandoned));
        let (failures, lat, take_sample) = (Arc::clone(&failures), Arc::clone(&lat), Arc::clone(&take_sample));
        let (max_cells, every) = (o.max_cells, o.sample_every);
        let chosen = Arc::clone(&chosen);
        tasks.spawn(async move {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ((w as u64 + 1) << 17));
            let mut i = (w as u64) << 40;
            while Instant::now() < deadline && cells_done.load(Ordering::Relaxed) < max_cells {
                let client = match connect(&server.url, 8).await {
                    Ok(c) => c,
                    Err(e) => {
                        failures.record("connect", &e);
                        settle(200).await;
                        continue;
                    }
                };
                sessions.fetch_add(1, Ordering::Relaxed);
                let peer = client.peer().clone();
                let n = 3 + rng.next() % 6;
                for _ in 0..n {
                    let kind = pick(&chosen, rng.next());
                    i += 1;
                    if let Err(e) = timed_cell(&peer, kind, i, 20, &lat).await {
                        failures.record(&format!("cell {i} ({})", kind.name()), &e);
                    }
                    let done = cells_done.fetch_add(1, Ordering::Relaxed) + 1;
                    if done % every == 0 {
                        let f = Arc::clone(&take_sample);
                        let _ = tokio::task::spawn_blocking(move || {
                            (f.lock().unwrap_or_else(std::sync::PoisonError::into_inner))(done);
                        })
                        .await;
                    }
                }
                if rng.next().is_multiple_of(4) {
                    // Leave a parked cell behind: serve disposes it after the grace.
                    match call(&peer, "exec", json!({"code": "await yield_control('left'); return 1"})).await {
                        Ok(r) if status(&r) == "waiting" => {
                            abandoned.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(r) => failures.record("abandoned park", &anyhow!("{}", clip(&r.to_string()))),
                        Err(e) => failures.record("abandoned park", &e),
                    }
                }
                if tokio::time::timeout(Duration::from_secs(10), client.cancel()).await.is_err() {
                    failures.record("disconnect", &anyhow!("cancel took over 10 s"));
                }
            }
        });
    }
    while let Some(r) = tasks.join_next().await {
        if let Err(e) = r {
            failures.record("worker", &anyhow!("{e}"));
        }
    }
    let elapsed = start.elapsed();
    let total = cells_done.load(Ordering::Relaxed);
    // Let the last sessions' grace pass.
    settle(grace_ms + 2000).await;
    let (live, parked) = server.cells().unwrap_or((u64::MAX, u64::MAX));
    let end = Sample {
        cells: total,
        secs: start.elapsed().as_secs_f64(),
        stats: server.stats(),
        live,
        parked,
        store_kib: server.store_kib(),
        sessions: sessions.load(Ordering::Relaxed),
        failures: failures.count.load(Ordering::Relaxed),
    };
    println!("\nidle, {} ms after the last disconnect:\n", grace_ms + 2000);
    print_sample_header();
    print_sample(&end);
    let alive = server.alive();
    println!();
    let rate = total as f64 / elapsed.as_secs_f64();
    println!(
        "{total} cells in {:.0} s ({rate:.0} cells/s) over {} sessions ({} left a parked cell behind); server alive \
         at the end: {alive}",
        elapsed.as_secs_f64(),
        end.sessions,
        abandoned.load(Ordering::Relaxed)
    );
    if !alive {
        println!("server stderr:\n{}", server.stderr_tail());
    }
    let samples = samples.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    analyse(&samples);
    println!();
    print_latencies(&lat);
    if !server.alive() {
        println!("the server exited; its stderr:\n{}", server.stderr_tail());
    }
    failures.report();
    println!();
    Ok(failures.count.load(Ordering::Relaxed))
}

/// Slopes over the second half of the samples: is it flat after warm-up?
fn analyse(samples: &[Sample]) {
    let half: Vec<&Sample> = samples.iter().skip(samples.len() / 2).collect();
    if half.len() < 3 {
        println!("too few samples for a trend (need at least 6 rows; use a longer run)");
        return;
    }
    let series = |f: &dyn Fn(&Sample) -> f64| -> (f64, f64, f64, f64, f64) {
        let pts: Vec<(f64, f64)> = half.iter().map(|s| (s.cells as f64 / 1000.0, f(s))).collect();
        let k = slope(&pts);
        let span = pts.last().map_or(0.0, |p| p.0) - pts[0].0;
        let mean = pts.iter().map(|p| p.1).sum::<f64>() / pts.len() as f64;
        let min = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        (k, k * span, mean, min, max)
    };
    println!(
        "\ntrend over the second half ({} rows, cells {}..{}): least-squares slope per 1,000 cells, and the fitted \
         change across that half\n",
        half.len(),
        half[0].cells,
        half[half.len() - 1].cells
    );
    println!("| metric | mean | min | max | slope / 1k cells | fitted change | flat? |");
    println!("|---|---|---|---|---|---|---|");
    /// A reported metric: its name, how to read it from a sample, and the
    /// relative tolerance that still counts as flat (0: a count).
    type Row<'a> = (&'a str, &'a dyn Fn(&Sample) -> f64, f64);
    let rows: [Row<'_>; 6] = [
        ("RSS MiB", &|s| mib(s.stats.rss_kib), 0.05),
        ("threads", &|s| s.stats.threads as f64, 0.0),
        ("fds", &|s| s.stats.fds as f64, 0.0),
        ("children", &|s| s.stats.children as f64, 0.0),
        ("live cells", &|s| s.live as f64, 0.0),
        ("store KiB", &|s| s.store_kib as f64, 0.05),
    ];
    for (name, f, rel) in rows {
        let (k, change, mean, min, max) = series(f);
        // Flat: the fitted change is within 5 % of the mean (memory, disk),
        // or under 2 units (counts), or within the spread a count shows.
        let tolerance = if rel > 0.0 { rel * mean } else { 2.0_f64.max((max - min) / 2.0) };
        let flat = if change.abs() <= tolerance { "yes" } else { "NO" };
        println!("| {name} | {mean:.1} | {min:.1} | {max:.1} | {k:+.4} | {change:+.2} | {flat} |");
    }
}

// ---------------------------------------------------------------------------

fn main() -> Result<()> {
    let o = parse_options()?;
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let failures = rt.block_on(async {
        match o.scenario.as_str() {
            "held" => held(&o).await,
            "parked" => parked(&o).await,
            "soak" => soak(&o).await,
            "all" => Ok(held(&o).await? + parked(&o).await? + soak(&o).await?),
            other => bail!("unknown scenario {other:?}\n{}", usage()),
        }
    })?;
    // Don't wait for stray client tasks.
    rt.shutdown_timeout(Duration::from_secs(2));
    if failures > 0 {
        std::process::exit(1);
    }
    Ok(())
}
