//! How durable runs are configured: the backend (`[store]`) and how runs
//! are journaled, leased and evicted (`[runs]`).

use std::time::Duration;

use std::sync::Arc;

use codemode_store::runs::RunStore;

use super::journal::ToolRefs;
use crate::limits::{LimitsError, check_range, ms};

/// Which backend keeps sessions, results and runs (`[store] backend`):
/// chosen once, where the store is opened.
pub use codemode_store::StoreBackend;

/// When a run's journal is written to the backend (`[runs] journal`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JournalMode {
    /// Before a `waiting` result is returned (the default): a crash after
    /// the client saw `waiting` never loses the run; a crash while a window
    /// is open loses what the cell did since its last park.
    #[default]
    Park,
    /// Also after every settlement a window delivers: a crash mid-window
    /// resumes from the last settlement, at the cost of a write per call.
    EveryCall,
    /// No journal: parked runs live only in this process's memory (as
    /// before durable runs), and nothing is recorded per call.
    Off,
}

/// How runs are journaled, leased and evicted (`[runs]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunsConfig {
    /// When journals are written.
    pub journal: JournalMode,
    /// How long a live owner's lease lasts; renewed every third of it. A crashed
    /// owner's runs can be claimed by another process after this.
    pub lease: Duration,
    /// How long after a park the owner keeps its lease before releasing it
    /// (it keeps the cell in memory as a cache either way and re-checks the
    /// lease before resuming from it). Default 0: a quiescent parked run is
    /// released with the park's own journal write, so a `wait` on any
    /// process resumes it at once.
    pub handoff_after: Duration,
    /// Idle parked cells are evicted from memory to their journal after
    /// this long and resumed by replay on `wait`; `None` never evicts.
    pub evict_after: Option<Duration>,
    /// The most bytes one run's journal keeps (`[runs] max_journal_bytes`,
    /// 64 KiB to 64 MiB, default 16 MiB). A run that outgrows it goes on in
    /// this process's memory only: its record is marked so, and a `wait`
    /// anywhere else (or after a restart) reports it lost.
    pub max_journal_bytes: usize,
    /// How long replaying a run's journal may take when a `wait` resumes it
    /// elsewhere (`[runs] replay_timeout_ms`, 100 ms to an hour, default
    /// 60 s). A replay re-runs work the run already did, so it spends
    /// neither the window's budget nor the CPU budget; past this bound the
    /// run ends timed out.
    pub replay_timeout: Duration,
    /// What a journal write survives once a `waiting` result is returned
    /// (`[runs] durability`): `Process` (the default) a crash or `kill -9`
    /// of this process and restarts — the journal is out of the process,
    /// in the kernel or on the PostgreSQL server — but not a power loss in
    /// the moments before the background flush; `Machine` also a power loss
    /// (each park waits for the disk, grouped with concurrent parks).
    pub durability: codemode_store::runs::Durability,
}

impl Default for RunsConfig {
    fn default() -> Self {
        Self {
            journal: JournalMode::Park,
            lease: Duration::from_secs(30),
            handoff_after: Duration::ZERO,
            evict_after: Some(Duration::from_secs(60)),
            max_journal_bytes: 16 * 1024 * 1024,
            replay_timeout: Duration::from_secs(60),
            durability: codemode_store::runs::Durability::Process,
        }
    }
}

impl RunsConfig {
    /// The allowed lease: 100 ms (renewals run at a third of it; a zero
    /// lease would be expired as it is taken) to ten minutes (a crashed
    /// owner's runs wait that long). The CLI asks operators for at least a
    /// second.
    pub const LEASE: std::ops::RangeInclusive<Duration> = Duration::from_millis(100)..=Duration::from_secs(600);
    /// The longest hand-off delay: ten minutes.
    pub const MAX_HANDOFF: Duration = Duration::from_secs(600);
    /// The allowed eviction delay when there is one: 10 ms (as the shortest
    /// parked TTL) to a day. The CLI asks operators for at least a second.
    pub const EVICT_AFTER: std::ops::RangeInclusive<Duration> = Duration::from_millis(10)..=Duration::from_secs(86_400);

    /// The allowed journal bound: 64 KiB to 64 MiB (the most a stored
    /// journal is read up to).
    pub const MAX_JOURNAL_BYTES: std::ops::RangeInclusive<usize> = (64 * 1024)..=super::journal::MAX_JOURNAL_BYTES;
    /// The allowed replay bound: 100 ms to an hour.
    pub const REPLAY_TIMEOUT: std::ops::RangeInclusive<Duration> =
        Duration::from_millis(100)..=Duration::from_secs(3600);

