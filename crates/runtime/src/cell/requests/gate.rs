//! The one gate every request that leaves the cell passes: native tools,
//! every MCP operation, node commands, `results.save`/`delete` (GA-10.3).
//!
//! A request kind declares where it reaches (`HostOp::Reach`): one that
//! reaches [`Outside`](super::op::Outside) cannot start work of its own —
//! its handler only describes the call as an [`Outbound`], and
//! [`HostCx::pass`](super::op::HostCx::pass) runs it through these steps,
//! in this order, for every kind alike:
//!
//! 1. **replay safety** — a `restartSafe` cell refuses a request a replay
//!    could repeat (and fails);
//! 2. **budget** — counted as a call; a headless cell past its tool budget
//!    fails;
//! 3. **in-flight bound and write-ahead** — queued behind the cell's
//!    `max_in_flight` slots; a request that must never run twice is held
//!    until a stored journal records it;
//! 4. **policy** — the host's `Policy` allows, denies or asks (the call
//!    then waits on its cell's decision, journaled before it is answered);
//! 5. **span and metrics** — a `host_call` span and the call metrics
//!    around the call itself.
//!
//! The policy comes after the write-ahead so that an asked call is already
//! in the journal when a person is asked: a crash then finds it pending,
//! never lost, never asked twice.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use codemode_catalog::ToolSource;
use codemode_catalog::policy::{Decision, NestedCall, Policy};
use serde_json::Value;
use tokio::sync::oneshot;
use tracing::Instrument;
use tracing::field::Empty;

use super::done::{Completion, Done};
use super::op::Rerun;
use crate::cell::pending::{PendingId, PendingKind};
use crate::telemetry::{CallOutcome, CallSeries, Metrics, UNKNOWN_TOOL};

/// Where an outbound request goes; the policy's and the metrics' `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CallSource {
    /// A native tool; its registry source (`openclaw` or `client`).
    Native(&'static str),
    /// An MCP server: a tool, a resource, a prompt.
    Mcp,
    /// A paired node's command.
    Node,
    /// The reply's results cache (`results.save`, `results.delete`).
    Results,
}

impl CallSource {
    /// The label the policy and the span see.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Native(source) => source,
            Self::Mcp => "mcp",
            Self::Node => "nodes",
            Self::Results => "results",
        }
    }

    /// The metrics' `source` label: as [`label`](Self::label), except that
    /// the host's own tools are `native` (their registry source names
    /// another product, which operators need not know).
    fn metrics_label(self) -> &'static str {
        match self {
            Self::Native(source) if source == ToolSource::Native.guest_name() => "native",
            other => other.label(),
        }
    }

    /// Whether it counts as a tool call (the receipt's `callCount`, the
    /// headless tool budget, the queued-calls metric): everything but the
    /// reply's own results cache.
    pub(crate) fn is_call(self) -> bool {
        !matches!(self, Self::Results)
    }
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
    /// those become metrics labels, others count as [`UNKNOWN_TOOL`].
    pub known: bool,
}

impl Target {
    /// The request as the guest's errors name it.
    pub(crate) fn what(&self) -> String {
        let server = self.server.as_deref().unwrap_or_default();
        match self.source {
            CallSource::Native(_) => self.label.clone(),
            CallSource::Mcp if self.tool.contains('/') => format!("MCP {} on {server}", self.tool),
            CallSource::Mcp => format!("MCP tool {server}.{}", self.tool),
            CallSource::Node => format!("nodes.invoke \"{}\" on node \"{server}\"", self.tool),
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

/// Why an asked call does not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Someone denied it, maybe saying why.
    Denied(Option<String>),
    /// Nobody decided within the approval TTL.
    Expired(std::time::Duration),
    /// The cell has no one to ask (headless, or started unattended); the
    /// policy's reason.
    NoApprover(String),
}

impl Refusal {
    /// The guest error's code.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            Self::Denied(_) | Self::NoApprover(_) => "denied",
            Self::Expired(_) => "approval_expired",
        }
    }

    /// The guest error's message, for the call described as `what`.
    pub(crate) fn message(&self, what: &str) -> String {
        match self {
            Self::Denied(Some(reason)) => format!("{what} was denied: {reason}"),
            Self::Denied(None) => format!("{what} was denied; it did not run."),
            Self::Expired(ttl) => format!(
                "{what} was not approved within {} ms, so the approval expired and it did not run. Call it again to \
                 ask again.",
                ttl.as_millis()
            ),
            Self::NoApprover(reason) => format!(
                "{what} needs approval ({reason}), and a headless cell has no one to ask; it did not run. Run it in \
                 a session, where a wait can approve it."
            ),
        }
    }
}

/// The cell's answer to an asked call.
#[derive(Debug)]
pub(crate) enum Answer {
    /// Approved: run it.
    Run,
    /// Do not run it.
    Refuse(Refusal),
}

