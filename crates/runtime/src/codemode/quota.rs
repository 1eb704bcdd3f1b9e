//! The fair-share quotas counted against what is stored: with durable
//! runs, a session's and a principal's runs parked in the run store (not
//! live here) and their journals' bytes count too.

use codemode_protocol::{CellResult, ErrorCode};

use super::facade::Inner;
use crate::cell::CellMode;
use crate::durable::JournalMode;
use crate::executor::ExecRequest;

/// With durable runs, the quotas count what the session and its
/// principal have stored too: runs not ended that are not live here
/// (evicted to their journal, or held by another process), and their
/// journals' bytes. The live cells are counted again, exactly, when
/// the executor admits the cell; two execs of one session racing here
/// can overshoot the stored count by one each.
pub(super) async fn stored_quota(inner: &Inner, request: &ExecRequest) -> Option<CellResult> {
    let CellMode::Interactive { session, .. } = &request.mode else { return None };
    let d = inner.durable.as_ref().filter(|d| d.config.journal != JournalMode::Off)?;
    let limits = &inner.limits;
    let per_session = limits.max_live_cells_per_session.min(limits.max_live_cells);
    let per_principal = limits.max_live_cells_per_principal.min(limits.max_live_cells);
    let principal = request.principal.as_deref();
    let usage = match d.store.usage(session, principal, per_session.max(per_principal) + 1).await {
        Ok(usage) => usage,
        Err(e) => {
            return Some(CellResult::input_error(
                ErrorCode::RuntimeUnavailable,
                format!("the run store is unavailable ({e}), so the session's quota cannot be checked; retry."),
            ));
        }
    };
    let runs = &inner.runs;
    let elsewhere = |list: &[(String, u64)]| list.iter().filter(|(id, _)| !runs.counted_here(id)).count();
    let bytes = |list: &[(String, u64)]| list.iter().map(|(_, b)| *b).sum::<u64>();
    let refused = |reason: &'static str, message: String| {
        inner.metrics.admission_rejected(reason);
        Some(CellResult::input_error(ErrorCode::InvalidInput, message))
    };
    // Only the stored runs are this check's: with none, the executor's
    // exact count of live cells decides (and says so).
    let stored = elsewhere(&usage.session);
    if stored > 0 && runs.in_session(Some(session)) + stored >= per_session {
        return refused(
            "session_quota",
            format!(
                "too many code mode runs in this session ({per_session}, counting runs parked in the store); \
                     wait on or abort parked runs before starting new ones."
            ),
        );
    }
    if bytes(&usage.session) >= limits.max_journal_bytes_per_session {
        return refused(
            "session_journal_bytes",
            format!(
                "this session's parked runs hold {} bytes of journals, its quota ({}); wait on or abort parked \
                     runs before starting new ones.",
                bytes(&usage.session),
                limits.max_journal_bytes_per_session
            ),
        );
    }
    if principal.is_some() {
        let stored = elsewhere(&usage.principal);
        if stored > 0 && runs.of_principal(request.principal.as_ref()) + stored >= per_principal {
            return refused(
                "principal_quota",
                format!(
                    "too many code mode runs for this client ({per_principal} across its sessions, counting \
                         runs parked in the store); wait on or abort its parked runs before starting new ones."
                ),
            );
        }
        if bytes(&usage.principal) >= limits.max_journal_bytes_per_principal {
            return refused(
                "principal_journal_bytes",
                format!(
                    "this client's parked runs hold {} bytes of journals, its quota ({}); wait on or abort its \
                         parked runs before starting new ones.",
                    bytes(&usage.principal),
                    limits.max_journal_bytes_per_principal
                ),
            );
        }
    }
    None
}
