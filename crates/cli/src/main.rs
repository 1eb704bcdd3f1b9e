//! `codemode`: run code-mode cells from the command line, or serve them to
//! any MCP client.

mod bench;
mod command_tool;
mod config;
mod health;
mod lifecycle;
mod metrics;
mod node_host;
mod output;
mod pairings;
mod repl;
mod runs;
mod serve;
mod session;
mod telemetry;

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use codemode_runtime::{CellResult, CodeMode, Exec};

use crate::command_tool::CommandTool;
use crate::config::Config;

#[derive(Parser)]
#[command(name = "codemode", version, about = "Run code-mode cells: small JavaScript programs that call tools.")]
struct Cli {
    /// The configuration file (default: ./codemode.toml when it exists).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// Where the session store keeps its sled database (overrides
    /// `[store] path`; default .codemode/store).
    #[arg(long, global = true)]
    store: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one cell from FILE (or `-` for stdin) and print its result.
    Exec {
        /// The cell's JavaScript source file, or `-` to read stdin.
        file: PathBuf,
        /// Print the first result only, even if the cell parks.
        #[arg(long)]
        no_wait: bool,
        /// Print each result as the model reads it instead of human-readable
        /// text: one compact JSON line, wrapped in an untrusted-content
        /// envelope (several lines) when the cell observed MCP or other
        /// network-derived content.
        #[arg(long)]
        json: bool,
        /// A title for the cell.
        #[arg(long)]
        title: Option<String>,
    },
    /// Serve exec/wait/abort requests as JSON lines on stdin, one result line
    /// per request on stdout (see README "Scripting interface").
    Session {
        /// The session id cells are bound to.
        #[arg(long, default_value = "cli")]
        session: String,
        /// The longest request line accepted, in bytes; a longer line gets
        /// an `invalid_input` result and is never held whole in memory.
        #[arg(long, default_value_t = session::DEFAULT_MAX_LINE_BYTES)]
        max_line_bytes: usize,
    },
    /// Serve code mode as an MCP server (`exec` and `wait` tools) over stdio.
    ///
    /// SIGTERM or SIGINT shuts down gracefully: new cells are refused,
    /// running calls get the shutdown grace to finish, then the runtime
    /// stops and the process exits 0. A second signal exits at once.
    Serve {
        /// Serve MCP over streamable HTTP at this address (path `/mcp`)
        /// instead of stdio.
        #[arg(long)]
        http: Option<String>,
        /// Also serve Prometheus metrics at `/metrics`, liveness at
        /// `/health` and readiness at `/ready` here.
        #[arg(long)]
        metrics: Option<String>,
        /// How long running calls may take to finish after SIGTERM or
        /// SIGINT, in milliseconds (overrides `[serve] shutdown_grace_ms`;
        /// default 10000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=config::MAX_SHUTDOWN_GRACE_MS))]
        shutdown_grace_ms: Option<u64>,
        /// Over stdio: keep this session key (letters, digits, `_.:-`) so a
        /// restarted server finds the same store; default: a fresh session
        /// per process. Over HTTP, clients name keys with the
        /// `codemode-session` header.
        #[arg(long)]
        session: Option<String>,
    },
    /// An interactive prompt: each entry is a cell in one session. An entry
    /// continues while a bracket is open; on a terminal, the arrow keys
    /// recall earlier entries from a history file.
    Repl {
        /// Keep the entry history in FILE (default on a terminal:
        /// $XDG_DATA_HOME/codemode/repl_history, else
        /// ~/.local/share/codemode/repl_history; from a pipe, none unless
        /// this is given).
        #[arg(long, value_name = "FILE")]
        history: Option<PathBuf>,
        /// Keep no history file.
        #[arg(long, conflicts_with = "history")]
        no_history: bool,
        /// The most entries the history file keeps; older ones are dropped.
        #[arg(long, default_value_t = repl::DEFAULT_HISTORY_SIZE, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        history_size: u32,
    },
    /// Print the model-facing exec tool description with the quick index.
    Prompt {
        /// Print the exec and wait definitions as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show the tools a catalog search ranks for QUERY.
    Search {
        /// What to look for.
        query: String,
        /// How many results.
        #[arg(long, default_value_t = 8)]
        limit: usize,
    },
    /// Run a node host: connect to a gateway (`[nodes] listen` of
    /// `codemode serve`), pair, and offer `device.status`, `fs.listDir`
    /// (with --root) and any --command.
    Node {
        /// The gateway's address, `ws://HOST:PORT`.
        #[arg(long)]
        gateway: String,
        /// The node's display name.
        #[arg(long)]
        name: String,
        /// The node's stable id (default: from --credentials, else a new
        /// random one).
        #[arg(long)]
        id: Option<String>,
        /// Offer `fs.listDir` over the directories under DIR.
        #[arg(long)]
        root: Option<PathBuf>,
        /// The one-time pairing code the gateway printed.
        #[arg(long)]
        code: Option<String>,
        /// A pre-approved token from the gateway's `[nodes] tokens`.
        #[arg(long)]
        token: Option<String>,
        /// Keep the node's id and secret in FILE, so a restarted node
        /// reconnects without pairing again.
        #[arg(long)]
        credentials: Option<PathBuf>,
        /// Offer NAME, run as PROGRAM ARGS with the params JSON on stdin and
        /// its stdout JSON as the result (repeatable).
        #[arg(long = "command", value_name = "NAME=PROGRAM ARGS")]
        commands: Vec<String>,
    },
    /// Measure the reference benchmark's scenarios (trivial cell, 100
    /// sequential and concurrent tool calls, yield + wait, RSS per parked
    /// cell, first exec in a fresh process, throughput); `--compare` runs
    /// the reference benchmark too and prints the ratios.
    Bench {
        /// Measured runs per scenario.
        #[arg(long, default_value_t = 200)]
        runs: usize,
        /// Warm-up runs per scenario.
        #[arg(long, default_value_t = 20)]
        warmup: usize,
        /// Parked-cell counts for the RSS scenario.
        #[arg(long, default_value = "32,1000,10000")]
        parked: String,
        /// Fresh processes spawned for the first-exec scenario.
        #[arg(long, default_value_t = 20)]
        cold_runs: usize,
        /// How long the throughput scenario runs, in milliseconds.
        #[arg(long, default_value_t = 3000)]
        throughput_ms: u64,
        /// Also write the report as JSON to FILE.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Run the reference benchmark too (needs NODE24 and
        /// OPENCLAW_PROJECT from the oracle's setup.sh) and print ratios.
        #[arg(long)]
        compare: bool,
        /// Compare with this saved reference report (`bench.mjs --json
        /// FILE`) instead of running the reference.
        #[arg(long)]
        reference_json: Option<PathBuf>,
        /// The reference-oracle directory (default
        /// $CODEMODE_REFERENCE_ORACLE, else ../shared/reference-oracle).
        #[arg(long)]
        oracle: Option<PathBuf>,
        /// Run only these scenarios (comma-separated): trivial,
        /// trivial_idle, seq100, par100, yield, parked, cold, throughput, hol;
        /// the durable-run scenarios journal, park_sled, replay100, pg_wait,
        /// pg_commit, evicted (`durable`: all six) run only when named.
        #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(bench::SCENARIOS))]
        only: Vec<String>,
        /// PostgreSQL URL for pg_wait and pg_commit (default
        /// $CODEMODE_TEST_POSTGRES_URL; `scripts/postgres.sh start DIR`
        /// starts a throwaway server).
        #[arg(long)]
        postgres: Option<String>,
        /// Run counts for the evicted-runs memory scenario.
        #[arg(long, default_value = "10000")]
        evicted: String,
    },
    /// Inspect and abort durable runs in the configured store, without a
    /// runtime (a sled store must not be in use by a server).
    Runs {
        #[command(subcommand)]
        command: runs::RunsCommand,
    },
    /// List and revoke node pairings in the configured store, without a
    /// runtime (a sled store must not be in use by a server).
    Pairings {
        #[command(subcommand)]
        command: pairings::PairingsCommand,
    },
    /// Configuration commands.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Validate the configuration and print the effective settings.
    Check,
}

fn main() -> Result<()> {
    metrics::mark_start();
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    // Drive everything from a task: the block_on thread wakes slowly.
    let outcome = runtime.block_on(async move { tokio::spawn(run(cli)).await? });
    // A blocking read (`serve`'s stdin) would hold a plain drop forever.
    runtime.shutdown_timeout(RUNTIME_EXIT_WAIT);
    outcome
}

/// How long the exit waits for blocking tasks still running (a read of
/// stdin that will never return) before it leaves them.
const RUNTIME_EXIT_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// How long a short-lived `exec` waits for a store another codemode
/// process holds before failing.
const STORE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Where the session store lives: `--store`, else `[store] path`. The
/// default location (`.codemode/store`, relative to the working directory)
/// falls back to the user's data directory when it cannot be created, as
/// when an MCP client starts `serve` in `/`; `None` is a temporary store,
/// the last resort. Each fallback is said on stderr. An explicitly chosen
/// path is used as given, so its failure is reported, not worked around.
fn store_location(config: &Config, flag: Option<PathBuf>) -> Option<PathBuf> {
    if let Some(path) = flag {
        return Some(path);
    }
    let path = config.store.path.clone();
    if path != config::StoreConfig::default().path {
        return Some(path);
    }
    let Err(why) = usable_dir(&path) else { return Some(path) };
    let here = std::env::current_dir().map_or_else(|_| "the working directory".to_owned(), |d| d.display().to_string());
    let fallback = data_dir().map(|data| data.join("store"));
    match fallback.map(|f| (usable_dir(&f), f)) {
        Some((Ok(()), fallback)) => {
            eprintln!(
                "codemode: cannot use the default store {} in {here} ({why}); using {} instead (choose one with --store PATH)",
                path.display(),
                fallback.display()
            );
            Some(fallback)
        }
        other => {
            let also = match other {
                Some((Err(e), f)) => format!(" nor {} ({e})", f.display()),
                _ => " and HOME is not set".to_owned(),
            };
            eprintln!(
                "codemode: cannot use the default store {} in {here} ({why}){also}; using a temporary store: stored values last only as long as this process (choose one with --store PATH)",
                path.display()
            );
            None
        }
    }
}

/// The user's data directory for codemode: `$XDG_DATA_HOME/codemode` (when
/// absolute, as the XDG spec requires), else `~/.local/share/codemode`;
/// `None` when HOME is not set either. The store falls back to it, and the
/// REPL keeps its history there.
pub(crate) fn data_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share")))
        .map(|data| data.join("codemode"))
}

