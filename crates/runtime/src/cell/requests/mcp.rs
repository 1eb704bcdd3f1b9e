//! `MCP.<server>.<tool>(args)`, resources/prompts operations and `$api`
//! (GA-9). Tool calls and operations reach the server: they pass the gate
//! (the policy sees an operation as its method, `resources/read`); MCP
//! results are network-derived content (GA-9.3).

use serde_json::{Map, Value};

use super::decode_cx::DecodeCx;
use super::done::Done;
use super::mcp_tasks::ResumedTask;
use super::op::{HandleInside, HandleOutside, Handled, HostCx, HostOp, Inside, InsideCx, Outside, Rerun};
use super::outbound::{CallFuture, CallSource, Landed, Outbound, Refused, Target};
use super::outcome::{CallFailure, NestedResult};
use crate::cell::pending::PendingKind;
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;
use crate::engine::determinism::hub_index;
use crate::engine::settlement::{ErrorName, Fault, Settlement};

/// This process's hub index of the server the guest's namespace calls
/// `server`, or the settlement that says it is gone: a run resumed after a
/// deploy keeps the namespace it saw, whose servers are routed by name.
fn route(cx: &HostCx<'_>, id: u64, server: usize) -> Result<usize, Settlement> {
    if let Some(index) = hub_index(cx.routes, server) {
        return Ok(index);
    }
    let name = cx.routes.and_then(|r| r.get(&server)).map_or_else(|| format!("#{server}"), |r| r.name.clone());
    Err(Settlement::fault(
        id,
        Fault::error(
            format!(
                "MCP server `{name}` is no longer configured on this codemode process: it was removed after this run \
                 started."
            ),
            "tool_error",
        ),
    ))
}

/// The configured name of hub server `index` (empty if it has none: the
/// route was checked, so it has).
fn spec_server(hub: &crate::mcp::McpHub, index: usize) -> String {
    hub.server_name(index).unwrap_or_default().to_owned()
}

/// `MCP.<server>.<tool>(args)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct McpCall {
    pub server: usize,
    pub tool: String,
    pub args: Map<String, Value>,
    /// The MCP task this call already runs as (a resumed run): polled
    /// again, never called anew. Set by the replay, not by the guest, so
    /// never part of a request as it crosses the wire.
    #[serde(skip)]
    pub resume: Option<ResumedTask>,
}

impl HostOp for McpCall {
    const NAME: &'static str = "mcpCall";
    const WHAT: &'static str = "an MCP tool call";
    type Reach = Outside;
    const CALL_SITE: bool = true;

    fn decode(a: &Args<'_, '_>, cx: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        let (server, tool) = (a.index(0, "the server index")?, a.string(1, "the tool name")?);
        let mut args = a.mcp_args(2)?;
        // Defaults and required arguments are the namespace's promise
        // (GA-9.4): checked before the call is admitted, so a refused call
        // takes no pending id.
        if let Some(hub) = cx.hub_index(server) {
            cx.mcp
                .complete_arguments(hub, &tool, &mut args)
                .map_err(|missing| rquickjs::Exception::throw_type(a.ctx, &missing))?;
        }
        Ok(Self { server, tool, args, resume: None })
    }

    fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>) {
        h.bytes(b"mcpCall");
        refs.server(h, self.server);
        h.field(self.tool.as_bytes());
        h.map(&self.args);
    }

    fn rerun(&self, cx: &HostCx<'_>) -> Rerun {
        // Replay-safe by configuration or by the tool's annotations.
        match hub_index(cx.routes, self.server) {
            Some(server) if cx.services.mcp.replay_safe(server, &self.tool) => Rerun::ReplaySafe,
            _ => Rerun::Once(format!("MCP tool `{}`", self.tool)),
        }
    }

    fn recheck(&self, cx: &DecodeCx<'_>) -> Result<(), String> {
        // Decoding completed the arguments from the tool's schema (GA-9.4):
        // completing them again changes nothing and misses nothing.
        let Some(hub) = cx.hub_index(self.server) else { return Ok(()) };
        let mut completed = self.args.clone();
        cx.mcp.complete_arguments(hub, &self.tool, &mut completed)?;
        if completed != self.args {
            return Err(format!("MCP arguments of {} that decoding would have completed", self.tool));
        }
        Ok(())
    }
}

