//! What a journal holds: the run's header, its tool table, the reads of
//! the configuration it made, the host side's snapshot, and the journal as
//! read back for a replay.

use std::collections::VecDeque;

use codemode_protocol::Telemetry;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::settlement::Settlement;

/// The largest journal any run keeps: the ceiling of `[runs]
/// max_journal_bytes` (64 MiB), and what a stored journal is read up to.
pub(crate) const MAX_JOURNAL_BYTES: usize = 64 * 1024 * 1024;

/// The journal format this build writes.
pub(crate) const FORMAT: u32 = 2;
/// The oldest format this build reads.
pub(crate) const OLDEST_FORMAT: u32 = 1;

/// One global of the engine's tool table: its callable name and the tool's
/// catalog id (`native:<name>`), its identity across deploys.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct ToolRef(pub String, pub String);

/// A journal's tool table, shared by every cell of a runtime (it is the
/// registry's, made once) and stored as a plain JSON array.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ToolRefs(pub std::sync::Arc<[ToolRef]>);

impl Serialize for ToolRefs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ToolRefs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<ToolRef>::deserialize(d).map(|v| Self(v.into()))
    }
}

/// What a run is, fixed when it starts.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Header {
    pub format: u32,
    /// The cell's wrapped source, exactly as compiled.
    pub wrapped: String,
    pub title: Option<String>,
    pub session: String,
    pub reply: String,
    pub principal: Option<String>,
    pub restart_safe: bool,
    /// No one can decide the run's approvals (`Exec::unattended`). Left
    /// out when false, so journals of attended runs read as before; a
    /// build that predates it reads an unattended run as attended, which
    /// asks (parks) rather than runs an asked call.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unattended: bool,
    /// `Math.random`'s seed.
    pub seed: u64,
    /// The engine's tool globals, in index order (format 2; format 1 used
    /// the registry of the resuming process).
    #[serde(default)]
    pub tools: ToolRefs,
    /// The prelude's behaviour the run started with (its generation: 0
    /// for journals written before tool globals were handles).
    #[serde(default)]
    pub prelude: u32,
}

/// A cell's pending store writes: key → value, `None` deletes (journaled
/// in a snapshot, committed only when the cell completes: GA-7.5/7.6).
pub(crate) type WriteBuffer = std::collections::BTreeMap<String, Option<codemode_store::StoredValue>>;

pub(crate) use crate::engine::determinism::EnvKey;

/// The host-side state of the cell at the moment the journal was written,
/// restored after a replay (the guest's own state is rebuilt by the replay).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Snapshot {
    /// Steps whose output had been delivered to an observer: output the
    /// replay emits during them is not delivered again.
    pub delivered_steps: usize,
    /// Output budget used so far (GA-4).
    pub output_used: usize,
    pub telemetry: Telemetry,
    /// The cell had observed network-derived content.
    pub network: bool,
    pub envelope_id: Option<String>,
    /// Store writes not yet committed (GA-7.5), as `(key, json, network)`;
    /// `None` deletes. Format 1 keeps the whole buffer here; format 2 keeps
    /// the writes since the last segment in each delta, and the decoder
    /// folds them back into this field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<(String, Option<(String, bool)>)>,
    /// Live timers and when they are due (ms since the epoch).
    pub timers: Vec<(u64, u64)>,
    /// Settled while parked, not yet delivered: delivered at the next
    /// window, as in memory.
    pub undelivered: Vec<Value>,
}

/// A pending approval of a run, or one decided whose call has not settled
/// yet, as journaled: a replay restores it, so a decision is never lost
/// and an approved call never runs twice.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRecord {
    /// The approval as a `waiting` result lists it (its fields stand
    /// beside the others in the journal's JSON).
    #[serde(flatten)]
    pub approval: codemode_protocol::PendingApproval,
    /// The request the asked call is.
    pub request: u64,
    /// The call as the guest's errors name it.
    pub what: String,
    /// When it was asked (ms since the Unix epoch).
    pub asked_at_ms: u64,
    /// The decision, once taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<DecisionRecord>,
    /// Set when the call's MCP task asked for input (not the policy): the
    /// task's key of the input request. The call goes on whatever is
    /// decided (approve accepts the form, deny declines it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_input: Option<String>,
}

/// Decisions an operator left for a run while no process held it: the
/// run takes them (as if a `wait` brought them) when it next resumes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct InboxEntry {
    /// What the operator decided.
    pub decisions: codemode_protocol::Decisions,
    /// When.
    pub at_ms: u64,
    /// Which operator (journals written before operators were named have
    /// none, and read as `operator`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// A run's approvals as its journal keeps them.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(from = "StoredApprovalLog")]
