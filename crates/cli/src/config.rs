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
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `[store]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct StoreConfig {
    /// The sled database directory.
    pub path: PathBuf,
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

impl Default for StoreConfig {
    fn default() -> Self {
        Self { path: PathBuf::from(".codemode/store"), retention_days: DEFAULT_RETENTION_DAYS }
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
        Ok(())
    }

    /// The session retention: `None` (forever) for `retention_days = 0`.
    pub(crate) fn retention(&self) -> Option<Duration> {
        (self.retention_days > 0).then(|| Duration::from_secs(u64::from(self.retention_days) * 86_400))
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

    /// The effective configuration as TOML.
    pub(crate) fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_default()
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
