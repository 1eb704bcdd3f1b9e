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

use crate::cell::host::BridgeId;
use crate::telemetry::Metrics;

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
pub(crate) struct CallSpec {
    pub source: CallSource,
    /// The MCP server's configured name, or the node's id.
    pub server: Option<String>,
    /// The tool's own name, as the policy sees it.
    pub tool: String,
    /// The name spans and metrics use (a native tool's callable name).
    pub label: String,
    /// The request's bridge id, when it has one at start.
    pub bridge_id: Option<BridgeId>,
}

/// Runs nested calls for one cell: shared by its native, MCP and node calls.
pub(crate) struct NestedCalls {
    policy: Arc<dyn Policy>,
    session: Option<String>,
    metrics: Arc<Metrics>,
    /// The cell's span: each nested call gets a child span.
    span: tracing::Span,
}

impl NestedCalls {
    pub(crate) fn new(
        policy: Arc<dyn Policy>,
        session: Option<String>,
        metrics: Arc<Metrics>,
        span: tracing::Span,
    ) -> Self {
        Self { policy, session, metrics, span }
    }

    /// The call as a future: the policy decides first (a policy that never
    /// looks at calls costs nothing: no decision, no copy of `arguments`);
    /// a denial becomes `denied(reason)` and the call does not run;
    /// otherwise `call(arguments)` runs inside the span and its latency is
    /// recorded.
    pub(crate) fn run<A, T, F, Fut>(
        &self,
        spec: CallSpec,
        arguments: A,
        denied: impl FnOnce(String) -> T + Send + 'static,
        call: F,
    ) -> impl Future<Output = T> + Send + 'static
    where
        A: Clone + Into<Value> + Send + 'static,
        T: Send + 'static,
        F: FnOnce(A) -> Fut + Send + 'static,
        Fut: Future<Output = T> + Send + 'static,
    {
        let source = spec.source.label();
        let span = tracing::info_span!(
            parent: &self.span, "host_call", tool = %spec.label, source = source, server = Empty, bridge_id = Empty
        );
        if let Some(server) = &spec.server {
            span.record("server", server.as_str());
        }
        if let Some(bridge_id) = &spec.bridge_id {
            span.record("bridge_id", tracing::field::display(bridge_id));
        }
        let decision = self.policy.inspects_calls().then(|| {
            self.policy.check(NestedCall {
                source,
                server: spec.server,
                tool: spec.tool,
                arguments: arguments.clone().into(),
                session: self.session.clone(),
            })
        });
        let metrics = Arc::clone(&self.metrics);
        let label = spec.label;
        let started = Instant::now();
        async move {
            if let Some(decision) = decision
                && let Decision::Deny(reason) = decision.await
            {
                return denied(reason);
            }
            let out = call(arguments).await;
            metrics.call_finished(&label, source, started.elapsed());
            out
        }
        .instrument(span)
    }
}