/// The call an approval is asked for, as the approver sees it.
#[derive(Debug)]
pub(crate) struct AskedCall {
    pub source: &'static str,
    pub server: Option<String>,
    pub tool: String,
    pub arguments: Value,
    /// The call as the guest's errors name it.
    pub what: String,
}

/// A call the policy asked about: the cell records a pending approval and
/// answers on `answer` once decided.
#[derive(Debug)]
pub(crate) struct Asked {
    pub call: AskedCall,
    pub reason: String,
    pub answer: oneshot::Sender<Answer>,
    /// The input request's key, when the call's MCP task asks for input.
    pub task_input: Option<String>,
}

/// Where a call stands with approvals before it starts.
#[derive(Debug, Default)]
pub(crate) enum Approval {
    /// Put it to the policy (a fresh call).
    #[default]
    Policy,
    /// A pending approval restored from the journal: wait for its answer,
    /// without asking the policy again.
    Awaiting(oneshot::Receiver<Answer>),
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

/// How many call series a cell keeps at hand.
const KEPT_SERIES: usize = 16;

/// The policy, span and metrics part of the gate, one per cell.
pub(crate) struct Gate {
    policy: Arc<dyn Policy>,
    session: Option<String>,
    metrics: Arc<Metrics>,
    /// The cell's span: each outbound call gets a child span.
    span: tracing::Span,
    /// Metrics series of the targets this cell called (a few; looked up by
    /// a short scan instead of the runtime-wide locked map), by source,
    /// server and tool label.
    series: Vec<(CallSource, String, String, Arc<CallSeries>)>,
}

impl Gate {
    pub(crate) fn new(
        policy: Arc<dyn Policy>,
        session: Option<String>,
        metrics: Arc<Metrics>,
        span: tracing::Span,
    ) -> Self {
        Self { policy, session, metrics, span, series: Vec::new() }
    }

    /// The hooks of request `request`'s call, reporting through
    /// `completion`.
    pub(crate) fn hooks(&self, request: u64, completion: Completion) -> CallHooks {
        CallHooks { request, completion, policy: Arc::clone(&self.policy), session: self.session.clone() }
    }

    /// The call as a future, past the cell's own checks: the policy decides
    /// first (a policy that never looks at calls costs nothing: no
    /// decision, no copy of the arguments); a denial settles as the
    /// request's `refuse` says and the call does not run; an *ask* reports
    /// the call to its cell through `hooks` and waits for the answer
    /// (approved: it runs; otherwise it is refused). A call approved or
    /// asked before a restart (`approval`) skips the policy. Then the call
    /// runs inside a `host_call` span, and how it ended and its latency
    /// are recorded on the span and in the call metrics.
    pub(crate) fn run(
        &mut self,
        outbound: Outbound,
        approval: Approval,
        hooks: CallHooks,
        pending_id: PendingId,
    ) -> GatedFuture {
        let Outbound { target, arguments, call, refuse, .. } = outbound;
        let source = target.source.label();
        let span = tracing::info_span!(
            parent: &self.span, "host_call", tool = %target.label, source = source, server = Empty, bridge_id = Empty,
            outcome = Empty, otel.status_code = Empty, otel.status_description = Empty
        );
        if let Some(server) = &target.server {
            span.record("server", server.as_str());
        }
        span.record("bridge_id", tracing::field::display(pending_id));
        let what = target.what();
        let (decision, awaiting) = match approval {
            Approval::Policy => {
                let decision = self.policy.inspects_calls().then(|| {
                    self.policy.check(NestedCall {
                        source,
                        server: target.server.clone(),
                        tool: target.tool.clone(),
                        arguments: arguments.clone(),
                        session: self.session.clone(),
                    })
                });
                (decision, None)
            }
            Approval::Awaiting(rx) => (None, Some(rx)),
            Approval::Approved => (None, None),
        };
        let series = self.series(&target);
        let metrics = Arc::clone(&self.metrics);
        let started = Instant::now();
        let (refused_span, refused_series) = (span.clone(), Arc::clone(&series));
        let refused = move |why: Refused| {
            CallOutcome::Denied.record(&refused_span);
            refused_series.record(CallOutcome::Denied, started.elapsed());
            refuse(why)
        };
        let call_span = span.clone();
        Box::pin(
            async move {
                let mut awaiting = awaiting;
                if let Some(decision) = decision {
                    match decision.await {
                        Decision::Allow => {}
                        Decision::Deny(reason) => return refused(Refused::Policy(reason)),
                        Decision::Ask(reason) => {
                            let (answer, rx) = oneshot::channel();
                            let call = AskedCall {
                                source,
                                server: target.server.clone(),
                                tool: target.tool.clone(),
                                arguments: arguments.clone(),
                                what: what.clone(),
                            };
                            (hooks.completion)(
                                hooks.request,
                                Done::Asked(Asked { call, reason, answer, task_input: None }),
                            );
                            awaiting = Some(rx);
                        }
                    }
                }
                if let Some(rx) = awaiting {
                    // A dropped sender means the cell ended: nothing awaits
                    // this call any more.
                    let refusal = match rx.await {
                        Ok(Answer::Run) => None,
                        Ok(Answer::Refuse(refusal)) => Some(refusal),
                        Err(_) => Some(Refusal::Denied(Some("the cell ended before anyone decided".into()))),
                    };
                    if let Some(refusal) = refusal {
                        return refused(Refused::Person(refusal));
                    }
                }
                let running = metrics.nested_call_started();
                crate::crash_points::point("call.start");
                let Landed { outcome, done } = call(arguments, hooks).await;
                crate::crash_points::point("call.settled");
                drop(running);
                series.record(outcome, started.elapsed());
                outcome.record(&call_span);
                done
            }
            .instrument(span),
        )
    }

