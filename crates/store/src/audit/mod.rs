//! The operators' audit trail: who did what to which run, when, and how it
//! went — every approve, deny and abort an operator asks for, from the
//! command line or the server's operator API, kept beside the runs.
//!
//! Bounded: the newest [`MAX_AUDIT_ENTRIES`] are kept, and none older than
//! [`AUDIT_RETENTION`]; older ones are dropped as new ones are recorded.
//!
//! - [`SledAudit`]: a tree of the sled database (one process at a time).
//! - `PgAudit` (feature `postgres`): a table every process on the database
//!   shares, so an action taken through any server is listed by all.

#[cfg(feature = "postgres")]
mod postgres;
mod sled;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::{Deserialize, Serialize};

#[cfg(feature = "postgres")]
pub use self::postgres::PgAudit;
pub use self::sled::{AUDIT_TREE, SledAudit};

/// Entries kept at most; the oldest go first.
pub const MAX_AUDIT_ENTRIES: u64 = 100_000;

/// How long an entry is kept at most.
pub const AUDIT_RETENTION: Duration = Duration::from_secs(400 * 24 * 3600);

/// The most entries one [`AuditStore::list`] returns.
pub const MAX_AUDIT_PAGE: usize = 1_000;

/// The longest text kept in an entry's field, in bytes (on a character
/// boundary); longer text is cut and marked with `…`.
pub const MAX_AUDIT_FIELD_BYTES: usize = 2_048;

/// The outcome of an entry whose action was started and not yet settled:
/// what the trail keeps when the process stopped in between (the run's
/// own record then says whether the action was taken).
pub const STARTED: &str =
    "started; no outcome was recorded (the process stopped before it could be): the run's record says what was done";

/// One operator action, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// Its place in the trail (assigned when recorded; higher is newer).
    #[serde(default)]
    pub seq: u64,
    /// When it was recorded, ms since the Unix epoch.
    pub at_ms: u64,
    /// The operator: the `name` of its `[operator] tokens` entry, or
    /// `local:<user>` for a command run against the store directly.
    pub operator: String,
    /// `approve`, `deny` or `abort`.
    pub action: String,
    /// The run acted on.
    pub run_id: String,
    /// The approval ids the action named (empty for an abort).
    #[serde(default)]
    pub approvals: Vec<String>,
    /// A denial's reason, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether the action was taken. An entry is recorded before its
    /// action is taken and settled after ([`AuditStore::settle`]): until
    /// then it says `false`, with [`STARTED`] as its outcome, which is
    /// what a process that stopped in between leaves.
    pub ok: bool,
    /// What came of it: what was done, or why nothing was.
    pub outcome: String,
}

impl AuditEntry {
    /// Whether its outcome was recorded: `false` for an entry still saying
    /// [`STARTED`] (its action under way, or its process stopped before
    /// the outcome was recorded).
    #[must_use]
    pub fn settled(&self) -> bool {
        self.ok || self.outcome != STARTED
    }

    /// Cuts every text field to [`MAX_AUDIT_FIELD_BYTES`], so one entry
    /// stays small whatever an operator or a run sent.
    #[must_use]
    pub fn bounded(mut self) -> Self {
        for text in [&mut self.operator, &mut self.action, &mut self.run_id, &mut self.outcome] {
            cut(text);
        }
        if let Some(reason) = &mut self.reason {
            cut(reason);
        }
        self.approvals.truncate(64);
        for id in &mut self.approvals {
            cut(id);
        }
        self
    }
}

pub(crate) fn cut(text: &mut String) {
    if text.len() > MAX_AUDIT_FIELD_BYTES {
        let mut end = MAX_AUDIT_FIELD_BYTES - '…'.len_utf8();
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
}

/// Why the audit trail failed.
#[derive(Debug, thiserror::Error)]
#[error("the operator audit trail failed: {0}")]
pub struct AuditError(pub String);

/// What an [`AuditStore`] call returns.
pub type AuditFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, AuditError>> + Send + 'a>>;

/// Where the audit trail is kept. `tests/audit_store.rs` is the contract
/// every backend passes.
pub trait AuditStore: Send + Sync + std::fmt::Debug + 'static {
    /// Records `entry` (its `seq` is assigned here) durably before it
    /// returns, and drops entries past the bounds. Returns the `seq`.
    fn record(&self, entry: AuditEntry) -> AuditFuture<'_, u64>;

    /// Settles entry `seq` with how its action went: `ok` and `outcome`
    /// (cut to [`MAX_AUDIT_FIELD_BYTES`]) replace what it said, durably
    /// before it returns. `false` when the entry is no longer kept (the
    /// bounds dropped it).
    fn settle(&self, seq: u64, ok: bool, outcome: String) -> AuditFuture<'_, bool>;

    /// Up to `limit` (at most [`MAX_AUDIT_PAGE`]) entries, newest first,
    /// older than `before` (a `seq`) when given.
    fn list(&self, before: Option<u64>, limit: usize) -> AuditFuture<'_, Vec<AuditEntry>>;
}

/// The oldest `at_ms` kept at `now_ms`.
pub(crate) fn oldest_kept(now_ms: u64) -> u64 {
    now_ms.saturating_sub(u64::try_from(AUDIT_RETENTION.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_fields_are_cut_on_a_character_boundary_and_marked() {
        let entry = AuditEntry {
            seq: 0,
            at_ms: 1,
            operator: "é".repeat(MAX_AUDIT_FIELD_BYTES),
            action: "deny".into(),
            run_id: "run_x".into(),
            approvals: vec!["a".into(); 100],
            reason: Some("r".repeat(MAX_AUDIT_FIELD_BYTES + 1)),
            ok: true,
            outcome: "x".repeat(MAX_AUDIT_FIELD_BYTES),
        }
        .bounded();
        assert!(entry.operator.len() <= MAX_AUDIT_FIELD_BYTES && entry.operator.ends_with('…'));
        assert!(entry.reason.as_deref().is_some_and(|r| r.len() <= MAX_AUDIT_FIELD_BYTES && r.ends_with('…')));
        assert_eq!(entry.outcome.len(), MAX_AUDIT_FIELD_BYTES, "exactly at the bound is kept whole");
        assert_eq!(entry.approvals.len(), 64);
    }
}
