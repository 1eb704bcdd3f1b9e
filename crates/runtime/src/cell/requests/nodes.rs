//! `nodes.list()`, `nodes.get()` and a handle's `invoke` (GA-10). Names,
//! platforms and results are device-provided: they mark the cell like
//! network content (GA-7.7).

use serde_json::Value;

use super::decode_cx::DecodeCx;
use super::done::Done;
use super::op::{HandleInside, HandleOutside, Handled, HostCx, HostOp, Inside, InsideCx, Outside, Rerun};
use super::outbound::{CallFuture, CallSource, Landed, Outbound, Refused, Target};
use super::outcome::{CallFailure, CallOutcome, NestedResult};
use crate::cell::pending::PendingKind;
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;
use crate::engine::settlement::Settlement;

/// `nodes.list()`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct NodesList;

impl HostOp for NodesList {
    type Reach = Inside;
    const NAME: &'static str = "nodesList";
    const WHAT: &'static str = "nodes.list";

    fn decode(_: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self)
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"nodesList");
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        Ok(())
    }
}

impl HandleInside for NodesList {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        let list = cx.services.nodes.as_ref().map(crate::nodes::NodeRegistry::list).unwrap_or_default();
        cx.effects.network |= !list.is_empty();
        let list = serde_json::to_value(&list).map_err(|e| format!("nodes.list could not be answered: {e}"));
        Ok(cx.settle_inline(Settlement::result(id, list, "node_error")))
    }
}

/// `nodes.get(idOrName)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct NodesGet {
    pub query: String,
}

impl HostOp for NodesGet {
    type Reach = Inside;
    const NAME: &'static str = "nodesGet";
    const WHAT: &'static str = "nodes.get";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { query: a.string(0, "the id or name")? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"nodesGet");
        h.field(self.query.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        // Any id decodes; the registry answers for an unknown one.
        Ok(())
    }
}

impl HandleInside for NodesGet {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        let resolved = match &cx.services.nodes {
            Some(nodes) => nodes.resolve(&self.query).map_err(|e| e.to_string()),
            None => Err("no paired nodes".to_owned()),
        };
        cx.effects.network |= resolved.is_ok();
        let resolved = resolved
            .and_then(|node| serde_json::to_value(node).map_err(|e| format!("nodes.get could not be answered: {e}")));
        Ok(cx.settle_inline(Settlement::result(id, resolved, "node_error")))
    }
}

/// A node handle's `invoke(command, params)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct NodesInvoke {
    pub node: String,
    pub command: String,
    pub params: Value,
}

impl HostOp for NodesInvoke {
    type Reach = Outside;
    const CALL_SITE: bool = true;
    const NAME: &'static str = "nodesInvoke";
    const WHAT: &'static str = "a node invoke";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self {
            node: a.string(0, "the node id")?,
            command: a.string(1, "the command")?,
            params: a.projected(2, "the nodes.invoke params")?,
        })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"nodesInvoke");
        h.field(self.node.as_bytes());
        h.field(self.command.as_bytes());
        h.value(&self.params);
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        // A device command is an effect outside the host.
        Rerun::Once(format!("node command {} on {}", self.command, self.node))
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        // The registry and the policy check the node, command and params.
        Ok(())
    }
}

impl HandleOutside for NodesInvoke {
    /// One `invoke` through the gate (GA-10.3: the host policy, which may
    /// ask for approval); then the registry's command policy and timeout.
    /// Dropping the task (the cell stopped) cancels the command on the
    /// node.
    fn outbound(self, id: u64, cx: &mut HostCx<'_>) -> Result<Outbound, Settlement> {
        let rerun = self.rerun(cx);
        let Self { node, command, params } = self;
        let registry = cx.services.nodes.clone();
        let target = Target {
            source: CallSource::Nodes,
            known: registry.as_ref().is_some_and(|nodes| nodes.offers(&node, &command)),
            server: Some(node.clone()),
            tool: command.clone(),
            label: command.clone(),
        };
        let what = target.what();
        let refuse = Box::new(move |why: Refused| {
            let result: Result<Value, CallFailure> = match why {
                Refused::Policy(reason) => Err(CallFailure {
                    message: format!("{what} was denied by policy: {reason}"),
                    kind: CallOutcome::Denied,
                    code: None,
                }),
                Refused::Person(refusal) => NestedResult::refused(refusal.message(&what), refusal.code()),
            };
            Done::Loaded { settlement: CallFailure::settle(id, result, "node_error"), network: true }
        });
        let call = Box::new(move |params: Value, _| {
            Box::pin(async move {
                let result = match registry {
                    None => Err(CallFailure::error(format!("node \"{node}\" is not paired"))),
                    Some(registry) => registry.invoke_allowed(&node, &command, params).await.map_err(CallFailure::from),
                };
                let outcome = result.outcome();
                Landed {
                    outcome,
                    done: Done::Loaded { settlement: CallFailure::settle(id, result, "node_error"), network: true },
                }
            }) as CallFuture
        });
        Ok(Outbound { target, rerun, kind: PendingKind::Nodes, arguments: params, call, refuse, inline: false })
    }
}
