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

mod cells;
mod client;
mod held;
mod parked;
mod server;
mod soak;

use cells::*;
use client::*;
use held::*;
use parked::*;
use server::*;
use soak::*;

// ---------------------------------------------------------------------------
// Options

#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub(crate) scenario: String,
    pub(crate) bin: PathBuf,
    pub(crate) clients: Option<usize>,
    pub(crate) in_flight: Option<usize>,
    pub(crate) cells_per_client: Option<usize>,
    pub(crate) duration: Duration,
    pub(crate) max_cells: u64,
    pub(crate) workers: usize,
    pub(crate) sample_every: u64,
    pub(crate) rounds: usize,
    /// `KEY=VALUE` pairs set in the server's environment.
    pub(crate) server_env: Vec<(String, String)>,
    /// Soak cell kinds left out (by name prefix, e.g. `store`).
    pub(crate) without: Vec<String>,
}

pub(crate) fn usage() -> &'static str {
    "usage: load <held|parked|soak|all> [--bin PATH] [--clients N] [--in-flight N] [--cells-per-client N]\n\
     \x20      [--minutes M | --secs S] [--max-cells N] [--workers N] [--sample-every N] [--rounds N]\n\
     \x20      [--server-env KEY=VALUE]... [--without KIND]...\n\
     held:   50 clients x 20 cells in flight (trivial / 50 ms timer / yield_control + wait), 200 cells each, 3 rounds\n\
     parked: 100 clients x 100 parked yield_control cells, then wait them all\n\
     soak:   mixed cells with session churn for --minutes (default 20), a row every 1,000 cells"
}

pub(crate) fn parse_options() -> Result<Options> {
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
