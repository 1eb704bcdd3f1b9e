//! Approvals by MCP elicitation: when the client of `codemode serve`
//! declared the elicitation capability (form mode), a cell that parks for
//! approval is not handed back to the model; `serve` asks the client's
//! user about each pending approval and goes on with the answers in the
//! same tool call (a `wait` with the decisions).
//!
//! accept with `approve: true` approves; accept with `approve: false`, or
//! decline, denies (with the user's reason, if given); cancel, a timeout
//! (the approval's own expiry) or a failed request leaves the approval
//! pending and the model gets the `waiting` result, as without
//! elicitation. A protocol that forbids server-to-client requests
//! (2026-07-28) makes the request fail: the same.

use std::time::Duration;

use codemode_protocol::approval::MAX_DENIAL_REASON_BYTES;
use codemode_runtime::{CellResult, DeciderKind, Decisions, Denial, Output, PendingApproval, Reply, WaitReason};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::{ElicitationMode, Peer, RoleServer};
use serde_json::Value;

/// Rounds of asking within one tool call: a cell that keeps asking is
/// handed back to the model after these.
const MAX_ROUNDS: usize = 16;

/// The user's answer to one approval.
pub(super) enum Answer {
    Approve,
    Deny(Option<String>),
    /// No answer: the approval stays pending for the model.
    Later,
}

/// Whether the client can be asked.
pub(super) fn can_ask(peer: &Peer<RoleServer>) -> bool {
    peer.supported_elicitation_modes().contains(&ElicitationMode::Form)
}

/// Asks the client's user about the pending approvals of `result`, and
/// waits on the run with the answers, while it parks for approval. The
/// output of every intermediate result is kept, in order, in the one
/// returned.
pub(super) async fn settle(peer: &Peer<RoleServer>, reply: &Reply, mut result: CellResult) -> CellResult {
    for _ in 0..MAX_ROUNDS {
        let CellResult::Waiting { reason: WaitReason::Approval, run_id, pending_approvals, .. } = &result else {
            return result;
        };
        let mut decisions = Decisions::default();
        for approval in pending_approvals {
            match ask(peer, approval).await {
                Answer::Approve => decisions.approve.push(approval.id.clone()),
                Answer::Deny(reason) => decisions.deny.push(Denial { id: approval.id.clone(), reason }),
                Answer::Later => {}
            }
        }
        if decisions.is_empty() {
            return result;
        }
        let run_id = run_id.clone();
        let next = match reply.wait_decided_by(&run_id, decisions, DeciderKind::User, None).await {
            Ok(next) => next,
            Err(e) => {
                tracing::warn!(error = %e, "a wait with the client's decisions failed");
                return result;
            }
        };
        result = with_earlier_output(next, result.output().clone());
    }
    result
}

/// The form that asks about one approval: approve (required) and an
/// optional reason; `None` when it could not be built (logged).
pub(super) fn form(approval: &PendingApproval) -> Option<ElicitRequestParams> {
    let server = approval.server.as_deref().map(|s| format!(" on {s}")).unwrap_or_default();
    let cut = if approval.arguments_truncated { "…" } else { "" };
    let message = format!(
        "A code mode cell asks to run {}{server}: {}.\nArguments: {}{cut}\nApprove it?",
        approval.tool, approval.reason, approval.arguments
    );
    let schema = ElicitationSchema::builder()
        .required_bool_property("approve", |b| b.title("Approve").description("Run this call?"))
        .optional_string("reason")
        .build();
    match schema {
        Ok(requested_schema) => {
            Some(ElicitRequestParams::FormElicitationParams { meta: None, message, requested_schema })
        }
        Err(e) => {
            tracing::warn!(error = e, "the approval form could not be built; the client was not asked");
            None
        }
    }
}

/// What the user's answer to [`form`] decides.
pub(super) fn answer_of(action: &ElicitationAction, content: Option<&Value>) -> Answer {
    match action {
        ElicitationAction::Accept => {
            // The client's text, cut to what a denial may carry (a longer
            // one would have every decision of the round refused).
            let reason = content
                .and_then(|c| c.get("reason"))
                .and_then(Value::as_str)
                .map(|r| codemode_protocol::budget::utf8_prefix(r, MAX_DENIAL_REASON_BYTES).to_owned());
            match content.and_then(|c| c.get("approve")).and_then(Value::as_bool) {
                Some(true) => Answer::Approve,
                Some(false) => Answer::Deny(reason.or_else(|| Some("declined by the user".to_owned()))),
                // An answer without the required field decides nothing.
                None => Answer::Later,
            }
        }
        ElicitationAction::Decline => Answer::Deny(Some("declined by the user".to_owned())),
        // Cancel, or an action this build does not know: nothing was
        // decided.
        _ => Answer::Later,
    }
}

/// One approval put to the user.
async fn ask(peer: &Peer<RoleServer>, approval: &PendingApproval) -> Answer {
    let Some(params) = form(approval) else { return Answer::Later };
    let left = approval.expires_at_ms.saturating_sub(codemode_store::runs::now_ms());
    let answered = peer.create_elicitation_with_timeout(params, Some(Duration::from_millis(left.max(1)))).await;
    match answered {
        Ok(r) => answer_of(&r.action, r.content.as_ref()),
        Err(e) => {
            tracing::info!(error = %e, approval = %approval.id, "the client was not asked about an approval");
            Answer::Later
        }
    }
}

/// `result` with `earlier` output in front of its own: both were delivered
/// from the cell's one output budget, so together they fit it. A
/// truncation marker on either side stands for the whole.
pub(super) fn with_earlier_output(mut result: CellResult, earlier: Output) -> CellResult {
    let output = match &mut result {
        CellResult::Completed { output, .. }
        | CellResult::Waiting { output, .. }
        | CellResult::Failed { output, .. } => output,
    };
    join_output(earlier, output);
    result
}

/// `later` with `earlier` in front of it.
pub(super) fn join_output(earlier: Output, output: &mut Output) {
    match (earlier, &mut *output) {
        (Output::Entries(mut first), Output::Entries(then)) => {
            first.append(then);
            *then = first;
        }
        (Output::Truncated(marker), Output::Entries(_)) => *output = Output::Truncated(marker),
        (_, Output::Truncated(_)) => {}
    }
}

#[cfg(test)]
mod tests {
    use codemode_runtime::{OutputEntry, Telemetry};
    use serde_json::json;

    use super::*;

    #[test]
    fn earlier_output_comes_first() {
        let done = CellResult::Completed {
            value: json!(1),
            output: Output::Entries(vec![OutputEntry::text("after")]),
            warnings: vec![],
            telemetry: Telemetry::default(),
            untrusted: None,
        };
        let merged = with_earlier_output(done, Output::Entries(vec![OutputEntry::text("before")]));
        assert_eq!(merged.output().entries().unwrap(), &[OutputEntry::text("before"), OutputEntry::text("after")]);
    }
}
