//! `[[tools]]` (tools backed by a command) and `[workspace]` (the built-in
//! workspace tools' root).

use std::path::PathBuf;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

impl CommandToolConfig {
    /// Checks entry `i` of `[[tools]]`.
    pub(super) fn check(&self, i: usize) -> Result<()> {
        if self.command.is_empty() {
            bail!("tools[{i}].command must name a program (a non-empty array)");
        }
        if !(1..=600_000).contains(&self.timeout_ms) {
            bail!("tools[{i}].timeout_ms = {} is out of range: allowed 1..=600000", self.timeout_ms);
        }
        if !(1..=64 * 1024 * 1024).contains(&self.max_output_bytes) {
            bail!("tools[{i}].max_output_bytes = {} is out of range: allowed 1..=67108864", self.max_output_bytes);
        }
        Ok(())
    }
}

fn object_schema() -> Value {
    serde_json::json!({"type": "object"})
}

/// A command's or an MCP call's default timeout, in milliseconds.
pub(super) fn default_tool_timeout() -> u64 {
    30_000
}

fn default_tool_output() -> usize {
    1024 * 1024
}
