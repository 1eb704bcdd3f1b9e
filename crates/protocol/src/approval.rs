//! Approvals: a nested call the host's policy asked a person about, and
//! the decisions that answer it.
//!
//! A cell whose call needs approval parks with `reason: "approval"` and
//! lists each [`PendingApproval`]; a later `wait` (or an operator) carries
//! [`Decisions`]. The shapes here are what models and hosts read and send.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most bytes of a call's arguments shown in a pending approval; the
/// preview is cut at a character boundary past this and marked truncated.
pub const ARGUMENTS_PREVIEW_BYTES: usize = 1024;

/// The most ids one decision may name (approve and deny together).
pub const MAX_DECISIONS: usize = 64;

/// The longest reason a denial may carry, in bytes.
pub const MAX_DENIAL_REASON_BYTES: usize = 1024;

/// The longest approval id a decision may name, in bytes (ids are
/// `appr_` and 32 hex digits; longer text names no approval).
pub const MAX_APPROVAL_ID_BYTES: usize = 64;

/// One call waiting for a person's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    /// The approval's id: name it in `approve` or `deny`.
    pub id: String,
    /// Where the call goes: `native`/`client` (a native tool), `mcp` or
    /// `nodes`.
    pub source: String,
    /// The MCP server's name, or the node's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The tool's own name.
    pub tool: String,
    /// The call's arguments as compact JSON, at most
    /// [`ARGUMENTS_PREVIEW_BYTES`] of them.
    pub arguments: String,
    /// The preview was cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub arguments_truncated: bool,
    /// Why the policy asks.
    pub reason: String,
    /// When the approval expires (milliseconds since the Unix epoch): the
    /// call then rejects with `code: "approval_expired"`.
    pub expires_at_ms: u64,
}

impl PendingApproval {
    /// A compact preview of `arguments`: the JSON text, cut to
    /// [`ARGUMENTS_PREVIEW_BYTES`] at a character boundary, and whether it
    /// was cut.
    #[must_use]
    pub fn preview(arguments: &serde_json::Value) -> (String, bool) {
        let text = arguments.to_string();
        let cut = crate::budget::utf8_prefix(&text, ARGUMENTS_PREVIEW_BYTES);
        if cut.len() == text.len() { (text, false) } else { (cut.to_owned(), true) }
    }
}

/// One denial: the approval's id and, optionally, why (the guest's error
/// says it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Denial {
    /// The pending approval's id.
    pub id: String,
    /// Why it was denied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Decisions on a run's pending approvals, carried by `wait`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Decisions {
    /// Ids to approve: those calls run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approve: Vec<String>,
    /// Ids to deny: those calls reject with `code: "denied"`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny: Vec<Denial>,
}

impl Decisions {
    /// No decision at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.approve.is_empty() && self.deny.is_empty()
    }

    /// Checks the shape: at most [`MAX_DECISIONS`] ids, none longer than
    /// [`MAX_APPROVAL_ID_BYTES`], no id twice, no reason past
    /// [`MAX_DENIAL_REASON_BYTES`].
    ///
    /// # Errors
    /// A message naming what is wrong and what to send instead.
    pub fn check(&self) -> Result<(), String> {
        let count = self.approve.len() + self.deny.len();
        if count > MAX_DECISIONS {
            return Err(format!(
                "{count} decisions in one wait; at most {MAX_DECISIONS} are accepted. Decide the rest in a later wait."
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for id in self.approve.iter().chain(self.deny.iter().map(|d| &d.id)) {
            if id.len() > MAX_APPROVAL_ID_BYTES {
                return Err(format!(
                    "an approval id of {} bytes names no approval (ids are at most {MAX_APPROVAL_ID_BYTES}); decide \
                     only ids listed in pendingApprovals.",
                    id.len()
                ));
            }
            if !seen.insert(id.as_str()) {
                return Err(format!("approval {id} is decided twice in one wait; approve or deny it once."));
            }
        }
        if let Some(d) = self.deny.iter().find(|d| d.reason.as_ref().is_some_and(|r| r.len() > MAX_DENIAL_REASON_BYTES))
        {
            return Err(format!(
                "the reason denying {} is longer than {MAX_DENIAL_REASON_BYTES} bytes; shorten it.",
                d.id
            ));
        }
        Ok(())
    }
}

/// How a pending approval was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The call may run.
    Approved,
    /// The call rejects with `code: "denied"`.
    Denied,
    /// Nobody decided in time: the call rejects with
    /// `code: "approval_expired"`.
    Expired,
}

impl Verdict {
    /// The verdict's name (`approved`, `denied`, `expired`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Approved => "approved",
            Self::Denied => "denied",
            Self::Expired => "expired",
        }
    }
}

/// Who decided an approval: every decision records which kind of decider
/// took it. The model is not one unless the host opts in: a call a policy
/// asks about is for someone other than the model that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeciderKind {
    /// The embedding host, through its own API (`Reply::wait_with`, the
    /// session protocol).
    Host,
    /// The person using the MCP client (elicitation, a task's input).
    User,
    /// An operator (`codemode runs approve|deny`).
    Operator,
    /// The model, through its `wait` tool: only where the host opted in.
    Model,
    /// Nobody: the approval expired.
    Ttl,
}

impl DeciderKind {
    /// The kind's name (`host`, `user`, `operator`, `model`, `ttl`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Host => "host",
            Self::User => "user",
            Self::Operator => "operator",
            Self::Model => "model",
            Self::Ttl => "ttl",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_read_the_wait_shape_and_refuse_unknown_fields() {
        let d: Decisions = serde_json::from_str(r#"{"approve":["a"],"deny":[{"id":"b","reason":"no"}]}"#).unwrap();
        assert_eq!(d.approve, ["a"]);
        assert_eq!(d.deny[0].reason.as_deref(), Some("no"));
        assert!(serde_json::from_str::<Decisions>(r#"{"approved":["a"]}"#).is_err());
    }

    #[test]
    fn decisions_are_bounded_at_their_edges() {
        let mut d = Decisions { approve: (0..MAX_DECISIONS).map(|i| i.to_string()).collect(), deny: vec![] };
        assert!(d.check().is_ok());
        d.deny.push(Denial { id: "x".into(), reason: None });
        assert!(d.check().unwrap_err().contains("at most 64"));
        let twice = Decisions { approve: vec!["a".into()], deny: vec![Denial { id: "a".into(), reason: None }] };
        assert!(twice.check().unwrap_err().contains("twice"));
        let long =
            |n| Decisions { approve: vec![], deny: vec![Denial { id: "a".into(), reason: Some("r".repeat(n)) }] };
        assert!(long(MAX_DENIAL_REASON_BYTES).check().is_ok());
        assert!(long(MAX_DENIAL_REASON_BYTES + 1).check().is_err());
        let id = |n| Decisions { approve: vec!["i".repeat(n)], deny: vec![] };
        assert!(id(MAX_APPROVAL_ID_BYTES).check().is_ok());
        assert!(id(MAX_APPROVAL_ID_BYTES + 1).check().unwrap_err().contains("names no approval"));
    }

    #[test]
    fn a_preview_is_cut_at_its_bound() {
        let (text, cut) = PendingApproval::preview(&serde_json::json!({"a": 1}));
        assert_eq!((text.as_str(), cut), (r#"{"a":1}"#, false));
        let (text, cut) = PendingApproval::preview(&serde_json::json!("é".repeat(2000)));
        assert!(cut && text.len() <= ARGUMENTS_PREVIEW_BYTES);
    }
}
