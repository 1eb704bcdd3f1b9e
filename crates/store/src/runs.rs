//! Durable runs: each run's journal, its lease and its end, in the backend
//! the sessions use (issue 17).
//!
//! The runtime owns what a journal *means* (it is opaque bytes here); this
//! module owns where it lives and who may write it. A run has at most one
//! owner at a time: the process whose lease (`owner`, `lease_until_ms`) is
//! live. Every write of a run's journal or end names its owner and fails
//! with [`RunStoreError::LeaseLost`] when someone else holds the lease, so
//! two processes never both advance a run.
//!
//! Two implementations: [`SledRuns`] (one process at a time, the embedded
//! default) and `PgRuns` (many processes on one PostgreSQL database,
//! `LISTEN/NOTIFY` for [`RunStore::changed`]). `tests/run_store.rs` is the
//! suite both pass.

mod sled_runs;
mod usage;
mod wal;
mod watch;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

pub(crate) use sled_runs::RunLogSlot;
pub use sled_runs::{RUN_CHUNKS_TREE, RUNS_BY_TIME_TREE, RUNS_TREE, SledRuns};
pub(crate) use watch::Watchers;

/// The most runs one [`RunStore::list`] returns (and its default).
pub const MAX_LIST_RUNS: usize = 1_000;

/// How durable a journal write ([`RunStore::save`], [`RunStore::append`],
/// a run's [`end`](RunStore::end) without store writes) is when it returns.
/// Store writes a completing cell commits are always flushed to disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Durability {
    /// Out of the process: it survives the process being killed (`kill -9`)
    /// and restarted, and (PostgreSQL) a database restart, but writes of the
    /// last moments may be lost to a power loss or an OS crash. sled: the
    /// write is applied and logged with one `write(2)` to the store's run
    /// log, flushed in the background; PostgreSQL: committed with
    /// `synchronous_commit = off`.
    Process,
    /// On disk: it also survives a power loss (sled: flushed, grouped with
    /// concurrent writes; PostgreSQL: a synchronous commit).
    #[default]
    Machine,
}

impl Durability {
    /// The setting's name (`process`, `machine`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Process => "process",
            Self::Machine => "machine",
        }
    }
}

/// A boxed future a [`RunStore`] returns (the trait is used as `dyn`).
pub type RunFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, RunStoreError>> + Send + 'a>>;

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
    /// Ended; the label is the runtime's end state (`completed`, `failed`,
    /// `timed_out`, `aborted`, `expired`, `disposed`, `crashed`,
    /// `replay_diverged`).
    Ended(String),
}

impl RunStatus {
    /// The status as stored and shown (`running`, `parked`, or the end label).
    pub fn as_str(&self) -> &str {
        match self {
            Self::Running => "running",
            Self::Parked => "parked",
            Self::Ended(label) => label,
        }
    }

    /// The status stored as `text`.
    pub fn parse(text: &str) -> Self {
        match text {
            "running" => Self::Running,
            "parked" => Self::Parked,
            other => Self::Ended(other.to_owned()),
        }
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
    /// Last change, ms since the epoch.
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
    /// Only runs in this status (`running`, `parked`, or an end label).
    pub status: Option<String>,
    /// Only runs of this session.
    pub session: Option<String>,
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
    /// The run ended; the label says how.
    Ended(String),
    /// No such run.
    Missing,
}

/// Store writes a completing run commits with its end (GA-7.5): key and
/// value (`None` deletes).
pub type RunWrites = Vec<(String, Option<crate::StoredValue>)>;

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
    /// The run's store writes did not fit the session (GA-7.3); nothing of
    /// the run's end was written.
    #[error("{0}")]
    Store(#[from] crate::StoreError),
    /// The backend failed (I/O, connection, a malformed row).
    #[error("run store: {0}")]
    Backend(String),
}

/// The run journals and leases of one backend.
///
/// Every method is safe to call from many processes at once (PostgreSQL)
/// or many tasks of one process (sled). Timestamps come from the caller's
/// clock (`now_ms`) so tests can move time; leases compare against the
/// stored `lease_until_ms`.
pub trait RunStore: Send + Sync + std::fmt::Debug + 'static {
    /// Creates the run with `owner` holding a lease until `now + lease`,
    /// status `running`, empty journal. A run id that exists is an error.
    fn create(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()>;

    /// [`create`](Self::create), for a caller that [`save`](Self::save)s
    /// the run's first journal right after: the record need only be durable
    /// once that save returns, so a backend that makes every write durable
    /// with one flush of everything before it (sled) skips its own flush
    /// here. The default is `create`.
    fn create_before_save(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        self.create(meta, owner, lease)
    }

    /// Replaces the journal and status (`running` or `parked`) if `owner`
    /// holds the lease, renewing it to `now + lease`, or releasing it
    /// (`lease = None`: `owner` cleared, `lease_until_ms = 0`) — a parked
    /// run hand-off. Returns the new version.
    fn save(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        journal: Vec<u8>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64>;

    /// [`save`](Self::save), except that `chunk` is added after the stored
    /// journal instead of replacing it: a write costs its own size, not the
    /// journal's. [`get`](Self::get) returns the stored journal followed by
    /// every appended chunk, in order.
    fn append(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        chunk: Vec<u8>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64>;

    /// Atomically takes the lease for `owner` until `now + lease` when it
    /// is free, expired, or already `owner`'s.
    fn claim(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim>;

    /// Extends `owner`'s lease to `now + lease`; `LeaseLost` if not held.
    fn renew(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, ()>;

    /// Clears `owner`'s lease (no-op if not held) without touching the journal.
    fn release(&self, run_id: &str, owner: &str) -> RunFuture<'_, ()>;

    /// Ends the run (`end` is the end label) if `owner` holds the lease,
    /// and in the same transaction commits `writes` to the run's session
    /// (a completed cell; empty otherwise) with the session limits
    /// re-checked: either both happen or neither. The journal is dropped
    /// (an ended run cannot be resumed); the record stays for `show`.
    fn end(&self, run_id: &str, owner: &str, end: &str, writes: RunWrites) -> RunFuture<'_, ()>;

    /// The stored run, journal included.
    fn get(&self, run_id: &str) -> RunFuture<'_, Option<RunRecord>>;

    /// Runs matching `filter`, newest first, without journals.
    fn list(&self, filter: RunFilter) -> RunFuture<'_, Vec<RunSummary>>;

    /// Marks the run for abort. A parked run with no live lease is ended
    /// as `aborted` at once (returns `Ended("aborted")`); a run whose lease
    /// is held is marked, and its owner ends it (returns `Held`).
    fn request_abort(&self, run_id: &str) -> RunFuture<'_, Claim>;

    /// Resolves at the next change of `run_id` (save, release, end, abort
    /// request) after this call, or after `timeout`, whichever is first.
    /// On PostgreSQL a `NOTIFY` wakes it, never polling.
    fn changed(&self, run_id: &str, timeout: Duration) -> RunFuture<'_, ()>;

    /// Deletes ended runs last changed before `before_ms`; returns how many.
    fn prune(&self, before_ms: u64) -> RunFuture<'_, u64>;

    /// The stored runs not yet ended of `session` and of `principal` (any
    /// order, at most `limit` of each), with their journals' sizes: what
    /// the per-session and per-principal quotas count.
    fn usage(&self, session: &str, principal: Option<&str>, limit: usize) -> RunFuture<'_, RunUsage>;
}

/// Milliseconds since the Unix epoch, saturating.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(feature = "postgres")]
pub use crate::postgres::runs::{MsClock, PgRuns};
