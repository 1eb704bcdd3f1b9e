//! A one-off connection to a configured server, for operators
//! (`codemode config check`): start it, initialize, list its tools, close.

use std::time::Duration;

use crate::config::McpServerConfig;
use crate::server::{Handler, McpStartError, open};

/// What a successful probe found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeReport {
    /// The server's own name and version, from `initialize`.
    pub server_info: String,
    /// How many tools it lists.
    pub tool_count: usize,
    /// How long connecting and listing took.
    pub elapsed: Duration,
}

/// Connects to `config`'s server once, lists its tools and disconnects.
///
/// # Errors
/// Why it could not be connected: a program that does not start, a server
/// that exits (with its last stderr lines), a protocol failure, or no
/// answer within 30 s.
pub async fn probe(config: &McpServerConfig) -> Result<ProbeReport, McpStartError> {
    let started = std::time::Instant::now();
    let (running, tools, group) =
        open(config, Handler { actor: None, inputs: crate::tasks::Inputs::default() }).await?;
    let server_info = running
        .peer()
        .peer_info()
        .and_then(|i| i.server_info.as_ref().map(|s| format!("{} {}", s.name, s.version)))
        .unwrap_or_default();
    let report = ProbeReport { server_info, tool_count: tools.len(), elapsed: started.elapsed() };
    // Closing ends a stdio server's process; its result does not change
    // what the probe found.
    let _ = running.cancel().await;
    if let Some(group) = group {
        group.end(crate::server::SERVER_GRACE).await;
    }
    Ok(report)
}
