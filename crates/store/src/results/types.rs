//! What every results backend shares: the limits, the scope, the errors
//! and the counters a [`ResultsCache`](super::ResultsCache) reports.

use std::sync::atomic::{AtomicU64, Ordering};

/// What the results cache saved and holds: shared by every clone of a
/// [`ResultsCache`](super::ResultsCache) and its actor (across restarts), read by the runtime's
/// metrics. Plain atomics, no lock.
#[derive(Debug, Default)]
pub(crate) struct ResultsStats {
    pub(super) saves: AtomicU64,
    pub(super) saved_bytes: AtomicU64,
    pub(super) held_entries: AtomicU64,
    pub(super) held_bytes: AtomicU64,
}

/// What a [`ResultsCache`](super::ResultsCache) saved and holds, at one
/// moment ([`ResultsCache::stats`](super::ResultsCache::stats)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultsStatsSnapshot {
    /// Results saved since start, explicit (`results.save`) and automatic
    /// (an oversized final value, GA-6.6) alike.
    pub saves: u64,
    /// Bytes of JSON of those saves.
    pub saved_bytes: u64,
    /// What this process holds in memory now; `None` on PostgreSQL, where
    /// results are rows of the shared database and the process holds none.
    pub held: Option<ResultsHeld>,
}

/// Results held in memory now: saved, and neither deleted nor expired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultsHeld {
    /// Saved results.
    pub entries: u64,
    /// Bytes of their JSON.
    pub bytes: u64,
}

impl ResultsStats {
    pub(super) fn saved(&self, bytes: usize) {
        self.saves.fetch_add(1, Ordering::Relaxed);
        self.saved_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub(super) fn hold(&self, entries: usize, bytes: usize) {
        self.held_entries.store(entries as u64, Ordering::Relaxed);
        self.held_bytes.store(bytes as u64, Ordering::Relaxed);
    }

    /// The counters now; what is held only when this process holds it.
    pub(super) fn snapshot(&self, held_here: bool) -> ResultsStatsSnapshot {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let held = ResultsHeld { entries: load(&self.held_entries), bytes: load(&self.held_bytes) };
        ResultsStatsSnapshot {
            saves: load(&self.saves),
            saved_bytes: load(&self.saved_bytes),
            held: held_here.then_some(held),
        }
    }
}

/// The cache's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultsLimits {
    /// Results per reply.
    pub max_entries: usize,
    /// Bytes of JSON per reply.
    pub max_bytes: usize,
}

impl Default for ResultsLimits {
    fn default() -> Self {
        Self { max_entries: 64, max_bytes: 10 * 1024 * 1024 }
    }
}

/// Which reply results belong to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scope {
    /// The session.
    pub session: String,
    /// The reply within it.
    pub reply: String,
}

/// Why a results operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResultsError {
    /// The reply's cache is full.
    #[error(
        "Code Mode results capacity exceeded ({0}); delete saved references or save a smaller value. Existing references are unchanged."
    )]
    Full(String),
    /// The id was never saved in this reply, or its reply ended.
    #[error("Code Mode result is unavailable or expired; fetch fresh data if needed.")]
    Unavailable,
    /// The id was deleted.
    #[error("Code Mode result {0} was deleted; fetch fresh data if needed.")]
    Deleted(String),
    /// The id belongs to another reply or session.
    #[error("Code Mode results belong to a different run or session.")]
    OtherScope,
    /// The id is not a non-empty string.
    #[error("results reference id must be a non-empty string.")]
    BadId,
    /// The reply ended: its results expired, and nothing more is saved in it.
    #[error(
        "Code Mode results of this reply have expired: the reply ended, so nothing more can be saved in it. Return the data instead, or a smaller part of it."
    )]
    ReplyEnded,
    /// The actor is not running.
    #[error("the results cache is unavailable; retry in a moment")]
    ActorUnavailable,
    /// A PostgreSQL statement failed, or no pooled connection came in time.
    #[error("the results cache's database failed: {0}; retry in a moment")]
    Database(String),
    /// The operating system gave no randomness for the new result's id;
    /// nothing was saved (a guessable id would expose it to other replies).
    #[error("the results cache cannot make an unguessable id ({0}); nothing was saved. Retry in a moment.")]
    NoRandomness(String),
    /// The cache actor could not be spawned.
    #[error("the results cache could not start: {0}")]
    Start(String),
}

/// A new, unguessable result id: `result_` and 32 hex digits.
///
/// # Errors
/// [`ResultsError::NoRandomness`].
pub(super) fn new_id() -> Result<String, ResultsError> {
    codemode_protocol::ids::unguessable::<16>("result_").map_err(|e| ResultsError::NoRandomness(e.to_string()))
}
