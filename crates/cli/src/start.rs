//! Starting the runtime the configuration describes, for the commands that
//! run cells (`exec`, `session`, `serve`, `repl`, `prompt`, `search`):
//! where the session store lives, waiting out a store another short-lived
//! process holds, and the telemetry exporters around the runtime.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use codemode_protocol::retry::Backoff;
use codemode_runtime::CodeMode;

use crate::command_tool::CommandTool;
use crate::config::{self, BackendKind, Config};
use crate::telemetry::{self, Telemetry};

/// How long a short-lived `exec` waits for a store another codemode
/// process holds before failing.
const STORE_WAIT: Duration = Duration::from_secs(5);

/// The first pause before retrying a busy store, and the longest.
const STORE_RETRY_FIRST: Duration = Duration::from_millis(20);
const STORE_RETRY_MAX: Duration = Duration::from_millis(500);

/// How long a command waits for the configured MCP servers to connect
/// before its first cell, so that cell sees their tools.
const MCP_READY_WAIT: Duration = Duration::from_secs(10);

/// A started runtime and the telemetry exporters watching it.
pub(crate) struct Running {
    /// The runtime the command runs cells on.
    pub rt: CodeMode,
    /// Logging, and the OTLP exporters when configured.
    pub telemetry: Telemetry,
}

impl Running {
    /// Installs telemetry and starts the runtime `config` describes, its
    /// sled store at `--store` (`store_flag`) or the configured path. With
    /// `wait_for_store`, a store another process holds is retried for up
    /// to [`STORE_WAIT`].
    ///
    /// # Errors
    /// Telemetry cannot be installed, or the runtime cannot start.
    pub(crate) async fn start(config: &Config, store_flag: Option<PathBuf>, wait_for_store: bool) -> Result<Self> {
        let mut telemetry = telemetry::init(&config.telemetry)?;
        // A PostgreSQL store has no directory to find.
        let store = match config.store.backend {
            BackendKind::Sled => store_location(config, store_flag),
            BackendKind::Postgres => None,
        };
        let rt = build_runtime_waiting(config, store, wait_for_store).await?;
        // MCP servers connect in the background; give them a moment so the
        // first cell sees their tools.
        if !config.mcp_servers.is_empty() && !rt.mcp_ready(MCP_READY_WAIT).await {
            tracing::warn!("some MCP servers are not connected yet; their tools appear once they are");
        }
        telemetry.export_metrics(&rt)?;
        Ok(Self { rt, telemetry })
    }

    /// Stops the runtime, flushes the exporters, and passes the command's
    /// `outcome` on.
    pub(crate) async fn stop(self, outcome: Result<()>) -> Result<()> {
        self.rt.shutdown().await;
        self.telemetry.shutdown(crate::lifecycle::TELEMETRY_FLUSH).await;
        outcome
    }
}

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
fn usable_dir(dir: &Path) -> std::io::Result<()> {
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
    let mut backoff = Backoff::new(STORE_RETRY_FIRST, STORE_RETRY_MAX);
    loop {
        match build_runtime(config, store.clone()).await {
            // A store another process holds is busy, not broken.
            Err(e) if wait && e.downcast_ref::<codemode_runtime::CodeModeError>().is_some_and(|e| e.store_in_use()) => {
                let now = tokio::time::Instant::now();
                if now >= deadline {
                    return Err(e.context(format!("still in use after waiting {} s", STORE_WAIT.as_secs())));
                }
                // Jitter, so many waiting processes do not retry in step.
                // It only spreads retries out: without OS randomness the
                // shortest pause serves as well.
                let [byte] = codemode_protocol::ids::random_bytes::<1>().unwrap_or([0]);
                tokio::time::sleep(backoff.next_jittered(byte).min(deadline - now)).await;
            }
            other => return other,
        }
    }
}

/// Builds the runtime the configuration describes, with its session store
/// at `store` (`None`: a temporary one).
async fn build_runtime(config: &Config, store: Option<PathBuf>) -> Result<CodeMode> {
    let mut builder = CodeMode::builder().limits(config.limits.to_limits()?);
    if let Some(isolation) = config.limits.isolation {
        builder = builder.isolation(isolation.to_isolation());
    }
    // The sled path is given both ways: as the backend's and as the store
    // path a runtime without backends reads.
    if let Some(path) = &store {
        builder = builder.session_store_path(path);
    }
    builder = builder.store_backend(config.store.backend(store)).runs(config.runs.to_runs_config());
    builder = builder.model_decides_approvals(config.approvals.model_decides);
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
    if !config.policy.is_empty() {
        builder = builder.policy(crate::config::policy::RulesPolicy::new(&config.policy)?);
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
