//! `codemode.toml`: the CLI's configuration.
//!
//! Found with `--config PATH`, else `./codemode.toml` when it exists, else
//! defaults. Unknown keys and out-of-range values are errors that name the
//! key and the allowed range; nothing is silently replaced.
//!
//! One module per section: `limits`, `store`, `runs`, `serve`, `mcp`
//! (`[[mcp_servers]]`), `nodes`, `tools` (`[[tools]]` and `[workspace]`);
//! `check` is the `codemode config check` command; `units` holds the
//! millisecond conversions the sections share; `policy` holds the
//! `[[policy]]` rules over nested calls. Each section checks its
//! own ranges; [`Config::parse`] runs every check.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

pub(crate) mod check;
mod limits;
mod mcp;
mod nodes;
mod operator;
pub(crate) mod policy;
mod runs;
mod serve;
mod store;
mod tools;
mod units;

pub(crate) use limits::{IsolationConfig, LimitsConfig};
pub(crate) use mcp::McpServerEntry;
pub(crate) use nodes::NodesSection;
pub(crate) use operator::OperatorSection;
#[cfg(test)]
pub(crate) use operator::OperatorToken;
pub(crate) use runs::RunsSection;
#[cfg(test)]
pub(crate) use serve::{DEFAULT_SHUTDOWN_GRACE_MS, ServeToken};
pub(crate) use serve::{MAX_SHUTDOWN_GRACE_MS, ServeSection};
pub(crate) use store::{BackendKind, StoreConfig, redact_url};
pub(crate) use tools::{CommandToolConfig, WorkspaceConfig};

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
    /// `[[policy]]`: rules over nested calls, first match wins.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub policy: Vec<policy::PolicyRule>,
    /// `[approvals]`: who may decide what a policy asks about.
    pub approvals: ApprovalsSection,
    /// `[operator]`: who may act on the server's runs through its operator
    /// API and console.
    pub operator: OperatorSection,
}

/// `[approvals]`: who may decide a call a `[[policy]]` rule asks about.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct ApprovalsSection {
    /// Let the model decide through its `wait` tool (`approve`, `deny`).
    /// Off by default: then only the MCP client's user, an operator or the
    /// session protocol's host decides, and an `ask` rule means a person.
    pub model_decides: bool,
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
        config.operator.check(&config.serve)?;
        config.store.check()?;
        config.runs.check()?;
        for (i, server) in config.mcp_servers.iter().enumerate() {
            server.check(i)?;
        }
        for (i, tool) in config.tools.iter().enumerate() {
            tool.check(i)?;
        }
        if config.policy.len() > policy::MAX_RULES {
            anyhow::bail!("{} [[policy]] rules; at most {} are allowed", config.policy.len(), policy::MAX_RULES);
        }
        for (i, rule) in config.policy.iter().enumerate() {
            rule.check(i)?;
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

/// Checks a name a token gives its holder (a client's principal, an
/// operator's name): 1–64 letters, digits, `_`, `.` or `-`, so it is safe
/// in logs, audit entries, metrics labels and the console as it is.
fn check_name(field: &str, value: &str) -> Result<()> {
    let ok = (1..=64).contains(&value.chars().count())
        && value.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if !ok {
        anyhow::bail!("{field} = {value:?} is not a valid name: use 1-64 letters, digits, `_`, `.` or `-`");
    }
    Ok(())
}

#[cfg(test)]
mod tests;
