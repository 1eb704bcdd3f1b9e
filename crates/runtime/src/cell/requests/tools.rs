//! Native tool calls (GA-6.1, GA-11.2): counted against the cell's limits,
//! then queued in the cell's host work, which starts them through the
//! nested-call pipeline as in-flight slots free up.

use serde_json::Value;

use super::Handled;
use crate::cell::CellState;

impl CellState {
    pub(super) fn tool_call(&mut self, id: u64, tool: usize, input: Value) -> Handled {
        self.count_native_call()?;
        let replay_safe = self.tools.get(tool).is_some_and(|e| e.replay_safe);
        let hold = self.write_ahead(replay_safe);
        Ok(self.host.submit_call(id, tool, input, hold, &self.notify))
    }
}
