//! The one pipeline every nested call runs through — native tools, MCP
//! tools and node commands alike (GA-10.3): the host's policy (which may
//! hold the call for approval), a `host_call` span, call metrics, then the
//! call itself. The cell's limits (tool budget, replay safety) are checked
//! before a call gets here, and its family turns the outcome into a
//! settlement.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use codemode_catalog::ToolSource;
use codemode_catalog::policy::{Decision, NestedCall, Policy};
use serde_json::Value;
use tracing::Instrument;
use tracing::field::Empty;

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
    /// a denial becomes `denied(reason)` and the call does not run;
    /// otherwise `call(arguments)` runs inside the span, and how it ended
    /// (its result's [`Outcome`]) and its latency are recorded on the span
    /// and in the call metrics.
    /// `denied` is `None` when the callee puts the call to the policy
    /// itself (the node registry does: no handle invokes around it), so
    /// asking here too would ask — or hold for approval — twice.
    pub(crate) fn run<A, T, F, Fut>(
        &mut self,
        spec: CallSpec<'_>,
        arguments: A,
        denied: Option<impl FnOnce(String) -> T + Send + 'static>,
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
        let decision = (self.policy.inspects_calls() && denied.is_some()).then(|| {
            self.policy.check(NestedCall {
                source,
                server: spec.server.map(str::to_owned),
                tool: spec.tool.to_owned(),
                arguments: arguments.clone().into(),
                session: self.session.clone(),
            })
        });
        let series = self.series(&spec);
        let metrics = Arc::clone(&self.metrics);
        let started = Instant::now();
        let call_span = span.clone();
        async move {
            if let Some(decision) = decision
                && let Decision::Deny(reason) = decision.await
                && let Some(denied) = denied
            {
                CallOutcome::Denied.record(&call_span);
                series.record(CallOutcome::Denied, started.elapsed());
                return denied(reason);
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
            let call = calls.run(spec, Value::Null, Some(|reason| Err(CallFailure::error(reason))), failed);
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
        assert!(calls.run(spec, Value::Null, Some(|reason| Err(CallFailure::error(reason))), answered).await.is_ok());
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
