//! [`Operator`]: an operator's handle on the stored runs, which records
//! every action it takes in the audit trail.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use codemode_protocol::{Decisions, Denial, RunEnd};
use codemode_store::audit::{AuditEntry, AuditStore, MAX_AUDIT_PAGE, STARTED};
use codemode_store::runs::{Claim, MAX_LIST_RUNS, RunFilter, RunStatus, RunStore, RunSummary, now_ms};

use super::decide::{OperatorError, decide_stored};
use super::views::{CURSOR_SEPARATOR, RunDetail, RunPage, RunView, SessionShown, session_hash};
use crate::durable::journal::ApprovalRecord;

/// Runs read from the store per page at most while filters the store does
/// not index (a session's hash, what a parked run waits for) are applied:
/// a page may then come back short, with a cursor to go on from.
const SCANNED_PER_PAGE: usize = MAX_LIST_RUNS;

/// Parked runs whose journals a listing reads in one round trip: what
/// they wait for is in the journal, and a batch's journals are in memory
/// at once.
const WAITING_BATCH: usize = 32;

/// Which runs a listing returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunQuery {
    /// Only runs in this status.
    pub status: Option<RunStatus>,
    /// Only runs of this principal.
    pub principal: Option<String>,
    /// Only runs of this session: its key, or the `sha256:…` prefix a
    /// listing shows.
    pub session: Option<String>,
    /// Only parked runs waiting for this (`approval`, `pending_tools`,
    /// `yield`).
    pub waiting: Option<codemode_protocol::WaitReason>,
    /// The page after this cursor (a previous page's `next`).
    pub before: Option<String>,
    /// At most this many (1–1,000).
    pub limit: usize,
}

/// What an abort did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum AbortOutcome {
    /// Nobody held it: it ended now, as aborted.
    Ended,
    /// It had ended before (how).
    AlreadyEnded {
        /// How it ended.
        end: String,
    },
    /// The abort was recorded on the run; whoever next holds it ends it.
    Requested,
    /// A process holds it: marked, and that process ends it.
    Marked {
        /// The holder.
        owner: String,
        /// When its lease ends, ms since the Unix epoch.
        until_ms: u64,
    },
}

impl AbortOutcome {
    /// A sentence for a person.
    #[must_use]
    pub fn describe(&self, run_id: &str) -> String {
        match self {
            Self::Ended => format!("run {run_id} had no live owner: ended now as aborted"),
            Self::AlreadyEnded { end } => format!("run {run_id} already ended ({end}); nothing to abort"),
            Self::Requested => format!("run {run_id}: abort requested; whoever next holds it ends it"),
            Self::Marked { owner, .. } => {
                format!("run {run_id} is held by {owner}: marked for abort; its owner ends it")
            }
        }
    }
}

/// An operator's handle on the stored runs and the audit trail. Cheap to
/// clone. Every decision and abort it takes — taken or refused — is
/// recorded in the trail, naming the operator.
#[derive(Clone, Debug)]
pub struct Operator {
    runs: Arc<dyn RunStore>,
    audit: Arc<dyn AuditStore>,
}

impl Operator {
    /// A handle over a database's runs and audit trail.
    #[must_use]
    pub fn new(runs: Arc<dyn RunStore>, audit: Arc<dyn AuditStore>) -> Self {
        Self { runs, audit }
    }

    /// The handle over an opened database.
    #[must_use]
    pub fn of(database: &codemode_store::Database) -> Self {
        Self::new(Arc::clone(&database.runs), Arc::clone(&database.audit))
    }

