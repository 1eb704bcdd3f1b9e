//! `nodes.list()`, `nodes.get()` and a handle's `invoke` (GA-10). Names,
//! platforms and results are device-provided: they mark the cell like
//! network content (GA-7.7).

use serde_json::Value;

use super::nested::{CallSource, CallSpec};
use super::outcome::CallFailure;
use super::reply::Settlement;
use crate::cell::host::BridgeMethod;
use crate::cell::{CellMode, CellState, services};

impl CellState {
    pub(super) fn nodes_list(&mut self, id: u64) -> usize {
        let list = self.nodes.as_ref().map(crate::nodes::NodeRegistry::list).unwrap_or_default();
        self.network |= !list.is_empty();
        let list = serde_json::to_value(&list).map_err(|e| format!("nodes.list could not be answered: {e}"));
        self.settle_inline(Settlement::result(id, list, "node_error"))
    }

    pub(super) fn nodes_get(&mut self, id: u64, query: &str) -> usize {
        let resolved = match &self.nodes {
            Some(nodes) => nodes.resolve(query).map_err(|e| e.to_string()),
            None => Err("no paired nodes".to_owned()),
        };
        self.network |= resolved.is_ok();
        let resolved = resolved
            .and_then(|node| serde_json::to_value(node).map_err(|e| format!("nodes.get could not be answered: {e}")));
        self.settle_inline(Settlement::result(id, resolved, "node_error"))
    }

    /// One `invoke` through the nested-call pipeline (GA-10.3); then the
    /// registry's command policy and timeout. Dropping the task (the cell
    /// stopped) cancels the command on the node.
    pub(super) fn nodes_invoke(&mut self, id: u64, node: String, command: String, params: Value) -> usize {
        // A device command is an effect outside the host.
        if self.host.refuse_unless_replay_safe(id, &format!("nodes invoke `{command}`"), false) {
            return 1;
        }
        self.count_remote_call();
        let spec = CallSpec {
            source: CallSource::Node,
            server: Some(&node),
            tool: &command,
            label: &command,
            known: self.nodes.as_ref().is_some_and(|nodes| nodes.offers(&node, &command)),
            bridge_id: None,
        };
        // The registry puts the call to the host policy itself (GA-10.3).
        let denied = None::<fn(String) -> Result<Value, CallFailure>>;
        let registry = self.nodes.clone();
        let session = match &self.mode {
            CellMode::Interactive { session, .. } => Some(session.clone()),
            CellMode::Headless => None,
        };
        let (invoked_node, invoked_command) = (node.clone(), command.clone());
        let call = self.host.nested.run(spec, params, denied, move |params| async move {
            let (node, command) = (invoked_node, invoked_command);
            match registry {
                None => Err(CallFailure::error(format!("node \"{node}\" is not paired"))),
                // The registry puts the call to the host policy (GA-10.3).
                Some(registry) => registry.invoke(session, &node, &command, params).await.map_err(CallFailure::from),
            }
        });
        let task = async move {
            let settlement = Settlement::result(id, call.await.map_err(|f| f.message), "node_error");
            services::Done::Loaded { settlement, network: true }
        };
        self.spawn_service(id, BridgeMethod::Nodes, true, false, task)
    }
}
