//! What a host's readiness probe asks of the runtime: does the executor
//! answer, and which MCP servers are connected.

use std::time::Duration;

use ractor::rpc::CallResult;

use super::facade::CodeMode;
use crate::error::CodeModeError;
use crate::executor::ExecutorMsg;

/// Why [`CodeMode::executor_ready`] failed.
#[derive(Debug, thiserror::Error)]
pub enum NotReady {
    /// The runtime is shut down, or its executor is gone for good.
    #[error(transparent)]
    Runtime(#[from] CodeModeError),
    /// The executor did not answer within the bound: it is restarting,
    /// or its mailbox is not being served.
    #[error("the cell executor did not answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The executor stopped while the probe was in its mailbox.
    #[error("the cell executor stopped before answering")]
    Stopped,
}

impl CodeMode {
    /// Whether the cell executor answers a no-op request within `within`:
    /// new cells can be admitted now. Never waits longer than `within`,
    /// even while the executor restarts.
    ///
    /// # Errors
    /// The runtime is shut down, or the executor did not answer in time.
    pub async fn executor_ready(&self, within: Duration) -> Result<(), NotReady> {
        let probe = async {
            let executor = self.executor().await?;
            match executor.call(ExecutorMsg::Ping, None).await {
                Ok(CallResult::Success(())) => Ok(()),
                Ok(CallResult::SenderError | CallResult::Timeout) | Err(_) => Err(NotReady::Stopped),
            }
        };
        tokio::time::timeout(within, probe).await.unwrap_or(Err(NotReady::Timeout(within)))
    }

    /// Every configured MCP server's state now, in configuration order:
    /// connected or not, and why not. Feature `mcp`.
    #[must_use]
    #[cfg(feature = "mcp")]
    pub fn mcp_status(&self) -> Vec<codemode_mcp::McpServerStatus> {
        self.inner.mcp.status()
    }
}
