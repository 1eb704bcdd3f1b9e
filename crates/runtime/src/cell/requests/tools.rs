//! Native tool calls (GA-6.1, GA-11.2): counted against the cell's limits,
//! then queued in the cell's host work, which starts them through the
//! nested-call pipeline as in-flight slots free up.

use codemode_bridge::{ErrorCode, Phase};
use serde_json::Value;

use super::args::Args;
use super::op::{CellFailure, Handled, HostCx, HostOp, Rerun};
use crate::durable::journal::fnv::{Fnv, Refs};
use codemode_bridge::RunEnd;

/// A native tool call: the engine's tool index and the input.
#[derive(Debug)]
pub(crate) struct Call {
    pub tool: usize,
    pub input: Value,
}

impl HostOp for Call {
    const NAME: &'static str = "call";
    const WHAT: &'static str = "a tool call";

    fn decode(a: &Args<'_, '_>) -> rquickjs::Result<Self> {
        Ok(Self { tool: a.index(0, "the tool index")?, input: a.tool_input(1)? })
    }

    fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>) {
        h.bytes(b"call");
        refs.tool(h, self.tool);
        h.value(&self.input);
    }

    fn rerun(&self, cx: &HostCx<'_>) -> Rerun {
        match cx.host.tools().get(self.tool) {
            Some(e) if e.replay_safe => Rerun::ReplaySafe,
            Some(e) => Rerun::Once(e.metadata.callable_name.clone()),
            None => Rerun::Once(format!("tool #{} (no longer configured)", self.tool)),
        }
    }

    fn handle(self, id: u64, cx: &mut HostCx<'_>) -> Handled {
        count_native_call(cx)?;
        let hold = cx.hold(&self.rerun(cx));
        Ok(cx.host.submit_call(id, self.tool, self.input, hold))
    }
}

/// Counts a native tool call against the cell's limits: a headless cell
/// past its tool budget fails.
fn count_native_call(cx: &mut HostCx<'_>) -> Result<(), CellFailure> {
    let telemetry = cx.host.telemetry_mut();
    telemetry.call_count += 1;
    let budget = cx.services.limits.headless_max_tool_calls;
    if cx.mode.is_headless() && telemetry.call_count > budget {
        return Err(CellFailure {
            code: ErrorCode::ToolBudgetExceeded,
            message: format!(
                "headless code mode tool budget exceeded ({budget} tool calls); make fewer calls per script."
            ),
            phase: Phase::Guest,
            end: RunEnd::Failed,
        });
    }
    Ok(())
}
