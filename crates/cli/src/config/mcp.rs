//! `[[mcp_servers]]`: the MCP servers cells reach as `MCP.<name>`.

use std::time::Duration;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use super::tools::default_tool_timeout;

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
    /// Checks entry `i` of `[[mcp_servers]]`.
    pub(super) fn check(&self, i: usize) -> Result<()> {
        if self.command.is_empty() == self.url.is_none() {
            bail!("mcp_servers[{i}] needs exactly one of `command` (a non-empty array) or `url`");
        }
        if !(1..=600_000).contains(&self.call_timeout_ms) {
            bail!("mcp_servers[{i}].call_timeout_ms = {} is out of range: allowed 1..=600000", self.call_timeout_ms);
        }
        Ok(())
    }

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
