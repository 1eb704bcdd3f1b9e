//! The one pipeline every nested call runs through — native tools, MCP
//! tools and node commands alike (GA-10.3): the host's policy (which may
//! hold the call for approval), a `host_call` span, call metrics, then the
//! call itself. The cell's limits (tool budget, replay safety) are checked
//! before a call gets here, and its family turns the outcome into a
//! settlement.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use codemode_catalog::policy::{Decision, NestedCall, Policy};
use serde_json::Value;
use tracing::Instrument;
use tracing::field::Empty;

use super::outcome::{CallOutcome, Outcome};
use crate::cell::host::BridgeId;
use crate::telemetry::{Histogram, Metrics};

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
    /// The label the policy, the span and the metrics see.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Native(source) => source,
            Self::Mcp => "mcp",
            Self::Node => "nodes",
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
    /// The name spans and metrics use (a native tool's callable name).
    pub label: &'a str,
    /// The request's bridge id, when it has one at start.
    pub bridge_id: Option<BridgeId>,
}

/// How many (tool, source) histograms a cell keeps at hand.
const KEPT_HISTOGRAMS: usize = 16;

/// Runs nested calls for one cell: shared by its native, MCP and node calls.
pub(crate) struct NestedCalls {
    policy: Arc<dyn Policy>,
    session: Option<String>,
    metrics: Arc<Metrics>,
    /// The cell's span: each nested call gets a child span.
    span: tracing::Span,
    /// Latency histograms of the tools this cell called (a few; looked up
    /// by a short scan instead of the runtime-wide locked map).
    histograms: Vec<(CallSource, String, Arc<Histogram>)>,
}

impl NestedCalls {
    pub(crate) fn new(
        policy: Arc<dyn Policy>,
        session: Option<String>,
        metrics: Arc<Metrics>,
        span: tracing::Span,
    ) -> Self {
        Self { policy, session, metrics, span, histograms: Vec::new() }
    }

    /// The call as a future: the policy decides first (a policy that never
    /// looks at calls costs nothing: no decision, no copy of `arguments`);
    /// a denial becomes `denied(reason)` and the call does not run;
    /// otherwise `call(arguments)` runs inside the span and its latency is
    /// recorded. `denied` is `None` when the callee puts the call to the
    /// policy itself (the node registry does: no handle invokes around it),
    /// so asking here too would ask — or hold for approval — twice.
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
        if let Some(bridge_id) = &spec.bridge_id {
            span.record("bridge_id", tracing::field::display(bridge_id));
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
        let histogram = self.histogram(spec.source, spec.label);
        let started = Instant::now();
        let call_span = span.clone();
        async move {
            if let Some(decision) = decision
                && let Decision::Deny(reason) = decision.await
                && let Some(denied) = denied
            {
                CallOutcome::Denied.record(&call_span);
                return denied(reason);
            }
            let out = call(arguments).await;
            histogram.observe(started.elapsed());
            out.outcome().record(&call_span);
            out
        }
        .instrument(span)
    }

    fn histogram(&mut self, source: CallSource, label: &str) -> Arc<Histogram> {
        if let Some((_, _, h)) = self.histograms.iter().find(|(s, l, _)| *s == source && l == label) {
            return Arc::clone(h);
        }
        let h = self.metrics.call_histogram(label, source.label());
        if self.histograms.len() < KEPT_HISTOGRAMS {
            self.histograms.push((source, label.to_owned(), Arc::clone(&h)));
        }
        h
    }
}
