//! Limits: one typed, validated value.
//!
//! Every limit counters a specific threat from model-written code; each is
//! checked against a documented range when the runtime starts, and a value
//! out of range is an error that names the field — never silently clamped.

use std::fmt;
use std::time::Duration;

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;

/// Where cells' engines run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Isolation {
    /// On the runtime's own JS threads, in this process: the engine is
    /// the only boundary between a cell and the host (the default for
    /// embedders).
    #[default]
    Thread,
    /// In confined engine worker processes (`CodeModeBuilder::engine_workers`
    /// says how they start):
    /// a cell that broke out of its engine would hold a process with no
    /// files, no network, no other tenants' data and no system calls but
    /// computing and its channel (docs/security.md).
    Process,
}

/// Resource limits for every cell of a runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget of one `exec` or `wait` call (default 10 s, range
    /// 100 ms–60 s). Counters a cell that never yields: a CPU loop past it
    /// fails with `timeout`; host work still pending at it parks the cell.
    pub timeout: Duration,
    /// Guest-CPU budget of a whole run, across its windows (default none,
    /// range 1 ms–1 h). Unlike `timeout`, it counts only the CPU time the
    /// guest's own code takes, never time spent waiting on tools, timers or
    /// approvals: a slow tool does not use it up, a busy loop does (and the
    /// cell fails with `timeout`). A run resumed from its journal replays
    /// without spending it.
    pub cpu_budget: Option<Duration>,
    /// Heap limit of one cell's QuickJS runtime (default 64 MiB, range
    /// 1 MiB–1 GiB). Counters allocation bombs.
    pub memory_limit_bytes: usize,
    /// JavaScript stack limit (default 4 MiB ≈ 6,000 frames of simple
    /// recursion, range 256 KiB–8 MiB). Deep enough for ordinary recursion,
    /// bounded against runaway recursion. JS threads have a 16 MiB stack.
    pub max_stack_bytes: usize,
    /// Cumulative output budget of one cell across all its calls, in UTF-8
    /// bytes of compact JSON (default 65,536, range 1,024–10 MiB). Counters
    /// output that would flood the model's context.
    pub max_output_bytes: usize,
    /// Host requests (tool calls) in flight at once per cell (default 16,
    /// range 1–128). Counters fan-out storms against tools.
    pub max_in_flight: usize,
    /// Host requests queued behind the in-flight ones (default 128, range
    /// 0–4,096). Past it the cell fails: the request is never silently dropped.
    pub max_queued: usize,
    /// Live timers per cell (default 10,000, range 1–100,000). Timers are
    /// cheap host entries and do not take tool slots; this bounds their memory.
    pub max_timers: usize,
    /// Idle time a parked cell is kept before it expires (default 900 s,
    /// range 10 ms–1 day). Counters abandoned cells holding memory.
    pub parked_ttl: Duration,
    /// How long a pending approval waits for a decision (default 600 s,
    /// range 10 ms–1 day; in effect at most `parked_ttl`, which ends the
    /// whole run). Past it the asked call rejects with
    /// `code: "approval_expired"`.
    pub approval_ttl: Duration,
    /// Cells alive at once, running or parked (default 1,024, range
    /// 1–100,000). A new `exec` past it is refused, so an admitted cell can
    /// always park.
    pub max_live_cells: usize,
    /// Cells alive at once in one session (default 256, range 1–100,000;
    /// in effect at most `max_live_cells`). A session past it is refused
    /// while other sessions still start cells: one client cannot take the
    /// whole pool. With durable runs it counts the session's stored runs
    /// that have not ended too — parked runs evicted to their journal, or
    /// held by another process — not only the cells in this one's memory.
    pub max_live_cells_per_session: usize,
    /// Cells alive at once across the sessions of one principal (an
    /// authenticated client of `serve`; default 512, range 1–100,000, in
    /// effect at most `max_live_cells`). Sessions without a principal
    /// count only against their own quota.
    pub max_live_cells_per_principal: usize,
    /// Wall-clock budget of a headless cell, which runs to completion in one
    /// call (default 30 s, range 100 ms–900 s).
    pub headless_timeout: Duration,
    /// Tool calls a headless cell may make (default 5, range 1–10,000).
    pub headless_max_tool_calls: u32,
    /// Saved results per reply (default 64, range 1–4,096). No eviction:
    /// past it `results.save` fails until something is deleted.
    pub results_max_entries: usize,
    /// Bytes of saved results per reply (default 10 MiB, range 1 KiB–1 GiB).
    pub results_max_bytes: usize,
    /// Bytes of stored run journals one session may hold in runs that have
    /// not ended (default 256 MiB, range 1 MiB–1 TiB). A run's journal is
    /// bounded at 16 MiB; this bounds what one client leaves in the store
    /// for the parked TTL. A new `exec` past it is refused.
    pub max_journal_bytes_per_session: u64,
    /// The same across the sessions of one principal (default 1 GiB, range
    /// 1 MiB–1 TiB).
    pub max_journal_bytes_per_principal: u64,
    /// The time zone of a cell's local time — `Date`'s local getters,
    /// setters, constructor and `toString` (default UTC). One zone for
    /// every cell, in both engine homes and on every host: never the
    /// host's `TZ`, so a run resumed on a host in another zone replays
    /// the same way.
    pub time_zone: crate::CellTimeZone,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(10),
            cpu_budget: None,
            memory_limit_bytes: 64 * MIB,
            max_stack_bytes: 4 * MIB,
            max_output_bytes: 65_536,
            max_in_flight: 16,
            max_queued: 128,
            max_timers: 10_000,
            parked_ttl: Duration::from_secs(900),
            approval_ttl: Duration::from_secs(600),
            max_live_cells: 1_024,
            max_live_cells_per_session: 256,
            max_live_cells_per_principal: 512,
            headless_timeout: Duration::from_secs(30),
            headless_max_tool_calls: 5,
            results_max_entries: 64,
            results_max_bytes: 10 * MIB,
            max_journal_bytes_per_session: 256 * MIB as u64,
            max_journal_bytes_per_principal: 1024 * MIB as u64,
            time_zone: crate::CellTimeZone::utc(),
        }
    }
}

