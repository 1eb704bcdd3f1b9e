//! Operational metrics, kept as plain atomics so the library needs no
//! telemetry stack: the CLI renders them (Prometheus text, OTLP) and
//! embedders read [`MetricsSnapshot`] however they like. Spans use the
//! `tracing` crate: one `cell` span per cell, a `host_call` child per nested
//! tool call, parented to whatever span the caller of `exec` was in.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use dashmap::DashMap;

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

/// A latency histogram with fixed buckets.
#[derive(Debug, Default)]
pub(crate) struct Histogram {
    counts: [AtomicU64; BUCKETS.len() + 1],
    sum_micros: AtomicU64,
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
    /// Records one observation.
    pub(crate) fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        let slot = BUCKETS.iter().position(|b| secs <= *b).unwrap_or(BUCKETS.len());
        self.counts[slot].fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(u64::try_from(d.as_micros()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    fn snapshot(&self) -> HistogramSnapshot {
        let mut cumulative = 0;
        let mut buckets = Vec::with_capacity(BUCKETS.len() + 1);
        for (i, c) in self.counts.iter().enumerate() {
            cumulative += c.load(Ordering::Relaxed);
            buckets.push((BUCKETS.get(i).copied().unwrap_or(f64::INFINITY), cumulative));
        }
        HistogramSnapshot {
            buckets,
            count: cumulative,
            sum_seconds: self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6,
        }
    }
}

/// Counters and gauges of one runtime.
///
/// The labelled families are `DashMap`s: cells on every JS thread bump
/// them concurrently, and a sharded map keeps them off one lock.
#[derive(Debug, Default)]
pub(crate) struct Metrics {
    cells_by_status: DashMap<&'static str, u64>,
    cell_duration: Histogram,
    /// Latency per source, then per tool.
    calls: DashMap<&'static str, DashMap<String, Arc<Histogram>>>,
    parked: AtomicI64,
    live: AtomicI64,
    store_committed_bytes: AtomicU64,
    results_saved_bytes: AtomicU64,
    console_truncations: AtomicU64,
    admission_rejections: DashMap<&'static str, u64>,
    /// Restarts per [`ActorKind`] (indexed by it).
    restarts: [AtomicU64; ActorKind::ALL.len()],
    /// Children given up on per [`ActorKind`].
    give_ups: [AtomicU64; ActorKind::ALL.len()],
}

impl Metrics {
    pub(crate) fn cell_ended(&self, status: &'static str, lifetime: Duration) {
        *self.cells_by_status.entry(status).or_default() += 1;
        self.cell_duration.observe(lifetime);
    }

    #[cfg(test)]
    pub(crate) fn call_finished(&self, tool: &str, source: &'static str, latency: Duration) {
        self.call_histogram(tool, source).observe(latency);
    }

    /// The nested-call latency histogram of `(tool, source)`: a cell keeps
    /// the ones it uses, so a repeated call records without this lookup.
    pub(crate) fn call_histogram(&self, tool: &str, source: &'static str) -> Arc<Histogram> {
        // Look up under read locks without allocating; the key is built
        // once per tool.
        let found = self.calls.get(source).and_then(|by_tool| by_tool.get(tool).map(|h| Arc::clone(&h)));
        found.unwrap_or_else(|| {
            let by_tool = self.calls.entry(source).or_default();
            Arc::clone(&by_tool.entry(tool.to_owned()).or_default())
        })
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

    pub(crate) fn result_saved(&self, bytes: usize) {
        self.results_saved_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub(crate) fn console_truncated(&self) {
        self.console_truncations.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn admission_rejected(&self, reason: &'static str) {
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
        let counts = |m: &DashMap<&'static str, u64>| m.iter().map(|e| ((*e.key()).to_owned(), *e.value())).collect();
        let per_kind = |a: &[AtomicU64; ActorKind::ALL.len()]| {
            ActorKind::ALL.iter().map(|k| (k.label().to_owned(), a[k.index()].load(Ordering::Relaxed))).collect()
        };
        MetricsSnapshot {
            cells_by_status: counts(&self.cells_by_status),
            cell_duration: self.cell_duration.snapshot(),
            call_latency: self
                .calls
                .iter()
                .flat_map(|by_tool| {
                    let source = (*by_tool.key()).to_owned();
                    by_tool
                        .iter()
                        .map(|h| ((h.key().clone(), source.clone()), h.value().snapshot()))
                        .collect::<Vec<_>>()
                })
                .collect(),
            parked_cells: self.parked.load(Ordering::Relaxed).max(0) as u64,
            live_cells: self.live.load(Ordering::Relaxed).max(0) as u64,
            store_committed_bytes: self.store_committed_bytes.load(Ordering::Relaxed),
            results_saved_bytes: self.results_saved_bytes.load(Ordering::Relaxed),
            console_truncations: self.console_truncations.load(Ordering::Relaxed),
            admission_rejections: counts(&self.admission_rejections),
            actor_restarts: per_kind(&self.restarts),
            actor_give_ups: per_kind(&self.give_ups),
        }
    }
}

/// The runtime's metrics at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricsSnapshot {
    /// Ended cells by end state (`completed`, `failed`, `timed_out`, …).
    pub cells_by_status: BTreeMap<String, u64>,
    /// Cell lifetimes, from exec to end.
    pub cell_duration: HistogramSnapshot,
    /// Nested call latency by (tool, source).
    pub call_latency: BTreeMap<(String, String), HistogramSnapshot>,
    /// Cells parked now.
    pub parked_cells: u64,
    /// Cells alive now (running or parked).
    pub live_cells: u64,
    /// Bytes of store values committed since start.
    pub store_committed_bytes: u64,
    /// Bytes of results saved since start.
    pub results_saved_bytes: u64,
    /// Cells whose console output hit its budget.
    pub console_truncations: u64,
    /// Refused requests by reason (`queue_limit`, `timer_limit`, `live_cells`).
    pub admission_rejections: BTreeMap<String, u64>,
    /// Restarts of supervised actors by kind (`executor`, `catalog`,
    /// `store`, `results`, `mcp_server`, `node_registry`; every kind is
    /// listed, zero included).
    pub actor_restarts: BTreeMap<String, u64>,
    /// Supervised actors given up on after too many crashes, by kind.
    pub actor_give_ups: BTreeMap<String, u64>,
}

fn escape(label: &str) -> String {
    label.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

fn histogram(out: &mut String, name: &str, labels: &str, h: &HistogramSnapshot) {
    for (le, count) in &h.buckets {
        let le = if le.is_infinite() { "+Inf".to_owned() } else { le.to_string() };
        let sep = if labels.is_empty() { "" } else { "," };
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{le}\"}} {count}");
    }
    let braces = if labels.is_empty() { String::new() } else { format!("{{{labels}}}") };
    let _ = writeln!(out, "{name}_sum{braces} {}", h.sum_seconds);
    let _ = writeln!(out, "{name}_count{braces} {}", h.count);
}

impl MetricsSnapshot {
    /// The Prometheus text exposition of these metrics.
    #[must_use]
    pub fn to_prometheus(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP codemode_cells_total Cells that ended, by end state.\n# TYPE codemode_cells_total counter\n",
        );
        for (status, n) in &self.cells_by_status {
            let _ = writeln!(out, "codemode_cells_total{{status=\"{}\"}} {n}", escape(status));
        }
        out.push_str("# HELP codemode_cell_duration_seconds Cell lifetime from exec to end.\n# TYPE codemode_cell_duration_seconds histogram\n");
        histogram(&mut out, "codemode_cell_duration_seconds", "", &self.cell_duration);
        out.push_str("# HELP codemode_nested_call_duration_seconds Nested tool call latency.\n# TYPE codemode_nested_call_duration_seconds histogram\n");
        for ((tool, source), h) in &self.call_latency {
            let labels = format!("tool=\"{}\",source=\"{}\"", escape(tool), escape(source));
            histogram(&mut out, "codemode_nested_call_duration_seconds", &labels, h);
        }
        let gauges = [
            ("codemode_parked_cells", "Cells parked now.", "gauge", self.parked_cells),
            ("codemode_live_cells", "Cells alive now, running or parked.", "gauge", self.live_cells),
            (
                "codemode_store_committed_bytes_total",
                "Bytes of store values committed.",
                "counter",
                self.store_committed_bytes,
            ),
            ("codemode_results_saved_bytes_total", "Bytes of results saved.", "counter", self.results_saved_bytes),
            (
                "codemode_console_truncations_total",
                "Cells whose console output hit its budget.",
                "counter",
                self.console_truncations,
            ),
        ];
        for (name, help, kind, v) in gauges {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        }
        out.push_str("# HELP codemode_admission_rejections_total Requests refused by admission limits.\n# TYPE codemode_admission_rejections_total counter\n");
        for (reason, n) in &self.admission_rejections {
            let _ = writeln!(out, "codemode_admission_rejections_total{{reason=\"{}\"}} {n}", escape(reason));
        }
        out.push_str("# HELP codemode_actor_restarts_total Supervised actors restarted after a crash.\n# TYPE codemode_actor_restarts_total counter\n");
        for (actor, n) in &self.actor_restarts {
            let _ = writeln!(out, "codemode_actor_restarts_total{{actor=\"{}\"}} {n}", escape(actor));
        }
        out.push_str("# HELP codemode_actor_give_ups_total Supervised actors not restarted again: too many crashes in the window.\n# TYPE codemode_actor_give_ups_total counter\n");
        for (actor, n) in &self.actor_give_ups {
            let _ = writeln!(out, "codemode_actor_give_ups_total{{actor=\"{}\"}} {n}", escape(actor));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_render_as_prometheus_text() {
        let m = Metrics::default();
        m.cell_ended("completed", Duration::from_millis(3));
        m.cell_ended("timed_out", Duration::from_secs(11));
        m.call_finished("noop", "openclaw", Duration::from_micros(50));
        m.admission_rejected("queue_limit");
        m.actor_restarted(ActorKind::McpServer);
        let text = m.snapshot().to_prometheus();
        assert!(text.contains("codemode_cells_total{status=\"completed\"} 1"));
        assert!(text.contains("codemode_cell_duration_seconds_bucket{le=\"0.005\"} 1"));
        assert!(text.contains("codemode_cell_duration_seconds_bucket{le=\"+Inf\"} 2"));
        assert!(text.contains("codemode_nested_call_duration_seconds_count{tool=\"noop\",source=\"openclaw\"} 1"));
        assert!(text.contains("codemode_admission_rejections_total{reason=\"queue_limit\"} 1"));
        assert!(text.contains("codemode_actor_restarts_total{actor=\"mcp_server\"} 1"));
        assert!(text.contains("codemode_actor_restarts_total{actor=\"executor\"} 0"));
    }
}