impl HandleOutside for McpCall {
    fn outbound(self, id: u64, cx: &mut HostCx<'_>) -> Result<Outbound, Settlement> {
        let server = route(cx, id, self.server)?;
        let rerun = self.rerun(cx);
        let Self { tool, args, resume, .. } = self;
        let hub = cx.services.mcp.clone();
        let target = Target {
            source: CallSource::Mcp,
            server: Some(spec_server(&hub, server)),
            tool: tool.clone(),
            label: tool.clone(),
            known: hub.declares(server, &tool),
        };
        // A denial resolves like an in-band MCP error (GA-9.4).
        let what = target.what();
        let refuse = Box::new(move |why: Refused| {
            let result = match why {
                Refused::Policy(reason) => Ok(serde_json::json!({
                    "content": [{"type": "text", "text": format!("denied by policy: {reason}")}],
                    "isError": true
                })),
                Refused::Person(refusal) => {
                    <Result<Value, CallFailure> as NestedResult>::refused(refusal.message(&what), refusal.code())
                }
            };
            Done::Loaded { settlement: CallFailure::settle(id, result, "tool_error"), network: true }
        });
        // The server may run the call as a task: the cell hears of it at
        // once, to journal it, and of the task's requests for input.
        let (resumed, restored) = match resume {
            Some(ResumedTask { task, inputs }) => (Some(task), inputs),
            None => (None, std::collections::HashMap::new()),
        };
        let name = spec_server(&hub, server);
        let call = Box::new(move |args: Value, hooks: super::outbound::CallHooks| {
            let hooks = super::mcp_tasks::hooks(&hooks, name, tool.clone(), restored);
            Box::pin(async move {
                let result = match resumed {
                    Some(task) => hub.resume_task(server, &tool, &task, hooks.on_input).await,
                    None => hub.call_with_tasks(server, tool, object(args), hooks).await,
                }
                .map_err(CallFailure::from);
                landed(id, result)
            }) as CallFuture
        });
        Ok(Outbound {
            target,
            rerun,
            kind: PendingKind::CallValue,
            arguments: Value::Object(args),
            call,
            refuse,
            inline: false,
        })
    }
}

/// How an MCP call or operation of request `id` ended: its answer is
/// network-derived content (GA-9.3).
fn landed(id: u64, result: Result<Value, CallFailure>) -> Landed {
    let outcome = result.outcome();
    Landed { outcome, done: Done::Loaded { settlement: CallFailure::settle(id, result, "tool_error"), network: true } }
}

/// The arguments map the gate handed back (it was given one).
fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `MCP.<server>.resources.list/read`, `prompts.list/get`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct McpOp {
    pub server: usize,
    pub op: String,
    pub args: Map<String, Value>,
}

impl HostOp for McpOp {
    const NAME: &'static str = "mcpOp";
    const WHAT: &'static str = "an MCP operation";
    type Reach = Outside;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { server: a.index(0, "the server index")?, op: a.string(1, "the operation")?, args: a.mcp_args(2)? })
    }

    fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>) {
        h.bytes(b"mcpOp");
        refs.server(h, self.server);
        h.field(self.op.as_bytes());
        h.map(&self.args);
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        // Resources and prompts are read.
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        Ok(())
    }
}

impl HandleOutside for McpOp {
    fn outbound(self, id: u64, cx: &mut HostCx<'_>) -> Result<Outbound, Settlement> {
        let server = route(cx, id, self.server)?;
        let rerun = self.rerun(cx);
        let hub = cx.services.mcp.clone();
        let Self { op, args, .. } = self;
        let target = Target {
            source: CallSource::Mcp,
            server: Some(spec_server(&hub, server)),
            tool: op.clone(),
            label: op.clone(),
            known: matches!(op.as_str(), "resources/list" | "resources/read" | "prompts/list" | "prompts/get"),
        };
        let what = target.what();
        let refuse = Box::new(move |why: Refused| {
            let fault = match why {
                Refused::Policy(reason) => {
                    Fault::new(ErrorName::Error, format!("{what} was denied by policy: {reason}"), "policy_denied")
                }
                Refused::Person(refusal) => Fault::error(refusal.message(&what), refusal.code()),
            };
            Done::Settle(Settlement::fault(id, fault))
        });
        let call = Box::new(move |args: Value, _| {
            Box::pin(
                async move { landed(id, hub.operation(server, &op, object(args)).await.map_err(CallFailure::from)) },
            ) as CallFuture
        });
        Ok(Outbound {
            target,
            rerun,
            kind: PendingKind::Namespace,
            arguments: Value::Object(args),
            call,
            refuse,
            inline: false,
        })
    }
}

/// `MCP.$api()` (no server) or `MCP.<server>.$api(method, {schema})`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct McpApi {
    pub server: Option<usize>,
    pub method: Option<String>,
    pub schema: bool,
}

impl HostOp for McpApi {
    const NAME: &'static str = "mcpApi";
    const WHAT: &'static str = "MCP $api()";
    type Reach = Inside;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self {
            // A negative index is the root `MCP.$api()`.
            server: a.number(0).filter(|n| *n >= 0.0).map(|_| a.index(0, "the server index")).transpose()?,
            method: a.opt_string(1, "the method")?,
            schema: a.get(2).and_then(rquickjs::Value::as_bool).unwrap_or(false),
        })
    }

    fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>) {
        h.bytes(b"mcpApi");
        refs.opt_server(h, self.server);
        h.opt(self.method.as_deref());
        h.bytes(if self.schema { b"1" } else { b"0" });
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        Ok(())
    }
}

impl HandleInside for McpApi {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        cx.effects.network = true;
        let server = match self.server.map(|s| route(cx, id, s)).transpose() {
            Ok(server) => server,
            Err(gone) => return Ok(cx.settle_inline(gone)),
        };
        let tree = cx.services.mcp.tree();
        let target = server.and_then(|i| tree.servers.iter().find(|s| s.index == i));
        let result = crate::mcp::api_response(&tree, target, self.method.as_deref(), self.schema);
        Ok(cx.settle_inline(Settlement::result(id, result, "invalid_input")))
    }
}
