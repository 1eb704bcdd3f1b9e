//! The guest's host requests: one typed [`HostRequest`] per thing the
//! guest can ask the host for, decoded in one place ([`decode`]) from the
//! prelude's single native entry point, and handled by one module per
//! family (tools, catalog, store, results, MCP, nodes, timers).
//!
//! Adding a request means: a variant here, an [`Op`] with its wire name,
//! its decoding in `decode.rs`, its handler in the family's module, and
//! the prelude calling `hostRequest(OP.<name>, …)`.

mod catalog;
pub(crate) mod decode;
mod mcp;
pub(crate) mod nested;
mod nodes;
mod outcome;
pub(crate) mod reply;
mod results;
mod store;
mod timers;
mod tools;

use std::time::Instant;

use serde_json::{Map, Value};

use super::{CellState, Flow, vm_lock};

/// A request's number on the wire between the prelude and the host. The
/// prelude reads the numbers from `host.ops` (name → number), so they are
/// written only here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Call,
    Describe,
    Search,
    ApiList,
    ApiRead,
    Yield,
    Timer,
    Store,
    Load,
    ResultSave,
    ResultLoad,
    ResultDelete,
    McpCall,
    McpOperation,
    McpApi,
    NodesList,
    NodesGet,
    NodesInvoke,
}

impl Op {
    /// Every request, in wire order.
    pub(crate) const ALL: [Op; 18] = [
        Op::Call,
        Op::Describe,
        Op::Search,
        Op::ApiList,
        Op::ApiRead,
        Op::Yield,
        Op::Timer,
        Op::Store,
        Op::Load,
        Op::ResultSave,
        Op::ResultLoad,
        Op::ResultDelete,
        Op::McpCall,
        Op::McpOperation,
        Op::McpApi,
        Op::NodesList,
        Op::NodesGet,
        Op::NodesInvoke,
    ];

    /// The request with wire number `n`.
    pub(crate) fn from_wire(n: u32) -> Option<Self> {
        Self::ALL.get(n as usize).copied()
    }

    /// The name the prelude uses (`OP.<name>`), also in decode errors.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Op::Call => "call",
            Op::Describe => "describe",
            Op::Search => "search",
            Op::ApiList => "apiList",
            Op::ApiRead => "apiRead",
            Op::Yield => "yield",
            Op::Timer => "timer",
            Op::Store => "store",
            Op::Load => "load",
            Op::ResultSave => "resultSave",
            Op::ResultLoad => "resultLoad",
            Op::ResultDelete => "resultDelete",
            Op::McpCall => "mcpCall",
            Op::McpOperation => "mcpOp",
            Op::McpApi => "mcpApi",
            Op::NodesList => "nodesList",
            Op::NodesGet => "nodesGet",
            Op::NodesInvoke => "nodesInvoke",
        }
    }
}

/// One request the guest made, with typed arguments.
#[derive(Debug)]
pub(crate) enum HostRequest {
    /// A native tool call: registry index and input.
    Call { tool: usize, input: Value },
    /// A catalog handle's `describe()`.
    Describe { tool: usize },
    /// `catalog.search(query, {limit})`.
    Search { query: String, limit: Option<f64> },
    /// `API.list(prefix)`.
    ApiList { prefix: String },
    /// `API.read(path)`.
    ApiRead { path: String },
    /// `yield_control(reason)`.
    Yield { reason: Option<String> },
    /// `setTimeout`'s host side.
    Timer { delay_ms: u64 },
    /// `store(key, value)`: the value's JSON text (what the store keeps,
    /// already checked against the value bound); `None` deletes.
    Store { key: String, json: Option<String> },
    /// `load(key)`.
    Load { key: String },
    /// `results.save(value)`: the value and its JSON text.
    ResultSave { value: Value, json: String },
    /// `results.load(id)`.
    ResultLoad { result_id: String },
    /// `results.delete(id)`.
    ResultDelete { result_id: String },
    /// `MCP.<server>.<tool>(args)`.
    McpCall { server: usize, tool: String, args: Map<String, Value> },
    /// `MCP.<server>.resources.list/read`, `prompts.list/get`.
    McpOp { server: usize, op: String, args: Map<String, Value> },
    /// `MCP.$api()` (no server) or `MCP.<server>.$api(method, {schema})`.
    McpApi { server: Option<usize>, method: Option<String>, schema: bool },
    /// `nodes.list()`.
    NodesList,
    /// `nodes.get(idOrName)`.
    NodesGet { query: String },
    /// A node handle's `invoke(command, params)`.
    NodesInvoke { node: String, command: String, params: Value },
}

/// Which bound admits a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    /// Shares the in-flight and queue bounds (tool calls and the like).
    Ordinary,
    /// A timer: the live-timer bound.
    Timer,
    /// `yield_control`: no bound (one pending per `await`).
    Yield,
}

impl HostRequest {
    /// The bound that admits this request.
    pub(crate) fn admission(&self) -> Admission {
        match self {
            Self::Timer { .. } => Admission::Timer,
            Self::Yield { .. } => Admission::Yield,
            _ => Admission::Ordinary,
        }
    }
}

/// What handling a request did: settled some ordinary requests inline
/// (their call slots are free again), or ended the cell.
type Handled = Result<usize, Flow>;

