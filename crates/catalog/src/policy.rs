//! The host's policy over nested calls (tools, MCP tools, node commands).
//!
//! A [`Policy`] decides, before anything runs, which tools exist for cells
//! at all — a hidden tool has no global, no catalog handle and no `MCP`
//! path — and then sees every nested call with its arguments: it may
//! allow it, deny it (the model sees the reason), or ask for approval: the
//! call does not run until someone decides, and the cell parks with
//! `reason: "approval"` and the call among its `pendingApprovals`. An
//! asked call survives restarts (its decision is journaled before it takes
//! effect); a future that merely takes its time also holds the call, but
//! only in memory.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

/// Where a nested call goes: what a policy sees as its source. A policy
/// matches it as a value, so a source that is renamed or added is a
/// compile error in the policy, never a rule that silently stops matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallSource {
    /// A native tool of the host ([`ToolSource::Native`](crate::ToolSource::Native)).
    Native,
    /// A tool the client supplied ([`ToolSource::Client`](crate::ToolSource::Client)).
    Client,
    /// An MCP server's operation: a tool, a resource, a prompt.
    Mcp,
    /// A paired node's command.
    Nodes,
    /// The reply's results cache (`results.save`, `results.delete`).
    Results,
}

impl CallSource {
    /// Every source, in the order [`CALL_SOURCES`] names them.
    pub const ALL: [CallSource; 5] = [Self::Native, Self::Client, Self::Mcp, Self::Nodes, Self::Results];

    /// Its name, as configuration globs, spans, metrics and pending
    /// approvals say it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Client => "client",
            Self::Mcp => "mcp",
            Self::Nodes => "nodes",
            Self::Results => "results",
        }
    }
}

impl std::fmt::Display for CallSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<crate::ToolSource> for CallSource {
    fn from(source: crate::ToolSource) -> Self {
        match source {
            crate::ToolSource::Native => Self::Native,
            crate::ToolSource::Client => Self::Client,
        }
    }
}

/// The name of every [`CallSource`], for configuration that names sources
/// as text (a glob in a `[[policy]]` rule).
pub const CALL_SOURCES: [&str; 5] = [
    CallSource::ALL[0].as_str(),
    CallSource::ALL[1].as_str(),
    CallSource::ALL[2].as_str(),
    CallSource::ALL[3].as_str(),
    CallSource::ALL[4].as_str(),
];

/// One nested call, as the policy sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct NestedCall {
    /// Where the call goes.
    pub source: CallSource,
    /// The MCP server's configured name, for MCP tools; the node id, for
    /// node commands.
    pub server: Option<String>,
    /// The tool's own name.
    pub tool: String,
    /// The arguments it would run with.
    pub arguments: Value,
    /// The session of the calling cell (none when headless).
    pub session: Option<String>,
}

/// What the policy decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Run the call.
    Allow,
    /// Do not run it; the model is told why.
    Deny(String),
    /// Run it only once someone approves; the string says why it needs
    /// approval (shown with the pending approval). A cell with no one to
    /// ask (headless) has the call denied.
    Ask(String),
}

/// A pending decision.
pub type DecisionFuture = Pin<Box<dyn Future<Output = Decision> + Send>>;

/// The host's rules for nested calls.
///
/// ```
/// use codemode_catalog::policy::{CallSource, Decision, DecisionFuture, NestedCall, Policy};
///
/// /// Hides the admin tools, asks a person before a refund, allows the rest.
/// struct Rules;
///
/// impl Policy for Rules {
///     fn visible(&self, _source: CallSource, _server: Option<&str>, tool: &str) -> bool {
///         !tool.starts_with("admin_")
///     }
///     fn check(&self, call: NestedCall) -> DecisionFuture {
///         let decision = match call.tool.as_str() {
///             "refund" => Decision::Ask("refunds move money".into()),
///             _ => Decision::Allow,
///         };
///         Box::pin(std::future::ready(decision))
///     }
/// }
/// # let _ = Rules;
/// ```
pub trait Policy: Send + Sync + 'static {
    /// Whether a tool exists for cells at all. Hidden tools have no global,
    /// handle or `MCP` path (checked when the catalog is built).
    fn visible(&self, source: CallSource, server: Option<&str>, tool: &str) -> bool {
        let _ = (source, server, tool);
        true
    }

    /// Whether [`check`](Self::check) looks at calls at all. A policy that
    /// allows every call returns false, so native, MCP and node calls skip
    /// building the [`NestedCall`] and copying its arguments (default: true).
    fn inspects_calls(&self) -> bool {
        true
    }

    /// Decides one call before it runs: allow, deny, or ask a person
    /// ([`Decision::Ask`]: the call becomes a pending approval of its cell,
    /// decided by a `wait`, the MCP client or an operator, and journaled).
    /// A future that takes its time also holds the call, but only in
    /// memory: a crash meanwhile makes it `outcome_unknown`.
    fn check(&self, call: NestedCall) -> DecisionFuture {
        let _ = call;
        Box::pin(std::future::ready(Decision::Allow))
    }
}

/// Allows everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct AllowAll;

impl Policy for AllowAll {
    fn inspects_calls(&self) -> bool {
        false
    }
}
