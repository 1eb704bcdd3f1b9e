//! `codemode.toml`: the CLI's configuration.
//!
//! Found with `--config PATH`, else `./codemode.toml` when it exists, else
//! defaults. Unknown keys and out-of-range values are errors that name the
//! key and the allowed range; nothing is silently replaced.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use codemode_runtime::Limits;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The whole configuration file.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Config {
    pub limits: LimitsConfig,
    pub store: StoreConfig,
    /// Durable runs: when journals are written, leases, eviction.
    pub runs: RunsSection,
    pub workspace: WorkspaceConfig,
    pub telemetry: crate::telemetry::TelemetryConfig,
    pub tools: Vec<CommandToolConfig>,
    pub mcp_servers: Vec<McpServerEntry>,
    /// Paired nodes; present enables them (GA-10).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<NodesSection>,
    /// `codemode serve`: who may connect, and how long a closed
    /// connection's cells are kept.
    pub serve: ServeSection,
}

/// `[serve]`: authentication and connection lifetime of `codemode serve`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct ServeSection {
    /// Bearer tokens, each naming the principal it authenticates. With
    /// none, HTTP serving is only allowed on a loopback address.
    pub tokens: Vec<ServeToken>,
    /// `Host` header values HTTP requests may carry (DNS-rebinding guard);
    /// empty: the loopback names plus the bound address.
    pub allowed_hosts: Vec<String>,
    /// How long a closed connection's live cells are kept (another
    /// connection of the same principal and session key may wait on them)
    /// before they are disposed, in milliseconds.
    pub dispose_grace_ms: u64,
    /// On SIGTERM or SIGINT: how long cells already in a window (a running
    /// `exec` or `wait` call) may take to finish before the runtime is shut
    /// down anyway, in milliseconds. `serve --shutdown-grace-ms` overrides.
    pub shutdown_grace_ms: u64,
}

/// The default `[serve] shutdown_grace_ms`: a cell's default wall-clock
/// budget (10 s), so a window that started just before the signal can end.
pub(crate) const DEFAULT_SHUTDOWN_GRACE_MS: u64 = 10_000;

/// The longest `[serve] shutdown_grace_ms` accepted: ten minutes (process
/// supervisors rarely wait that long before SIGKILL).
pub(crate) const MAX_SHUTDOWN_GRACE_MS: u64 = 600_000;

impl Default for ServeSection {
    fn default() -> Self {
        Self {
            tokens: Vec::new(),
            allowed_hosts: Vec::new(),
            dispose_grace_ms: 30_000,
            shutdown_grace_ms: DEFAULT_SHUTDOWN_GRACE_MS,
        }
    }
}

/// One `[serve] tokens` entry.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServeToken {
    /// The secret a client presents as `Authorization: Bearer <token>`.
    pub token: String,
    /// Who the token authenticates: its cells, store and runs are its own.
    pub principal: String,
}

/// The shortest `[serve]` token accepted: 128 bits of hex.
const MIN_SERVE_TOKEN_CHARS: usize = 32;

impl ServeSection {
    fn check(&self) -> Result<()> {
        if self.dispose_grace_ms > 3_600_000 {
            bail!("serve.dispose_grace_ms = {} is out of range: allowed 0..=3600000", self.dispose_grace_ms);
        }
        if self.shutdown_grace_ms > MAX_SHUTDOWN_GRACE_MS {
            bail!(
                "serve.shutdown_grace_ms = {} is out of range: allowed 0..={MAX_SHUTDOWN_GRACE_MS}",
                self.shutdown_grace_ms
            );
        }
        let mut seen = std::collections::HashSet::new();
        for (i, t) in self.tokens.iter().enumerate() {
            if t.token.chars().count() < MIN_SERVE_TOKEN_CHARS {
                bail!("serve.tokens[{i}].token is too short: use at least {MIN_SERVE_TOKEN_CHARS} characters");
            }
            if !seen.insert(&t.token) {
                bail!("serve.tokens[{i}].token repeats an earlier token: each token names one principal");
            }
            let ok = (1..=64).contains(&t.principal.chars().count())
                && t.principal.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
            if !ok {
                bail!(
                    "serve.tokens[{i}].principal = {:?} is not a valid name: use 1-64 letters, digits, `_`, `.` or `-`",
                    t.principal
                );
            }
        }
        Ok(())
    }
}

