//! The Prometheus exposition of `serve --metrics`: the runtime keeps plain
//! counters and knows no exposition format, so the CLI renders its
//! [`MetricsSnapshot`] here, through `prometheus-client`'s registry and
//! text encoder (Prometheus text format 0.0.4), plus the process's own
//! metrics. Every label value is from a bounded, host-known set; see
//! `docs/operations.md` for the list.

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use codemode_runtime::{HistogramSnapshot, MetricsSnapshot};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;

pub(crate) mod catalogue;
pub(crate) mod counters;

use catalogue::{CATALOGUE, Kind, Metric, Read};

/// When this process started serving, seconds since the Unix epoch
/// (`codemode_start_time_seconds`); set by [`mark_start`].
static STARTED: OnceLock<f64> = OnceLock::new();

/// Records the start time; call once, early. Later calls keep the first.
pub(crate) fn mark_start() {
    STARTED.get_or_init(now_seconds);
}

fn now_seconds() -> f64 {
    // A clock before 1970 is a broken host; 0 there is visibly wrong.
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// The `/metrics` answer: HTTP status line, content type and body. An
/// encoding failure is a 500 naming it, never a partial or empty 200.
pub(crate) fn response(snapshot: &MetricsSnapshot) -> (hyper::StatusCode, &'static str, String) {
    match render(snapshot) {
        Ok(body) => (hyper::StatusCode::OK, prometheus_client::encoding::prometheus_text::CONTENT_TYPE, body),
        Err(e) => {
            tracing::error!("rendering /metrics failed: {e}");
            (hyper::StatusCode::INTERNAL_SERVER_ERROR, "text/plain", format!("rendering metrics failed: {e}\n"))
        }
    }
}

/// The Prometheus text exposition of `snapshot` and of this process.
///
/// # Errors
/// The encoder's, when a family cannot be written.
pub(crate) fn render(snapshot: &MetricsSnapshot) -> Result<String, std::fmt::Error> {
    let mut registry = Registry::default();
    registry.register_collector(Box::new(SnapshotCollector(snapshot.clone())));
    registry.register_collector(Box::new(ProcessCollector));
    let mut out = String::new();
    prometheus_client::encoding::prometheus_text::encode(&mut out, &registry)?;
    Ok(out)
}

/// Encodes one labelled family: `name` (counters without their `_total`,
/// which the encoder appends), its samples by label set.
fn family<'a, M: EncodeMetric + 'a>(
    encoder: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    kind: MetricType,
    samples: impl IntoIterator<Item = (Vec<(&'a str, String)>, M)>,
) -> Result<(), std::fmt::Error> {
    let mut metric = encoder.encode_descriptor(name, help, None, kind)?;
    for (labels, value) in samples {
        value.encode(metric.encode_family(&labels)?)?;
    }
    Ok(())
}

/// Encodes one family of a single unlabelled sample.
fn single(
    encoder: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    value: &impl EncodeMetric,
) -> Result<(), std::fmt::Error> {
    value.encode(encoder.encode_descriptor(name, help, None, value.metric_type())?)
}

/// The encoder's type of a catalogue kind.
fn metric_type(kind: Kind) -> MetricType {
    match kind {
        Kind::Counter => MetricType::Counter,
        Kind::Gauge => MetricType::Gauge,
        Kind::Histogram => MetricType::Histogram,
    }
}

/// A counter or gauge sample, encoded as its family's kind.
#[derive(Debug)]
struct Sample(Kind, u64);

impl EncodeMetric for Sample {
    fn encode(&self, encoder: prometheus_client::encoding::MetricEncoder) -> Result<(), std::fmt::Error> {
        match self.0 {
            Kind::Counter => ConstCounter::new(self.1).encode(encoder),
            Kind::Gauge | Kind::Histogram => ConstGauge::new(self.1).encode(encoder),
        }
    }

    fn metric_type(&self) -> MetricType {
        metric_type(self.0)
    }
}

/// A histogram sample: the encoder wants per-bucket counts, the snapshot
/// holds cumulative ones.
#[derive(Debug)]
struct Histogram<'h>(&'h HistogramSnapshot);

impl EncodeMetric for Histogram<'_> {
    fn encode(&self, mut encoder: prometheus_client::encoding::MetricEncoder) -> Result<(), std::fmt::Error> {
        let mut previous = 0;
        let buckets: Vec<(f64, u64)> = self
            .0
            .buckets
            .iter()
            .map(|(le, cumulative)| {
                let own = cumulative.saturating_sub(previous);
                previous = *cumulative;
                (*le, own)
            })
            .collect();
        encoder.encode_histogram::<prometheus_client::encoding::NoLabelSet>(
            self.0.sum_seconds,
            self.0.count,
            &buckets,
            None,
        )
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

/// Encodes the catalogue's family `metric`, named `name`, from `s`.
fn encode_metric(
    e: &mut DescriptorEncoder<'_>,
    name: &str,
    metric: &Metric,
    s: &MetricsSnapshot,
) -> Result<(), std::fmt::Error> {
    let (help, kind) = (metric.help, metric.kind);
    match metric.read {
        Read::Value(read) => single(e, name, help, &Sample(kind, read(s))),
        Read::Maybe(read) => read(s).map_or(Ok(()), |n| single(e, name, help, &Sample(kind, n))),
        Read::ByLabel(label, read) => {
            let samples = read(s).iter().map(|(v, n)| (vec![(label, v.clone())], Sample(kind, *n)));
            family(e, name, help, metric_type(kind), samples)
        }
        Read::Labelled(read) => {
            let samples = read(s).into_iter().map(|(labels, n)| (labels, Sample(kind, n)));
            family(e, name, help, metric_type(kind), samples)
        }
        Read::Seconds(read) => {
            let samples = read(s).into_iter().map(|(labels, secs)| (labels, ConstGauge::new(secs)));
            family(e, name, help, MetricType::Gauge, samples)
        }
        Read::Histogram(read) => single(e, name, help, &Histogram(read(s))),
        Read::Histograms(read) => {
            let samples = read(s).into_iter().map(|(labels, h)| (labels, Histogram(h)));
            family(e, name, help, MetricType::Histogram, samples)
        }
    }
}

/// The runtime's metrics, read from one snapshot taken at scrape time:
/// this build, then every catalogue family on `/metrics`.
#[derive(Debug)]
struct SnapshotCollector(MetricsSnapshot);

impl Collector for SnapshotCollector {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let build = [(vec![("version", env!("CARGO_PKG_VERSION").to_owned())], ConstGauge::new(1i64))];
        family(&mut e, "codemode_build_info", "This build's version; always 1.", MetricType::Gauge, build)?;
        if let Some(started) = STARTED.get() {
            let help = "When this process started, Unix seconds.";
            single(&mut e, "codemode_start_time_seconds", help, &ConstGauge::new(*started))?;
        }
        for metric in CATALOGUE {
            if let Some(name) = metric.prometheus {
                encode_metric(&mut e, name, metric, &self.0)?;
            }
        }
        Ok(())
    }
}

/// The process's own metrics, the standard `process_*` names. A value
/// that cannot be read is left out and logged, never reported as zero.
#[derive(Debug)]
struct ProcessCollector;

impl Collector for ProcessCollector {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let report = |what: &str, err: &dyn std::fmt::Display| tracing::warn!("metrics: cannot read {what}: {err}");
        match process::cpu_seconds() {
            Ok(cpu) => single(
                &mut e,
                "process_cpu_seconds",
                "User and system CPU time spent, seconds.",
                &ConstCounter::new(cpu),
            )?,
            Err(err) => report("CPU time", &err),
        }
        match process::status() {
            Ok(status) => {
                let rss = ConstGauge::new(status.resident_bytes);
                single(&mut e, "process_resident_memory_bytes", "Resident memory size, bytes.", &rss)?;
                single(&mut e, "process_threads", "OS threads in the process.", &ConstGauge::new(status.threads))?;
            }
            Err(err) => report("/proc/self/status", &err),
        }
        match process::open_fds() {
            Ok(n) => single(&mut e, "process_open_fds", "Open file descriptors.", &ConstGauge::new(n))?,
            Err(err) => report("/proc/self/fd", &err),
        }
        // OTLP exports that failed (collector down): zero without an
        // endpoint, so an alert can watch it before the first failure.
        let failures =
            counters::failures().map(|(signal, n)| (vec![("signal", signal.to_owned())], ConstCounter::new(n)));
        family(
            &mut e,
            "codemode_otlp_export_failures",
            "OTLP exports that failed, by signal.",
            MetricType::Counter,
            failures,
        )?;
        let lost = ConstCounter::new(counters::spans_lost());
        single(&mut e, "codemode_otlp_spans_lost", "Spans in OTLP exports that failed: lost.", &lost)?;
        Ok(())
    }
}

/// Reads the process's figures from the OS.
mod process {
    use std::io;

    /// `VmRSS` and `Threads` of `/proc/self/status`.
    pub(super) struct Status {
        pub resident_bytes: u64,
        pub threads: u64,
    }

    /// User plus system CPU time, from `getrusage`.
    #[cfg(unix)]
    pub(super) fn cpu_seconds() -> io::Result<f64> {
        use nix::sys::resource::{UsageWho, getrusage};
        let usage = getrusage(UsageWho::RUSAGE_SELF).map_err(io::Error::from)?;
        let secs = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
        Ok(secs(usage.user_time()) + secs(usage.system_time()))
    }

    #[cfg(not(unix))]
    pub(super) fn cpu_seconds() -> io::Result<f64> {
        Err(io::Error::new(io::ErrorKind::Unsupported, "CPU time is read with getrusage, a Unix call"))
    }

    /// Parses `/proc/self/status` (Linux).
    pub(super) fn status() -> io::Result<Status> {
        parse_status(&std::fs::read_to_string("/proc/self/status")?)
    }

    pub(super) fn parse_status(text: &str) -> io::Result<Status> {
        let field = |name: &str| -> io::Result<u64> {
            let line = text
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, format!("no {name} line")))?;
            let number = line.trim_start_matches(':').split_whitespace().next().unwrap_or_default();
            number.parse().map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{name}: {e}")))
        };
        // VmRSS is in kB (kibibytes, despite the unit's name).
        Ok(Status { resident_bytes: field("VmRSS")? * 1024, threads: field("Threads")? })
    }

    /// Entries of `/proc/self/fd` (Linux), less the one this read opens.
    pub(super) fn open_fds() -> io::Result<u64> {
        let mut n = 0u64;
        for entry in std::fs::read_dir("/proc/self/fd")? {
            entry?;
            n += 1;
        }
        Ok(n.saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use codemode_runtime::RunsSnapshot;

    use super::*;

    #[test]
    fn status_parsing_reads_resident_memory_and_threads() {
        let status = process::parse_status("Name:\tcodemode\nVmRSS:\t  2048 kB\nThreads:\t7\n").expect("parses");
        assert_eq!((status.resident_bytes, status.threads), (2048 * 1024, 7));
        assert!(process::parse_status("Name:\tcodemode\n").is_err(), "a missing field is an error, not zero");
    }

    #[test]
    fn empty_snapshot_renders_every_family_with_known_labels() {
        mark_start();
        let text = render(&MetricsSnapshot::default()).expect("renders");
        assert!(text.contains("# TYPE codemode_cells_total counter"), "{text}");
        assert!(text.contains(&format!("codemode_build_info{{version=\"{}\"}} 1", env!("CARGO_PKG_VERSION"))));
        assert!(text.contains("codemode_start_time_seconds "), "{text}");
        assert!(text.contains("codemode_cell_active_seconds_count 0"), "{text}");
        assert!(!text.contains("codemode_cell_duration_seconds"), "split into active and parked: {text}");
        assert!(text.contains("# TYPE codemode_nested_calls_total counter"), "{text}");
        for signal in ["spans", "metrics"] {
            assert!(text.contains(&format!("codemode_otlp_export_failures_total{{signal=\"{signal}\"}} ")), "{text}");
        }
        assert!(text.contains("codemode_otlp_spans_lost_total "), "{text}");
        #[cfg(target_os = "linux")]
        for name in
            ["process_cpu_seconds_total ", "process_resident_memory_bytes ", "process_threads ", "process_open_fds "]
        {
            assert!(text.contains(name), "{name} missing: {text}");
        }
    }

    #[test]
    fn run_families_are_exported_from_the_start_and_carry_the_snapshot() {
        let text = render(&MetricsSnapshot::default()).expect("renders");
        for (family, kind) in [
            ("codemode_run_journal_bytes_total", "counter"),
            ("codemode_run_journal_writes_total", "counter"),
            ("codemode_run_journal_write_failures_total", "counter"),
            ("codemode_run_journal_write_seconds", "histogram"),
            ("codemode_runs_resumed_total", "counter"),
            ("codemode_run_replay_seconds", "histogram"),
            ("codemode_run_replay_divergences_total", "counter"),
            ("codemode_run_journals_unreadable_total", "counter"),
            ("codemode_store_flushes_total", "counter"),
            ("codemode_run_lease_handoffs_total", "counter"),
            ("codemode_runs_evicted_total", "counter"),
            ("codemode_evicted_runs", "gauge"),
            ("codemode_run_inflight_calls_after_crash_total", "counter"),
        ] {
            assert!(text.contains(&format!("# TYPE {family} {kind}\n")), "{family} {kind} missing: {text}");
        }
        for line in [
            "codemode_run_journal_bytes_total 0",
            "codemode_runs_resumed_total 0",
            "codemode_evicted_runs 0",
            "codemode_run_replay_seconds_count 0",
            "codemode_run_replay_seconds_bucket{le=\"+Inf\"} 0",
            "codemode_run_journal_write_seconds_count 0",
            "codemode_run_inflight_calls_after_crash_total{outcome=\"reissued\"} 0",
            "codemode_run_inflight_calls_after_crash_total{outcome=\"outcome_unknown\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing: {text}");
        }

        let bucket = |bounds: &[f64], counts: &[u64]| HistogramSnapshot {
            buckets: bounds.iter().copied().chain([f64::INFINITY]).zip(counts.iter().copied()).collect(),
            count: *counts.last().unwrap(),
            sum_seconds: 0.25,
        };
        let runs = RunsSnapshot {
            journal_bytes: 4096,
            journal_writes: 7,
            journal_write_failures: 2,
            journal_write: bucket(&[0.01, 0.1], &[5, 9, 9]),
            resumed_by_replay: 3,
            replay: bucket(&[0.01, 0.1], &[1, 2, 3]),
            replay_diverged: 1,
            journal_unreadable: 2,
            store_flushes: 11,
            lease_handoffs: 4,
            evicted: 6,
            evicted_now: 5,
            reissued: 8,
            outcome_unknown: 9,
            approvals_requested: 3,
            approvals_approved: 1,
            approvals_denied: 1,
            approvals_expired: 1,
            journal_writes_skipped: 12,
            memory_only: 1,
            journal_quota_exceeded: 2,
            lost: 1,
        };
        let text = render(&MetricsSnapshot { runs, ..MetricsSnapshot::default() }).expect("renders");
        for line in [
            "codemode_run_journal_bytes_total 4096",
            "codemode_run_journal_writes_total 7",
            "codemode_run_journal_write_failures_total 2",
            "codemode_run_journal_writes_skipped_total 12",
            "codemode_run_journal_quota_exceeded_total 2",
            "codemode_runs_memory_only_total 1",
            "codemode_runs_lost_total 1",
            "codemode_run_journal_write_seconds_count 9",
            "codemode_run_journal_write_seconds_bucket{le=\"0.01\"} 5",
            "codemode_runs_resumed_total 3",
            "codemode_run_replay_seconds_sum 0.25",
            "codemode_run_replay_seconds_count 3",
            "codemode_run_replay_seconds_bucket{le=\"0.1\"} 2",
            "codemode_run_replay_seconds_bucket{le=\"+Inf\"} 3",
            "codemode_run_replay_divergences_total 1",
            "codemode_run_journals_unreadable_total 2",
            "codemode_store_flushes_total 11",
            "codemode_run_lease_handoffs_total 4",
            "codemode_runs_evicted_total 6",
            "codemode_evicted_runs 5",
            "codemode_run_inflight_calls_after_crash_total{outcome=\"reissued\"} 8",
            "codemode_run_inflight_calls_after_crash_total{outcome=\"outcome_unknown\"} 9",
            "codemode_approvals_requested_total 3",
            "codemode_approvals_decided_total{verdict=\"expired\"} 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing: {text}");
        }
    }

    #[test]
    fn results_saved_and_held_and_mcp_sessions_are_exported_and_held_only_when_the_process_holds_results() {
        let held = codemode_runtime::ResultsHeld { entries: 2, bytes: 150_000 };
        let snapshot = MetricsSnapshot {
            results_saved: 5,
            results_saved_bytes: 160_000,
            results_held: Some(held),
            ..MetricsSnapshot::default()
        };
        let text = render(&snapshot).expect("renders");
        for line in [
            "# TYPE codemode_results_saved_total counter",
            "codemode_results_saved_total 5",
            "codemode_results_saved_bytes_total 160000",
            "# TYPE codemode_results_held gauge",
            "codemode_results_held 2",
            "codemode_results_held_bytes 150000",
            "# TYPE codemode_mcp_sessions gauge",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing: {text}");
        }
        for state in ["open", "closing"] {
            let sample = format!("codemode_mcp_sessions{{state=\"{state}\"}} ");
            assert!(text.lines().any(|l| l.starts_with(&sample)), "{sample} missing: {text}");
        }
        // PostgreSQL: the process holds none, and says nothing rather than 0.
        let text = render(&MetricsSnapshot { results_held: None, ..snapshot }).expect("renders");
        assert!(!text.contains("codemode_results_held"), "{text}");
        assert!(text.contains("codemode_results_saved_total 5"), "{text}");
    }

    /// The shipped dashboard queries only families this exposition has.
    #[test]
    fn every_metric_the_dashboard_queries_is_exported() {
        let dashboard = include_str!("../../../../deploy/grafana/codemode.json");
        let snapshot = MetricsSnapshot {
            nodes_connected: Some(0),
            results_held: Some(codemode_runtime::ResultsHeld::default()),
            ..MetricsSnapshot::default()
        };
        let text = render(&snapshot).expect("renders");
        let families: Vec<&str> =
            text.lines().filter_map(|l| l.strip_prefix("# TYPE ")).filter_map(|l| l.split(' ').next()).collect();
        let mut queried = 0;
        for (at, _) in dashboard.match_indices("codemode_") {
            let name: String = dashboard[at..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            let family = name.strip_suffix("_bucket").unwrap_or(&name);
            assert!(families.contains(&family), "the dashboard queries {name}, which is not exported");
            queried += 1;
        }
        assert!(queried > 10, "the dashboard's queries were found");
    }
}
