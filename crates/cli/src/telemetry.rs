//! Telemetry for operators, configured only here, in the CLI.
//!
//! - Traces: the runtime's `tracing` spans (`cell`, with a `host_call`
//!   child per nested tool call) go to an OpenTelemetry tracer and out over
//!   OTLP (HTTP/JSON) when `[telemetry] otlp_endpoint` is set.
//! - Metrics: the runtime's counters are exported over OTLP as observable
//!   instruments, and `serve --metrics ADDR` serves them in Prometheus text
//!   format (with full histograms) at `/metrics`, plus `/health` and
//!   `/ready` (see `health.rs`).
//! - Logs go to stderr (never stdout: `serve` speaks MCP there), filtered by
//!   `RUST_LOG` (default `warn`, and `info` for `serve`'s shutdown phases).

use std::time::Duration;

use anyhow::{Context, Result};
use codemode_runtime::CodeMode;
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use serde::{Deserialize, Serialize};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

mod export_log;
mod instruments;
use export_log::Logged;

/// The log filter without `RUST_LOG`.
const DEFAULT_LOG_FILTER: &str = "warn,codemode::lifecycle=info";

/// `[telemetry]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct TelemetryConfig {
    /// OTLP/HTTP collector base URL (e.g. `http://127.0.0.1:4318`); traces
    /// go to `/v1/traces`, metrics to `/v1/metrics`. Unset: no export.
    pub otlp_endpoint: Option<String>,
    /// The `service.name` resource attribute.
    pub service_name: String,
    /// How often metrics are exported, in milliseconds.
    pub metrics_interval_ms: u64,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        Self { otlp_endpoint: None, service_name: "codemode".into(), metrics_interval_ms: 10_000 }
    }
}

/// Installed exporters; flushed by [`Telemetry::shutdown`].
pub(crate) struct Telemetry {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
    config: TelemetryConfig,
}

fn resource(name: &str) -> Resource {
    Resource::builder().with_service_name(name.to_owned()).build()
}

/// Installs logging and, when configured, the OTLP trace exporter.
pub(crate) fn init(config: &TelemetryConfig) -> Result<Telemetry> {
    // Shutdown phases are logged at info: an operator wants them by default.
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_LOG_FILTER));
    let fmt = tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_filter(filter);
    let mut tracer = None;
    if let Some(endpoint) = &config.otlp_endpoint {
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpJson)
            .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
            .build()
            .context("building the OTLP span exporter")?;
        let exporter = Logged::new(exporter, "spans");
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource(&config.service_name))
            .build();
        let otel = tracing_opentelemetry::layer()
            .with_tracer(provider.tracer("codemode"))
            // The runtime's cells and nested calls, and `serve`'s
            // `tools/call` spans (which carry the caller's trace context).
            .with_filter(EnvFilter::new("codemode_runtime=info,codemode::mcp=info"));
        tracing_subscriber::registry().with(fmt).with(otel).try_init().ok();
        tracer = Some(provider);
    } else {
        tracing_subscriber::registry().with(fmt).try_init().ok();
    }
    Ok(Telemetry { tracer, meter: None, config: config.clone() })
}

impl Telemetry {
    /// Exports the runtime's metrics over OTLP, when configured.
    pub(crate) fn export_metrics(&mut self, rt: &CodeMode) -> Result<()> {
        let Some(endpoint) = &self.config.otlp_endpoint else { return Ok(()) };
        let exporter = opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpJson)
            .with_endpoint(format!("{}/v1/metrics", endpoint.trim_end_matches('/')))
            .build()
            .context("building the OTLP metric exporter")?;
        let exporter = Logged::new(exporter, "metrics");
        let reader = opentelemetry_sdk::metrics::PeriodicReader::builder(exporter)
            .with_interval(Duration::from_millis(self.config.metrics_interval_ms.max(100)))
            .build();
        let provider =
            SdkMeterProvider::builder().with_reader(reader).with_resource(resource(&self.config.service_name)).build();
        instruments::register(&provider.meter("codemode"), rt);
        self.meter = Some(provider);
        Ok(())
    }

    /// Whether any exporter is installed.
    pub(crate) fn exports(&self) -> bool {
        self.tracer.is_some() || self.meter.is_some()
    }

    /// Flushes and stops the exporters, giving up after about `within`:
    /// a collector that does not answer must not hold the process. The
    /// exporters block, so they flush on a thread of their own, never a
    /// runtime worker; a thread still blocked when the process exits ends
    /// with it.
    pub(crate) async fn shutdown(self, within: Duration) {
        if !self.exports() {
            return;
        }
        let (done, flushed) = tokio::sync::oneshot::channel();
        let spawned = std::thread::Builder::new().name("telemetry-flush".into()).spawn(move || {
            self.flush_blocking(within);
            let _ = done.send(());
        });
        if let Err(e) = spawned {
            tracing::warn!("telemetry: no thread to flush the exporters on ({e}); unexported spans are lost");
            return;
        }
        // Flush and shutdown each get `within`; allow both, and a margin.
        if tokio::time::timeout(within * 2 + Duration::from_millis(500), flushed).await.is_err() {
            tracing::warn!(
                "telemetry: the exporters did not finish flushing within {} ms; unexported spans are lost",
                within.as_millis()
            );
        }
    }

    /// Flushes and stops each exporter, logging what failed.
    fn flush_blocking(self, within: Duration) {
        if let Some(t) = self.tracer {
            if let Err(e) = t.force_flush() {
                tracing::warn!("telemetry: flushing spans failed: {e}");
            }
            if let Err(e) = t.shutdown_with_timeout(within) {
                tracing::warn!("telemetry: stopping the span exporter failed: {e}");
            }
        }
        if let Some(m) = self.meter {
            if let Err(e) = m.force_flush() {
                tracing::warn!("telemetry: flushing metrics failed: {e}");
            }
            if let Err(e) = m.shutdown_with_timeout(within) {
                tracing::warn!("telemetry: stopping the metric exporter failed: {e}");
            }
        }
    }
}
