//! The caller's W3C trace context, so a cell appears inside the calling
//! agent's trace instead of as a root of its own.
//!
//! A `tools/call` may carry `traceparent` (and `tracestate`) in its
//! `params._meta` (the MCP convention) or, over streamable HTTP, in the
//! request's headers; `_meta` wins, being the call's own. The call runs in
//! a `tools/call` server span whose parent is that context; the runtime's
//! cell span is a child of the span current at `exec`, i.e. of this one.
//! A missing or invalid context starts a new trace: it is the caller's
//! mistake, logged at debug, never an error to the client.

use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::TraceContextExt;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use rmcp::model::RequestMetaObject;
use rmcp::service::{RequestContext, RoleServer};
use tracing_opentelemetry::{OpenTelemetrySpanExt, SetParentError};

/// Longest `traceparent` or `tracestate` read, in bytes; longer values are
/// ignored.
/// A `traceparent` is 55 characters; W3C asks vendors to pass on at least
/// 512 of `tracestate`, and caps it at 32 members of 256.
const MAX_VALUE_BYTES: usize = 8192;

/// The trace context of one call: at most one value per header.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Carrier {
    traceparent: Option<String>,
    tracestate: Option<String>,
}

impl Extractor for Carrier {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            "traceparent" => self.traceparent.as_deref(),
            "tracestate" => self.tracestate.as_deref(),
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        let mut keys = Vec::with_capacity(2);
        if self.traceparent.is_some() {
            keys.push("traceparent");
        }
        if self.tracestate.is_some() {
            keys.push("tracestate");
        }
        keys
    }
}

fn bounded(value: Option<&str>, name: &str) -> Option<String> {
    let value = value?;
    if value.len() > MAX_VALUE_BYTES {
        tracing::debug!(target: "codemode::mcp", "ignoring a {name} of {} bytes (over {MAX_VALUE_BYTES})", value.len());
        return None;
    }
    Some(value.to_owned())
}

impl Carrier {
    /// The context of a call whose `_meta` is `meta` (as rmcp hands it to
    /// the handler) and whose HTTP request, if any, is in `context`.
    pub(super) fn of_call(context: &RequestContext<RoleServer>, meta: Option<&RequestMetaObject>) -> Self {
        // rmcp moves the request's `_meta` into the context; the params'
        // copy is read too in case a version leaves it there.
        for meta in [Some(&context.meta), meta].into_iter().flatten() {
            if meta.get_traceparent().is_some() {
                return Self {
                    traceparent: bounded(meta.get_traceparent(), "traceparent"),
                    tracestate: bounded(meta.get_tracestate(), "tracestate"),
                };
            }
        }
        let Some(parts) = context.extensions.get::<hyper::http::request::Parts>() else { return Self::default() };
        let header = |name: &str| match parts.headers.get(name).map(|v| v.to_str()) {
            Some(Ok(v)) => bounded(Some(v), name),
            Some(Err(_)) => {
                tracing::debug!(target: "codemode::mcp", "ignoring a {name} header that is not text");
                None
            }
            None => None,
        };
        Self { traceparent: header("traceparent"), tracestate: header("tracestate") }
    }
}

/// The span one `tools/call` runs in: a server span named after the tool,
/// parented to the caller's trace when `carrier` holds a valid one.
pub(super) fn call_span(tool: &str, carrier: &Carrier) -> tracing::Span {
    let span = tracing::info_span!(
        target: "codemode::mcp",
        "tools/call",
        otel.name = format!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        gen_ai.tool.name = tool,
    );
    if carrier.traceparent.is_none() {
        return span;
    }
    let parent = TraceContextPropagator::new().extract(carrier);
    if !parent.span().span_context().is_valid() {
        tracing::debug!(
            target: "codemode::mcp",
            traceparent = carrier.traceparent.as_deref().unwrap_or_default(),
            "ignoring an invalid traceparent; the call starts a new trace"
        );
        return span;
    }
    match span.set_parent(parent) {
        Ok(()) => {}
        // Traces are not exported (no OTel layer, or it filters the span
        // out): there is no trace to join.
        Err(SetParentError::LayerNotFound | SetParentError::SpanDisabled) => {}
        Err(e) => tracing::debug!(target: "codemode::mcp", "the caller's trace context was not applied: {e}"),
    }
    span
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_or_absent_traceparent_yields_no_parent_and_a_valid_one_does() {
        let propagator = TraceContextPropagator::new();
        let valid = Carrier {
            traceparent: Some("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".into()),
            tracestate: Some("vendor=1".into()),
        };
        let cx = propagator.extract(&valid);
        assert!(cx.span().span_context().is_valid());
        assert_eq!(cx.span().span_context().trace_id().to_string(), "0af7651916cd43dd8448eb211c80319c");
        for bad in ["garbage", "00-00000000000000000000000000000000-b7ad6b7169203331-01", ""] {
            let carrier = Carrier { traceparent: Some(bad.into()), tracestate: None };
            assert!(!propagator.extract(&carrier).span().span_context().is_valid(), "{bad}");
        }
        assert!(bounded(Some(&"x".repeat(MAX_VALUE_BYTES + 1)), "tracestate").is_none());
    }
}
