//! The metric catalogue: every family the runtime's [`MetricsSnapshot`]
//! (and `serve`'s session count) feeds, declared once — its Prometheus
//! name, its OTLP instrument name, its kind, its help text and how to read
//! its samples. The Prometheus exposition (`super::render`) and the OTLP
//! instruments (`crate::telemetry`) are both rendered from [`CATALOGUE`],
//! so a family is added, renamed or described in one row.
//!
//! The OTLP view is smaller and flatter than `/metrics`: it has no
//! histograms (a lifetime's sum and count arrive as gauges instead), a few
//! cumulative totals are observed as gauges, and several descriptions are
//! shorter. Each such difference is spelled out in its row
//! ([`Metric::otlp_as`], [`Metric::otlp_help`]), so changing one exporter
//! never silently changes the other.
//!
//! The rows are checked when the table is built: a histogram family reads
//! histograms and nothing else does, and OTLP never gets a histogram.

use std::collections::BTreeMap;

use codemode_runtime::{HistogramSnapshot, MetricsSnapshot, NestedCallSnapshot};

use self::Kind::{Counter, Gauge, Histogram};
use self::Read::{ByLabel, Histograms, Labelled, Maybe, Seconds, Value};

/// How a family's samples behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A total that only grows (Prometheus appends `_total` to its name).
    Counter,
    /// A value now.
    Gauge,
    /// A distribution of durations in seconds (Prometheus only).
    Histogram,
}

