//! Makes failed exports visible. The OTLP exporters report a failed batch
//! only to their caller (the batch processor, the periodic reader), which
//! drops it silently: with the collector down, nothing was logged, even at
//! debug. Each exporter is wrapped so every failure is logged at debug and
//! the first at warn, then at most one warning a minute with the count of
//! failures since the last one — a down collector must not flood the logs.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use opentelemetry_sdk::Resource;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::metrics::Temporality;
use opentelemetry_sdk::metrics::data::ResourceMetrics;
use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
use opentelemetry_sdk::trace::{SpanData, SpanExporter};

/// The least time between two warnings about failed exports of one signal.
const WARN_EVERY: Duration = Duration::from_secs(60);

/// Where the log lines go (kept out of the OTel layer's filter, so a
/// failing export never produces spans of its own).
const TARGET: &str = "codemode::telemetry";

/// The failures of one signal's exports since the last warning.
#[derive(Debug, Default)]
struct State {
    last_warning: Option<Instant>,
    /// Failures not warned about since `last_warning`.
    unreported: u64,
    /// Whether the last export failed (a success then logs the recovery).
    failing: bool,
}

impl State {
    /// Counts a failure at `now`; returns how many failures the warning to
    /// log now covers, or `None` when it is too soon to warn again.
    fn failed(&mut self, now: Instant) -> Option<u64> {
        self.failing = true;
        self.unreported += 1;
        if self.last_warning.is_some_and(|at| now.saturating_duration_since(at) < WARN_EVERY) {
            return None;
        }
        self.last_warning = Some(now);
        Some(std::mem::take(&mut self.unreported))
    }

    /// Notes a success; returns whether it ends a run of failures.
    fn succeeded(&mut self) -> bool {
        std::mem::take(&mut self.failing)
    }
}

/// An exporter whose failures are logged; otherwise `inner` itself.
#[derive(Debug)]
pub(super) struct Logged<E> {
    inner: E,
    /// `spans` or `metrics`.
    signal: &'static str,
    state: Mutex<State>,
}

impl<E> Logged<E> {
    pub(super) fn new(inner: E, signal: &'static str) -> Self {
        Self { inner, signal, state: Mutex::new(State::default()) }
    }

    fn observe(&self, result: &OTelSdkResult) {
        let signal = self.signal;
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match result {
            Ok(()) => {
                if state.succeeded() {
                    tracing::info!(target: TARGET, "telemetry: exporting {signal} works again");
                }
            }
            Err(e) => {
                if let Some(i) = crate::metrics::counters::SIGNALS.iter().position(|s| *s == signal) {
                    crate::metrics::counters::export_failed(i);
                }
                tracing::debug!(target: TARGET, "telemetry: exporting {signal} failed: {e}");
                match state.failed(Instant::now()) {
                    Some(1) => tracing::warn!(
                        target: TARGET,
                        "telemetry: exporting {signal} failed: {e}; those {signal} are lost (further failures are \
                         reported at most once a minute)"
                    ),
                    Some(n) => tracing::warn!(
                        target: TARGET,
                        "telemetry: exporting {signal} failed {n} times since the last report, last: {e}; those \
                         {signal} are lost"
                    ),
                    None => {}
                }
            }
        }
    }
}

impl<E: SpanExporter> SpanExporter for Logged<E> {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let spans = batch.len() as u64;
        let result = self.inner.export(batch).await;
        if result.is_err() {
            crate::metrics::counters::spans_lost_add(spans);
        }
        self.observe(&result);
        result
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn set_resource(&mut self, resource: &Resource) {
        self.inner.set_resource(resource);
    }
}

impl<E: PushMetricExporter> PushMetricExporter for Logged<E> {
    async fn export(&self, metrics: &ResourceMetrics) -> OTelSdkResult {
        let result = self.inner.export(metrics).await;
        self.observe(&result);
        result
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn temporality(&self) -> Temporality {
        self.inner.temporality()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_failure_warns_then_at_most_one_warning_a_minute_counts_the_rest() {
        let mut state = State::default();
        let t0 = Instant::now();
        assert_eq!(state.failed(t0), Some(1));
        for s in 1..=59 {
            assert_eq!(state.failed(t0 + Duration::from_secs(s)), None);
        }
        assert_eq!(state.failed(t0 + Duration::from_secs(60)), Some(60));
        assert!(state.succeeded());
        assert!(!state.succeeded());
        // Still within a minute of the last warning: counted, not warned.
        assert_eq!(state.failed(t0 + Duration::from_secs(61)), None);
    }
}