/// `[nodes]`: the node gateway and its command policy.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct NodesSection {
    /// Where node hosts connect (`host:port`); none serves no gateway.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<String>,
    /// Pre-approved pairing tokens (at least 16 characters each).
    pub tokens: Vec<String>,
    /// How long one invoke may take, in milliseconds.
    pub invoke_timeout_ms: Option<u64>,
    /// Commands allowed on every node without its own entry (`fs.*`
    /// prefixes work); absent allows every advertised command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_commands: Option<Vec<String>>,
    /// Per node id: the commands allowed on it.
    pub node_commands: std::collections::BTreeMap<String, Vec<String>>,
}

/// The shortest pre-approved token accepted.
const MIN_TOKEN_CHARS: usize = 16;

impl NodesSection {
    /// The registry configuration; `on_code` shows each new pairing code.
    pub(crate) fn to_config(
        &self,
        on_code: std::sync::Arc<dyn Fn(&str) + Send + Sync>,
    ) -> codemode_runtime::NodesConfig {
        codemode_runtime::NodesConfig {
            tokens: self.tokens.clone(),
            commands: codemode_runtime::CommandPolicy {
                default: self.allow_commands.clone(),
                per_node: self.node_commands.clone(),
            },
            invoke_timeout: Duration::from_millis(self.invoke_timeout_ms.unwrap_or(30_000)),
            on_code: Some(on_code),
        }
    }

    fn check(&self) -> Result<()> {
        if let Some(ms) = self.invoke_timeout_ms
            && !(1..=600_000).contains(&ms)
        {
            bail!("nodes.invoke_timeout_ms = {ms} is out of range: allowed 1..=600000");
        }
        for (i, token) in self.tokens.iter().enumerate() {
            if token.chars().count() < MIN_TOKEN_CHARS {
                bail!("nodes.tokens[{i}] is too short: use at least {MIN_TOKEN_CHARS} characters");
            }
        }
        Ok(())
    }
}

/// `[[mcp_servers]]`: an MCP server run as a child process (stdio).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct McpServerEntry {
    /// The server's name: `MCP.<name>` in cells (normalised).
    pub name: String,
    /// The program and its arguments (stdio servers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// The MCP endpoint of a streamable HTTP server (instead of `command`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Extra environment variables.
    #[serde(default)]
    pub env: std::collections::BTreeMap<String, String>,
    /// How long one call may take, in milliseconds.
    #[serde(default = "default_tool_timeout")]
    pub call_timeout_ms: u64,
    /// Whether every tool of the server may run in a `restartSafe` cell;
    /// unset: each tool's `readOnlyHint`/`idempotentHint` annotations say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_safe: Option<bool>,
    /// Raw tool names that are replay-safe whatever `replay_safe` says.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replay_safe_tools: Vec<String>,
    /// Whether `serve`'s `/ready` fails while this server is not
    /// connected (cells that need it cannot work); default false: a down
    /// server only hides its tools.
    #[serde(default)]
    pub required: bool,
}

impl McpServerEntry {
    /// The runtime's configuration of this server.
    pub(crate) fn to_config(&self) -> codemode_runtime::McpServerConfig {
        let mut config = match &self.url {
            Some(url) => codemode_runtime::McpServerConfig::http(&self.name, url),
            None => codemode_runtime::McpServerConfig::stdio(&self.name, &self.command[0], self.command[1..].to_vec()),
        };
        for (k, v) in &self.env {
            config = config.env(k, v);
        }
        if let Some(all) = self.replay_safe {
            config = config.replay_safe(all);
        }
        for tool in &self.replay_safe_tools {
            config = config.replay_safe_tool(tool);
        }
        config.call_timeout(Duration::from_millis(self.call_timeout_ms))
    }
}

