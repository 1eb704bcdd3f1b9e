//! `[runs]`: how durable runs are journaled, leased, handed off and
//! evicted.

use std::time::Duration;

use anyhow::{Result, bail};
use codemode_runtime::{Durability, JournalMode};
use serde::{Deserialize, Serialize};

use super::units::millis;

/// `[runs]`: how runs are journaled, leased, handed off and evicted.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct RunsSection {
    /// `park` (default), `every_call` or `off`: when a run's journal is
    /// written.
    pub journal: JournalMode,
    /// `process` (default) or `machine`: what a journal write survives.
    pub durability: Durability,
    /// How long a live owner's lease lasts, in milliseconds; a crashed
    /// owner's runs can be taken over after it. `1000..=600000`.
    pub lease_ms: u64,
    /// How long after a park the owner keeps its lease before handing the
    /// run off, in milliseconds. `0..=600000`.
    pub handoff_ms: u64,
    /// Idle parked cells are evicted from memory to their journal after
    /// this many milliseconds; `0` never evicts. `0` or `1000..=86400000`.
    pub evict_after_ms: u64,
    /// The most bytes one run's journal keeps; a run past it goes on in
    /// memory only (its record says so). `65536..=67108864`.
    pub max_journal_bytes: usize,
    /// How long replaying a run's journal may take when a `wait` resumes
    /// it, in milliseconds (it spends no window budget). `1000..=3600000`.
    pub replay_timeout_ms: u64,
}

/// `[runs] lease_ms` bounds: a second (renewals every third of it must not
/// flood the backend) to ten minutes (a crashed owner's runs wait that long).
const LEASE_MS: std::ops::RangeInclusive<u64> = 1_000..=600_000;

/// The longest `[runs] handoff_ms`: ten minutes.
const MAX_HANDOFF_MS: u64 = 600_000;

/// `[runs] replay_timeout_ms` bounds: a second to an hour.
const REPLAY_TIMEOUT_MS: std::ops::RangeInclusive<u64> = 1_000..=3_600_000;

/// `[runs] evict_after_ms` bounds when not 0: a second to a day (the
/// longest a parked cell lives, `limits.parked_ttl_seconds`).
const EVICT_AFTER_MS: std::ops::RangeInclusive<u64> = 1_000..=86_400_000;

impl Default for RunsSection {
    fn default() -> Self {
        let d = codemode_runtime::RunsConfig::default();
        Self {
            journal: d.journal,
            durability: d.durability,
            lease_ms: millis(d.lease),
            handoff_ms: millis(d.handoff_after),
            evict_after_ms: d.evict_after.map_or(0, millis),
            max_journal_bytes: d.max_journal_bytes,
            replay_timeout_ms: millis(d.replay_timeout),
        }
    }
}

impl RunsSection {
    pub(super) fn check(&self) -> Result<()> {
        if !LEASE_MS.contains(&self.lease_ms) {
            bail!(
                "runs.lease_ms = {} is out of range: allowed {}..={}",
                self.lease_ms,
                LEASE_MS.start(),
                LEASE_MS.end()
            );
        }
        if self.handoff_ms > MAX_HANDOFF_MS {
            bail!("runs.handoff_ms = {} is out of range: allowed 0..={MAX_HANDOFF_MS}", self.handoff_ms);
        }
        if self.evict_after_ms != 0 && !EVICT_AFTER_MS.contains(&self.evict_after_ms) {
            bail!(
                "runs.evict_after_ms = {} is out of range: allowed 0 (never evict) or {}..={}",
                self.evict_after_ms,
                EVICT_AFTER_MS.start(),
                EVICT_AFTER_MS.end()
            );
        }
        let bytes = codemode_runtime::RunsConfig::MAX_JOURNAL_BYTES;
        if !bytes.contains(&self.max_journal_bytes) {
            bail!(
                "runs.max_journal_bytes = {} is out of range: allowed {}..={}",
                self.max_journal_bytes,
                bytes.start(),
                bytes.end()
            );
        }
        if !REPLAY_TIMEOUT_MS.contains(&self.replay_timeout_ms) {
            bail!(
                "runs.replay_timeout_ms = {} is out of range: allowed {}..={}",
                self.replay_timeout_ms,
                REPLAY_TIMEOUT_MS.start(),
                REPLAY_TIMEOUT_MS.end()
            );
        }
        Ok(())
    }

    /// The runtime's runs configuration.
    pub(crate) fn to_runs_config(&self) -> codemode_runtime::RunsConfig {
        codemode_runtime::RunsConfig {
            journal: self.journal,
            lease: Duration::from_millis(self.lease_ms),
            handoff_after: Duration::from_millis(self.handoff_ms),
            evict_after: (self.evict_after_ms > 0).then(|| Duration::from_millis(self.evict_after_ms)),
            max_journal_bytes: self.max_journal_bytes,
            replay_timeout: Duration::from_millis(self.replay_timeout_ms),
            durability: self.durability,
        }
    }
}