/// A limit outside its allowed range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("limit `{field}` is {value}, outside the allowed range {range}")]
pub struct LimitsError {
    /// The field's name.
    pub field: &'static str,
    /// The rejected value.
    pub value: String,
    /// The allowed range, human-readable.
    pub range: String,
}

/// Checks that `value` of `field` lies in `min..=max` (`show` renders the
/// values in the error).
pub(crate) fn check_range<T: PartialOrd + fmt::Debug>(
    field: &'static str,
    value: T,
    min: T,
    max: T,
    show: impl Fn(&T) -> String,
) -> Result<(), LimitsError> {
    if value < min || value > max {
        return Err(LimitsError { field, value: show(&value), range: format!("{}..={}", show(&min), show(&max)) });
    }
    Ok(())
}

pub(crate) fn ms(d: &Duration) -> String {
    format!("{}ms", d.as_millis())
}

fn n<T: fmt::Display>(v: &T) -> String {
    v.to_string()
}

impl Limits {
    /// Checks every field against its range.
    ///
    /// # Errors
    /// The first field out of range.
    pub fn validate(&self) -> Result<(), LimitsError> {
        let sec = Duration::from_secs;
        check_range("timeout", self.timeout, Duration::from_millis(100), sec(60), ms)?;
        if let Some(budget) = self.cpu_budget {
            check_range("cpu_budget", budget, Duration::from_millis(1), sec(3_600), ms)?;
        }
        check_range("memory_limit_bytes", self.memory_limit_bytes, MIB, 1024 * MIB, n)?;
        check_range("max_stack_bytes", self.max_stack_bytes, 256 * KIB, 8 * MIB, n)?;
        check_range("max_output_bytes", self.max_output_bytes, 1024, 10 * MIB, n)?;
        check_range("max_in_flight", self.max_in_flight, 1, 128, n)?;
        check_range("max_queued", self.max_queued, 0, 4096, n)?;
        check_range("max_timers", self.max_timers, 1, 100_000, n)?;
        check_range("parked_ttl", self.parked_ttl, Duration::from_millis(10), sec(86_400), ms)?;
        check_range("approval_ttl", self.approval_ttl, Duration::from_millis(10), sec(86_400), ms)?;
        check_range("max_live_cells", self.max_live_cells, 1, 100_000, n)?;
        check_range("max_live_cells_per_session", self.max_live_cells_per_session, 1, 100_000, n)?;
        check_range("max_live_cells_per_principal", self.max_live_cells_per_principal, 1, 100_000, n)?;
        check_range("headless_timeout", self.headless_timeout, Duration::from_millis(100), sec(900), ms)?;
        check_range("headless_max_tool_calls", self.headless_max_tool_calls, 1, 10_000, n)?;
        check_range("results_max_entries", self.results_max_entries, 1, 4096, n)?;
        check_range("results_max_bytes", self.results_max_bytes, KIB, 1024 * MIB, n)?;
        let (mib, tib) = (MIB as u64, (1024 * 1024 * MIB) as u64);
        check_range("max_journal_bytes_per_session", self.max_journal_bytes_per_session, mib, tib, n)?;
        check_range("max_journal_bytes_per_principal", self.max_journal_bytes_per_principal, mib, tib, n)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_match_the_reference() {
        let l = Limits::default();
        l.validate().unwrap();
        assert_eq!(l.timeout, Duration::from_secs(10));
        assert_eq!(l.memory_limit_bytes, 64 * MIB);
        assert_eq!(l.max_output_bytes, 65_536);
        assert_eq!((l.max_in_flight, l.max_queued), (16, 128));
        assert_eq!(l.parked_ttl, Duration::from_secs(900));
    }

    #[test]
    fn limits_are_accepted_exactly_at_their_edges_and_rejected_one_past() {
        let at = Limits { max_in_flight: 128, timeout: Duration::from_millis(100), ..Limits::default() };
        at.validate().unwrap();
        let over = Limits { max_in_flight: 129, ..Limits::default() };
        let err = over.validate().unwrap_err();
        assert_eq!(err.field, "max_in_flight");
        assert_eq!(err.to_string(), "limit `max_in_flight` is 129, outside the allowed range 1..=128");
        let under = Limits { timeout: Duration::from_millis(99), ..Limits::default() };
        assert_eq!(under.validate().unwrap_err().field, "timeout");
    }

    #[test]
    fn the_cpu_budget_is_accepted_from_1_ms_to_1_hour_and_rejected_one_past() {
        let budget = |ms| Limits { cpu_budget: Some(Duration::from_millis(ms)), ..Limits::default() }.validate();
        budget(1).unwrap();
        budget(3_600_000).unwrap();
        assert_eq!(
            budget(0).unwrap_err().to_string(),
            "limit `cpu_budget` is 0ms, outside the allowed range 1ms..=3600000ms"
        );
        assert_eq!(budget(3_600_001).unwrap_err().field, "cpu_budget");
    }
}
