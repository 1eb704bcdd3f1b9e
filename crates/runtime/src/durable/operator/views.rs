//! What an operator is shown of a run: one serializable view, the same
//! whether it is printed by `codemode runs` on the store or sent by the
//! server's operator API (and read back by `codemode runs --server`).

use codemode_protocol::CellResult;
use codemode_store::runs::{RunMeta, RunRecord, RunStatus, RunSummary};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::durable::journal::{ApprovalLog, Journal};

/// How shown session hashes start.
const HASH_PREFIX: &str = "sha256:";

/// Hex digits of a session's SHA-256 shown: 48 bits tell sessions apart in
/// a listing without handing out anything usable.
const HASH_CHARS: usize = 12;

/// Separates a page cursor's creation time from its run id.
pub const CURSOR_SEPARATOR: char = '.';

/// `sha256:` and the first hex digits of the session key's digest: session
/// keys are capabilities (whoever knows one can `wait` on its runs), so an
/// operator is shown this instead.
#[must_use]
pub fn session_hash(session: &str) -> String {
    let digest = Sha256::digest(session.as_bytes());
    let hex: String = digest.iter().take(HASH_CHARS / 2).map(|b| format!("{b:02x}")).collect();
    format!("{HASH_PREFIX}{hex}")
}

/// How a view shows the run's session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionShown {
    /// Its SHA-256 prefix (what the operator API always sends).
    Hashed,
    /// The raw key (`codemode runs --show-sessions`, on the store itself).
    Raw,
}

/// A run as an operator sees it in a listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunView {
    /// `run_` and 32 hex digits.
    pub run_id: String,
    /// `running`, `parked`, or how it ended.
    pub status: String,
    /// The session, as [`SessionShown`] says.
    pub session: String,
    /// The reply (model turn) that started it.
    pub reply: String,
    /// The session's principal, if any.
    pub principal: Option<String>,
    /// The exec's title, if any.
    pub title: Option<String>,
    /// The process holding its lease, if any.
    pub owner: Option<String>,
    /// When the lease ends, ms since the Unix epoch (0: none).
    pub lease_until_ms: u64,
    /// What is left of a live lease.
    pub lease_left_ms: u64,
    /// The stored journal's size.
    pub journal_bytes: u64,
    /// Created, ms since the Unix epoch.
    pub created_ms: u64,
    /// Its age when shown.
    pub age_ms: u64,
    /// Last change, ms since the Unix epoch.
    pub updated_ms: u64,
    /// An abort was asked for and its owner has not ended it yet.
    pub abort_requested: bool,
    /// Its owner stopped before its first journal write: nothing can resume
    /// it, and it ends as `unrecoverable`.
    pub orphaned: bool,
    /// What a parked run waits for, read from its journal: `approval` (a
    /// pending approval), `pending_tools` (MCP tasks outstanding) or
    /// `yield`. Absent for other runs, and in listings without the
    /// journals read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
    /// The journal's version (shown runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// What the status column adds: `abort requested`, an orphan, an owner
    /// gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl RunView {
    /// The view of a listed run at `now` (ms).
    #[must_use]
    pub fn of_summary(r: &RunSummary, shown: SessionShown, now: u64) -> Self {
        let parts = Parts {
            meta: &r.meta,
            status: &r.status,
            owner: r.owner.as_deref(),
            lease_until_ms: r.lease_until_ms,
            journal_bytes: r.journal_bytes,
            updated_ms: r.updated_ms,
            abort_requested: r.abort_requested,
        };
        parts.view(shown, now)
    }

    /// The view of a stored run at `now` (ms), with its version.
    #[must_use]
    pub fn of_record(r: &RunRecord, shown: SessionShown, now: u64) -> Self {
        let parts = Parts {
            meta: &r.meta,
            status: &r.status,
            owner: r.owner.as_deref(),
            lease_until_ms: r.lease_until_ms,
            journal_bytes: r.journal.len() as u64,
            updated_ms: r.updated_ms,
            abort_requested: r.abort_requested,
        };
        Self { version: Some(r.version), ..parts.view(shown, now) }
    }
}

struct Parts<'a> {
    meta: &'a RunMeta,
    status: &'a RunStatus,
    owner: Option<&'a str>,
    lease_until_ms: u64,
    journal_bytes: u64,
    updated_ms: u64,
    abort_requested: bool,
}