/// `[limits]`: every cell limit, in config units.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct LimitsConfig {
    pub timeout_ms: u64,
    pub memory_limit_bytes: usize,
    pub max_stack_bytes: usize,
    pub max_output_bytes: usize,
    pub max_in_flight: usize,
    pub max_queued: usize,
    pub max_timers: usize,
    pub parked_ttl_seconds: u64,
    pub max_live_cells: usize,
    pub max_live_cells_per_session: usize,
    pub max_live_cells_per_principal: usize,
    pub headless_timeout_ms: u64,
    pub headless_max_tool_calls: u32,
    pub results_max_entries: usize,
    pub results_max_bytes: usize,
    /// Bytes of run journals one session's runs that have not ended may
    /// hold in the store.
    pub max_journal_bytes_per_session: u64,
    /// The same across one principal's sessions.
    pub max_journal_bytes_per_principal: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        let l = Limits::default();
        Self {
            timeout_ms: millis(l.timeout),
            memory_limit_bytes: l.memory_limit_bytes,
            max_stack_bytes: l.max_stack_bytes,
            max_output_bytes: l.max_output_bytes,
            max_in_flight: l.max_in_flight,
            max_queued: l.max_queued,
            max_timers: l.max_timers,
            parked_ttl_seconds: l.parked_ttl.as_secs(),
            max_live_cells: l.max_live_cells,
            max_live_cells_per_session: l.max_live_cells_per_session,
            max_live_cells_per_principal: l.max_live_cells_per_principal,
            headless_timeout_ms: millis(l.headless_timeout),
            headless_max_tool_calls: l.headless_max_tool_calls,
            results_max_entries: l.results_max_entries,
            results_max_bytes: l.results_max_bytes,
            max_journal_bytes_per_session: l.max_journal_bytes_per_session,
            max_journal_bytes_per_principal: l.max_journal_bytes_per_principal,
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `[store] backend`: where sessions, results and run journals live.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum BackendKind {
    /// A sled database at `[store] path`: one process at a time.
    #[default]
    Sled,
    /// A PostgreSQL database at `[store] url`: shared by many processes.
    Postgres,
}

/// `[store]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct StoreConfig {
    /// `sled` (default) or `postgres`.
    pub backend: BackendKind,
    /// The sled database directory (backend `sled` only).
    pub path: PathBuf,
    /// The PostgreSQL connection URL (backend `postgres` only, required
    /// there): `postgres://user:password@host:port/db`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Connections in this process's PostgreSQL pool, `1..=1024`; default 8.
    pub pool_size: usize,
    /// How many days a session's stored values are kept after the session
    /// was last used (a `load`, a `store` or a commit); then they are all
    /// deleted, so sessions that never come back (each `codemode serve`
    /// connection without a session key gets a fresh one) do not pile up.
    /// `0` keeps every session forever. Allowed `0..=3650`; default 30.
    /// Values stored before retention existed count as used when the
    /// store starts.
    pub retention_days: u32,
}

/// The longest `[store] retention_days` accepted: ten years.
const MAX_RETENTION_DAYS: u32 = 3650;

/// The default `[store] retention_days`, the store's own default.
const DEFAULT_RETENTION_DAYS: u32 = 30;

/// The default `[store] pool_size`.
const DEFAULT_POOL_SIZE: usize = 8;

/// The largest `[store] pool_size` accepted (the runtime's own bound).
const MAX_POOL_SIZE: usize = 1024;

impl Default for StoreConfig {
    fn default() -> Self {
        Self {
            backend: BackendKind::Sled,
            path: PathBuf::from(".codemode/store"),
            url: None,
            pool_size: DEFAULT_POOL_SIZE,
            retention_days: DEFAULT_RETENTION_DAYS,
        }
    }
}

impl StoreConfig {
    fn check(&self) -> Result<()> {
        if self.retention_days > MAX_RETENTION_DAYS {
            bail!(
                "store.retention_days = {} is out of range: allowed 0..={MAX_RETENTION_DAYS} (0 keeps sessions forever)",
                self.retention_days
            );
        }
        if !(1..=MAX_POOL_SIZE).contains(&self.pool_size) {
            bail!("store.pool_size = {} is out of range: allowed 1..={MAX_POOL_SIZE}", self.pool_size);
        }
        match (self.backend, &self.url) {
            (BackendKind::Sled, Some(_)) => bail!(
                "store.url is for backend = \"postgres\"; the sled backend keeps its database at store.path (remove store.url, or set store.backend = \"postgres\")"
            ),
            (BackendKind::Postgres, None) => {
                bail!("store.backend = \"postgres\" needs store.url (postgres://user:password@host:port/db)")
            }
            (BackendKind::Postgres, Some(url)) if url.trim().is_empty() => {
                bail!("store.url is empty: give the PostgreSQL connection URL (postgres://user:password@host:port/db)")
            }
            (BackendKind::Postgres, Some(_)) if self.path != Self::default().path => bail!(
                "store.path is the sled database directory; with store.backend = \"postgres\" everything lives at store.url (remove store.path)"
            ),
            _ => Ok(()),
        }
    }

