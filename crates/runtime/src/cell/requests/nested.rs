//! The one pipeline every nested call runs through — native tools, MCP
//! tools and node commands alike (GA-10.3): the host's policy (which may
//! ask for approval: the call then waits on its cell's decision), a
//! `host_call` span, call metrics, then the call itself. The cell's limits (tool budget, replay safety) are checked
//! before a call gets here, and its family turns the outcome into a
//! settlement.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use codemode_catalog::ToolSource;
use codemode_catalog::policy::{Decision, NestedCall, Policy};
use serde_json::Value;
use tokio::sync::oneshot;
use tracing::Instrument;
use tracing::field::Empty;

use super::done::{Completion, Done};
use super::outcome::{CallOutcome, Outcome};
use crate::cell::pending::PendingId;
use crate::telemetry::{CallSeries, Metrics, UNKNOWN_TOOL};

/// Where a nested call goes; the policy's and the metrics' `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CallSource {
    /// A native tool; its registry source (`openclaw` or `client`).
    Native(&'static str),
    /// An MCP server's tool.
    Mcp,
    /// A paired node's command.
    Node,
}

impl CallSource {
    /// The label the policy and the span see.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Native(source) => source,
            Self::Mcp => "mcp",
            Self::Node => "nodes",
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
}

/// One nested call, as the pipeline sees it.
pub(crate) struct CallSpec<'a> {
    pub source: CallSource,
    /// The MCP server's configured name, or the node's id.
    pub server: Option<&'a str>,
    /// The tool's own name, as the policy sees it.
    pub tool: &'a str,
    /// The name spans use (a native tool's callable name).
    pub label: &'a str,
    /// Whether `label` is a name the host knows (a registered native tool,
    /// a command the node declared, a tool the MCP server listed): only
    /// those become metrics labels, others count as [`UNKNOWN_TOOL`].
    pub known: bool,
    /// The request's bridge id, when it has one at start.
    pub pending_id: Option<PendingId>,
}

/// Why an asked call does not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Someone denied it, maybe saying why.
    Denied(Option<String>),
    /// Nobody decided within the approval TTL.
    Expired(std::time::Duration),
    /// The cell has no one to ask (headless); the policy's reason.
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

/// How one call meets the policy: the request it belongs to, where an
/// approval is asked, and where it stands.
pub(crate) struct Gate {
    pub request: u64,
    pub completion: Completion,
    pub approval: Approval,
}

impl CallSpec<'_> {
    /// The call as the guest's errors name it (MCP tool `server.tool`, a
    /// node's command and node, a native tool's callable name).
    pub(crate) fn what(&self) -> String {
        let server = self.server.unwrap_or_default();
        match self.source {
            CallSource::Native(_) => self.label.to_owned(),
            CallSource::Mcp => format!("MCP tool {server}.{}", self.tool),
            CallSource::Node => format!("nodes.invoke \"{}\" on node \"{server}\"", self.tool),
        }
    }

    /// The names an asked call carries, owned: copied only for calls that
    /// may be asked about (a policy that inspects calls, or an approval
    /// restored by a replay), never on the plain call path.
    fn names(&self) -> CallNames {
        CallNames { server: self.server.map(str::to_owned), tool: self.tool.to_owned(), what: self.what() }
    }
}

/// What an asked call's approval and refusal name.
struct CallNames {
    server: Option<String>,
    tool: String,
    what: String,
}

/// How many call series a cell keeps at hand.
const KEPT_SERIES: usize = 16;

/// Runs nested calls for one cell: shared by its native, MCP and node calls.
pub(crate) struct NestedCalls {
    policy: Arc<dyn Policy>,
    session: Option<String>,
    metrics: Arc<Metrics>,
    /// The cell's span: each nested call gets a child span.
    span: tracing::Span,
    /// Metrics series of the tools this cell called (a few; looked up by a
    /// short scan instead of the runtime-wide locked map), by source,
    /// server and tool label.
    series: Vec<(CallSource, String, String, Arc<CallSeries>)>,
}

impl NestedCalls {
    pub(crate) fn new(
        policy: Arc<dyn Policy>,
        session: Option<String>,
        metrics: Arc<Metrics>,
        span: tracing::Span,
    ) -> Self {
        Self { policy, session, metrics, span, series: Vec::new() }
    }