impl Parts<'_> {
    fn view(&self, shown: SessionShown, now: u64) -> RunView {
        let live = self.owner.is_some() && self.lease_until_ms > now;
        // Live, but nobody advances it: its owner's lease ran out mid-window.
        let owner_gone = *self.status == RunStatus::Running && self.lease_until_ms <= now;
        let orphaned = owner_gone && self.journal_bytes == 0;
        let ended = matches!(self.status, RunStatus::Ended(_));
        let note = if self.abort_requested && !ended {
            Some("abort requested")
        } else if orphaned {
            Some("orphaned: ends as unrecoverable")
        } else if owner_gone {
            Some("owner gone: a wait resumes it")
        } else {
            None
        };
        RunView {
            run_id: self.meta.run_id.clone(),
            status: self.status.as_str().to_owned(),
            session: match shown {
                SessionShown::Hashed => session_hash(&self.meta.session),
                SessionShown::Raw => self.meta.session.clone(),
            },
            reply: self.meta.reply.clone(),
            principal: self.meta.principal.clone(),
            title: self.meta.title.clone(),
            owner: self.owner.map(str::to_owned),
            lease_until_ms: self.lease_until_ms,
            lease_left_ms: if live { self.lease_until_ms - now } else { 0 },
            journal_bytes: self.journal_bytes,
            created_ms: self.meta.created_ms,
            age_ms: now.saturating_sub(self.meta.created_ms),
            updated_ms: self.updated_ms,
            abort_requested: self.abort_requested && !ended,
            orphaned,
            waiting: None,
            version: None,
            note: note.map(str::to_owned),
        }
    }
}

/// An MCP task a run's call waits on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskView {
    /// The MCP server's configured name.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// The task as the server named it, and its last known state.
    pub task: codemode_protocol::McpTask,
    /// When the server created it, ms since the Unix epoch.
    pub started_at_ms: u64,
}

/// One run in full, for `show`: everything but its journal's bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunDetail {
    /// The listing's view, with the version and what it waits for.
    #[serde(flatten)]
    pub run: RunView,
    /// Its approvals (pending ones with their previews, decided ones with
    /// their decisions) and the operators' decisions not yet taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approvals: Option<ApprovalLog>,
    /// Why the journal could not be read (then nothing of it is shown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal_error: Option<String>,
    /// The MCP tasks its calls wait on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<TaskView>,
    /// Output budget used so far, in bytes (the output itself went to the
    /// model in the run's windows and is not kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_used: Option<usize>,
    /// Results settled while parked, delivered at the next window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undelivered: Option<usize>,
    /// A completed run's final result, as its observer got it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<CellResult>,
}

impl RunDetail {
    /// Everything shown of `record` at `now` (ms).
    #[must_use]
    pub fn of_record(record: &RunRecord, shown: SessionShown, now: u64) -> Self {
        let mut detail = Self {
            run: RunView::of_record(record, shown, now),
            approvals: None,
            journal_error: None,
            tasks: Vec::new(),
            output_used: None,
            undelivered: None,
            receipt: None,
        };
        if record.status == RunStatus::Ended(codemode_protocol::RunEnd::Completed) {
            detail.receipt = crate::durable::kept(&record.journal);
            return detail;
        }
        // An ended run's journal is gone with it.
        if record.journal.is_empty() || matches!(record.status, RunStatus::Ended(_)) {
            return detail;
        }
        match Journal::decode(&record.journal) {
            Ok(journal) => {
                if record.status == RunStatus::Parked {
                    detail.run.waiting = Some(waiting(&journal, now).to_owned());
                }
                detail.tasks = journal
                    .tasks
                    .records
                    .iter()
                    .map(|t| TaskView {
                        server: t.server.clone(),
                        tool: t.tool.clone(),
                        task: t.task.clone(),
                        started_at_ms: t.started_at_ms,
                    })
                    .collect();
                detail.output_used = Some(journal.snapshot.output_used);
                detail.undelivered = Some(journal.snapshot.undelivered.len());
                detail.approvals = Some(journal.approvals);
            }
            Err(e) => detail.journal_error = Some(e.to_string()),
        }
        detail
    }
}

/// What a parked run's journal says it waits for.
fn waiting(journal: &Journal, now: u64) -> &'static str {
    let pending = journal.approvals.records.iter().any(|r| r.decision.is_none() && r.approval.expires_at_ms > now);
    if pending {
        codemode_protocol::WaitReason::Approval.as_str()
    } else if !journal.tasks.records.is_empty() {
        codemode_protocol::WaitReason::PendingTools.as_str()
    } else {
        codemode_protocol::WaitReason::Yield.as_str()
    }
}

/// A page of a listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunPage {
    /// The runs, newest first.
    pub runs: Vec<RunView>,
    /// The cursor of the next page (`before=`), when there may be one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}
