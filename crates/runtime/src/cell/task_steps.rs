//! What the cell does as its MCP calls become tasks, settle, or are
//! cancelled: the driver's side of [`McpTasks`](super::tasks::McpTasks).

use codemode_store::runs::now_ms;

use super::requests::done::TaskStarted;
use super::state::{CellState, Flow};
use crate::durable::journal::TaskRecord;
use crate::events::RunEvent;

impl CellState {
    /// Request `id`'s MCP call runs as a task: recorded, and journaled now
    /// so a crash from here on resumes polling it.
    pub(super) fn task_started(&mut self, id: u64, started: TaskStarted) -> Flow {
        if !self.host.in_flight(id) {
            return Flow::Live;
        }
        let TaskStarted { server, tool, task } = started;
        tracing::info!(
            parent: &self.run.span, server = %server, tool = %tool, task_id = %task.task_id, "MCP call runs as a task"
        );
        let (run_id, session) = (&self.run.run_id, self.run.mode.session());
        self.services.events.emit(|| RunEvent::TaskStarted {
            run_id: run_id.clone(),
            session: session.map(str::to_owned),
            server: server.clone(),
            tool: tool.clone(),
            task_id: task.task_id.clone(),
        });
        self.tasks.log.records.push(TaskRecord { request: id, server, tool, task, started_at_ms: now_ms() });
        self.with_host_state(|d, state| d.write_now(state));
        Flow::Live
    }

    /// Request `id` settled: if it ran as a task, the task is done.
    pub(super) fn task_settled(&mut self, id: u64) {
        if let Some(record) = self.tasks.settled(id) {
            let (run_id, session) = (&self.run.run_id, self.run.mode.session());
            self.services.events.emit(|| RunEvent::TaskFinished {
                run_id: run_id.clone(),
                session: session.map(str::to_owned),
                server: record.server,
                task_id: record.task.task_id,
            });
        }
    }

    /// The run ended: the tasks its calls left running are cancelled at
    /// their servers, in the background (cancellation is cooperative; a
    /// server that is down keeps its task until the task's TTL).
    pub(super) fn cancel_tasks(&mut self) {
        let records = self.tasks.take_all();
        if records.is_empty() {
            return;
        }
        let hub = self.services.mcp.clone();
        let span = self.run.span.clone();
        tokio::spawn(async move {
            for r in records {
                let Some(index) = hub.index_of(&r.server) else { continue };
                if let Err(e) = hub.cancel_task(index, &r.tool, &r.task).await {
                    tracing::warn!(parent: &span, server = %r.server, task_id = %r.task.task_id, "MCP task not cancelled: {e}");
                }
            }
        });
    }
}
