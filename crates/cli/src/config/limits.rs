//! `[limits]`: every cell limit, in config units (milliseconds, seconds,
//! bytes), checked by the runtime's own `Limits::validate`.

use std::time::Duration;

use anyhow::{Result, bail};
use codemode_runtime::Limits;
use serde::{Deserialize, Serialize};

use super::units::millis;

/// `[limits]`: every cell limit, in config units.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct LimitsConfig {
    pub timeout_ms: u64,
    /// The guest-CPU budget of a run, in ms; absent: none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<u64>,
    pub memory_limit_bytes: usize,
    pub max_stack_bytes: usize,
    pub max_output_bytes: usize,
    pub max_in_flight: usize,
    pub max_queued: usize,
    pub max_timers: usize,
    pub parked_ttl_seconds: u64,
    /// How long a pending approval waits for a decision.
    pub approval_ttl_ms: u64,
    pub max_live_cells: usize,
    pub max_live_cells_per_session: usize,
    pub max_live_cells_per_principal: usize,
    pub headless_timeout_ms: u64,
    pub headless_max_tool_calls: u32,
    pub results_max_entries: usize,
    pub results_max_bytes: usize,
    /// Bytes of run journals one session's runs that have not ended may
    /// hold in the store.
    pub max_journal_bytes_per_session: u64,
    /// The same across one principal's sessions.
    pub max_journal_bytes_per_principal: u64,
    /// The IANA time zone of cells' local time (`Date`'s local methods):
    /// `"UTC"` unless set, never the host's `TZ`.
    pub time_zone: String,
    /// Where cells' engines run: `"thread"` (in this process) or
    /// `"process"` (confined engine worker processes). Absent: `process`
    /// for `serve`, `thread` for the other commands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub isolation: Option<IsolationConfig>,
}

/// `limits.isolation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum IsolationConfig {
    /// In this process, on its JS threads.
    Thread,
    /// In confined engine worker processes (this program, re-executed as
    /// `codemode engine-worker`).
    Process,
}

impl IsolationConfig {
    /// The runtime's setting.
    pub(crate) fn to_isolation(self) -> codemode_runtime::Isolation {
        match self {
            Self::Thread => codemode_runtime::Isolation::Thread,
            Self::Process => codemode_runtime::Isolation::Process,
        }
    }
}

impl Default for LimitsConfig {
    fn default() -> Self {
        let l = Limits::default();
        Self {
            timeout_ms: millis(l.timeout),
            cpu_ms: l.cpu_budget.map(millis),
            memory_limit_bytes: l.memory_limit_bytes,
            max_stack_bytes: l.max_stack_bytes,
            max_output_bytes: l.max_output_bytes,
            max_in_flight: l.max_in_flight,
            max_queued: l.max_queued,
            max_timers: l.max_timers,
            parked_ttl_seconds: l.parked_ttl.as_secs(),
            approval_ttl_ms: millis(l.approval_ttl),
            max_live_cells: l.max_live_cells,
            max_live_cells_per_session: l.max_live_cells_per_session,
            max_live_cells_per_principal: l.max_live_cells_per_principal,
            headless_timeout_ms: millis(l.headless_timeout),
            headless_max_tool_calls: l.headless_max_tool_calls,
            results_max_entries: l.results_max_entries,
            results_max_bytes: l.results_max_bytes,
            max_journal_bytes_per_session: l.max_journal_bytes_per_session,
            max_journal_bytes_per_principal: l.max_journal_bytes_per_principal,
            time_zone: l.time_zone.name().to_owned(),
            isolation: None,
        }
    }
}

/// The config key of each `Limits` field, for error messages.
fn limit_key(field: &str) -> String {
    match field {
        "timeout" | "headless_timeout" | "approval_ttl" => format!("limits.{field}_ms"),
        "parked_ttl" => "limits.parked_ttl_seconds".to_owned(),
        "cpu_budget" => "limits.cpu_ms".to_owned(),
        other => format!("limits.{other}"),
    }
}

impl LimitsConfig {
    /// The runtime limits, or an error naming the config key and its range.
    pub(crate) fn to_limits(&self) -> Result<Limits> {
        if !(1..=86_400).contains(&self.parked_ttl_seconds) {
            bail!("limits.parked_ttl_seconds = {} is out of range: allowed 1..=86400", self.parked_ttl_seconds);
        }
        let time_zone = codemode_runtime::CellTimeZone::named(&self.time_zone)
            .map_err(|e| anyhow::anyhow!("limits.time_zone: {e}"))?;
        let limits = Limits {
            timeout: Duration::from_millis(self.timeout_ms),
            cpu_budget: self.cpu_ms.map(Duration::from_millis),
            memory_limit_bytes: self.memory_limit_bytes,
            max_stack_bytes: self.max_stack_bytes,
            max_output_bytes: self.max_output_bytes,
            max_in_flight: self.max_in_flight,
            max_queued: self.max_queued,
            max_timers: self.max_timers,
            parked_ttl: Duration::from_secs(self.parked_ttl_seconds),
            approval_ttl: Duration::from_millis(self.approval_ttl_ms),
            max_live_cells: self.max_live_cells,
            max_live_cells_per_session: self.max_live_cells_per_session,
            max_live_cells_per_principal: self.max_live_cells_per_principal,
            headless_timeout: Duration::from_millis(self.headless_timeout_ms),
            headless_max_tool_calls: self.headless_max_tool_calls,
            results_max_entries: self.results_max_entries,
            results_max_bytes: self.results_max_bytes,
            max_journal_bytes_per_session: self.max_journal_bytes_per_session,
            max_journal_bytes_per_principal: self.max_journal_bytes_per_principal,
            time_zone,
        };
        if let Err(e) = limits.validate() {
            let key = limit_key(e.field);
            // Durations are reported in the config's unit (ms), not Rust's.
            bail!("{key} = {} is out of range: allowed {}", e.value.replace("ms", ""), e.range.replace("ms", ""));
        }
        Ok(limits)
    }
}
