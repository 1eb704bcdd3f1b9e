//! Operational metrics, kept as plain atomics so the library needs no
//! telemetry stack and knows no exposition format: the CLI renders them
//! (Prometheus text, OTLP) and embedders read [`MetricsSnapshot`] however
//! they like. Spans use the
//! `tracing` crate: one `cell` span per cell, a `host_call` child per nested
//! tool call, parented to whatever span the caller of `exec` was in.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use dashmap::DashMap;

pub use codemode_store::ResultsHeld;

use codemode_protocol::RunEnd;

/// The ends a cell reports to the run index and counts in
/// `codemode_cells_total{status}`. A replay that diverged fails its cell
/// (`failed` here); only its stored record says `replay_diverged`.
pub(crate) const CELL_ENDS: [RunEnd; 7] = [
    RunEnd::Completed,
    RunEnd::Failed,
    RunEnd::TimedOut,
    RunEnd::Aborted,
    RunEnd::Expired,
    RunEnd::Disposed,
    RunEnd::Crashed,
];

/// The kinds of supervised actor, the label values of
/// `codemode_actor_restarts_total{actor}` (a fixed set: cells are not
/// restarted, so they have no label).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ActorKind {
    Executor,
    Catalog,
    Store,
    Results,
    McpServer,
    NodeRegistry,
}

impl ActorKind {
    /// Every kind, in label order.
    pub(crate) const ALL: [Self; 6] =
        [Self::Executor, Self::Catalog, Self::Store, Self::Results, Self::McpServer, Self::NodeRegistry];

    /// The metrics label.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Executor => "executor",
            Self::Catalog => "catalog",
            Self::Store => "store",
            Self::Results => "results",
            Self::McpServer => "mcp_server",
            Self::NodeRegistry => "node_registry",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Upper bounds (seconds) of the latency histograms' buckets.
const BUCKETS: [f64; 12] = [0.000_1, 0.000_5, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 60.0];

/// Upper bounds (seconds) of `codemode_cell_parked_seconds`: a parked cell
/// lives up to its parked TTL (900 s by default, more when configured).
const PARKED_BUCKETS: [f64; 10] = [1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0];

/// A latency histogram with fixed buckets.
#[derive(Debug)]
pub(crate) struct Histogram {
    bounds: &'static [f64],
    /// One count per bound, then `+Inf`.
    counts: Box<[AtomicU64]>,
    sum_micros: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Self {
        Self::new(&BUCKETS)
    }
}

/// A histogram's state at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistogramSnapshot {
    /// Cumulative counts per bucket upper bound, then `+Inf`.
    pub buckets: Vec<(f64, u64)>,
    /// Number of observations.
    pub count: u64,
    /// Sum of observations, in seconds.
    pub sum_seconds: f64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Self {
        Self { bounds, counts: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect(), sum_micros: AtomicU64::new(0) }
    }

    /// Records one observation.
    pub(crate) fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        let slot = self.bounds.iter().position(|b| secs <= *b).unwrap_or(self.bounds.len());
        self.counts[slot].fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(u64::try_from(d.as_micros()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    fn snapshot(&self) -> HistogramSnapshot {
        let mut cumulative = 0;
        let mut buckets = Vec::with_capacity(self.counts.len());
        for (i, c) in self.counts.iter().enumerate() {
            cumulative += c.load(Ordering::Relaxed);
            buckets.push((self.bounds.get(i).copied().unwrap_or(f64::INFINITY), cumulative));
        }
        HistogramSnapshot {
            buckets,
            count: cumulative,
            sum_seconds: self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6,
        }
    }
}

/// The `tool` label of a nested call whose name the host does not know (a
/// node command the node never declared, an MCP tool its server never
/// listed): the guest chooses those names, so labelling by them would let
/// one cell create unbounded series.
pub const UNKNOWN_TOOL: &str = "_unknown";

/// How a nested call ended: the `outcome` label of
/// `codemode_nested_calls_total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CallOutcome {
    /// The callee answered with a result.
    Ok,
    /// The callee failed (an error, an in-band MCP error, a refusal that is
    /// not the policy's).
    Error,
    /// The callee did not answer in time.
    Timeout,
    /// The host policy (or the node gateway's command policy) refused it.
    Denied,
}

impl CallOutcome {
    /// Every outcome, in label order.
    pub(crate) const ALL: [Self; 4] = [Self::Ok, Self::Error, Self::Timeout, Self::Denied];

