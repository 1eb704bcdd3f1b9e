//! What a run store keeps and answers: a run's record, its status and
//! end, the answers to a claim, and why an operation failed.

use codemode_protocol::{RunEnd, UnknownRunEnd};

use crate::error::StoreError;
use crate::value::StoredValue;

/// The most runs one [`RunStore::list`] returns (and its default).
pub const MAX_LIST_RUNS: usize = 1_000;

/// How durable a journal write ([`RunStore::save`], [`RunStore::append`],
/// a run's [`end`](RunStore::end) without store writes) is when it returns.
/// Store writes a completing cell commits are always flushed to disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Durability {
    /// Out of the process: it survives the process being killed (`kill -9`)
    /// and restarted, but writes of the last moments may be lost to a power
    /// loss or an OS crash. sled: the write is applied and logged with one
    /// `write(2)` to the store's run log, flushed in the background.
    /// PostgreSQL commits synchronously either way: the database is a
    /// process of its own, and an acknowledged write must survive it
    /// crashing.
    Process,
    /// On disk: it also survives a power loss (sled: flushed, grouped with
    /// concurrent writes; PostgreSQL: a synchronous commit).
    #[default]
    Machine,
}

impl Durability {
    /// The setting's name (`process`, `machine`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Process => "process",
            Self::Machine => "machine",
        }
    }
}

/// What a run is bound to, written once when it is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunMeta {
    /// `run_<32 hex>`: unguessable, the only handle a client has.
    pub run_id: String,
    /// The owning session.
    pub session: String,
    /// The reply (model turn) that started it.
    pub reply: String,
    /// The principal the session was tagged with, if any.
    pub principal: Option<String>,
    /// The exec's title, if any.
    pub title: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// Where a run is in its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Guest code may be running (an owner holds a window open).
    Running,
    /// Parked: waiting for a `wait`. Its journal is complete up to the park.
    Parked,
    /// Ended, and how.
    Ended(RunEnd),
}

impl RunStatus {
    /// The status as stored and shown (`running`, `parked`, or the end's
    /// label).
    #[must_use]
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Parked => "parked",
            Self::Ended(end) => end.label(),
        }
    }

    /// The status stored as `text`.
    ///
    /// # Errors
    /// [`UnknownRunEnd`] for text that is no status (written by a newer
    /// codemode, or damaged): never read as some default.
    pub fn parse(text: &str) -> Result<Self, UnknownRunEnd> {
        match text {
            "running" => Ok(Self::Running),
            "parked" => Ok(Self::Parked),
            other => RunEnd::parse(other).map(Self::Ended),
        }
    }

    /// Whether the run may still advance (`running` or `parked`).
    #[must_use]
    pub fn is_live(&self) -> bool {
        !matches!(self, Self::Ended(_))
    }
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One run as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRecord {
    /// What the run is bound to.
    pub meta: RunMeta,
    /// Where it is in its life.
    pub status: RunStatus,
    /// The process holding the lease (its instance id), if any.
    pub owner: Option<String>,
    /// When the lease ends (ms since the epoch); 0 when released.
    pub lease_until_ms: u64,
    /// The runtime's journal, opaque here; empty until first written.
    pub journal: Vec<u8>,
    /// Bumped by every journal write: tells a reader which version it saw.
    pub version: u64,
    /// An operator or another process asked for an abort; the owner ends
    /// the run as aborted when it sees this (or a claimer does).
    pub abort_requested: bool,
    /// Last change of its journal or status, ms since the epoch (a
    /// claim, renewal or release does not count: idleness is measured
    /// from it).
    pub updated_ms: u64,
}

/// A row of `codemode runs list`: a record without its journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// What the run is bound to.
    pub meta: RunMeta,
    /// Where it is in its life.
    pub status: RunStatus,
    /// The lease holder, if any.
    pub owner: Option<String>,
    /// When the lease ends (ms since the epoch); 0 when released.
    pub lease_until_ms: u64,
    /// The stored journal's size.
    pub journal_bytes: u64,
    /// Last change, ms since the epoch.
    pub updated_ms: u64,
    /// An abort was requested.
    pub abort_requested: bool,
}