    /// The session retention: `None` (forever) for `retention_days = 0`.
    pub(crate) fn retention(&self) -> Option<Duration> {
        (self.retention_days > 0).then(|| Duration::from_secs(u64::from(self.retention_days) * 86_400))
    }

    /// The runtime's backend; `sled_path` is the sled directory the CLI
    /// chose (`--store`, `[store] path` or a fallback; `None`: temporary).
    pub(crate) fn backend(&self, sled_path: Option<PathBuf>) -> codemode_runtime::StoreBackend {
        match (self.backend, &self.url) {
            (BackendKind::Postgres, Some(url)) => {
                codemode_runtime::StoreBackend::Postgres { url: url.clone(), pool_size: self.pool_size }
            }
            _ => codemode_runtime::StoreBackend::Sled { path: sled_path },
        }
    }

    /// One line saying where the store is, for `config check` (a URL's
    /// password is never shown).
    pub(crate) fn describe(&self) -> String {
        match (self.backend, &self.url) {
            (BackendKind::Postgres, Some(url)) => {
                format!("postgres at {} (pool of {})", redact_url(url), self.pool_size)
            }
            _ => format!("sled at {}", self.path.display()),
        }
    }
}

/// `url` with its password replaced by `***`, in either URL form
/// (`postgres://user:secret@host/db`) or key-value form (`password=secret`).
pub(crate) fn redact_url(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        // The userinfo ends at the last `@`. A path holding an `@` (rare)
        // hides more than the password, never less: a password with an
        // unescaped `/` still ends up hidden.
        if let Some(at) = rest.rfind('@')
            && let Some(colon) = rest[..at].find(':')
        {
            return format!("{scheme}://{}:***{}", &rest[..colon], &rest[at..]);
        }
        return url.to_owned();
    }
    url.split_whitespace()
        .map(|part| match part.split_once('=') {
            Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
            _ => part.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `[runs] journal`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum JournalSetting {
    /// Written before a `waiting` result is returned.
    #[default]
    Park,
    /// Also after every settlement a window delivers.
    EveryCall,
    /// Never: parked runs live only in this process's memory.
    Off,
}

/// `[runs] durability`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DurabilitySetting {
    /// Out of the process before `waiting` is returned: survives a crash or
    /// `kill -9` and restarts, not a power loss of the last moments.
    #[default]
    Process,
    /// On disk before `waiting` is returned: also survives a power loss.
    Machine,
}

/// `[runs]`: how runs are journaled, leased, handed off and evicted.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct RunsSection {
    /// `park` (default), `every_call` or `off`.
    pub journal: JournalSetting,
    /// `process` (default) or `machine`: what a journal write survives.
    pub durability: DurabilitySetting,
    /// How long a live owner's lease lasts, in milliseconds; a crashed
    /// owner's runs can be taken over after it. `1000..=600000`.
    pub lease_ms: u64,
    /// How long after a park the owner keeps its lease before handing the
    /// run off, in milliseconds. `0..=600000`.
    pub handoff_ms: u64,
    /// Idle parked cells are evicted from memory to their journal after
    /// this many milliseconds; `0` never evicts. `0` or `1000..=86400000`.
    pub evict_after_ms: u64,
}

/// `[runs] lease_ms` bounds: a second (renewals at half of it must not
/// flood the backend) to ten minutes (a crashed owner's runs wait that long).
const LEASE_MS: std::ops::RangeInclusive<u64> = 1_000..=600_000;

/// The longest `[runs] handoff_ms`: ten minutes.
const MAX_HANDOFF_MS: u64 = 600_000;

/// `[runs] evict_after_ms` bounds when not 0: a second to a day (the
/// longest a parked cell lives, `limits.parked_ttl_seconds`).
const EVICT_AFTER_MS: std::ops::RangeInclusive<u64> = 1_000..=86_400_000;

impl Default for RunsSection {
    fn default() -> Self {
        let d = codemode_runtime::RunsConfig::default();
        Self {
            journal: match d.journal {
                codemode_runtime::JournalMode::Park => JournalSetting::Park,
                codemode_runtime::JournalMode::EveryCall => JournalSetting::EveryCall,
                codemode_runtime::JournalMode::Off => JournalSetting::Off,
            },
            durability: match d.durability {
                codemode_runtime::Durability::Process => DurabilitySetting::Process,
                codemode_runtime::Durability::Machine => DurabilitySetting::Machine,
            },
            lease_ms: millis(d.lease),
            handoff_ms: millis(d.handoff_after),
            evict_after_ms: d.evict_after.map_or(0, millis),
        }
    }
}

