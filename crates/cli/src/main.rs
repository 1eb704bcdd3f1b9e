//! `codemode`: run code-mode cells from the command line, or serve them to
//! any MCP client.

#![deny(clippy::unwrap_used, clippy::expect_used)]

mod bench;
mod command_tool;
mod config;
mod exec;
mod health;
mod inspect;
mod lifecycle;
mod metrics;
mod node_host;
mod operator_input;
mod output;
mod pairings;
mod repl;
mod run_approvals;
mod run_source;
mod runs;
mod serve;
mod session;
mod start;
mod telemetry;

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{Parser, Subcommand};
use codemode_runtime::CodeMode;

use crate::config::{BackendKind, Config};
use crate::start::Running;

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
    Exec(exec::ExecArgs),
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
    Serve(serve::ServeArgs),
    /// An interactive prompt: each entry is a cell in one session. An entry
    /// continues while a bracket is open; on a terminal, the arrow keys
    /// recall earlier entries from a history file.
    Repl(repl::ReplArgs),
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
    Node(node_host::NodeOptions),
    /// Measure the reference benchmark's scenarios (trivial cell, 100
    /// sequential and concurrent tool calls, yield + wait, RSS per parked
    /// cell, first exec in a fresh process, throughput); `--compare` runs
    /// the reference benchmark too and prints the ratios.
    Bench(bench::BenchArgs),
    /// Inspect, decide and abort durable runs: in the configured store
    /// directly (a sled store must not be in use by a server), or through a
    /// running server's operator API (`--server URL --token TOKEN`).
    Runs {
        #[command(flatten)]
        server: runs::ServerArgs,
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

fn main() -> std::process::ExitCode {
    // An engine worker this program started for itself (`isolation =
    // "process"`): first, while the process has one thread.
    if let Some(code) = codemode_runtime::engine_worker_if_asked() {
        return code;
    }
    // However `main` ends — returning, or a panic unwinding out of it —
    // the stdio MCP servers this process started end with it. The orderly
    // paths (`exec`'s end, a graceful shutdown) already ended each with a
    // grace; what is left here is killed at once. (A panic on another
    // thread does not end the process, so it ends no server.)
    let ended = std::panic::catch_unwind(cli_main);
    codemode_mcp::end_all_server_processes();
    let ended = match ended {
        Ok(ended) => ended,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    match ended {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // As `fn main() -> anyhow::Result<()>` reports it.
            eprintln!("Error: {e:?}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn cli_main() -> Result<()> {
    metrics::mark_start();
    let cli = Cli::parse();
    // Compiling the guest prelude overlaps the rest of the start-up of a
    // command that runs cells (measured in docs/benchmarks.md).
    if matches!(cli.command, Command::Exec(_) | Command::Session { .. } | Command::Serve(_) | Command::Repl(_)) {
        codemode_runtime::warm_up();
    }
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

/// Runs the command `cli` names with the configuration it points at.
async fn run(cli: Cli) -> Result<()> {
    let (mut config, file) = Config::load(cli.config.as_deref())?;
    // A server is shared: its cells' engines run in confined worker
    // processes unless the configuration says otherwise.
    if matches!(cli.command, Command::Serve(_)) && config.limits.isolation.is_none() {
        config.limits.isolation = Some(config::IsolationConfig::Process);
    }
    let store = cli.store;
    if config.store.backend == BackendKind::Postgres && store.is_some() {
        bail!("--store is the sled database directory, but store.backend = \"postgres\" keeps everything at store.url");
    }
    match cli.command {
        Command::Config { command: ConfigCommand::Check } => {
            config::check::run(&config, file.as_deref(), store.as_deref()).await
        }
        Command::Runs { server, command } => runs::run(&config, store, server, command).await,
        Command::Pairings { command } => pairings::run(&config, store, command).await,
        Command::Node(options) => node_host::run(options).await,
        Command::Bench(args) => bench::run(args.options()?).await,
        Command::Serve(args) => serve::run(Running::start(&config, store, false).await?, &config, args).await,
        // A short `exec` waits out a store another `exec` holds.
        Command::Exec(args) => with_runtime(&config, store, true, async |rt| exec::run(rt, args).await).await,
        Command::Session { session, max_line_bytes } => {
            with_runtime(&config, store, false, async |rt| session::serve(rt, &session, max_line_bytes).await).await
        }
        Command::Repl(args) => {
            with_runtime(&config, store, false, async |rt| repl::run(rt, args.options()).await).await
        }
        Command::Prompt { json } => with_runtime(&config, store, false, async |rt| inspect::prompt(rt, json)).await,
        Command::Search { query, limit } => {
            with_runtime(&config, store, false, async |rt| inspect::search(rt, &query, limit).await).await
        }
    }
}

/// Runs `command` on the runtime `config` describes, then stops it; with
/// `wait_for_store`, a store another process holds is waited for a moment.
async fn with_runtime(
    config: &Config,
    store: Option<PathBuf>,
    wait_for_store: bool,
    command: impl AsyncFnOnce(&CodeMode) -> Result<()>,
) -> Result<()> {
    let running = Running::start(config, store, wait_for_store).await?;
    let outcome = command(&running.rt).await;
    running.stop(outcome).await
}