    /// A page of runs, newest first.
    ///
    /// # Errors
    /// [`OperatorError::Refused`] for a malformed cursor; the store's
    /// failure.
    pub async fn list(&self, query: &RunQuery, shown: SessionShown) -> Result<RunPage, OperatorError> {
        let limit = query.limit.clamp(1, MAX_LIST_RUNS);
        let mut before = query.before.as_deref().map(parse_cursor).transpose()?;
        let hashed = query.session.as_deref().filter(|s| s.starts_with("sha256:"));
        let by_key = query.session.clone().filter(|_| hashed.is_none());
        // What the store cannot filter is filtered here, over a bounded scan.
        let scanning = hashed.is_some() || query.waiting.is_some();
        let status = if query.waiting.is_some() { Some(RunStatus::Parked) } else { query.status.clone() };
        if query.waiting.is_some() && query.status.as_ref().is_some_and(|s| *s != RunStatus::Parked) {
            return Ok(RunPage { runs: Vec::new(), next: None });
        }
        let now = now_ms();
        let mut runs = Vec::new();
        let mut scanned = 0;
        loop {
            let fetch = if scanning { (SCANNED_PER_PAGE - scanned).min(limit.max(100)) } else { limit - runs.len() };
            let filter = RunFilter {
                status: status.clone(),
                session: by_key.clone(),
                principal: query.principal.clone(),
                before: before.clone(),
                limit: Some(fetch),
            };
            let found = self.runs.list(filter).await?;
            let exhausted = found.len() < fetch;
            let in_session = |s: &RunSummary| hashed.is_none_or(|h| session_hash(&s.meta.session).starts_with(h));
            let mut waiting = HashMap::new();
            for (at, summary) in found.iter().enumerate() {
                scanned += 1;
                before = Some((summary.meta.created_ms, summary.meta.run_id.clone()));
                if !in_session(summary) {
                    continue;
                }
                let mut view = RunView::of_summary(summary, shown, now);
                if summary.status == RunStatus::Parked {
                    if !waiting.contains_key(&summary.meta.run_id) {
                        // Without a `waiting` filter every parked run read
                        // is listed: no more are read than the page needs.
                        let wanted = if query.waiting.is_some() { WAITING_BATCH } else { limit - runs.len() };
                        let batch = found[at..]
                            .iter()
                            .filter(|s| s.status == RunStatus::Parked && in_session(s))
                            .take(wanted.min(WAITING_BATCH));
                        waiting = self.waiting_of(batch, now).await?;
                    }
                    view.waiting = waiting.get(&summary.meta.run_id).cloned().flatten();
                }
                if query.waiting.is_some_and(|w| view.waiting.as_deref() != Some(w.as_str())) {
                    continue;
                }
                runs.push(view);
                if runs.len() == limit {
                    break;
                }
            }
            let full = runs.len() == limit;
            if exhausted && !full {
                return Ok(RunPage { runs, next: None });
            }
            if full || scanned >= SCANNED_PER_PAGE || !scanning {
                let next = before.map(|(ms, id)| format!("{ms}{CURSOR_SEPARATOR}{id}"));
                return Ok(RunPage { runs, next });
            }
        }
    }

    /// What the parked runs `batch` wait for (their journals read in one
    /// round trip), by run id; `None` for one that is gone or whose journal
    /// is unreadable (it is listed without).
    async fn waiting_of(
        &self,
        batch: impl Iterator<Item = &RunSummary>,
        now: u64,
    ) -> Result<HashMap<String, Option<String>>, OperatorError> {
        let batch: Vec<String> = batch.map(|s| s.meta.run_id.clone()).collect();
        let records = self.runs.get_many(&batch).await?;
        let mut out: HashMap<String, Option<String>> = batch.into_iter().map(|id| (id, None)).collect();
        for record in &records {
            let waiting = RunDetail::of_record(record, SessionShown::Hashed, now).run.waiting;
            out.insert(record.meta.run_id.clone(), waiting);
        }
        Ok(out)
    }

    /// One run in full.
    ///
    /// # Errors
    /// [`OperatorError::NoSuchRun`]; the store's failure.
    pub async fn show(&self, run_id: &str, shown: SessionShown) -> Result<RunDetail, OperatorError> {
        let Some(record) = self.runs.get(run_id).await? else {
            return Err(OperatorError::NoSuchRun(run_id.to_owned()));
        };
        Ok(RunDetail::of_record(&record, shown, now_ms()))
    }

    /// Approves `approve` and denies `deny` (with `reason`) of run
    /// `run_id`'s pending approvals, as operator `by`: left in the run's
    /// journal, taken when it next resumes. Waits up to `wait` while a
    /// process holds the run. Recorded in the audit trail before anything
    /// is decided, and settled with the outcome after: a trail that cannot
    /// record refuses the decision.
    ///
    /// # Errors
    /// [`OperatorError`]; nothing of the run changed. The audit trail
    /// failing before the decision is [`OperatorError::Audit`], and
    /// nothing is decided.
    pub async fn decide(
        &self,
        by: &str,
        run_id: &str,
        approve: Vec<String>,
        deny: Vec<String>,
        reason: Option<String>,
        wait: Duration,
    ) -> Result<Vec<ApprovalRecord>, OperatorError> {
        let action = if deny.is_empty() { "approve" } else { "deny" };
        let ids: Vec<String> = approve.iter().chain(&deny).cloned().collect();
        let decisions =
            Decisions { approve, deny: deny.into_iter().map(|id| Denial { id, reason: reason.clone() }).collect() };
        let entry = self.entry(by, action, run_id, ids, reason);
        self.audited(entry, decide_stored(&self.runs, run_id, decisions, by, wait), |decided| match decided {
            Ok(named) => {
                let what: Vec<&str> = named.iter().map(|r| r.what.as_str()).collect();
                format!("{action}d {}; taken when the run next resumes", what.join(", "))
            }
            Err(e) => e.to_string(),
        })
        .await
    }

