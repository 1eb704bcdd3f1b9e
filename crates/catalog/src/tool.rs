//! The `Tool` trait.

use std::future::Future;
use std::pin::Pin;

/// Where a tool comes from; decides how much of its self-description is
/// trusted (GA-8.2, GA-8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolSource {
    /// A core or plugin tool of the host: its schemas are trusted. Cells
    /// see its source as `"openclaw"` (GA-8.4).
    Native,
    /// A tool supplied by the client: its schemas are not trusted.
    Client,
}

impl ToolSource {
    /// The name cells and the host [`Policy`](crate::policy::Policy) see,
    /// which also prefixes a tool's catalog id: `openclaw` for
    /// [`Native`](Self::Native) (the reference's name, GA-8.4), `client`.
    #[must_use]
    pub fn guest_name(self) -> &'static str {
        match self {
            Self::Native => "openclaw",
            Self::Client => "client",
        }
    }
}

/// What a tool call produced.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    /// The JSON `details` value the guest receives.
    pub details: serde_json::Value,
    /// Human-readable text content, if the tool has any.
    pub text: Option<String>,
    /// The tool reports failure in-band (GA-11.2).
    pub is_error: bool,
}

impl ToolOutput {
    /// A successful result with these details.
    #[must_use]
    pub fn json(details: serde_json::Value) -> Self {
        Self { details, text: None, is_error: false }
    }
}

/// A tool call that failed; the guest's promise rejects with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    /// A message for the model: what went wrong and what to do.
    pub message: String,
    /// A machine-readable code (`tool_error`, `input_contract`, …), visible
    /// to the guest as `error.code`.
    pub code: String,
}

impl ToolError {
    /// A `tool_error` with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Self { message: message.into(), code: "tool_error".into() }
    }
}

/// The future a tool call returns. Dropping it cancels the call: the
/// runtime drops it when the cell stops (abort, timeout, expiry, dispose).
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send + 'a>>;

/// Host code callable from cells as an async global.
///
/// Tools run on the cell's JS worker thread's async executor: they must not
/// block the thread (use async I/O, or `spawn_blocking` for CPU work).
pub trait Tool: Send + Sync + 'static {
    /// The tool's name; the global it is installed as when that is a valid
    /// JavaScript identifier.
    fn name(&self) -> &str;

    /// What the tool does, for catalog search and `describe()`.
    fn description(&self) -> &str;

    /// A short human label.
    fn label(&self) -> Option<&str> {
        None
    }

    /// The JSON Schema of the one argument the tool takes.
    fn input_schema(&self) -> serde_json::Value {
        serde_json::json!({"type": "object"})
    }

    /// A trusted JSON Schema of `details`, when the tool declares one.
    fn output_schema(&self) -> Option<serde_json::Value> {
        None
    }

    /// Where the tool comes from.
    fn source(&self) -> ToolSource {
        ToolSource::Native
    }

    /// Whether calling the tool again with the same input is harmless (it
    /// reads, or its effect is idempotent), so a `restartSafe` cell that
    /// is replayed after a host restart may repeat the call. A restart-safe
    /// cell that calls a tool answering `false` fails with `invalid_input`.
    /// Defaults to `false`: a tool must opt in, never be assumed safe.
    fn replay_safe(&self) -> bool {
        false
    }

    /// Runs the tool with its validated input.
    fn call(&self, input: serde_json::Value) -> ToolFuture<'_>;
}