/// Which runs `list` returns.
#[derive(Clone, Debug, Default)]
pub struct RunFilter {
    /// Only runs in this status.
    pub status: Option<RunStatus>,
    /// Only runs of this session.
    pub session: Option<String>,
    /// Only runs of this principal.
    pub principal: Option<String>,
    /// Only runs created before this one, in list order: the `(created_ms,
    /// run_id)` of the last run of the previous page.
    pub before: Option<(u64, String)>,
    /// At most this many, newest first (default and maximum 1,000).
    pub limit: Option<usize>,
}

/// The stored runs that are not ended of a session and of a principal,
/// each with its journal's size ([`RunStore::usage`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunUsage {
    /// The session's: `(run id, journal bytes)`, at most the asked limit.
    pub session: Vec<(String, u64)>,
    /// The principal's, across its sessions (empty without a principal).
    pub principal: Vec<(String, u64)>,
}

/// The answer to [`RunStore::claim`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The caller now holds the lease (it was free, expired, or already
    /// the caller's). The record is as stored at the moment of the claim.
    Claimed(RunRecord),
    /// Another owner holds a live lease until `until_ms`.
    Held {
        /// The holder's instance id.
        owner: String,
        /// When its lease ends (ms since the epoch).
        until_ms: u64,
    },
    /// The run ended, this way.
    Ended(RunEnd),
    /// No such run.
    Missing,
}

/// Hears `(run id, owner)` of a run some process took
/// ([`RunStore::on_taken`]).
pub type TakenHook = std::sync::Arc<dyn Fn(&str, &str) + Send + Sync>;

/// Store writes a completing run commits with its end (GA-7.5): key and
/// value (`None` deletes).
pub type RunWrites = Vec<(String, Option<StoredValue>)>;

/// Why a run-store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum RunStoreError {
    /// The caller does not hold the run's lease (another process claimed
    /// it, or it expired): the caller must stop advancing the run.
    #[error("the lease on run {run_id} is held by another codemode process; this process must not advance it")]
    LeaseLost {
        /// The run.
        run_id: String,
    },
    /// No such run.
    #[error("no stored run {run_id}")]
    Missing {
        /// The run.
        run_id: String,
    },
    /// [`RunStore::create`] of a run id that is stored already. Run ids
    /// are unguessable, so after a create whose answer was lost this is
    /// that create having landed.
    #[error("run {run_id} already exists")]
    Exists {
        /// The run.
        run_id: String,
    },
    /// [`RunStore::append`] to a journal that is not at the version the
    /// chunk continues: the caller holds the lease, but the stored journal
    /// moved (an earlier attempt of this write landed before its answer
    /// was lost), so the chunk was not added twice.
    #[error("run {run_id}: the stored journal is at version {stored}, not the one this write continues")]
    Stale {
        /// The run.
        run_id: String,
        /// The stored journal's version.
        stored: u64,
    },
    /// The run's store writes did not fit the session (GA-7.3); nothing of
    /// the run's end was written.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// A stored run's status is none this codemode knows: written by a
    /// newer codemode, or damaged. The run is left as it is.
    #[error(
        "run {run_id} has the stored status {label:?}, which this codemode does not know (written by a newer codemode, or damaged); it was left unchanged. Upgrade codemode, or end the run with a codemode that knows it."
    )]
    UnknownStatus {
        /// The run.
        run_id: String,
        /// What is stored as its status.
        label: String,
    },
    /// The backend failed (I/O, connection, a malformed row).
    #[error("run store: {0}")]
    Backend(String),
}

impl RunStoreError {
    /// The status stored for `run_id` as `text`, or why it is none.
    ///
    /// # Errors
    /// [`RunStoreError::UnknownStatus`].
    pub(crate) fn status(run_id: &str, text: &str) -> Result<RunStatus, Self> {
        RunStatus::parse(text).map_err(|_| Self::UnknownStatus { run_id: run_id.to_owned(), label: text.to_owned() })
    }
}

/// Milliseconds since the Unix epoch, saturating.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
