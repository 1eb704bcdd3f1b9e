//! What an operator may send, checked the same way wherever it arrives:
//! `codemode runs` arguments, the operator API's JSON and query strings,
//! the console's forms.

use codemode_protocol::WaitReason;

/// Every status a run can be in, for `--status`.
pub(crate) const STATUSES: &[&str] = &[
    "running",
    "parked",
    "completed",
    "failed",
    "timed_out",
    "aborted",
    "expired",
    "disposed",
    "crashed",
    "replay_diverged",
];

/// How long a decision waits by default for a process holding the run.
pub(crate) const DEFAULT_WAIT_MS: u64 = 10_000;

/// The longest wait a decision may ask for.
pub(crate) const MAX_WAIT_MS: u64 = 60_000;

/// The most approvals one decision names.
pub(crate) const MAX_IDS: usize = 64;

/// The longest denial reason, in characters.
pub(crate) const MAX_REASON_CHARS: usize = 1_000;

/// A command-line argument that is not a run id.
#[derive(Debug, thiserror::Error)]
#[error("a run id is `run_` followed by 32 hex digits")]
pub(crate) struct NotARunId;

/// A run id as the runtime makes them; anything else is a usage error.
pub(crate) fn parse_run_id(text: &str) -> Result<String, NotARunId> {
    let ok = text.strip_prefix("run_").is_some_and(|hex| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()));
    if ok { Ok(text.to_owned()) } else { Err(NotARunId) }
}

/// Checks a decision's ids and reason (the run then checks they are
/// pending).
pub(crate) fn check_decision(ids: &[String], reason: Option<&str>) -> Result<(), String> {
    if ids.is_empty() {
        return Err("name at least one approval id (`appr_…`, from the run's pending approvals)".into());
    }
    if ids.len() > MAX_IDS {
        return Err(format!("{} approval ids; at most {MAX_IDS} per decision", ids.len()));
    }
    if let Some(bad) = ids.iter().find(|id| {
        !id.starts_with("appr_") || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    }) {
        return Err(format!(
            "{:?} is not an approval id (`appr_` and letters or digits)",
            bad.chars().take(80).collect::<String>()
        ));
    }
    if let Some(reason) = reason
        && reason.chars().count() > MAX_REASON_CHARS
    {
        return Err(format!("the reason has {} characters; at most {MAX_REASON_CHARS}", reason.chars().count()));
    }
    Ok(())
}

/// A run id as the runtime makes them (`run_` and 32 hex digits).
pub(crate) fn run_id_in(text: &str) -> Result<String, String> {
    parse_run_id(text).map_err(|e| format!("{e} (got {:?})", text.chars().take(80).collect::<String>()))
}

/// A wait reason by its protocol name.
pub(crate) fn parse_waiting(text: &str) -> Result<WaitReason, String> {
    [WaitReason::Approval, WaitReason::PendingTools, WaitReason::Yield]
        .into_iter()
        .find(|w| w.as_str() == text)
        .ok_or_else(|| {
            format!("waiting = {:?}; use approval, pending_tools or yield", text.chars().take(40).collect::<String>())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_names_well_formed_ids_and_a_bounded_reason() {
        let ids = vec!["appr_1".to_owned()];
        assert!(check_decision(&ids, None).is_ok());
        assert!(check_decision(&[], None).is_err());
        assert!(check_decision(&["<script>".to_owned()], None).is_err());
        assert!(check_decision(&vec!["appr_1".to_owned(); MAX_IDS], None).is_ok(), "exactly at the bound");
        assert!(check_decision(&vec!["appr_1".to_owned(); MAX_IDS + 1], None).is_err(), "one over");
        assert!(check_decision(&ids, Some(&"r".repeat(MAX_REASON_CHARS))).is_ok());
        assert!(check_decision(&ids, Some(&"r".repeat(MAX_REASON_CHARS + 1))).is_err());
    }

    #[test]
    fn only_well_formed_run_ids_are_accepted() {
        assert!(parse_run_id(&format!("run_{}", "a".repeat(32))).is_ok());
        assert!(parse_run_id(&format!("run_{}", "a".repeat(31))).is_err());
        assert!(parse_run_id(&format!("run_{}", "g".repeat(32))).is_err());
        assert!(parse_run_id("abc").is_err());
        assert!(run_id_in("<b>").unwrap_err().contains("\"<b>\""));
    }
}
