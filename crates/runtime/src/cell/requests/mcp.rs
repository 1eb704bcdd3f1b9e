//! `MCP.<server>.<tool>(args)`, resources/prompts operations and `$api`
//! (GA-9). Tool calls run through the nested-call pipeline; MCP results
//! are network-derived content (GA-9.3).

use serde_json::{Map, Value};

use super::nested::{CallSource, CallSpec};
use super::outcome::CallFailure;
use super::reply::{Fault, Settlement};
use crate::cell::host::BridgeMethod;
use crate::cell::{CellState, services, vm_lock};

impl CellState {
    /// This process's hub index of the server the guest's namespace calls
    /// `server`, or the settlement that says it is gone: a run resumed
    /// after a deploy keeps the namespace it saw, whose servers are routed
    /// by name.
    fn mcp_route(&mut self, id: u64, server: usize) -> Result<usize, Settlement> {
        let bridge = vm_lock(&self.bridge);
        match bridge.determinism.mcp_hub_index(server) {
            Some(index) => Ok(index),
            None => {
                let name = bridge.determinism.mcp_routes.as_ref().and_then(|r| r.get(&server)).map(|r| r.name.clone());
                let name = name.unwrap_or_else(|| format!("#{server}"));
                Err(Settlement::fault(
                    id,
                    Fault::error(
                        format!(
                            "MCP server `{name}` is no longer configured on this codemode process: it was removed after \
                             this run started."
                        ),
                        "tool_error",
                    ),
                ))
            }
        }
    }

    pub(super) fn mcp_call(&mut self, id: u64, server: usize, tool: String, args: Map<String, Value>) -> usize {
        let server = match self.mcp_route(id, server) {
            Ok(server) => server,
            Err(gone) => return self.settle_inline(gone),
        };
        // Replay-safe by configuration or by the tool's annotations.
        let replay_safe = self.mcp.replay_safe(server, &tool);
        if self.host.refuse_unless_replay_safe(id, &format!("MCP tool `{tool}`"), replay_safe) {
            return 1;
        }
        self.count_remote_call();
        let hub = self.mcp.clone();
        let spec = CallSpec {
            source: CallSource::Mcp,
            server: hub.server_name(server),
            tool: &tool,
            label: &tool,
            known: hub.declares(server, &tool),
            bridge_id: None,
        };
        // A denial resolves like an in-band MCP error (GA-9.4).
        let denied = |reason: String| {
            Ok(serde_json::json!({
                "content": [{"type": "text", "text": format!("denied by policy: {reason}")}],
                "isError": true
            }))
        };
        let hub = self.mcp.clone();
        let call = self.host.nested.run(spec, args, Some(denied), {
            let (hub, tool) = (hub.clone(), tool.clone());
            move |args| async move { hub.call(server, tool, args).await.map_err(CallFailure::from) }
        });
        let task = async move {
            let settlement = Settlement::result(id, call.await.map_err(|f| f.message), "tool_error");
            services::Done::Loaded { settlement, network: true }
        };
        self.spawn_service(id, BridgeMethod::CallValue, true, replay_safe, task)
    }

    pub(super) fn mcp_op(&mut self, id: u64, server: usize, op: String, args: Map<String, Value>) -> usize {
        let server = match self.mcp_route(id, server) {
            Ok(server) => server,
            Err(gone) => return self.settle_inline(gone),
        };
        let hub = self.mcp.clone();
        let task = async move {
            let result = hub.operation(server, &op, args).await.map_err(|e| e.to_string());
            let settlement = Settlement::result(id, result, "tool_error");
            services::Done::Loaded { settlement, network: true }
        };
        self.spawn_service(id, BridgeMethod::Namespace, true, true, task)
    }

    pub(super) fn mcp_api(&mut self, id: u64, server: Option<usize>, method: Option<String>, schema: bool) -> usize {
        self.network = true;
        let server = match server.map(|s| self.mcp_route(id, s)).transpose() {
            Ok(server) => server,
            Err(gone) => return self.settle_inline(gone),
        };
        let tree = self.mcp.tree();
        let target = server.and_then(|i| tree.servers.iter().find(|s| s.index == i));
        let result = crate::mcp::api_response(&tree, target, method.as_deref(), schema).map_err(|e| e.to_string());
        self.settle_inline(Settlement::result(id, result, "invalid_input"))
    }
}