/// Creates `dir` and checks a file can be made in it, so an unusable
/// default is noticed before the store opens it.
fn usable_dir(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".codemode-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}

/// Builds the runtime on `store`; with `wait`, a store another codemode
/// process holds is retried with backoff for up to [`STORE_WAIT`], since
/// that process is usually another short `exec` about to finish.
async fn build_runtime_waiting(config: &Config, store: Option<PathBuf>, wait: bool) -> Result<CodeMode> {
    let deadline = tokio::time::Instant::now() + STORE_WAIT;
    let mut backoff = std::time::Duration::from_millis(20);
    loop {
        match build_runtime(config, store.clone()).await {
            // The runtime reports start failures as text; the store's
            // phrase is how a busy store is told from a broken one.
            Err(e) if wait && format!("{e:#}").contains(codemode_store::IN_USE_PHRASE) => {
                let now = tokio::time::Instant::now();
                if now >= deadline {
                    return Err(e.context(format!("still in use after waiting {} s", STORE_WAIT.as_secs())));
                }
                // Jitter, so many waiting processes do not retry in step.
                let mut byte = [0u8; 1];
                let _ = getrandom::fill(&mut byte);
                let pause = backoff.mul_f64(0.5 + f64::from(byte[0]) / 255.0).min(deadline - now);
                tokio::time::sleep(pause).await;
                backoff = (backoff * 2).min(std::time::Duration::from_millis(500));
            }
            other => return other,
        }
    }
}

/// Builds the runtime the configuration describes, with its session store
/// at `store` (`None`: a temporary one).
pub(crate) async fn build_runtime(config: &Config, store: Option<PathBuf>) -> Result<CodeMode> {
    let mut builder = CodeMode::builder().limits(config.limits.to_limits()?);
    // The sled path is given both ways: as the backend's and as the store
    // path a runtime without backends reads.
    if let Some(path) = &store {
        builder = builder.session_store_path(path);
    }
    builder = builder.store_backend(config.store.backend(store)).runs(config.runs.to_runs_config());
    builder = builder.session_retention(config.store.retention());
    if let Some(root) = &config.workspace.root {
        builder = builder.workspace(root);
    }
    for tool in &config.tools {
        builder = builder.tool_arc(Arc::new(CommandTool::new(tool.clone())));
    }
    for server in &config.mcp_servers {
        builder = builder.mcp_server(server.to_config());
    }
    if let Some(nodes) = &config.nodes {
        let on_code = Arc::new(|code: &str| {
            eprintln!(
                "codemode: node pairing code {code} (one use, valid {} minutes): codemode node --code {code} ...",
                codemode_nodes::CODE_LIFETIME.as_secs() / 60
            );
        });
        builder = builder.nodes(nodes.to_config(on_code), nodes.listen.clone());
    }
    let rt = builder.start().await?;
    if let Some(addr) = rt.node_gateway_addr() {
        eprintln!("codemode: node gateway listening on ws://{addr}");
    }
    Ok(rt)
}

async fn run(cli: Cli) -> Result<()> {
    let (config, file) = Config::load(cli.config.as_deref())?;
    if config.store.backend == config::BackendKind::Postgres && cli.store.is_some() {
        anyhow::bail!(
            "--store is the sled database directory, but store.backend = \"postgres\" keeps everything at store.url"
        );
    }
    if let Command::Config { command: ConfigCommand::Check } = &cli.command {
        match &file {
            Some(f) => println!("# {} is valid; effective configuration:", f.display()),
            None => println!("# no codemode.toml found; effective configuration (defaults):"),
        }
        print!("{}", config.to_toml());
        let backend = match (&config.store.backend, &cli.store) {
            (config::BackendKind::Sled, Some(path)) => format!("sled at {} (--store)", path.display()),
            _ => config.store.describe(),
        };
        println!("# store backend: {backend}");
        // Valid is not working: start each MCP server once, as a runtime
        // would, and say which cannot be reached and why.
        let mut failed = 0;
        for server in &config.mcp_servers {
            match codemode_mcp::probe(&server.to_config()).await {
                Ok(found) => println!(
                    "# mcp server `{}`: connected to {} ({} tools, {} ms)",
                    server.name,
                    found.server_info,
                    found.tool_count,
                    found.elapsed.as_millis()
                ),
                Err(e) => {
                    failed += 1;
                    println!("# mcp server `{}`: cannot connect: {e}", server.name);
                }
            }
        }
        if failed > 0 {
            anyhow::bail!("{failed} of {} MCP servers cannot be connected", config.mcp_servers.len());
        }
        return Ok(());
    }
    if let Command::Runs { command } = cli.command {
        return runs::run(&config, cli.store, command).await;
    }
    if let Command::Pairings { command } = cli.command {
        return pairings::run(&config, cli.store, command).await;
    }
    if let Command::Node { gateway, name, id, root, code, token, credentials, commands } = cli.command {
        let options = node_host::NodeOptions { gateway, name, id, root, code, token, credentials, commands };
        return node_host::run(options).await;
    }
    if let Command::Bench {
        runs,
        warmup,
        parked,
        cold_runs,
        throughput_ms,
        json,
        compare,
        reference_json,
        oracle,
        only,
        postgres,
        evicted,
    } = cli.command
    {
        let options = bench::BenchOptions {
            runs,
            warmup,
            parked: bench::parse_counts(&parked)?,
            cold_runs,
            throughput_ms,
            json,
            compare,
            reference_json,
            oracle: oracle.unwrap_or_else(bench::default_oracle),
            only,
            postgres,
            evicted: bench::parse_counts(&evicted)?,
        };
        return bench::run(options).await;
    }
    let mut telemetry = telemetry::init(&config.telemetry)?;
    // A PostgreSQL store has no directory to find.
    let store = match config.store.backend {
        config::BackendKind::Sled => store_location(&config, cli.store),
        config::BackendKind::Postgres => None,
    };
    let rt = build_runtime_waiting(&config, store, matches!(cli.command, Command::Exec { .. })).await?;
    // MCP servers connect in the background; give them a moment so the
    // first cell sees their tools.
    if !config.mcp_servers.is_empty() && !rt.mcp_ready(std::time::Duration::from_secs(10)).await {
        tracing::warn!("some MCP servers are not connected yet; their tools appear once they are");
    }
    telemetry.export_metrics(&rt)?;
    let outcome = match cli.command {
        Command::Exec { file, no_wait, json, title } => exec(&rt, &file, no_wait, json, title).await,
        Command::Session { session, max_line_bytes } => session::serve(&rt, &session, max_line_bytes).await,
        Command::Serve { http, metrics, session, shutdown_grace_ms } => {
            let grace = shutdown_grace_ms.unwrap_or(config.serve.shutdown_grace_ms);
            let lifecycle = lifecycle::Lifecycle::new(std::time::Duration::from_millis(grace));
            lifecycle::listen(Arc::clone(&lifecycle))?;
            if let Some(addr) = metrics {
                let required_mcp = config.mcp_servers.iter().filter(|s| s.required).map(|s| s.name.clone()).collect();
                let probes = health::Probes { rt: rt.clone(), lifecycle: Arc::clone(&lifecycle), required_mcp };
                let local = health::serve(&addr, probes).await?;
                eprintln!("codemode: serving /metrics, /health and /ready at http://{local}");
            }
            let served = match (http, session) {
                (Some(_), Some(_)) => Err(anyhow::anyhow!(
                    "--session is for stdio; over HTTP each client names its session key with the `{}` header",
                    serve::SESSION_HEADER
                )),
                (Some(addr), None) => serve::http(rt.clone(), &addr, &config.serve, lifecycle).await,
                (None, session) => serve::stdio(rt.clone(), session, &config.serve, lifecycle).await,
            };
            lifecycle::finish(&rt, telemetry).await;
            return served;
        }
        Command::Repl { history, no_history, history_size } => {
            let options = repl::ReplOptions {
                history: repl::history_choice(history, no_history),
                history_size: history_size as usize,
            };
            repl::run(&rt, options).await
        }
        Command::Prompt { json } => {
            let d = rt.exec_tool_description();
            if json {
                println!("{}", serde_json::to_string_pretty(&d)?);
            } else {
                println!("{}", d.exec.description);
            }
            Ok(())
        }
        Command::Search { query, limit } => search(&rt, &query, limit).await,
        Command::Config { .. }
        | Command::Node { .. }
        | Command::Bench { .. }
        | Command::Runs { .. }
        | Command::Pairings { .. } => Ok(()),
    };
    rt.shutdown().await;
    telemetry.shutdown(lifecycle::TELEMETRY_FLUSH).await;
    outcome
}

async fn search(rt: &CodeMode, query: &str, limit: usize) -> Result<()> {
    let hits = rt.search(query, limit).await?;
    if hits.is_empty() {
        println!("no tool matches {query:?}");
    }
    for hit in hits {
        println!("{:>7.3}  {} {}", hit.score, hit.callable_name, hit.input);
    }
    Ok(())
}

async fn exec(rt: &CodeMode, file: &PathBuf, no_wait: bool, json: bool, title: Option<String>) -> Result<()> {
    let code = if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("reading the cell from stdin")?;
        s
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?
    };
    let reply = rt.session("cli").reply("exec");
    let mut exec = Exec::code(code);
    if let Some(title) = title {
        exec = exec.title(title);
    }
    let mut result = reply.exec(exec).await?;
    loop {
        output::print_result(&result, json);
        match result.run_id() {
            Some(run_id) if !no_wait => {
                let run_id = run_id.to_owned();
                result = output::with_spinner(&result, reply.wait(&run_id), json).await?;
            }
            _ => break,
        }
    }
    if matches!(result, CellResult::Failed { .. }) {
        anyhow::bail!("the cell failed");
    }
    Ok(())
}