impl RunsSection {
    fn check(&self) -> Result<()> {
        if !LEASE_MS.contains(&self.lease_ms) {
            bail!(
                "runs.lease_ms = {} is out of range: allowed {}..={}",
                self.lease_ms,
                LEASE_MS.start(),
                LEASE_MS.end()
            );
        }
        if self.handoff_ms > MAX_HANDOFF_MS {
            bail!("runs.handoff_ms = {} is out of range: allowed 0..={MAX_HANDOFF_MS}", self.handoff_ms);
        }
        if self.evict_after_ms != 0 && !EVICT_AFTER_MS.contains(&self.evict_after_ms) {
            bail!(
                "runs.evict_after_ms = {} is out of range: allowed 0 (never evict) or {}..={}",
                self.evict_after_ms,
                EVICT_AFTER_MS.start(),
                EVICT_AFTER_MS.end()
            );
        }
        Ok(())
    }

    /// The runtime's runs configuration.
    pub(crate) fn to_runs_config(&self) -> codemode_runtime::RunsConfig {
        codemode_runtime::RunsConfig {
            journal: match self.journal {
                JournalSetting::Park => codemode_runtime::JournalMode::Park,
                JournalSetting::EveryCall => codemode_runtime::JournalMode::EveryCall,
                JournalSetting::Off => codemode_runtime::JournalMode::Off,
            },
            lease: Duration::from_millis(self.lease_ms),
            handoff_after: Duration::from_millis(self.handoff_ms),
            evict_after: (self.evict_after_ms > 0).then(|| Duration::from_millis(self.evict_after_ms)),
            durability: match self.durability {
                DurabilitySetting::Process => codemode_runtime::Durability::Process,
                DurabilitySetting::Machine => codemode_runtime::Durability::Machine,
            },
        }
    }
}

/// `[workspace]`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct WorkspaceConfig {
    /// Root of the built-in `read`/`ls`/`find`/`grep` tools; none when unset.
    pub root: Option<PathBuf>,
}

/// `[[tools]]`: a tool backed by a command.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CommandToolConfig {
    pub name: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The program and its arguments.
    pub command: Vec<String>,
    #[serde(default = "object_schema")]
    pub input_schema: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    #[serde(default = "default_tool_timeout")]
    pub timeout_ms: u64,
    #[serde(default = "default_tool_output")]
    pub max_output_bytes: usize,
    /// Running the command twice with the same input is harmless (it only
    /// reads, or is idempotent), so `restartSafe` cells may call it.
    /// Off unless declared: a command is assumed to have effects.
    #[serde(default)]
    pub replay_safe: bool,
}

fn object_schema() -> Value {
    serde_json::json!({"type": "object"})
}

fn default_tool_timeout() -> u64 {
    30_000
}

fn default_tool_output() -> usize {
    1024 * 1024
}

/// The config key of each `Limits` field, for error messages.
fn limit_key(field: &str) -> String {
    match field {
        "timeout" | "headless_timeout" => format!("limits.{field}_ms"),
        "parked_ttl" => "limits.parked_ttl_seconds".to_owned(),
        other => format!("limits.{other}"),
    }
}

impl LimitsConfig {
    /// The runtime limits, or an error naming the config key and its range.
    pub(crate) fn to_limits(&self) -> Result<Limits> {
        if !(1..=86_400).contains(&self.parked_ttl_seconds) {
            bail!("limits.parked_ttl_seconds = {} is out of range: allowed 1..=86400", self.parked_ttl_seconds);
        }
        let limits = Limits {
            timeout: Duration::from_millis(self.timeout_ms),
            memory_limit_bytes: self.memory_limit_bytes,
            max_stack_bytes: self.max_stack_bytes,
            max_output_bytes: self.max_output_bytes,
            max_in_flight: self.max_in_flight,
            max_queued: self.max_queued,
            max_timers: self.max_timers,
            parked_ttl: Duration::from_secs(self.parked_ttl_seconds),
            max_live_cells: self.max_live_cells,
            max_live_cells_per_session: self.max_live_cells_per_session,
            max_live_cells_per_principal: self.max_live_cells_per_principal,
            headless_timeout: Duration::from_millis(self.headless_timeout_ms),
            headless_max_tool_calls: self.headless_max_tool_calls,
            results_max_entries: self.results_max_entries,
            results_max_bytes: self.results_max_bytes,
            max_journal_bytes_per_session: self.max_journal_bytes_per_session,
            max_journal_bytes_per_principal: self.max_journal_bytes_per_principal,
        };
        if let Err(e) = limits.validate() {
            let key = limit_key(e.field);
            // Durations are reported in the config's unit (ms), not Rust's.
            bail!("{key} = {} is out of range: allowed {}", e.value.replace("ms", ""), e.range.replace("ms", ""));
        }
        Ok(limits)
    }
}

