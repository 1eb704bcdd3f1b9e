//! Operators' decisions on a stored run's pending approvals, taken from
//! any process on either backend without running the cell.
//!
//! The operator claims the run's lease (waiting, within a bound, while a
//! process holds it), checks the decisions against the approvals its
//! journal records, and appends them to the journal as an *inbox*; the
//! lease is released in the same write. Whichever process resumes the run
//! next (the model's `wait`, on any process) takes the inbox's decisions
//! exactly as a `wait`'s: journaled again as taken, then answered. A
//! process holding a cached copy of the run sees the journal's version
//! changed and replays it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_protocol::Decisions;
use codemode_store::runs::{Claim, RunStatus, RunStore, RunStoreError, now_ms};

use crate::durable::journal::codec::write_approvals;
use crate::durable::journal::{ApprovalLog, ApprovalRecord, InboxEntry, Journal};

/// How long the operator's lease on a run lasts: long enough for one
/// check and one append.
const OPERATOR_LEASE: Duration = Duration::from_secs(30);

/// Why an operator's decisions were not taken. Nothing of the run changed.
#[derive(Debug, thiserror::Error)]
pub enum OperatorError {
    /// No run has this id.
    #[error("no stored run has id {0}")]
    NoSuchRun(String),
    /// The run has ended.
    #[error("run {run_id} has ended ({end}); there is nothing to decide")]
    Ended {
        /// The run.
        run_id: String,
        /// How it ended.
        end: String,
    },
    /// A process held the run for the whole wait.
    #[error(
        "run {0} is held by a running codemode process (a window is open on it, or a call is still running); \
         nothing was decided. Retry shortly, or decide through the run's own wait."
    )]
    Held(String),
    /// The decisions' shape, or an id that is not pending.
    #[error("{0}")]
    Refused(String),
    /// The run's journal cannot be read by this build.
    #[error("run {run_id}'s journal cannot be read: {error}")]
    Journal {
        /// The run.
        run_id: String,
        /// Why.
        error: String,
    },
    /// The run store failed.
    #[error("the run store failed: {0}")]
    Store(#[from] RunStoreError),
    /// The audit trail failed.
    #[error("{0}")]
    Audit(String),
    /// No operator identity could be made.
    #[error("no operator identity could be made: {0}")]
    NoRandomness(#[from] codemode_protocol::ids::NoRandomness),
}

/// The approvals a run's journal records.
///
/// # Errors
/// Why the journal cannot be read by this build.
pub fn approvals_of(journal: &[u8]) -> Result<ApprovalLog, String> {
    if journal.is_empty() {
        return Ok(ApprovalLog::default());
    }
    Journal::decode(journal).map(|j| j.approvals).map_err(|e| e.to_string())
}

/// Leaves `decisions` on run `run_id`'s pending approvals, as operator
/// `by` (recorded as the decider). Waits up to `wait` while a process holds
/// the run. Returns the approvals the decisions name, as recorded.
///
/// # Errors
/// [`OperatorError`]; nothing of the run changed.
pub(super) async fn decide_stored(
    store: &Arc<dyn RunStore>,
    run_id: &str,
    decisions: Decisions,
    by: &str,
    wait: Duration,
) -> Result<Vec<ApprovalRecord>, OperatorError> {
    decisions.check().map_err(OperatorError::Refused)?;
    if decisions.is_empty() {
        return Err(OperatorError::Refused("no decision given: name an approval to approve or deny".into()));
    }
    let owner = codemode_protocol::ids::unguessable::<16>("operator_")?;
    let deadline = Instant::now() + wait;
    let record = loop {
        match store.claim(run_id, &owner, OPERATOR_LEASE).await? {
            Claim::Claimed(record) => break record,
            Claim::Missing => return Err(OperatorError::NoSuchRun(run_id.to_owned())),
            Claim::Ended(end) => return Err(OperatorError::Ended { run_id: run_id.to_owned(), end: end.to_string() }),
            Claim::Held { until_ms, .. } => {
                if !crate::durable::wait_for_holder(&**store, run_id, until_ms, deadline).await? {
                    return Err(OperatorError::Held(run_id.to_owned()));
                }
            }
        }
    };
    let released = |e: OperatorError| async {
        let _ = store.release(run_id, &owner).await;
        Err(e)
    };
    let journal = match Journal::decode(&record.journal) {
        Ok(j) => j,
        Err(e) => return released(OperatorError::Journal { run_id: run_id.to_owned(), error: e.to_string() }).await,
    };
    let mut log = journal.approvals;
    let now = now_ms();
    let left: Vec<&String> = log
        .inbox
        .iter()
        .flat_map(|e| e.decisions.approve.iter().chain(e.decisions.deny.iter().map(|d| &d.id)))
        .collect();
    let mut named = Vec::new();
    for id in decisions.approve.iter().chain(decisions.deny.iter().map(|d| &d.id)) {
        let pending =
            log.records.iter().find(|r| &r.approval.id == id && r.decision.is_none() && r.approval.expires_at_ms > now);
        match pending {
            Some(r) if !left.contains(&id) => named.push(r.clone()),
            _ => {
                let message = format!(
                    "approval {id} is not pending in run {run_id} (unknown, already decided, or expired); nothing \
                     was decided"
                );
                return released(OperatorError::Refused(message)).await;
            }
        }
    }
    log.inbox.push(InboxEntry { decisions, at_ms: now, by: Some(by.to_owned()) });
    let mut chunk = Vec::new();
    write_approvals(&mut chunk, &log);
    // Parked, lease released: the next `wait` anywhere resumes it.
    store.append(run_id, &owner, RunStatus::Parked, chunk, None, record.version).await?;
    Ok(named)
}
