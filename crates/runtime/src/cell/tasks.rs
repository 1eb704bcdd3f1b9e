//! MCP tasks in the cell's life. A call an MCP server runs as a task is
//! recorded — and journaled at once — when the server reports the task,
//! and forgotten when the call settles. A run resumed on another process
//! polls the recorded task again instead of calling the tool a second
//! time; a run that ends (aborted, expired, failed) cancels the tasks its
//! calls left running, since nothing will read their results. A cell that
//! only leaves memory (evicted, or moved to another process) does not:
//! its run goes on.

use crate::durable::journal::{TaskLog, TaskRecord};

/// A cell's MCP tasks whose calls have not settled.
#[derive(Debug, Default)]
pub(crate) struct McpTasks {
    pub(super) log: TaskLog,
}

impl McpTasks {
    /// The tasks a resumed run's journal recorded.
    pub(crate) fn restore(log: TaskLog) -> Self {
        Self { log }
    }

    /// The log as the journal writes it.
    pub(crate) fn log(&self) -> &TaskLog {
        &self.log
    }

    /// The task request `id`'s call runs as, if the journal knows one.
    pub(crate) fn of_request(&self, id: u64) -> Option<&TaskRecord> {
        self.log.records.iter().find(|r| r.request == id)
    }

    /// Request `id` settled: its task, if it had one, is done with.
    pub(crate) fn settled(&mut self, id: u64) -> Option<TaskRecord> {
        let at = self.log.records.iter().position(|r| r.request == id)?;
        Some(self.log.records.remove(at))
    }

    /// Every task still recorded, taken.
    pub(super) fn take_all(&mut self) -> Vec<TaskRecord> {
        std::mem::take(&mut self.log.records)
    }
}
