//! What a request that ran as host work reports back to its cell: one
//! message for every kind, settled by the cell when it arrives.

use std::sync::Arc;

use codemode_catalog::{SearchError, SearchHit, ToolError, ToolOutput};
use codemode_store::StoredValue;

use crate::engine::settlement::Settlement;

/// A request's work finished.
#[derive(Debug)]
pub(crate) enum Done {
    /// A native tool call.
    Tool(Result<ToolOutput, ToolError>),
    /// A catalog search: its reply is built when it is delivered, against
    /// what is left of the output budget then.
    Search(Result<Vec<SearchHit>, SearchError>),
    /// Settle the request.
    Settle(Settlement),
    /// A `store` passed the session check: buffer it, then settle.
    Stored { key: String, value: Option<StoredValue>, settlement: Settlement },
    /// A read answered with network-derived content (a load of such a
    /// value, an MCP or node result): it marks the cell.
    Loaded { settlement: Settlement, network: bool },
    /// A nested call the policy asked about: not finished, waiting on a
    /// decision (the request keeps its slot).
    Asked(super::asked::Asked),
    /// An MCP call the server runs as a task: not finished; the task is
    /// recorded (and journaled) so a resumed run polls it again.
    TaskStarted(TaskStarted),
}

impl Done {
    /// The settlement of request `id` when it can be delivered within the
    /// step that made it (it carries nothing else the cell must take in),
    /// else the `Done` itself, for the cell to take in like any answer.
    pub(crate) fn settle_inline(self, id: u64) -> Result<Settlement, Box<Self>> {
        match self {
            Self::Tool(result) => Ok(super::tool_answer::tool_settlement(id, result)),
            Self::Settle(settlement) | Self::Loaded { settlement, network: false } => Ok(settlement),
            other => Err(Box::new(other)),
        }
    }
}

/// The MCP task a call runs as.
#[derive(Debug)]
pub(crate) struct TaskStarted {
    /// The server's configured name.
    pub server: String,
    /// The raw tool name.
    pub tool: String,
    /// The task.
    pub task: codemode_protocol::McpTask,
}

/// Sends a request's [`Done`] back to its cell (the cell may have ended
/// meanwhile; then nobody needs it).
pub(crate) type Completion = Arc<dyn Fn(u64, Done) + Send + Sync>;
