//! A call the host's policy asked a person about: the question the cell
//! records as a pending approval, and its answer.

use serde_json::Value;
use tokio::sync::oneshot;

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

/// The cell's ruling on an asked call: run it, or refuse it saying why.
#[derive(Debug)]
pub(crate) enum Ruling {
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
    pub answer: oneshot::Sender<Ruling>,
    /// The input request's key, when the call's MCP task asks for input.
    pub task_input: Option<String>,
}
