//! The `Tool` trait.

use std::future::Future;
use std::pin::Pin;

/// Where a tool comes from; decides how much of its self-description is
/// trusted (GA-8.2, GA-8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolSource {
    /// A core or plugin tool of the host: its schemas are trusted. Cells
    /// see its source as `"native"` (GA-8.4).
    Native,
    /// A tool supplied by the client: its schemas are not trusted.
    Client,
}

impl ToolSource {
    /// The name cells, operators and the host
    /// [`Policy`](crate::policy::Policy) see: `native` for
    /// [`Native`](Self::Native) (GA-8.4), `client`.
    #[must_use]
    pub fn guest_name(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Client => "client",
        }
    }
}

/// The name builds before native tools said `native` called them (the
/// reference's product name). It stays the prefix of native tools' catalog
/// ids, the identity journals store, so that builds of any age sharing one
/// store (a rolling deploy) find each other's tools; approvals those builds
/// journaled carry it as their source.
const NATIVE_ID_PREFIX: &str = "openclaw";

impl ToolSource {
    /// The prefix of this source's tools' catalog ids (`openclaw:<name>`,
    /// `client:<name>`): a tool's identity in journals, never shown to
    /// cells or operators, who see [`guest_name`](Self::guest_name).
    /// Native tools keep the prefix every earlier build wrote, so a run
    /// parked by this build resumes on an older one during a rolling
    /// deploy, and the other way round.
    ///
    /// ```
    /// use codemode_catalog::ToolSource;
    /// assert_eq!(ToolSource::Native.id_prefix(), "openclaw");
    /// assert_eq!(ToolSource::Native.guest_name(), "native");
    /// ```
    #[must_use]
    pub fn id_prefix(self) -> &'static str {
        match self {
            Self::Native => NATIVE_ID_PREFIX,
            Self::Client => "client",
        }
    }
}

/// A tool source as cells and operators see it: `openclaw`, which earlier
/// builds journaled as native approvals' source, reads as `native`; every
/// other name is itself.
///
/// ```
/// use codemode_catalog::source_as_today;
/// assert_eq!(source_as_today("openclaw"), "native");
/// assert_eq!(source_as_today("mcp"), "mcp");
/// ```
#[must_use]
pub fn source_as_today(source: &str) -> &str {
    if source == NATIVE_ID_PREFIX { ToolSource::Native.guest_name() } else { source }
}

/// A journaled catalog id as this build stores it. One build wrote native
/// tools' ids as `native:<name>`; they read as `openclaw:<name>`, the id
/// every other build writes, so the runs it parked find their tools.
///
/// ```
/// use codemode_catalog::catalog_id_as_stored;
/// assert_eq!(catalog_id_as_stored("native:deploy"), "openclaw:deploy");
/// assert_eq!(catalog_id_as_stored("openclaw:deploy"), "openclaw:deploy");
/// assert_eq!(catalog_id_as_stored("client:deploy"), "client:deploy");
/// ```
#[must_use]
pub fn catalog_id_as_stored(id: &str) -> std::borrow::Cow<'_, str> {
    match id.split_once(':') {
        Some((prefix, name)) if prefix == ToolSource::Native.guest_name() => {
            format!("{NATIVE_ID_PREFIX}:{name}").into()
        }
        _ => id.into(),
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
/// ```
/// use codemode_catalog::{Tool, ToolContext, ToolFuture, ToolOutput};
/// use serde_json::{Value, json};
///
/// /// Tells the caller who they are.
/// struct WhoAmI;
///
/// impl Tool for WhoAmI {
///     fn name(&self) -> &str {
///         "whoami"
///     }
///     fn description(&self) -> &str {
///         "The signed-in user of this conversation."
///     }
///     fn replay_safe(&self) -> bool {
///         true // it only reads
///     }
///     fn call(&self, _input: Value, context: ToolContext) -> ToolFuture<'_> {
///         Box::pin(async move { Ok(ToolOutput::json(json!({ "user": context.principal }))) })
///     }
/// }
/// # let _ = WhoAmI;
/// ```
///
/// [`typed_tool`](crate::typed_tool) makes one from a function over typed
/// input and output.
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

    /// Runs the tool with its validated input, for the call `context`
    /// names (its session, principal, run and call: a host serving many
    /// users picks credentials by them).
    fn call(&self, input: serde_json::Value, context: ToolContext) -> ToolFuture<'_>;
}

/// Whom a tool call is for, and which call it is. The same values a
/// [`Policy`](crate::policy::Policy) sees, so a tool can act for the user
/// the host's policy let through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolContext {
    /// The session the calling cell runs in (`None`: a headless cell).
    pub session: Option<String>,
    /// The principal the session was tagged with, if any.
    pub principal: Option<String>,
    /// The run making the call (`run_` and 32 hex digits).
    pub run_id: String,
    /// This call: the run id and the request's number in the run
    /// (`run_…/7`), unique in the run and the same when a resumed run
    /// replays up to it.
    pub call_id: String,
}

impl ToolContext {
    /// The context of call number `request` of run `run_id`.
    #[must_use]
    pub fn new(session: Option<String>, principal: Option<String>, run_id: String, request: u64) -> Self {
        let call_id = format!("{run_id}/{request}");
        Self { session, principal, run_id, call_id }
    }
}