pub struct ApprovalLog {
    /// Pending approvals, and decided ones (the newest few, and every one
    /// whose call has not settled).
    pub records: Vec<ApprovalRecord>,
    /// Operators' decisions not yet taken.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inbox: Vec<InboxEntry>,
}

/// An approval log as stored, before its sources are read as this build
/// names them.
#[derive(Deserialize)]
struct StoredApprovalLog {
    records: Vec<ApprovalRecord>,
    #[serde(default)]
    inbox: Vec<InboxEntry>,
}

impl From<StoredApprovalLog> for ApprovalLog {
    /// An approval journaled by a build before native tools said `native`
    /// says `openclaw`; operators and the model see today's name.
    fn from(stored: StoredApprovalLog) -> Self {
        let mut records = stored.records;
        for record in &mut records {
            let source = &mut record.approval.source;
            *source = codemode_catalog::source_as_today(source).to_owned();
        }
        Self { records, inbox: stored.inbox }
    }
}

impl ApprovalLog {
    /// Nothing to keep.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty() && self.inbox.is_empty()
    }
}

/// A call an MCP server runs as a task, journaled the moment the task is
/// known: a run resumed on any process polls the same task instead of
/// calling the tool again (or reporting `outcome_unknown`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskRecord {
    /// The request the call is.
    pub(crate) request: u64,
    /// The MCP server's configured name (how a later process finds it).
    pub(crate) server: String,
    /// The raw tool name.
    pub(crate) tool: String,
    /// The task.
    #[serde(flatten)]
    pub(crate) task: codemode_protocol::McpTask,
    /// When the server created it (ms since the Unix epoch).
    pub(crate) started_at_ms: u64,
}

/// A run's MCP tasks whose calls have not settled.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct TaskLog {
    /// One per call, in the order the tasks started.
    pub(crate) records: Vec<TaskRecord>,
}

/// A decision on an approval, as journaled before it took effect.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DecisionRecord {
    /// What was decided.
    pub verdict: codemode_protocol::Verdict,
    /// Who decided: the session's principal, `session`, `operator`, or
    /// `ttl` for an expiry.
    pub by: String,
    /// Which kind of decider that was (journals written before kinds were
    /// recorded have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<codemode_protocol::DeciderKind>,
    /// When (ms since the Unix epoch).
    pub at_ms: u64,
    /// A denial's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A journal read back for replay.
#[derive(Debug)]
pub(crate) struct Journal {
    /// The format it was written in (1 or 2): which fingerprint function
    /// checks its requests, and whether its reads of the configuration
    /// were journaled.
    pub format: u32,
    pub header: Header,
    /// Fingerprint of request `id` at index `id - 1`.
    pub requests: Vec<u64>,
    pub clock: crate::engine::clock::ClockLog,
    /// Reads of the host's configuration, in order (format 2).
    pub env: Vec<(EnvKey, String)>,
    /// The last snapshot, with every uncommitted write folded in.
    pub snapshot: Snapshot,
    /// The run's approvals, as last written.
    pub approvals: ApprovalLog,
    /// The run's MCP tasks, as last written.
    pub tasks: TaskLog,
    /// The steps not yet replayed.
    pub steps: VecDeque<Vec<Settlement>>,
    pub step_count: usize,
    /// Format 1 only: the steps' encoded text, to rewrite the journal in
    /// format 2 after the replay.
    pub steps_text: Vec<u8>,
    /// The encoded journal's size.
    pub stored_bytes: usize,
    /// The record was parked when it was read (not left running by a
    /// crash mid-window); set by whoever read the record.
    pub parked: bool,
}

/// Why a stored journal cannot be used. The run it belongs to is not
/// touched: the resuming `wait` reports this and the run stays parked.
#[derive(Debug, thiserror::Error)]
pub(crate) enum JournalError {
    /// Not a journal at all.
    #[error("the stored journal is not a codemode journal ({0})")]
    Foreign(String),
    /// Written by a newer codemode.
    #[error(
        "the stored journal is in format {0}, written by a newer codemode; this build reads formats {OLDEST_FORMAT} \
         to {FORMAT}. Resume the run on a process running the newer build (it stays parked until then)."
    )]
    Newer(u32),
    /// A format this build reads, but damaged (truncated, a bad checksum,
    /// an absurd length, an inconsistent segment).
    #[error("the stored journal is damaged ({0}); it cannot be resumed")]
    Damaged(String),
    /// A value of this run could not be encoded as the journal keeps it
    /// (an encoder bug): the run stops being journaled rather than keep a
    /// wrong value.
    #[error("a value of the run could not be journaled ({0})")]
    Unencodable(String),
    /// The run outgrew what a journal keeps and lived in one process's
    /// memory only: its record holds this marker, never a journal to
    /// resume.
    #[error("the run could not be journaled ({0}) and lived in one process's memory only")]
    NotResumable(String),
}