    /// The call as a future: the policy decides first (a policy that never
    /// looks at calls costs nothing: no decision, no copy of `arguments`);
    /// a denial becomes `denied(reason)` and the call does not run; an
    /// *ask* reports the call to its cell through `gate` and waits for the
    /// answer (approved: it runs; otherwise it is refused with the answer's
    /// code). A call approved or asked before a restart skips the policy.
    /// Then `call(arguments)` runs inside the span, and how it ended (its
    /// result's [`Outcome`]) and its latency are recorded on the span and
    /// in the call metrics. `what` names the call in refusals.
    pub(crate) fn run<A, T, F, Fut>(
        &mut self,
        spec: CallSpec<'_>,
        gate: Gate,
        arguments: A,
        denied: impl FnOnce(String) -> T + Send + 'static,
        call: F,
    ) -> impl Future<Output = T> + Send + 'static
    where
        A: Clone + Into<Value> + Send + 'static,
        T: Outcome + Send + 'static,
        F: FnOnce(A) -> Fut + Send + 'static,
        Fut: Future<Output = T> + Send + 'static,
    {
        let source = spec.source.label();
        let span = tracing::info_span!(
            parent: &self.span, "host_call", tool = %spec.label, source = source, server = Empty, bridge_id = Empty,
            outcome = Empty, otel.status_code = Empty, otel.status_description = Empty
        );
        if let Some(server) = spec.server {
            span.record("server", server);
        }
        if let Some(pending_id) = &spec.pending_id {
            span.record("bridge_id", tracing::field::display(pending_id));
        }
        let Gate { request, completion, approval } = gate;
        let (decision, mut awaiting) = match approval {
            Approval::Policy => {
                let check = self.policy.inspects_calls().then(|| {
                    let decision = self.policy.check(NestedCall {
                        source,
                        server: spec.server.map(str::to_owned),
                        tool: spec.tool.to_owned(),
                        arguments: arguments.clone().into(),
                        session: self.session.clone(),
                    });
                    (decision, spec.names())
                });
                (check, None)
            }
            Approval::Awaiting(rx) => (None, Some((rx, spec.what()))),
            Approval::Approved => (None, None),
        };
        let series = self.series(&spec);
        let metrics = Arc::clone(&self.metrics);
        let started = Instant::now();
        let call_span = span.clone();
        async move {
            if let Some((decision, names)) = decision {
                match decision.await {
                    Decision::Allow => {}
                    Decision::Deny(reason) => {
                        CallOutcome::Denied.record(&call_span);
                        series.record(CallOutcome::Denied, started.elapsed());
                        return denied(reason);
                    }
                    Decision::Ask(reason) => {
                        let CallNames { server, tool, what } = names;
                        let (answer, rx) = oneshot::channel();
                        let arguments = arguments.clone().into();
                        let call = AskedCall { source, server, tool, arguments, what: what.clone() };
                        completion(request, Done::Asked(Asked { call, reason, answer, task_input: None }));
                        awaiting = Some((rx, what));
                    }
                }
            }
            if let Some((rx, what)) = awaiting {
                // A dropped sender means the cell ended: nothing awaits
                // this call any more.
                let refusal = match rx.await {
                    Ok(Answer::Run) => None,
                    Ok(Answer::Refuse(refusal)) => Some(refusal),
                    Err(_) => Some(Refusal::Denied(Some("the cell ended before anyone decided".into()))),
                };
                if let Some(refusal) = refusal {
                    CallOutcome::Denied.record(&call_span);
                    series.record(CallOutcome::Denied, started.elapsed());
                    return T::refused(refusal.message(&what), refusal.code());
                }
            }
            let running = metrics.nested_call_started();
            let out = call(arguments).await;
            drop(running);
            let outcome = out.outcome();
            series.record(outcome, started.elapsed());
            outcome.record(&call_span);
            out
        }
        .instrument(span)
    }

    /// The call's metrics series. Its labels are bounded: the tool is
    /// host-known or [`UNKNOWN_TOOL`], the server is a configured MCP
    /// server's name (empty for native tools and nodes, whose node ids are
    /// not worth a series each).
    fn series(&mut self, spec: &CallSpec<'_>) -> Arc<CallSeries> {
        let tool = if spec.known { spec.label } else { UNKNOWN_TOOL };
        let server = match spec.source {
            CallSource::Mcp => spec.server.unwrap_or_default(),
            CallSource::Native(_) | CallSource::Node => "",
        };
        let source = spec.source;
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

    use super::super::outcome::CallFailure;
    use super::*;

    fn gate() -> Gate {
        Gate { request: 1, completion: Arc::new(|_, _| {}), approval: Approval::Policy }
    }

    /// MCP tool names reach the host from the cell's request; a name its
    /// server never listed must not become a label (the guest's namespace
    /// only offers listed tools, so this is the host's own guard).
    #[tokio::test]
    async fn unknown_mcp_tool_names_add_no_series() {
        let metrics = Arc::new(Metrics::default());
        let mut calls = NestedCalls::new(Arc::new(AllowAll), None, Arc::clone(&metrics), tracing::Span::none());
        for i in 0..1000 {
            let tool = format!("junk{i}");
            let spec = CallSpec {
                source: CallSource::Mcp,
                server: Some("files"),
                tool: &tool,
                label: &tool,
                known: false,
                pending_id: None,
            };
            let failed = |_| async { Err::<Value, _>(CallFailure::error("no such tool".into())) };
            let call = calls.run(spec, gate(), Value::Null, |reason| Err(CallFailure::error(reason)), failed);
            assert!(call.await.is_err());
        }
        let spec = CallSpec {
            source: CallSource::Mcp,
            server: Some("files"),
            tool: "read",
            label: "read",
            known: true,
            pending_id: None,
        };
        let answered = |_| async { Ok::<_, CallFailure>(Value::Null) };
        assert!(calls.run(spec, gate(), Value::Null, |reason| Err(CallFailure::error(reason)), answered).await.is_ok());
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
    }
}