    /// Checks every field against its range.
    ///
    /// # Errors
    /// The first field out of range, named `runs.<field>`.
    pub fn validate(&self) -> Result<(), LimitsError> {
        check_range("runs.lease", self.lease, *Self::LEASE.start(), *Self::LEASE.end(), ms)?;
        check_range("runs.handoff_after", self.handoff_after, Duration::ZERO, Self::MAX_HANDOFF, ms)?;
        if let Some(evict) = self.evict_after {
            check_range("runs.evict_after", evict, *Self::EVICT_AFTER.start(), *Self::EVICT_AFTER.end(), ms)?;
        }
        let bytes = |n: &usize| n.to_string();
        let (low, high) = (*Self::MAX_JOURNAL_BYTES.start(), *Self::MAX_JOURNAL_BYTES.end());
        check_range("runs.max_journal_bytes", self.max_journal_bytes, low, high, bytes)?;
        let (low, high) = (*Self::REPLAY_TIMEOUT.start(), *Self::REPLAY_TIMEOUT.end());
        check_range("runs.replay_timeout", self.replay_timeout, low, high, ms)?;
        Ok(())
    }
}

/// What every durable cell of a runtime shares.
#[derive(Clone, Debug)]
pub(crate) struct DurableArgs {
    pub store: Arc<dyn RunStore>,
    /// The operators' audit trail, on the same database.
    pub audit: Arc<dyn codemode_store::audit::AuditStore>,
    /// This process's instance id: the lease owner.
    pub owner: Arc<str>,
    pub config: Arc<RunsConfig>,
    /// The registry's tool table, as fresh runs' journals name it.
    pub tools: ToolRefs,
    /// The journal quotas every write is checked against.
    pub quota: JournalQuota,
}

/// The quotas on a session's and a principal's stored journals
/// (`[limits] max_journal_bytes_per_*`), checked at every write.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JournalQuota {
    pub session_bytes: u64,
    pub principal_bytes: u64,
    /// How many runs of each a usage check lists (the live-cell bound: a
    /// session never has more).
    pub runs: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_config_ranges_are_checked_at_their_edges() {
        let ok = |c: RunsConfig| c.validate().map_err(|e| e.to_string());
        let base = RunsConfig::default();
        assert_eq!(ok(base.clone()), Ok(()));
        assert_eq!(ok(RunsConfig { lease: Duration::from_millis(100), ..base.clone() }), Ok(()));
        assert_eq!(
            ok(RunsConfig { lease: Duration::from_millis(99), ..base.clone() }),
            Err("limit `runs.lease` is 99ms, outside the allowed range 100ms..=600000ms".into())
        );
        assert!(ok(RunsConfig { lease: Duration::from_millis(600_001), ..base.clone() }).is_err());
        assert!(ok(RunsConfig { lease: Duration::ZERO, ..base.clone() }).is_err(), "a zero lease");
        assert_eq!(ok(RunsConfig { handoff_after: Duration::from_secs(600), ..base.clone() }), Ok(()));
        assert!(ok(RunsConfig { handoff_after: Duration::from_millis(600_001), ..base.clone() }).is_err());
        assert_eq!(ok(RunsConfig { evict_after: None, ..base.clone() }), Ok(()));
        assert_eq!(ok(RunsConfig { evict_after: Some(Duration::from_secs(86_400)), ..base.clone() }), Ok(()));
        assert_eq!(ok(RunsConfig { evict_after: Some(Duration::from_millis(10)), ..base.clone() }), Ok(()));
        assert!(ok(RunsConfig { evict_after: Some(Duration::from_millis(9)), ..base.clone() }).is_err());
        assert!(ok(RunsConfig { evict_after: Some(Duration::from_millis(86_400_001)), ..base.clone() }).is_err());
        assert_eq!(ok(RunsConfig { max_journal_bytes: 64 * 1024, ..base.clone() }), Ok(()));
        assert_eq!(ok(RunsConfig { max_journal_bytes: 64 << 20, ..base.clone() }), Ok(()));
        assert_eq!(
            ok(RunsConfig { max_journal_bytes: 64 * 1024 - 1, ..base.clone() }),
            Err("limit `runs.max_journal_bytes` is 65535, outside the allowed range 65536..=67108864".into())
        );
        assert!(ok(RunsConfig { max_journal_bytes: (64 << 20) + 1, ..base.clone() }).is_err());
        assert_eq!(ok(RunsConfig { replay_timeout: Duration::from_millis(100), ..base.clone() }), Ok(()));
        assert_eq!(ok(RunsConfig { replay_timeout: Duration::from_secs(3600), ..base.clone() }), Ok(()));
        assert!(ok(RunsConfig { replay_timeout: Duration::from_millis(99), ..base.clone() }).is_err());
        assert!(ok(RunsConfig { replay_timeout: Duration::from_millis(3_600_001), ..base }).is_err());
    }
}
