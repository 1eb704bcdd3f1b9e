//! How a nested call ended, for its `host_call` span: `ok`, `error`,
//! `timeout` or `denied`. The guest sees the error text (and a native
//! tool's code); the span needs the kind, which the MCP and node errors
//! know as types but lose once they become the guest's message — so those
//! calls carry a [`CallFailure`] until the span has seen it.

use codemode_catalog::{ToolError, ToolOutput};
use serde_json::Value;

pub(crate) use crate::telemetry::CallOutcome;

impl CallOutcome {
    /// Records the outcome on a `host_call` span: the `outcome` attribute,
    /// and the OTel status (OK, or ERROR described by the outcome — never
    /// by the error text, which may carry tool data).
    pub(crate) fn record(self, span: &tracing::Span) {
        span.record("outcome", self.label());
        if self == Self::Ok {
            span.record("otel.status_code", "OK");
        } else {
            span.record("otel.status_code", "ERROR");
            span.record("otel.status_description", self.label());
        }
    }
}

/// A nested call's result, as its span sees it.
pub(crate) trait NestedResult {
    /// How the call ended.
    fn outcome(&self) -> CallOutcome;

    /// The call was refused before it ran (an approval denied or expired):
    /// the guest's error says `message` with `code`.
    fn refused(message: String, code: &'static str) -> Self;
}

impl NestedResult for Result<ToolOutput, ToolError> {
    fn outcome(&self) -> CallOutcome {
        match self {
            Ok(_) => CallOutcome::Ok,
            Err(e) if e.code == "policy_denied" => CallOutcome::Denied,
            // A host tool that times out its own work may say so.
            Err(e) if e.code == "timeout" => CallOutcome::Timeout,
            Err(_) => CallOutcome::Error,
        }
    }

    fn refused(message: String, code: &'static str) -> Self {
        Err(ToolError { message, code: code.into() })
    }
}

/// A failed MCP or node call: the guest's message and what kind of failure
/// it was.
#[derive(Debug)]
pub(crate) struct CallFailure {
    /// What the guest sees.
    pub message: String,
    /// `Error`, `Timeout` or `Denied`.
    pub kind: CallOutcome,
    /// The guest error's code, when it is not the family's own
    /// (`denied`, `approval_expired`).
    pub code: Option<&'static str>,
}

impl CallFailure {
    /// A failure that is neither a timeout nor a denial.
    pub(crate) fn error(message: String) -> Self {
        Self { message, kind: CallOutcome::Error, code: None }
    }

    /// The settlement of an MCP or node call: its value, or a fault with
    /// the failure's own code or else the family's `code`.
    pub(crate) fn settle(id: u64, result: Result<Value, Self>, code: &str) -> super::Settlement {
        match result {
            Ok(value) => super::Settlement::value(id, value),
            Err(f) => super::Settlement::fault(id, super::Fault::error(f.message, f.code.unwrap_or(code))),
        }
    }
}

/// An MCP or node error, classified.
pub(crate) trait Failure: std::fmt::Display {
    /// `Timeout`, `Denied` or `Error`.
    fn kind(&self) -> CallOutcome;
}

impl<E: Failure> From<E> for CallFailure {
    fn from(e: E) -> Self {
        Self { kind: e.kind(), message: e.to_string(), code: None }
    }
}

/// The MCP hub without the `mcp` feature: every server is unknown.
#[cfg(not(feature = "mcp"))]
impl Failure for crate::mcp::UnknownServer {
    fn kind(&self) -> CallOutcome {
        CallOutcome::Error
    }
}

/// The node registry without the `nodes` feature: never called.
impl Failure for std::convert::Infallible {
    fn kind(&self) -> CallOutcome {
        match *self {}
    }
}

#[cfg(feature = "mcp")]
impl Failure for codemode_mcp::McpCallError {
    fn kind(&self) -> CallOutcome {
        use codemode_mcp::McpCallError as E;
        match self {
            E::CallTimeout { .. } | E::OperationTimeout { .. } => CallOutcome::Timeout,
            _ => CallOutcome::Error,
        }
    }
}

#[cfg(feature = "nodes")]
impl Failure for codemode_nodes::InvokeError {
    fn kind(&self) -> CallOutcome {
        use codemode_nodes::InvokeError as E;
        match self {
            E::Timeout { .. } => CallOutcome::Timeout,
            E::PolicyDenied { .. } | E::Denied { .. } => CallOutcome::Denied,
            _ => CallOutcome::Error,
        }
    }
}

impl NestedResult for Result<Value, CallFailure> {
    fn outcome(&self) -> CallOutcome {
        match self {
            // An MCP tool's in-band error (GA-9.4) is still a failed call.
            Ok(v) if v.get("isError").and_then(Value::as_bool) == Some(true) => CallOutcome::Error,
            Ok(_) => CallOutcome::Ok,
            Err(f) => f.kind,
        }
    }

    fn refused(message: String, code: &'static str) -> Self {
        Err(CallFailure { message, kind: CallOutcome::Denied, code: Some(code) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_mcp_in_band_error_is_an_error_and_a_failure_keeps_its_kind() {
        let in_band: Result<Value, CallFailure> = Ok(serde_json::json!({"isError": true, "content": []}));
        assert_eq!(in_band.outcome(), CallOutcome::Error);
        let fine: Result<Value, CallFailure> = Ok(serde_json::json!({"content": []}));
        assert_eq!(fine.outcome(), CallOutcome::Ok);
        let timed_out: Result<Value, CallFailure> =
            Err(CallFailure { message: "late".into(), kind: CallOutcome::Timeout, code: None });
        assert_eq!(timed_out.outcome().label(), "timeout");
        let denied: Result<ToolOutput, ToolError> =
            Err(ToolError { message: "no".into(), code: "policy_denied".into() });
        assert_eq!(denied.outcome(), CallOutcome::Denied);
    }
}
