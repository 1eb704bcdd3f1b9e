//! What a request that leaves the cell is, as its handler describes it to
//! the [gate](super::gate) ([`Outbound`]) and as the policy, the span, the
//! metrics and an approver see it: its target, why it may be refused, how
//! an asked call is answered, and how it reports back.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use codemode_catalog::policy::Policy;
use serde_json::Value;
use tokio::sync::oneshot;

use super::asked::{Refusal, Ruling};
use super::done::{Completion, Done};
use super::rerun::Rerun;
use crate::cell::pending::PendingKind;
use crate::telemetry::CallOutcome;

/// Where an outbound request goes; the policy's and the metrics' `source`.
pub(crate) use codemode_catalog::policy::CallSource;

/// Whether a call to `source` counts as a tool call (the receipt's
/// `callCount`, the headless tool budget, the queued-calls metric):
/// everything but the reply's own results cache.
pub(crate) fn is_call(source: CallSource) -> bool {
    source != CallSource::Results
}

/// What an outbound request is, as the policy, the span, the metrics and
/// an approver see it.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub source: CallSource,
    /// The MCP server's configured name, or the node's id.
    pub server: Option<String>,
    /// The tool's own name (an MCP operation's method, `resources/read`),
    /// as the policy sees it.
    pub tool: String,
    /// The name spans and metrics use (a native tool's callable name).
    pub label: String,
    /// Whether `label` is a name the host knows (a registered native tool,
    /// a command the node declared, a tool the MCP server listed): only
    /// those become metrics labels, others count as [`UNKNOWN_TOOL`](crate::telemetry::UNKNOWN_TOOL).
    pub known: bool,
}

impl Target {
    /// The request as the guest's errors name it.
    pub(crate) fn what(&self) -> String {
        let server = self.server.as_deref().unwrap_or_default();
        match self.source {
            CallSource::Native | CallSource::Client => self.label.clone(),
            CallSource::Mcp if self.tool.contains('/') => format!("MCP {} on {server}", self.tool),
            CallSource::Mcp => format!("MCP tool {server}.{}", self.tool),
            CallSource::Nodes => format!("nodes.invoke \"{}\" on node \"{server}\"", self.tool),
            CallSource::Results => format!("results.{}", self.tool),
        }
    }
}

/// Why an outbound request did not run.
#[derive(Debug)]
pub(crate) enum Refused {
    /// The policy denied it, saying why.
    Policy(String),
    /// A person (or nobody in time) refused it.
    Person(Refusal),
}

/// Where a call stands with approvals before it starts.
#[derive(Debug, Default)]
pub(crate) enum Approval {
    /// Put it to the policy (a fresh call).
    #[default]
    Policy,
    /// A pending approval restored from the journal: wait for its answer,
    /// without asking the policy again.
    Awaiting(oneshot::Receiver<Ruling>),
    /// Approved before a restart: run it.
    Approved,
}

/// How an outbound call ended, for its span and metrics, and what it
/// reports to its cell.
pub(crate) struct Landed {
    pub outcome: CallOutcome,
    pub done: Done,
}

/// A running outbound call.
pub(crate) type CallFuture = Pin<Box<dyn Future<Output = Landed> + Send>>;

/// A gated request's work, as the host work queues it.
pub(crate) type GatedFuture = Pin<Box<dyn Future<Output = Done> + Send>>;

/// What a call may tell its cell while it runs (an MCP task it became,
/// the task's requests for input), and the policy that sees what it sends
/// on (an answer to a task's request for input leaves the cell too).
#[derive(Clone)]
pub(crate) struct CallHooks {
    pub request: u64,
    pub completion: Completion,
    pub policy: Arc<dyn Policy>,
    pub session: Option<String>,
    /// The session's principal (a tool's context).
    pub principal: Option<String>,
    /// The calling run (a tool's context).
    pub run_id: Arc<str>,
}

impl CallHooks {
    /// What a native tool is told of this call.
    pub(crate) fn tool_context(&self) -> codemode_catalog::ToolContext {
        codemode_catalog::ToolContext::new(
            self.session.clone(),
            self.principal.clone(),
            self.run_id.to_string(),
            self.request,
        )
    }
}

/// Runs the call with the arguments the gate let through.
pub(crate) type Call = Box<dyn FnOnce(Value, CallHooks) -> CallFuture + Send>;

/// Settles a request the gate refused before it ran.
pub(crate) type Refuse = Box<dyn FnOnce(Refused) -> Done + Send>;

/// A request that leaves the cell, as its handler describes it to the
/// gate; only [`HostCx::pass`](super::op::HostCx::pass) runs it.
pub(crate) struct Outbound {
    pub target: Target,
    /// Whether a crash may run it again: decides the `restartSafe` refusal
    /// and the write-ahead.
    pub rerun: Rerun,
    /// How the model sees it while it is pending.
    pub kind: PendingKind,
    /// The arguments: what the policy sees, then what the call gets.
    pub arguments: Value,
    pub call: Call,
    pub refuse: Refuse,
    /// A call that may answer at once (a native tool): polled once when it
    /// starts, so it settles within the step that made it.
    pub inline: bool,
}