    /// The metrics label.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Error => "error",
            Self::Timeout => "timeout",
            Self::Denied => "denied",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The label values of `codemode_admission_rejections_total{reason}`:
/// every reason is listed from the start, zero included, so alerts on the
/// first rejection work.
pub(crate) const ADMISSION_REASONS: [&str; 7] = [
    "queue_limit",
    "timer_limit",
    "live_cells",
    "principal_quota",
    "session_quota",
    "session_journal_bytes",
    "principal_journal_bytes",
];

/// The metrics of one nested-call series `(source, server, tool)`: its
/// latency and how its calls ended.
#[derive(Debug, Default)]
pub(crate) struct CallSeries {
    latency: Histogram,
    outcomes: [AtomicU64; CallOutcome::ALL.len()],
}

impl CallSeries {
    /// One call ended with `outcome` after `latency`. A call the policy
    /// denied only counts: it never ran, so it has no latency.
    pub(crate) fn record(&self, outcome: CallOutcome, latency: Duration) {
        self.outcomes[outcome.index()].fetch_add(1, Ordering::Relaxed);
        if outcome != CallOutcome::Denied {
            self.latency.observe(latency);
        }
    }
}

/// One nested call counted in a gauge (`nested_calls_in_flight`,
/// `nested_calls_queued`) while it lives: a drop guard, so a call dropped
/// with its cell is uncounted too.
#[derive(Debug)]
pub(crate) struct Counted(Arc<AtomicI64>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A nested-call series' key: `(source, server, tool)` labels.
type CallKey = (&'static str, String, String);

/// Counters and gauges of one runtime.
///
/// The labelled families are `DashMap`s: cells on every JS thread bump
/// them concurrently, and a sharded map keeps them off one lock.
#[derive(Debug)]
pub(crate) struct Metrics {
    cells_by_status: DashMap<&'static str, u64>,
    cell_duration: Histogram,
    cell_active: Histogram,
    cell_parked: Histogram,
    cell_queue: Histogram,
    /// Nested calls per `(source, server, tool)`: every label value is
    /// host-known (see [`UNKNOWN_TOOL`]), so the map is bounded.
    calls: DashMap<CallKey, Arc<CallSeries>>,
    parked: AtomicI64,
    live: AtomicI64,
    store_committed_bytes: AtomicU64,
    console_truncations: AtomicU64,
    admission_rejections: DashMap<&'static str, u64>,
    /// Nested calls running now; see [`Counted`].
    nested_in_flight: Arc<AtomicI64>,
    /// Native tool calls waiting for a free slot of their cell.
    nested_queued: Arc<AtomicI64>,
    /// Restarts per [`ActorKind`] (indexed by it).
    restarts: [AtomicU64; ActorKind::ALL.len()],
    /// Children given up on per [`ActorKind`].
    give_ups: [AtomicU64; ActorKind::ALL.len()],
    /// Durable runs: journals, resumes, hand-offs.
    pub(crate) runs: RunMetrics,
}

/// Durable-run counters and gauges. Plain atomics; the CLI
/// renders them (see `crates/cli/src/metrics.rs`).
#[derive(Debug, Default)]
pub(crate) struct RunMetrics {
    /// Journal bytes written to the backend.
    pub journal_bytes: AtomicU64,
    /// Journal writes.
    pub journal_writes: AtomicU64,
    /// Runs resumed by replaying their journal (after a crash, a hand-off
    /// or an eviction).
    pub resumed_by_replay: AtomicU64,
    /// Replays that diverged from their journal (`replay_diverged`).
    pub replay_diverged: AtomicU64,
    /// Resumes refused because the stored journal could not be read: a
    /// newer format (the run stays parked), or never stored whole or
    /// damaged (the run ends `unrecoverable`).
    pub journal_unreadable: AtomicU64,
    /// Leases taken over from another owner (released or expired).
    pub lease_handoffs: AtomicU64,
    /// Parked cells evicted from memory to their journal.
    pub evicted: AtomicU64,
    /// Runs held only as a journal right now (evicted, not resumed).
    pub evicted_now: AtomicI64,
    /// Calls in flight at a crash that were re-issued (replay-safe) or
    /// rejected with `outcome_unknown`, by that outcome.
    pub reissued: AtomicU64,
    /// See `reissued`.
    pub outcome_unknown: AtomicU64,
    /// Nested calls the policy asked a person about.
    pub approvals_requested: AtomicU64,
    /// Approvals decided, by verdict.
    pub approvals_approved: AtomicU64,
    /// See `approvals_approved`.
    pub approvals_denied: AtomicU64,
    /// See `approvals_approved`.
    pub approvals_expired: AtomicU64,
    /// Journal writes the backend failed (I/O, connection, a malformed
    /// row: `RunStoreError::Backend`); not counted in `journal_writes` or
    /// `journal_bytes`. A write refused because another process holds the
    /// lease (`LeaseLost`) is not a failure of the backend and is not
    /// counted here.
    pub journal_write_failures: AtomicU64,
    /// Journal writes with nothing new, skipped (no bytes stored).
    pub journal_writes_skipped: AtomicU64,
    /// Runs that outgrew their journal and went on in memory only.
    pub memory_only: AtomicU64,
    /// Journal writes refused by a session's or principal's journal quota
    /// (the run ended `quota_exceeded`).
    pub journal_quota_exceeded: AtomicU64,
    /// Stored runs a `wait` found marked memory-only after the process
    /// holding them stopped: ended `lost`.
    pub lost: AtomicU64,
    /// Time to resume a run by replay: from reading its journal until the
    /// replayed cell reached the point the journal ends at.
    replay: Histogram,
    /// Time of each journal write to the backend (successful or not).
    journal_write: Histogram,
}

impl RunMetrics {
    /// Adds one to `counter`.
    pub(crate) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// An approval was decided with `verdict`.
    pub(crate) fn approval_decided(&self, verdict: codemode_protocol::Verdict) {
        use codemode_protocol::Verdict;
        Self::bump(match verdict {
            Verdict::Approved => &self.approvals_approved,
            Verdict::Denied => &self.approvals_denied,
            Verdict::Expired => &self.approvals_expired,
        });
    }

    /// A journal of `bytes` was written.
    pub(crate) fn journal_written(&self, bytes: usize) {
        self.journal_writes.fetch_add(1, Ordering::Relaxed);
        self.journal_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// A journal write had nothing new and stored nothing.
    pub(crate) fn journal_write_skipped(&self) {
        Self::bump(&self.journal_writes_skipped);
    }

    /// A run outgrew its journal and goes on in memory only.
    pub(crate) fn memory_only(&self) {
        Self::bump(&self.memory_only);
    }

    /// A journal write was refused by a quota.
    pub(crate) fn journal_quota_exceeded(&self) {
        Self::bump(&self.journal_quota_exceeded);
    }

    /// A journal write failed (time it with [`Self::journal_write_took`]
    /// too).
    pub(crate) fn journal_write_failed(&self) {
        self.journal_write_failures.fetch_add(1, Ordering::Relaxed);
    }

    /// A run was resumed by replay in `d`
    /// (`codemode_run_replay_seconds`); count it in `resumed_by_replay`
    /// too.
    pub(crate) fn replay_took(&self, d: Duration) {
        self.replay.observe(d);
    }

    /// One journal write took `d` (`codemode_run_journal_write_seconds`).
    pub(crate) fn journal_write_took(&self, d: Duration) {
        self.journal_write.observe(d);
    }

    fn snapshot(&self) -> RunsSnapshot {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        RunsSnapshot {
            journal_bytes: load(&self.journal_bytes),
            journal_writes: load(&self.journal_writes),
            journal_write_failures: load(&self.journal_write_failures),
            journal_write: self.journal_write.snapshot(),
            resumed_by_replay: load(&self.resumed_by_replay),
            replay: self.replay.snapshot(),
            replay_diverged: load(&self.replay_diverged),
            journal_unreadable: load(&self.journal_unreadable),
            store_flushes: 0,
            lease_handoffs: load(&self.lease_handoffs),
            evicted: load(&self.evicted),
            evicted_now: self.evicted_now.load(Ordering::Relaxed).max(0) as u64,
            reissued: load(&self.reissued),
            outcome_unknown: load(&self.outcome_unknown),
            approvals_requested: load(&self.approvals_requested),
            approvals_approved: load(&self.approvals_approved),
            approvals_denied: load(&self.approvals_denied),
            approvals_expired: load(&self.approvals_expired),
            journal_writes_skipped: load(&self.journal_writes_skipped),
            memory_only: load(&self.memory_only),
            journal_quota_exceeded: load(&self.journal_quota_exceeded),
            lost: load(&self.lost),
        }
    }
}

/// The durable-run metrics at one moment. Counters count since
/// this process started; every field is present (zero before the first
/// event), so an exposition can list each series from the start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunsSnapshot {
    /// Bytes of run journals written to the backend
    /// (`codemode_run_journal_bytes_total`).
    pub journal_bytes: u64,
    /// Journal writes that succeeded (`codemode_run_journal_writes_total`).
    pub journal_writes: u64,
    /// Journal writes the backend failed (I/O, connection); a write
    /// refused for a lost lease is not counted
    /// (`codemode_run_journal_write_failures_total`).
    pub journal_write_failures: u64,
    /// Time of each journal write (`codemode_run_journal_write_seconds`).
    pub journal_write: HistogramSnapshot,
    /// Runs this process resumed by replaying their journal — after
    /// another process crashed or handed the run off, or after this one
    /// evicted or restarted (`codemode_runs_resumed_total`).
    pub resumed_by_replay: u64,
    /// Time to resume a run by replay (`codemode_run_replay_seconds`).
    pub replay: HistogramSnapshot,
    /// Replays that diverged from their journal; such a run ends
    /// `replay_diverged` (`codemode_run_replay_divergences_total`).
    pub replay_diverged: u64,
    /// Resumes refused because the stored journal was damaged or of a
    /// newer format; the run stays parked
    /// (`codemode_run_journals_unreadable_total`).
    pub journal_unreadable: u64,
    /// Flushes (`fsync`s) of the sled database since it was opened; 0 on
    /// PostgreSQL (`codemode_store_flushes_total`).
    pub store_flushes: u64,
    /// Leases this process took over from another owner that released it
    /// or let it expire (`codemode_run_lease_handoffs_total`).
    pub lease_handoffs: u64,
    /// Parked cells evicted from memory to their journal
    /// (`codemode_runs_evicted_total`).
    pub evicted: u64,
    /// Runs this process evicted that are held only as a journal now,
    /// not resumed yet (`codemode_evicted_runs`, a gauge).
    pub evicted_now: u64,
    /// Calls in flight at a crash that a replay re-issued because they
    /// are replay-safe
    /// (`codemode_run_inflight_calls_after_crash_total{outcome="reissued"}`).
    pub reissued: u64,
    /// Calls in flight at a crash that a replay could not re-issue: the
    /// guest saw an `outcome_unknown` error
    /// (`codemode_run_inflight_calls_after_crash_total{outcome="outcome_unknown"}`).
    pub outcome_unknown: u64,
    /// Nested calls the policy asked a person about
    /// (`codemode_approvals_requested_total`).
    pub approvals_requested: u64,
    /// Approvals decided `approved`
    /// (`codemode_approvals_decided_total{verdict="approved"}`).
    pub approvals_approved: u64,
    /// Approvals decided `denied` (`…{verdict="denied"}`).
    pub approvals_denied: u64,
    /// Approvals nobody decided within their TTL (`…{verdict="expired"}`).
    pub approvals_expired: u64,
    /// Journal writes that had nothing new and stored no bytes
    /// (`codemode_run_journal_writes_skipped_total`).
    pub journal_writes_skipped: u64,
    /// Runs that outgrew their journal and went on in memory only
    /// (`codemode_runs_memory_only_total`).
    pub memory_only: u64,
    /// Journal writes refused by a session's or principal's journal quota;
    /// each ended its run `quota_exceeded`
    /// (`codemode_run_journal_quota_exceeded_total`).
    pub journal_quota_exceeded: u64,
    /// Memory-only runs found after the process holding them stopped,
    /// ended `lost` (`codemode_runs_lost_total`).
    pub lost: u64,
}

impl Default for Metrics {
    fn default() -> Self {
        Self {
            cells_by_status: DashMap::new(),
            cell_duration: Histogram::default(),
            cell_active: Histogram::default(),
            cell_parked: Histogram::new(&PARKED_BUCKETS),
            cell_queue: Histogram::default(),
            calls: DashMap::new(),
            parked: AtomicI64::new(0),
            live: AtomicI64::new(0),
            store_committed_bytes: AtomicU64::new(0),
            console_truncations: AtomicU64::new(0),
            admission_rejections: DashMap::new(),
            nested_in_flight: Arc::default(),
            nested_queued: Arc::default(),
            restarts: Default::default(),
            give_ups: Default::default(),
            runs: RunMetrics::default(),
        }
    }
}

impl Metrics {
    /// A cell ended after `lifetime` (from admission), `parked` of it
    /// parked: its active time is the rest; parked time is recorded only
    /// for cells that parked, so its quantiles describe parked cells.
    pub(crate) fn cell_ended(&self, status: &'static str, lifetime: Duration, parked: Duration) {
        *self.cells_by_status.entry(status).or_default() += 1;
        self.cell_duration.observe(lifetime);
        self.cell_active.observe(lifetime.saturating_sub(parked));
        if !parked.is_zero() {
            self.cell_parked.observe(parked);
        }
    }

    /// An admitted cell's actor started `waited` after admission.
    pub(crate) fn cell_started(&self, waited: Duration) {
        self.cell_queue.observe(waited);
    }

    /// The series of nested calls `(source, server, tool)`: a cell keeps
    /// the ones it uses, so a repeated call records without this lookup.
    /// `tool` must be a host-known name or [`UNKNOWN_TOOL`].
    pub(crate) fn call_series(&self, source: &'static str, server: &str, tool: &str) -> Arc<CallSeries> {
        let key = (source, server.to_owned(), tool.to_owned());
        if let Some(series) = self.calls.get(&key) {
            return Arc::clone(&series);
        }
        Arc::clone(&self.calls.entry(key).or_default())
    }

    /// Counts a nested call as running until the guard drops (answered,
    /// or cancelled with its cell).
    pub(crate) fn nested_call_started(&self) -> Counted {
        self.nested_in_flight.fetch_add(1, Ordering::Relaxed);
        Counted(Arc::clone(&self.nested_in_flight))
    }

    /// Counts a native tool call as queued (its cell's `max_in_flight`
    /// slots are taken) until the guard drops.
    pub(crate) fn nested_call_queued(&self) -> Counted {
        self.nested_queued.fetch_add(1, Ordering::Relaxed);
        Counted(Arc::clone(&self.nested_queued))
    }

    pub(crate) fn add_parked(&self, delta: i64) {
        self.parked.fetch_add(delta, Ordering::Relaxed);
    }

    pub(crate) fn add_live(&self, delta: i64) {
        self.live.fetch_add(delta, Ordering::Relaxed);
    }

    pub(crate) fn store_committed(&self, bytes: usize) {
        self.store_committed_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub(crate) fn console_truncated(&self) {
        self.console_truncations.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn admission_rejected(&self, reason: &'static str) {
        debug_assert!(ADMISSION_REASONS.contains(&reason), "unlisted admission reason {reason}");
        *self.admission_rejections.entry(reason).or_default() += 1;
    }

    /// A supervised child of this kind was restarted.
    pub(crate) fn actor_restarted(&self, kind: ActorKind) {
        self.restarts[kind.index()].fetch_add(1, Ordering::Relaxed);
    }

    /// A supervised child of this kind crashed too often and was given up.
    pub(crate) fn actor_given_up(&self, kind: ActorKind) {
        self.give_ups[kind.index()].fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> MetricsSnapshot {
        // Known label values start at zero, so `increase()` sees the first
        // event.
        let counts = |m: &DashMap<&'static str, u64>, known: &[&str]| {
            let mut out: BTreeMap<String, u64> = known.iter().map(|k| ((*k).to_owned(), 0)).collect();
            out.extend(m.iter().map(|e| ((*e.key()).to_owned(), *e.value())));
            out
        };
        let per_kind = |a: &[AtomicU64; ActorKind::ALL.len()]| {
            ActorKind::ALL.iter().map(|k| (k.label().to_owned(), a[k.index()].load(Ordering::Relaxed))).collect()
        };
        let statuses = CELL_ENDS.map(RunEnd::label);
        let mut nested_calls: Vec<NestedCallSnapshot> = self
            .calls
            .iter()
            .map(|e| {
                let (source, server, tool) = e.key();
                let series = e.value();
                NestedCallSnapshot {
                    tool: tool.clone(),
                    source: (*source).to_owned(),
                    server: server.clone(),
                    latency: series.latency.snapshot(),
                    outcomes: CallOutcome::ALL
                        .iter()
                        .map(|o| (o.label().to_owned(), series.outcomes[o.index()].load(Ordering::Relaxed)))
                        .collect(),
                }
            })
            .collect();
        nested_calls.sort_by(|a, b| (&a.source, &a.server, &a.tool).cmp(&(&b.source, &b.server, &b.tool)));
        MetricsSnapshot {
            cells_by_status: counts(&self.cells_by_status, &statuses),
            cell_duration: self.cell_duration.snapshot(),
            cell_active: self.cell_active.snapshot(),
            cell_parked: self.cell_parked.snapshot(),
            cell_queue: self.cell_queue.snapshot(),
            nested_calls,
            parked_cells: self.parked.load(Ordering::Relaxed).max(0) as u64,
            live_cells: self.live.load(Ordering::Relaxed).max(0) as u64,
            store_committed_bytes: self.store_committed_bytes.load(Ordering::Relaxed),
            // Read by `CodeMode::metrics` from the results cache, which
            // counts every save, explicit or automatic.
            results_saved: 0,
            results_saved_bytes: 0,
            results_held: None,
            console_truncations: self.console_truncations.load(Ordering::Relaxed),
            admission_rejections: counts(&self.admission_rejections, &ADMISSION_REASONS),
            actor_restarts: per_kind(&self.restarts),
            actor_give_ups: per_kind(&self.give_ups),
            nested_calls_in_flight: self.nested_in_flight.load(Ordering::Relaxed).max(0) as u64,
            nested_calls_queued: self.nested_queued.load(Ordering::Relaxed).max(0) as u64,
            // Read by `CodeMode::metrics`, which owns what they describe.
            js_queue_depth: 0,
            mcp_servers_connected: BTreeMap::new(),
            nodes_connected: None,
            runs: self.runs.snapshot(),
            // Read by `CodeMode::metrics` from the pool.
            engine_workers: None,
        }
    }
}

/// One nested-call series at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NestedCallSnapshot {
    /// A native tool's callable name, a node command the node declared, an
    /// MCP tool its server listed, or [`UNKNOWN_TOOL`].
    pub tool: String,
    /// `native`, `client`, `mcp` or `nodes`.
    pub source: String,
    /// The MCP server's configured name; empty for native tools and nodes.
    pub server: String,
    /// Latency of the calls that ran (denied calls have none).
    pub latency: HistogramSnapshot,
    /// Calls by outcome (`ok`, `error`, `timeout`, `denied`; every outcome
    /// listed, zero included).
    pub outcomes: BTreeMap<String, u64>,
}

/// The runtime's metrics at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricsSnapshot {
    /// Ended cells by end state (`completed`, `failed`, `timed_out`,
    /// `aborted`, `expired`, `disposed`, `crashed`; every state listed,
    /// zero included).
    pub cells_by_status: BTreeMap<String, u64>,
    /// Cell lifetimes, from admission to end (parked time included).
    pub cell_duration: HistogramSnapshot,
    /// Cell lifetimes less their parked time: queued, running guest code
    /// or waiting on host work inside a window.
    pub cell_active: HistogramSnapshot,
    /// Total parked time of the cells that parked.
    pub cell_parked: HistogramSnapshot,
    /// From admission until the cell's actor started.
    pub cell_queue: HistogramSnapshot,
    /// Nested calls by `(source, server, tool)`, in that order.
    pub nested_calls: Vec<NestedCallSnapshot>,
    /// Cells parked now.
    pub parked_cells: u64,
    /// Cells alive now (running or parked).
    pub live_cells: u64,
    /// Bytes of store values committed since start.
    pub store_committed_bytes: u64,
    /// Results saved since start: `results.save` and the automatic
    /// references of oversized final values (GA-6.6) alike.
    pub results_saved: u64,
    /// Bytes of JSON of the results saved since start.
    pub results_saved_bytes: u64,
    /// Saved results this process holds in memory now (not deleted, their
    /// reply not ended); `None` on the PostgreSQL backend, where results
    /// are rows of the shared database and the process holds none.
    pub results_held: Option<ResultsHeld>,
    /// Cells whose console output hit its budget.
    pub console_truncations: u64,
    /// Refused requests by reason (`queue_limit`, `timer_limit`,
    /// `live_cells`, `principal_quota`, `session_quota`; every reason
    /// listed, zero included).
    pub admission_rejections: BTreeMap<String, u64>,
    /// Restarts of supervised actors by kind (`executor`, `catalog`,
    /// `store`, `results`, `mcp_server`, `node_registry`; every kind is
    /// listed, zero included).
    pub actor_restarts: BTreeMap<String, u64>,
    /// Supervised actors given up on after too many crashes, by kind.
    pub actor_give_ups: BTreeMap<String, u64>,
    /// Nested calls running now (past the policy, not yet answered).
    pub nested_calls_in_flight: u64,
    /// Native tool calls waiting for a free slot of their cell
    /// (`max_in_flight` of its calls already run).
    pub nested_calls_queued: u64,
    /// Cells admitted but not yet running guest code (waiting for a JS
    /// thread or their first step).
    pub js_queue_depth: u64,
    /// Each configured MCP server (by configured name): connected now?
    pub mcp_servers_connected: BTreeMap<String, bool>,
    /// Paired nodes connected now; `None` when nodes are not enabled.
    pub nodes_connected: Option<u64>,
    /// Durable runs: journals, resumes by replay, hand-offs, evictions.
    pub runs: RunsSnapshot,
    /// The engine workers' pool (`isolation = "process"`); `None` when
    /// cells' engines run in this process.
    pub engine_workers: Option<codemode_sandbox::PoolStats>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_label_values_start_at_zero() {
        let m = Metrics::default();
        m.cell_ended("completed", Duration::from_millis(3), Duration::ZERO);
        m.admission_rejected("queue_limit");
        let s = m.snapshot();
        for status in ["completed", "failed", "timed_out", "aborted", "expired", "disposed", "crashed"] {
            assert!(s.cells_by_status.contains_key(status), "{status} missing");
        }
        assert_eq!(s.cells_by_status["completed"], 1);
        assert_eq!(s.cells_by_status["crashed"], 0);
        assert_eq!(s.admission_rejections["queue_limit"], 1);
        assert_eq!(s.admission_rejections["session_quota"], 0);
        assert_eq!(s.actor_restarts["executor"], 0);
    }

    #[test]
    fn a_call_series_counts_every_outcome_and_times_calls_that_ran() {
        let m = Metrics::default();
        let series = m.call_series("mcp", "files", "read");
        series.record(CallOutcome::Ok, Duration::from_micros(50));
        series.record(CallOutcome::Denied, Duration::from_secs(3));
        assert!(Arc::ptr_eq(&series, &m.call_series("mcp", "files", "read")));
        let s = m.snapshot();
        let [call] = s.nested_calls.as_slice() else { panic!("one series expected: {:?}", s.nested_calls) };
        assert_eq!((call.source.as_str(), call.server.as_str(), call.tool.as_str()), ("mcp", "files", "read"));
        assert_eq!(call.latency.count, 1);
        let outcomes: Vec<(&str, u64)> = call.outcomes.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(outcomes, [("denied", 1), ("error", 0), ("ok", 1), ("timeout", 0)]);
    }

    #[test]
    fn run_metrics_reach_the_snapshot() {
        let m = Metrics::default();
        assert_eq!(m.snapshot().runs.replay.buckets.len(), BUCKETS.len() + 1, "every bucket from the start");
        m.runs.journal_written(100);
        m.runs.journal_written(20);
        m.runs.journal_write_failed();
        m.runs.journal_write_took(Duration::from_micros(700));
        RunMetrics::bump(&m.runs.resumed_by_replay);
        m.runs.replay_took(Duration::from_millis(30));
        RunMetrics::bump(&m.runs.replay_diverged);
        RunMetrics::bump(&m.runs.lease_handoffs);
        RunMetrics::bump(&m.runs.evicted);
        m.runs.evicted_now.fetch_add(1, Ordering::Relaxed);
        RunMetrics::bump(&m.runs.reissued);
        RunMetrics::bump(&m.runs.outcome_unknown);
        RunMetrics::bump(&m.runs.outcome_unknown);
        let r = m.snapshot().runs;
        assert_eq!((r.journal_bytes, r.journal_writes, r.journal_write_failures), (120, 2, 1));
        assert_eq!((r.resumed_by_replay, r.replay_diverged, r.lease_handoffs), (1, 1, 1));
        assert_eq!((r.evicted, r.evicted_now, r.reissued, r.outcome_unknown), (1, 1, 1, 2));
        assert_eq!((r.replay.count, r.journal_write.count), (1, 1));
        assert!((r.replay.sum_seconds - 0.03).abs() < 1e-9, "{}", r.replay.sum_seconds);
        let le_50ms = r.replay.buckets.iter().find(|(le, _)| *le == 0.05).map(|(_, n)| *n);
        assert_eq!(le_50ms, Some(1));
        m.runs.evicted_now.fetch_sub(2, Ordering::Relaxed);
        assert_eq!(m.snapshot().runs.evicted_now, 0, "a gauge never reads below zero");
    }
}
