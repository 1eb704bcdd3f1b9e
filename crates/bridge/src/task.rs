//! An MCP task a server created for one tool call: what a run journals so
//! that any process can poll the same task after a crash.

use serde::{Deserialize, Serialize};

/// The generation of the MCP tasks protocol a task speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskForm {
    /// The tasks extension of protocol 2026-07-28 (SEP-2663).
    Extension,
    /// Task-augmented requests of protocol 2025-11-25.
    Core,
}

/// A task a server created for one tool call: what is needed to poll it
/// again, from any process connected to the same server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpTask {
    /// The protocol generation it speaks.
    pub form: TaskForm,
    /// The server's id of the task.
    pub task_id: String,
    /// How long to wait between polls: the server's suggestion, bounded.
    pub poll_interval_ms: u64,
}