/// Label names and values of one sample.
pub(crate) type Labels = Vec<(&'static str, String)>;

/// How a family's samples are read.
#[derive(Clone, Copy)]
pub(crate) enum Read {
    /// One unlabelled sample.
    Value(fn(&MetricsSnapshot) -> u64),
    /// One unlabelled sample, or no family at all when the snapshot holds
    /// no value (a figure this process does not have, such as the results
    /// held on PostgreSQL): absent, never a misleading zero.
    Maybe(fn(&MetricsSnapshot) -> Option<u64>),
    /// One sample per entry of a map, its key the value of the label.
    ByLabel(&'static str, fn(&MetricsSnapshot) -> &BTreeMap<String, u64>),
    /// Samples with label sets of their own; the family is declared even
    /// when there are none yet.
    Labelled(fn(&MetricsSnapshot) -> Vec<(Labels, u64)>),
    /// Seconds per label set (a histogram's sum, as a gauge).
    Seconds(fn(&MetricsSnapshot) -> Vec<(Labels, f64)>),
    /// One unlabelled histogram.
    Histogram(fn(&MetricsSnapshot) -> &HistogramSnapshot),
    /// One histogram per label set.
    Histograms(fn(&MetricsSnapshot) -> Vec<(Labels, &HistogramSnapshot)>),
}

/// How OTLP exports a family.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Otlp {
    /// The instrument's name (`codemode.cells`).
    pub name: &'static str,
    /// Counter or gauge.
    pub kind: Kind,
    /// The instrument's description.
    pub help: &'static str,
}

/// One family of the catalogue.
#[derive(Clone, Copy)]
pub(crate) struct Metric {
    /// The Prometheus family name, a counter's without `_total`; `None`:
    /// not on `/metrics`.
    pub prometheus: Option<&'static str>,
    /// The OTLP instrument; `None`: not exported over OTLP.
    pub otlp: Option<Otlp>,
    /// How the samples behave (on `/metrics`).
    pub kind: Kind,
    /// What the family counts (its Prometheus `# HELP`).
    pub help: &'static str,
    /// How the samples are read.
    pub read: Read,
}

/// A family on `/metrics`.
const fn family(prometheus: &'static str, kind: Kind, help: &'static str, read: Read) -> Metric {
    checked(Metric { prometheus: Some(prometheus), otlp: None, kind, help, read })
}

/// An instrument exported over OTLP only.
const fn otlp_only(name: &'static str, kind: Kind, help: &'static str, read: Read) -> Metric {
    let metric = Metric { prometheus: None, otlp: None, kind, help, read };
    checked(metric).otlp(name)
}

/// `metric`, or a build error when its kind and its reading disagree.
const fn checked(metric: Metric) -> Metric {
    let reads_histograms = matches!(metric.read, Read::Histogram(_) | Histograms(_));
    assert!(reads_histograms == matches!(metric.kind, Histogram), "a histogram family reads histograms, no other does");
    metric
}

impl Metric {
    /// Also exported over OTLP as `name`, with the same kind and help.
    const fn otlp(mut self, name: &'static str) -> Self {
        assert!(!matches!(self.kind, Histogram), "OTLP gets a histogram's sum and count as gauges, not the histogram");
        assert!(matches!(self.kind, Gauge) || !matches!(self.read, Seconds(_)), "seconds are observed as a gauge");
        self.otlp = Some(Otlp { name, kind: self.kind, help: self.help });
        self
    }

    /// Observed as `kind` over OTLP.
    const fn otlp_as(mut self, kind: Kind) -> Self {
        match &mut self.otlp {
            Some(otlp) => otlp.kind = kind,
            None => panic!("otlp_as follows otlp"),
        }
        self
    }

    /// Described as `help` over OTLP.
    const fn otlp_help(mut self, help: &'static str) -> Self {
        match &mut self.otlp {
            Some(otlp) => otlp.help = help,
            None => panic!("otlp_help follows otlp"),
        }
        self
    }
}

/// Every family, in `/metrics` order.
pub(crate) static CATALOGUE: &[Metric] = &[
    family("codemode_cells", Counter, "Cells that ended, by end state.", ByLabel("status", |s| &s.cells_by_status))
        .otlp("codemode.cells"),
    // Lifetime is split: parked cells live up to their TTL, far past the
    // active buckets.
    family(
        "codemode_cell_active_seconds",
        Histogram,
        "Cell lifetime less parked time, admission to end.",
        Read::Histogram(|s| &s.cell_active),
    ),
    family(
        "codemode_cell_parked_seconds",
        Histogram,
        "Total parked time of cells that parked.",
        Read::Histogram(|s| &s.cell_parked),
    ),
    family(
        "codemode_cell_queue_seconds",
        Histogram,
        "From admission until the cell started.",
        Read::Histogram(|s| &s.cell_queue),
    ),
    // OTLP has the whole lifetime instead, as a sum and a count.
    otlp_only(
        "codemode.cell.duration.sum",
        Gauge,
        "Total cell lifetime, seconds.",
        Seconds(|s| vec![(Vec::new(), s.cell_duration.sum_seconds)]),
    ),
    otlp_only("codemode.cell.duration.count", Gauge, "Cells timed.", Value(|s| s.cell_duration.count)),
    family(
        "codemode_nested_call_duration_seconds",
        Histogram,
        "Latency of nested tool calls that ran (denied calls are not timed).",
        Histograms(|s| s.nested_calls.iter().map(|c| (call_labels(c), &c.latency)).collect()),
    ),
    otlp_only(
        "codemode.nested_call.duration.sum",
        Gauge,
        "Total nested call latency by tool, source and server, seconds.",
        Seconds(|s| s.nested_calls.iter().map(|c| (call_labels(c), c.latency.sum_seconds)).collect()),
    ),
    family("codemode_nested_calls", Counter, "Nested tool calls that ended, by outcome.", Labelled(call_outcomes)),
    family("codemode_parked_cells", Gauge, "Cells parked now.", Value(|s| s.parked_cells))
        .otlp("codemode.parked_cells"),
    family(
        "codemode_nested_calls_in_flight",
        Gauge,
        "Nested tool calls running now.",
        Value(|s| s.nested_calls_in_flight),
    ),
    family(
        "codemode_nested_calls_queued",
        Gauge,
        "Native tool calls waiting for a free slot of their cell.",
        Value(|s| s.nested_calls_queued),
    ),
    family(
        "codemode_js_queue_depth",
        Gauge,
        "Cells admitted but not yet running guest code (waiting for a JS thread).",
        Value(|s| s.js_queue_depth),
    ),
    family(
        "codemode_mcp_server_connected",
        Gauge,
        "1 when the MCP server is connected.",
        Labelled(|s| {
            s.mcp_servers_connected.iter().map(|(name, up)| (vec![("server", name.clone())], u64::from(*up))).collect()
        }),
    ),
    family("codemode_nodes_connected", Gauge, "Paired nodes connected now.", Maybe(|s| s.nodes_connected)),
    family(
        "codemode_engine_workers_alive",
        Gauge,
        "Engine worker processes alive now (isolation = \"process\"): spares, bound and starting.",
        Maybe(|s| s.engine_workers.map(|w| w.alive)),
    )
    .otlp("codemode.engine_workers.alive"),
    family(
        "codemode_engine_workers_started",
        Counter,
        "Engine worker processes started.",
        Maybe(|s| s.engine_workers.map(|w| w.started)),
    )
    .otlp("codemode.engine_workers.started"),
    family(
        "codemode_engine_workers_crashed",
        Counter,
        "Engine worker processes that died or were failed for breaking the engine protocol (their cells failed \
         with engine_crashed).",
        Maybe(|s| s.engine_workers.map(|w| w.crashed)),
    )
    .otlp("codemode.engine_workers.crashed"),
    family(
        "codemode_engine_workers_start_failures",
        Counter,
        "Engine worker starts that failed (retried with back-off).",
        Maybe(|s| s.engine_workers.map(|w| w.start_failures)),
    )
    .otlp("codemode.engine_workers.start_failures"),
    family(
        "codemode_engine_workers_recycled",
        Counter,
        "Engine worker processes replaced after serving their cells.",
        Maybe(|s| s.engine_workers.map(|w| w.recycled)),
    )
    .otlp("codemode.engine_workers.recycled"),
    family("codemode_live_cells", Gauge, "Cells alive now, running or parked.", Value(|s| s.live_cells))
        .otlp("codemode.live_cells")
        .otlp_help("Cells alive now."),
    family(
        "codemode_store_committed_bytes",
        Counter,
        "Bytes of store values committed.",
        Value(|s| s.store_committed_bytes),
    )
    .otlp("codemode.store.committed_bytes")
    .otlp_as(Gauge),
    family(
        "codemode_results_saved",
        Counter,
        "Results saved, by results.save and automatically (an oversized final value).",
        Value(|s| s.results_saved),
    )
    .otlp("codemode.results.saved")
    .otlp_as(Gauge)
    .otlp_help("Results saved, explicitly and automatically."),
    family(
        "codemode_results_saved_bytes",
        Counter,
        "Bytes of JSON of the results saved, by results.save and automatically.",
        Value(|s| s.results_saved_bytes),
    )
    .otlp("codemode.results.saved_bytes")
    .otlp_as(Gauge)
    .otlp_help("Bytes of results saved, explicitly and automatically."),
    // Absent on PostgreSQL: the results are rows of the shared database,
    // and this process holds none.
    family(
        "codemode_results_held",
        Gauge,
        "Saved results held in memory now: not deleted, their reply not ended.",
        Maybe(|s| s.results_held.map(|h| h.entries)),
    )
    .otlp("codemode.results.held")
    .otlp_help("Saved results held in memory now."),
    family(
        "codemode_results_held_bytes",
        Gauge,
        "Bytes of JSON of the results held in memory now.",
        Maybe(|s| s.results_held.map(|h| h.bytes)),
    )
    .otlp("codemode.results.held_bytes")
    .otlp_help("Bytes of the results held in memory now."),
    family(
        "codemode_console_truncations",
        Counter,
        "Cells whose console output hit its budget.",
        Value(|s| s.console_truncations),
    )
    .otlp("codemode.console_truncations")
    .otlp_as(Gauge)
    .otlp_help("Cells whose console hit its budget."),
    family(
        "codemode_admission_rejections",
        Counter,
        "Requests refused by admission limits.",
        ByLabel("reason", |s| &s.admission_rejections),
    )
    .otlp("codemode.admission_rejections"),
    family(
        "codemode_actor_restarts",
        Counter,
        "Supervised actors restarted after a crash.",
        ByLabel("actor", |s| &s.actor_restarts),
    )
    .otlp("codemode.actor_restarts")
    .otlp_help("Supervised actors restarted after a crash, by kind."),
    family(
        "codemode_actor_give_ups",
        Counter,
        "Supervised actors not restarted again: too many crashes in the window.",
        ByLabel("actor", |s| &s.actor_give_ups),
    ),
    // Durable runs: every series from the start.
    family(
        "codemode_run_journal_bytes",
        Counter,
        "Bytes of run journals written to the backend.",
        Value(|s| s.runs.journal_bytes),
    )
    .otlp("codemode.run.journal.bytes")
    .otlp_help("Bytes of run journals written."),
    family(
        "codemode_run_journal_writes",
        Counter,
        "Run journal writes that succeeded.",
        Value(|s| s.runs.journal_writes),
    )
    .otlp("codemode.run.journal.writes"),
    family(
        "codemode_run_journal_write_failures",
        Counter,
        "Run journal writes the store backend failed.",
        Value(|s| s.runs.journal_write_failures),
    )
    .otlp("codemode.run.journal.write_failures")
    .otlp_help("Run journal writes the backend failed."),
    family(
        "codemode_run_journal_writes_skipped",
        Counter,
        "Run journal writes with nothing new since the last one: no bytes stored.",
        Value(|s| s.runs.journal_writes_skipped),
    )
    .otlp("codemode.run.journal.writes_skipped"),
    family(
        "codemode_run_journal_quota_exceeded",
        Counter,
        "Run journal writes refused by a session's or principal's journal quota (the run ended quota_exceeded).",
        Value(|s| s.runs.journal_quota_exceeded),
    )
    .otlp("codemode.run.journal.quota_exceeded")
    .otlp_help("Run journal writes refused by a journal quota."),
    family(
        "codemode_runs_memory_only",
        Counter,
        "Runs that outgrew their journal and went on in one process's memory only (no longer resumable elsewhere).",
        Value(|s| s.runs.memory_only),
    )
    .otlp("codemode.runs.memory_only")
    .otlp_help("Runs that outgrew their journal and went on in memory only."),
    family(
        "codemode_runs_lost",
        Counter,
        "Memory-only runs whose process stopped: ended lost, as every wait reports.",
        Value(|s| s.runs.lost),
    )
    .otlp("codemode.runs.lost"),
    family(
        "codemode_run_journal_write_seconds",
        Histogram,
        "Time of each run journal write.",
        Read::Histogram(|s| &s.runs.journal_write),
    ),
    family(
        "codemode_runs_resumed",
        Counter,
        "Runs resumed by replaying their journal.",
        Value(|s| s.runs.resumed_by_replay),
    )
    .otlp("codemode.runs.resumed"),
    family(
        "codemode_run_replay_seconds",
        Histogram,
        "Time to resume a run by replaying its journal.",
        Read::Histogram(|s| &s.runs.replay),
    ),
    family(
        "codemode_run_replay_divergences",
        Counter,
        "Replays that diverged from their journal (the run ends replay_diverged).",
        Value(|s| s.runs.replay_diverged),
    )
    .otlp("codemode.run.replay.divergences")
    .otlp_help("Replays that diverged from their journal."),
    family(
        "codemode_run_journals_unreadable",
        Counter,
        "Resumes refused because the stored journal was of a newer format (the run stays parked), or never stored whole or damaged (the run ends unrecoverable).",
        Value(|s| s.runs.journal_unreadable),
    ),
    family(
        "codemode_store_flushes",
        Counter,
        "Flushes (fsync) of the sled store since it was opened.",
        Value(|s| s.runs.store_flushes),
    ),
    family(
        "codemode_run_lease_handoffs",
        Counter,
        "Run leases taken over from another owner that released them or let them expire.",
        Value(|s| s.runs.lease_handoffs),
    )
    .otlp("codemode.run.lease_handoffs")
    .otlp_help("Run leases taken over from another owner."),
    family(
        "codemode_runs_evicted",
        Counter,
        "Parked runs evicted from memory to their journal.",
        Value(|s| s.runs.evicted),
    )
    .otlp("codemode.runs.evicted")
    .otlp_help("Parked runs evicted to their journal."),
    family(
        "codemode_evicted_runs",
        Gauge,
        "Runs evicted by this process, held only as a journal now.",
        Value(|s| s.runs.evicted_now),
    )
    .otlp("codemode.evicted_runs"),
    family(
        "codemode_run_inflight_calls_after_crash",
        Counter,
        "Calls in flight when their run's owner crashed, by what the replay did: reissued or outcome_unknown.",
        Labelled(|s| {
            [("reissued", s.runs.reissued), ("outcome_unknown", s.runs.outcome_unknown)]
                .into_iter()
                .map(|(outcome, n)| (vec![("outcome", outcome.to_owned())], n))
                .collect()
        }),
    )
    .otlp("codemode.run.inflight_calls_after_crash")
    .otlp_help("Calls in flight when their run's owner crashed, by outcome."),
    family(
        "codemode_approvals_requested",
        Counter,
        "Nested calls the policy asked a person about (pending approvals).",
        Value(|s| s.runs.approvals_requested),
    )
    .otlp("codemode.approvals.requested"),
    family(
        "codemode_approvals_decided",
        Counter,
        "Approvals decided, by verdict: approved, denied, or expired (nobody decided within the TTL).",
        Labelled(|s| {
            [
                ("approved", s.runs.approvals_approved),
                ("denied", s.runs.approvals_denied),
                ("expired", s.runs.approvals_expired),
            ]
            .into_iter()
            .map(|(verdict, n)| (vec![("verdict", verdict.to_owned())], n))
            .collect()
        }),
    )
    .otlp("codemode.approvals.decided")
    .otlp_help("Approvals decided, by verdict."),
    // `serve`'s own: read from its session count, not the snapshot.
    family(
        "codemode_mcp_sessions",
        Gauge,
        "MCP sessions of serve: open (client connected; stdio is one) or closing (client gone, its cells and \
         results released once the dispose grace has passed).",
        Labelled(|_| {
            let (open, closing) = super::counters::sessions::counts();
            [("open", open), ("closing", closing)]
                .into_iter()
                .map(|(state, n)| (vec![("state", state.to_owned())], n))
                .collect()
        }),
    )
    .otlp("codemode.mcp_sessions")
    .otlp_help("MCP sessions of serve: open, or closing (within the dispose grace)."),
];

/// A nested call series' labels.
fn call_labels(c: &NestedCallSnapshot) -> Labels {
    vec![("tool", c.tool.clone()), ("source", c.source.clone()), ("server", c.server.clone())]
}

/// Nested calls that ended, per series and outcome.
fn call_outcomes(s: &MetricsSnapshot) -> Vec<(Labels, u64)> {
    s.nested_calls
        .iter()
        .flat_map(|c| {
            c.outcomes.iter().map(move |(outcome, n)| {
                let mut labels = call_labels(c);
                labels.push(("outcome", outcome.clone()));
                (labels, *n)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_used_once_per_exporter() {
        let mut prometheus: Vec<&str> = CATALOGUE.iter().filter_map(|m| m.prometheus).collect();
        let mut otlp: Vec<&str> = CATALOGUE.iter().filter_map(|m| m.otlp.map(|o| o.name)).collect();
        let (p, o) = (prometheus.len(), otlp.len());
        prometheus.sort_unstable();
        prometheus.dedup();
        otlp.sort_unstable();
        otlp.dedup();
        assert_eq!((prometheus.len(), otlp.len()), (p, o), "a name repeats");
        assert!(prometheus.iter().all(|n| n.starts_with("codemode_") && !n.ends_with("_total")));
        assert!(otlp.iter().all(|n| n.starts_with("codemode.")));
    }
}
