//! `[nodes]`: the node gateway and the commands nodes may run.

use std::time::Duration;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

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

    pub(super) fn check(&self) -> Result<()> {
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