impl CellState {
    /// Moves the guest's requests from the bridge into host work.
    pub(super) fn take_submissions(&mut self) -> Option<Flow> {
        let (submitted, cancelled) = {
            let mut bridge = vm_lock(&self.bridge);
            // Metadata read synchronously (`$serverName`) marks later writes too.
            self.network |= bridge.network;
            (std::mem::take(&mut bridge.submitted), std::mem::take(&mut bridge.cancelled))
        };
        for id in cancelled {
            if !self.replay_cancelled(id) {
                self.host.cancel_timer(id);
            }
        }
        let now = Instant::now();
        let mut settled_inline = 0;
        for (id, request) in submitted {
            // A replayed request is answered from the journal, never run.
            let request = match self.replay_request(id, request) {
                Ok(()) => continue,
                Err(request) => request,
            };
            if self.durable.is_some() {
                let fingerprint = self.fingerprint(&request);
                if let Some(d) = self.durable.as_mut() {
                    d.request(id, fingerprint);
                }
            }
            match self.handle_request(id, request, now) {
                Ok(n) => settled_inline += n,
                Err(flow) => return Some(flow),
            }
        }
        if settled_inline > 0 {
            self.release_call_slot(settled_inline);
        }
        None
    }

    /// Hands one request to its family's handler.
    pub(super) fn handle_request(&mut self, id: u64, request: HostRequest, now: Instant) -> Handled {
        match request {
            HostRequest::Call { tool, input } => self.tool_call(id, tool, input),
            HostRequest::Describe { tool } => Ok(self.describe(id, tool)),
            HostRequest::Search { query, limit } => Ok(self.search(id, query, limit)),
            HostRequest::ApiList { prefix } => Ok(self.api_list(id, &prefix)),
            HostRequest::ApiRead { path } => Ok(self.api_read(id, &path)),
            HostRequest::Yield { reason } => Ok(self.yield_control(id, reason)),
            HostRequest::Timer { delay_ms } => Ok(self.timer(id, delay_ms, now)),
            HostRequest::Store { key, json } => Ok(self.store(id, key, json)),
            HostRequest::Load { key } => Ok(self.load(id, key)),
            HostRequest::ResultSave { value, json } => Ok(self.result_save(id, value, json)),
            HostRequest::ResultLoad { result_id } => Ok(self.result_load(id, result_id)),
            HostRequest::ResultDelete { result_id } => Ok(self.result_delete(id, result_id)),
            HostRequest::McpCall { server, tool, args } => Ok(self.mcp_call(id, server, tool, args)),
            HostRequest::McpOp { server, op, args } => Ok(self.mcp_op(id, server, op, args)),
            HostRequest::McpApi { server, method, schema } => Ok(self.mcp_api(id, server, method, schema)),
            HostRequest::NodesList => Ok(self.nodes_list(id)),
            HostRequest::NodesGet { query } => Ok(self.nodes_get(id, &query)),
            HostRequest::NodesInvoke { node, command, params } => Ok(self.nodes_invoke(id, node, command, params)),
        }
    }

    /// Settles request `id` at once; one inline settlement.
    fn settle_inline(&mut self, settlement: reply::Settlement) -> usize {
        self.host.settle_now(settlement);
        1
    }

    /// Counts a native tool call against the cell's limits: a headless
    /// cell past its tool budget fails.
    fn count_native_call(&mut self) -> Result<(), Flow> {
        self.telemetry.call_count += 1;
        if self.mode.is_headless() && self.telemetry.call_count > self.limits.headless_max_tool_calls {
            let message = format!(
                "headless code mode tool budget exceeded ({} tool calls); make fewer calls per script.",
                self.limits.headless_max_tool_calls
            );
            return Err(self.fail_end(
                codemode_bridge::ErrorCode::ToolBudgetExceeded,
                message,
                codemode_bridge::Phase::Guest,
                crate::runs::EndState::Failed,
            ));
        }
        Ok(())
    }

    /// Counts an MCP or node call. It counts toward the headless budget
    /// but, as it always has, does not fail the cell by itself: enforcing
    /// the budget on these calls too would change what headless scripts
    /// may do.
    fn count_remote_call(&mut self) {
        self.telemetry.call_count += 1;
    }

    /// Queues a host request other than a native tool call, run as a task
    /// when a slot is free (`nested`: an MCP or node call); its answer
    /// comes back as `HostDone`. Returns how many requests settled inline.
    fn spawn_service(
        &mut self,
        id: u64,
        method: super::host::BridgeMethod,
        nested: bool,
        replay_safe: bool,
        task: impl std::future::Future<Output = super::services::Done> + Send + 'static,
    ) -> usize {
        let me = self.myself.clone();
        let task = async move {
            let done = task.await;
            let _ = me.send_message(super::CellMsg::HostDone(id, done));
        };
        let hold = self.write_ahead(replay_safe);
        self.host.submit_task(id, method, nested, hold, task, &self.notify)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_numbers_round_trip_and_names_are_unique() {
        for (i, op) in Op::ALL.iter().enumerate() {
            assert_eq!(Op::from_wire(i as u32), Some(*op));
            assert_eq!(Op::ALL.iter().filter(|o| o.name() == op.name()).count(), 1, "{}", op.name());
        }
        assert_eq!(Op::from_wire(Op::ALL.len() as u32), None);
    }
}