impl Config {
    /// Reads `path`, or `./codemode.toml` when present, or the defaults.
    pub(crate) fn load(path: Option<&Path>) -> Result<(Self, Option<PathBuf>)> {
        let found = match path {
            Some(p) => Some(p.to_path_buf()),
            None => Some(PathBuf::from("codemode.toml")).filter(|p| p.exists()),
        };
        let Some(file) = found else { return Ok((Self::default(), None)) };
        let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        let config = Self::parse(&text).with_context(|| format!("in {}", file.display()))?;
        Ok((config, Some(file)))
    }

    /// Parses and checks a configuration.
    pub(crate) fn parse(text: &str) -> Result<Self> {
        let config: Self = toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", e.to_string().trim()))?;
        config.limits.to_limits()?;
        if let Some(nodes) = &config.nodes {
            nodes.check()?;
        }
        config.serve.check()?;
        config.store.check()?;
        config.runs.check()?;
        for (i, server) in config.mcp_servers.iter().enumerate() {
            if server.command.is_empty() == server.url.is_none() {
                bail!("mcp_servers[{i}] needs exactly one of `command` (a non-empty array) or `url`");
            }
            if !(1..=600_000).contains(&server.call_timeout_ms) {
                bail!(
                    "mcp_servers[{i}].call_timeout_ms = {} is out of range: allowed 1..=600000",
                    server.call_timeout_ms
                );
            }
        }
        for (i, tool) in config.tools.iter().enumerate() {
            if tool.command.is_empty() {
                bail!("tools[{i}].command must name a program (a non-empty array)");
            }
            if !(1..=600_000).contains(&tool.timeout_ms) {
                bail!("tools[{i}].timeout_ms = {} is out of range: allowed 1..=600000", tool.timeout_ms);
            }
            if !(1..=64 * 1024 * 1024).contains(&tool.max_output_bytes) {
                bail!("tools[{i}].max_output_bytes = {} is out of range: allowed 1..=67108864", tool.max_output_bytes);
            }
        }
        Ok(config)
    }