    /// The call's metrics series. Its labels are bounded: the tool is
    /// host-known or [`UNKNOWN_TOOL`], the server is a configured MCP
    /// server's name (empty for native tools, results and nodes, whose node
    /// ids are not worth a series each).
    fn series(&mut self, target: &Target) -> Arc<CallSeries> {
        let tool = if target.known { target.label.as_str() } else { UNKNOWN_TOOL };
        let server = match target.source {
            CallSource::Mcp => target.server.as_deref().unwrap_or_default(),
            CallSource::Native(_) | CallSource::Node | CallSource::Results => "",
        };
        let source = target.source;
        if let Some((.., found)) = self.series.iter().find(|(s, sv, t, _)| *s == source && sv == server && t == tool) {
            return Arc::clone(found);
        }
        let found = self.metrics.call_series(source.metrics_label(), server, tool);
        if self.series.len() < KEPT_SERIES {
            self.series.push((source, server.to_owned(), tool.to_owned(), Arc::clone(&found)));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use codemode_catalog::policy::AllowAll;

    use super::super::answer::{Fault, Settlement};
    use super::*;

    fn outbound(tool: &str, known: bool) -> Outbound {
        Outbound {
            target: Target {
                source: CallSource::Mcp,
                server: Some("files".into()),
                tool: tool.into(),
                label: tool.into(),
                known,
            },
            rerun: Rerun::Repeatable,
            kind: PendingKind::CallValue,
            arguments: Value::Null,
            call: Box::new(move |_, _| {
                Box::pin(async move {
                    let outcome = if known { CallOutcome::Ok } else { CallOutcome::Error };
                    Landed { outcome, done: Done::Settle(Settlement::value(1, Value::Null)) }
                })
            }),
            refuse: Box::new(|_| Done::Settle(Settlement::fault(1, Fault::error("no", "policy_denied")))),
            inline: false,
        }
    }

    fn hooks() -> CallHooks {
        CallHooks { request: 1, completion: Arc::new(|_, _| {}), policy: Arc::new(AllowAll), session: None }
    }

    /// MCP tool names reach the host from the cell's request; a name its
    /// server never listed must not become a label (the guest's namespace
    /// only offers listed tools, so this is the host's own guard).
    #[tokio::test]
    async fn unknown_mcp_tool_names_add_no_series() {
        let metrics = Arc::new(Metrics::default());
        let mut gate = Gate::new(Arc::new(AllowAll), None, Arc::clone(&metrics), tracing::Span::none());
        let mut counters = crate::cell::pending::PendingCounters::default();
        for i in 0..1000 {
            let id = counters.next(PendingKind::CallValue);
            gate.run(outbound(&format!("junk{i}"), false), Approval::Policy, hooks(), id).await;
        }
        let id = counters.next(PendingKind::CallValue);
        gate.run(outbound("read", true), Approval::Policy, hooks(), id).await;
        let s = metrics.snapshot();
        let keys: Vec<(&str, &str, &str)> =
            s.nested_calls.iter().map(|c| (c.source.as_str(), c.server.as_str(), c.tool.as_str())).collect();
        assert_eq!(keys, [("mcp", "files", UNKNOWN_TOOL), ("mcp", "files", "read")]);
        assert_eq!(s.nested_calls[0].outcomes["error"], 1000);
    }

    #[test]
    fn the_hosts_own_tools_are_labelled_native() {
        assert_eq!(CallSource::Native("openclaw").metrics_label(), "native");
        assert_eq!(CallSource::Native("openclaw").label(), "openclaw", "the policy still sees the registry source");
        assert_eq!(CallSource::Native("client").metrics_label(), "client");
        assert_eq!(CallSource::Results.metrics_label(), "results");
    }
}