    /// Aborts run `run_id` as operator `by`: a parked run nobody holds ends
    /// now; one a process holds is marked, and that process ends it.
    /// Recorded in the audit trail before anything is done, and settled
    /// with the outcome after.
    ///
    /// # Errors
    /// [`OperatorError::NoSuchRun`]; the store's failure; the audit
    /// trail's failure before the abort ([`OperatorError::Audit`]: nothing
    /// was done).
    pub async fn abort(&self, by: &str, run_id: &str) -> Result<AbortOutcome, OperatorError> {
        let entry = self.entry(by, "abort", run_id, Vec::new(), None);
        self.audited(entry, self.abort_now(run_id), |aborted| match aborted {
            Ok(outcome) => outcome.describe(run_id),
            Err(e) => e.to_string(),
        })
        .await
    }

    /// An audit entry of an action not yet taken.
    fn entry(
        &self,
        by: &str,
        action: &str,
        run_id: &str,
        approvals: Vec<String>,
        reason: Option<String>,
    ) -> AuditEntry {
        AuditEntry {
            seq: 0,
            at_ms: now_ms(),
            operator: by.to_owned(),
            action: action.to_owned(),
            run_id: run_id.to_owned(),
            approvals,
            reason,
            ok: false,
            outcome: STARTED.to_owned(),
        }
    }

    /// Takes an action with its audit entry written ahead: the entry is
    /// recorded (saying the action started) before `act` runs, and settled
    /// with how it went after. No action is taken that the trail does not
    /// hold: a trail that cannot record refuses the action, and a process
    /// stopped between the two leaves the entry saying it started, never
    /// an action without one. A failure to settle is logged; the entry
    /// then keeps saying the outcome was not recorded, which is true.
    async fn audited<T>(
        &self,
        entry: AuditEntry,
        act: impl std::future::Future<Output = Result<T, OperatorError>>,
        describe: impl FnOnce(&Result<T, OperatorError>) -> String,
    ) -> Result<T, OperatorError> {
        let (operator, action, run_id) = (entry.operator.clone(), entry.action.clone(), entry.run_id.clone());
        let seq = self.audit.record(entry).await.map_err(|e| {
            OperatorError::Audit(format!("{e}; nothing was done: an operator action is taken only once it is audited"))
        })?;
        crate::crash_points::point("operator.audited");
        let done = act.await;
        crate::crash_points::point("operator.acted");
        if let Err(e) = self.audit.settle(seq, done.is_ok(), describe(&done)).await {
            tracing::error!(%operator, %action, %run_id, seq, error = %e, "an operator action's outcome could not be recorded in the audit trail; its entry says the outcome was not recorded");
        }
        done
    }

    async fn abort_now(&self, run_id: &str) -> Result<AbortOutcome, OperatorError> {
        // Read first: `request_abort` answers `Ended` both for a run it
        // ended and for one that had ended before.
        let Some(before) = self.runs.get(run_id).await? else {
            return Err(OperatorError::NoSuchRun(run_id.to_owned()));
        };
        if let RunStatus::Ended(end) = &before.status {
            return Ok(AbortOutcome::AlreadyEnded { end: end.to_string() });
        }
        Ok(match self.runs.request_abort(run_id).await? {
            Claim::Ended(RunEnd::Aborted) => AbortOutcome::Ended,
            Claim::Ended(end) => AbortOutcome::AlreadyEnded { end: end.to_string() },
            Claim::Held { owner, until_ms } => AbortOutcome::Marked { owner, until_ms },
            Claim::Missing => return Err(OperatorError::NoSuchRun(run_id.to_owned())),
            Claim::Claimed(_) => AbortOutcome::Requested,
        })
    }

    /// The audit trail, newest first: up to `limit` (at most 1,000)
    /// entries older than `before` (an entry's `seq`).
    ///
    /// # Errors
    /// The trail's failure.
    pub async fn audit(&self, before: Option<u64>, limit: usize) -> Result<Vec<AuditEntry>, OperatorError> {
        self.audit.list(before, limit.min(MAX_AUDIT_PAGE)).await.map_err(|e| OperatorError::Audit(e.to_string()))
    }
}

/// A page cursor: `<created ms>.<run id>`.
fn parse_cursor(text: &str) -> Result<(u64, String), OperatorError> {
    let refused = || {
        OperatorError::Refused(format!(
            "`before` is not a page cursor (`<created ms>{CURSOR_SEPARATOR}<run id>`, a page's `next`): {:?}",
            text.chars().take(80).collect::<String>()
        ))
    };
    let (ms, run_id) = text.split_once(CURSOR_SEPARATOR).ok_or_else(refused)?;
    let ms = ms.parse::<u64>().map_err(|_| refused())?;
    if run_id.is_empty() || run_id.len() > 64 || !run_id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(refused());
    }
    Ok((ms, run_id.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_the_last_run_of_its_page_and_anything_else_is_refused() {
        let id = format!("run_{}", "a".repeat(32));
        assert_eq!(parse_cursor(&format!("12.{id}")).unwrap(), (12, id));
        for bad in ["", "12", "x.run_a", "12.", "12.run_<script>", &format!("1.{}", "a".repeat(65))] {
            assert!(matches!(parse_cursor(bad), Err(OperatorError::Refused(_))), "{bad:?}");
        }
    }
}