    /// The effective configuration as TOML; a store URL's password is
    /// shown as `***`.
    pub(crate) fn to_toml(&self) -> String {
        let mut shown = self.clone();
        shown.store.url = shown.store.url.as_deref().map(redact_url);
        toml::to_string_pretty(&shown).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_named() {
        let err = Config::parse("[limits]\ntimeout = 5\n").unwrap_err().to_string();
        assert!(err.contains("unknown field `timeout`"), "{err}");
        let err = Config::parse("colour = 1\n").unwrap_err().to_string();
        assert!(err.contains("unknown field `colour`"), "{err}");
    }

    #[test]
    fn out_of_range_values_name_the_key_and_the_range() {
        let err = Config::parse("[limits]\ntimeout_ms = 50\n").unwrap_err().to_string();
        assert_eq!(err, "limits.timeout_ms = 50 is out of range: allowed 100..=60000");
        let err = Config::parse("[limits]\nmax_in_flight = 129\n").unwrap_err().to_string();
        assert_eq!(err, "limits.max_in_flight = 129 is out of range: allowed 1..=128");
        let ok = Config::parse("[limits]\nmax_in_flight = 128\ntimeout_ms = 100\n").unwrap();
        assert_eq!(ok.limits.max_in_flight, 128);
    }

    #[test]
    fn nodes_settings_are_checked_at_their_edges() {
        let nodes = |extra: &str| Config::parse(&format!("[nodes]\n{extra}\n"));
        assert!(nodes("invoke_timeout_ms = 600000").is_ok());
        assert_eq!(
            nodes("invoke_timeout_ms = 600001").unwrap_err().to_string(),
            "nodes.invoke_timeout_ms = 600001 is out of range: allowed 1..=600000"
        );
        assert!(nodes("invoke_timeout_ms = 0").is_err());
        assert!(nodes("tokens = [\"0123456789abcdef\"]").is_ok(), "16 characters");
        assert_eq!(
            nodes("tokens = [\"0123456789abcde\"]").unwrap_err().to_string(),
            "nodes.tokens[0] is too short: use at least 16 characters"
        );
        assert!(nodes("listen = \"127.0.0.1:0\"\nallow_commands = [\"fs.*\"]").unwrap().nodes.is_some());
    }

    #[test]
    fn store_retention_days_is_checked_at_its_edges_and_zero_keeps_sessions_forever_ga_7_1() {
        let store = |extra: &str| Config::parse(&format!("[store]\n{extra}\n"));
        assert_eq!(Config::default().store.retention(), Some(codemode_store::DEFAULT_SESSION_RETENTION));
        assert_eq!(store("retention_days = 0").unwrap().store.retention(), None);
        assert_eq!(store("retention_days = 1").unwrap().store.retention(), Some(Duration::from_secs(86_400)));
        assert_eq!(store("retention_days = 3650").unwrap().store.retention(), Some(Duration::from_secs(3650 * 86_400)));
        assert_eq!(
            store("retention_days = 3651").unwrap_err().to_string(),
            "store.retention_days = 3651 is out of range: allowed 0..=3650 (0 keeps sessions forever)"
        );
        assert!(store("retention_days = -1").is_err(), "negative days are refused");
        assert!(store("retention_days = 1.5").is_err(), "whole days only");
    }

    #[test]
    fn the_store_backend_defaults_to_sled_and_postgres_needs_a_url_and_no_sled_path() {
        let store = |extra: &str| Config::parse(&format!("[store]\n{extra}\n"));
        let default = Config::default().store;
        assert_eq!((default.backend, default.pool_size, default.url.as_deref()), (BackendKind::Sled, 8, None));
        assert_eq!(
            default.backend(Some("db".into())),
            codemode_runtime::StoreBackend::Sled { path: Some("db".into()) }
        );
        assert_eq!(
            store("backend = \"sled\"\nurl = \"postgres://h/db\"").unwrap_err().to_string(),
            "store.url is for backend = \"postgres\"; the sled backend keeps its database at store.path (remove store.url, or set store.backend = \"postgres\")"
        );
        assert_eq!(
            store("backend = \"postgres\"").unwrap_err().to_string(),
            "store.backend = \"postgres\" needs store.url (postgres://user:password@host:port/db)"
        );
        assert!(store("backend = \"postgres\"\nurl = \" \"").unwrap_err().to_string().contains("store.url is empty"));
        let err = store("backend = \"postgres\"\nurl = \"postgres://h/db\"\npath = \"elsewhere\"").unwrap_err();
        assert!(err.to_string().starts_with("store.path is the sled database directory"), "{err}");
        assert!(store("backend = \"mysql\"").unwrap_err().to_string().contains("unknown variant `mysql`"));
        let pg = store("backend = \"postgres\"\nurl = \"postgres://u:secret@h:5432/db\"\npool_size = 3").unwrap();
        assert_eq!(
            pg.store.backend(Some("ignored".into())),
            codemode_runtime::StoreBackend::Postgres { url: "postgres://u:secret@h:5432/db".into(), pool_size: 3 }
        );
        assert_eq!(pg.store.describe(), "postgres at postgres://u:***@h:5432/db (pool of 3)");
        assert!(!pg.to_toml().contains("secret"), "config check never prints the password");
        assert!(Config::parse(&pg.to_toml()).is_ok(), "the redacted form still parses");
    }

    #[test]
    fn the_pool_size_is_checked_at_its_edges() {
        let pool = |n: &str| Config::parse(&format!("[store]\npool_size = {n}\n"));
        assert_eq!(pool("1").unwrap().store.pool_size, 1);
        assert_eq!(pool("1024").unwrap().store.pool_size, 1024);
        assert_eq!(pool("1025").unwrap_err().to_string(), "store.pool_size = 1025 is out of range: allowed 1..=1024");
        assert_eq!(pool("0").unwrap_err().to_string(), "store.pool_size = 0 is out of range: allowed 1..=1024");
    }

    #[test]
    fn a_store_url_password_is_redacted_in_both_forms() {
        assert_eq!(redact_url("postgres://u:p@ss@h/db?x=1"), "postgres://u:***@h/db?x=1");
        assert_eq!(redact_url("postgresql://u@h/db"), "postgresql://u@h/db");
        assert_eq!(redact_url("postgres://h/a@b"), "postgres://h/a@b");
        assert_eq!(redact_url("postgres://u:pa/ss@h/db"), "postgres://u:***@h/db");
        assert_eq!(redact_url("host=h user=u password=secret dbname=d"), "host=h user=u password=*** dbname=d");
    }

    #[test]
    fn runs_settings_default_to_the_runtimes_and_are_checked_at_their_edges() {
        let runs = |extra: &str| Config::parse(&format!("[runs]\n{extra}\n"));
        assert_eq!(Config::default().runs.to_runs_config(), codemode_runtime::RunsConfig::default());
        let every = runs("journal = \"every_call\"").unwrap().runs.to_runs_config();
        assert_eq!(every.journal, codemode_runtime::JournalMode::EveryCall);
        assert_eq!(every.durability, codemode_runtime::Durability::Process, "the default");
        let machine = runs("durability = \"machine\"").unwrap().runs.to_runs_config();
        assert_eq!(machine.durability, codemode_runtime::Durability::Machine);
        assert!(runs("durability = \"disk\"").unwrap_err().to_string().contains("unknown variant `disk`"));
        assert!(runs("journal = \"always\"").unwrap_err().to_string().contains("unknown variant `always`"));
        assert_eq!(runs("lease_ms = 1000").unwrap().runs.to_runs_config().lease, Duration::from_secs(1));
        assert_eq!(runs("lease_ms = 600000").unwrap().runs.lease_ms, 600_000);
        assert_eq!(
            runs("lease_ms = 999").unwrap_err().to_string(),
            "runs.lease_ms = 999 is out of range: allowed 1000..=600000"
        );
        assert_eq!(
            runs("lease_ms = 600001").unwrap_err().to_string(),
            "runs.lease_ms = 600001 is out of range: allowed 1000..=600000"
        );
        assert_eq!(runs("handoff_ms = 0").unwrap().runs.to_runs_config().handoff_after, Duration::ZERO);
        assert_eq!(runs("handoff_ms = 600000").unwrap().runs.handoff_ms, 600_000);
        assert_eq!(
            runs("handoff_ms = 600001").unwrap_err().to_string(),
            "runs.handoff_ms = 600001 is out of range: allowed 0..=600000"
        );
        assert_eq!(runs("evict_after_ms = 0").unwrap().runs.to_runs_config().evict_after, None);
        assert_eq!(
            runs("evict_after_ms = 1000").unwrap().runs.to_runs_config().evict_after,
            Some(Duration::from_secs(1))
        );
        assert_eq!(runs("evict_after_ms = 86400000").unwrap().runs.evict_after_ms, 86_400_000);
        let range = "is out of range: allowed 0 (never evict) or 1000..=86400000";
        assert_eq!(runs("evict_after_ms = 999").unwrap_err().to_string(), format!("runs.evict_after_ms = 999 {range}"));
        assert_eq!(
            runs("evict_after_ms = 86400001").unwrap_err().to_string(),
            format!("runs.evict_after_ms = 86400001 {range}")
        );
        assert!(runs("lease = 5").unwrap_err().to_string().contains("unknown field `lease`"));
    }

    #[test]
    fn the_shutdown_grace_is_checked_at_its_edges() {
        let serve = |extra: &str| Config::parse(&format!("[serve]\n{extra}\n"));
        assert_eq!(Config::default().serve.shutdown_grace_ms, DEFAULT_SHUTDOWN_GRACE_MS);
        assert_eq!(serve("shutdown_grace_ms = 0").unwrap().serve.shutdown_grace_ms, 0);
        assert_eq!(serve("shutdown_grace_ms = 600000").unwrap().serve.shutdown_grace_ms, 600_000);
        assert_eq!(
            serve("shutdown_grace_ms = 600001").unwrap_err().to_string(),
            "serve.shutdown_grace_ms = 600001 is out of range: allowed 0..=600000"
        );
    }

    #[test]
    fn an_mcp_server_is_optional_unless_marked_required() {
        let entry =
            |extra: &str| Config::parse(&format!("[[mcp_servers]]\nname = \"a\"\nurl = \"http://x\"\n{extra}\n"));
        assert!(!entry("").unwrap().mcp_servers[0].required);
        assert!(entry("required = true").unwrap().mcp_servers[0].required);
        assert!(entry("required = \"yes\"").is_err(), "a boolean only");
    }

    #[test]
    fn defaults_round_trip_through_toml() {
        let text = Config::default().to_toml();
        let back = Config::parse(&text).unwrap();
        assert_eq!(back.limits.timeout_ms, 10_000);
    }
}
