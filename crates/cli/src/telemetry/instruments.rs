//! The OTLP instruments: every family of the metric catalogue that names an
//! OTLP instrument, observed from a fresh snapshot at each export.

use std::sync::Arc;

use codemode_runtime::{CodeMode, MetricsSnapshot};
use opentelemetry::KeyValue;
use opentelemetry::metrics::{AsyncInstrument, Meter};

use crate::metrics::catalogue::{CATALOGUE, Kind, Labels, Otlp, Read};

/// Registers an observable instrument on `meter` for each OTLP family of
/// the catalogue, reading `rt`'s metrics.
pub(super) fn register(meter: &Meter, rt: &CodeMode) {
    let rt = Arc::new(rt.clone());
    for metric in CATALOGUE {
        if let Some(otlp) = metric.otlp {
            instrument(meter, otlp, metric.read, Arc::clone(&rt));
        }
    }
}

/// One observable instrument: seconds as an `f64` gauge in `s`, anything
/// else as a `u64` counter or gauge.
fn instrument(meter: &Meter, otlp: Otlp, read: Read, rt: Arc<CodeMode>) {
    match (read, otlp.kind) {
        (Read::Seconds(seconds), _) => {
            meter
                .f64_observable_gauge(otlp.name)
                .with_unit("s")
                .with_description(otlp.help)
                .with_callback(move |o| {
                    for (labels, secs) in seconds(&rt.metrics()) {
                        o.observe(secs, &key_values(labels));
                    }
                })
                .build();
        }
        (_, Kind::Counter) => {
            meter
                .u64_observable_counter(otlp.name)
                .with_description(otlp.help)
                .with_callback(move |o| observe(o, read, &rt.metrics()))
                .build();
        }
        (_, Kind::Gauge) => {
            meter
                .u64_observable_gauge(otlp.name)
                .with_description(otlp.help)
                .with_callback(move |o| observe(o, read, &rt.metrics()))
                .build();
        }
        // The catalogue gives OTLP no histogram.
        (_, Kind::Histogram) => {}
    }
}

/// Observes the `u64` samples `read` takes from `s`.
fn observe(o: &dyn AsyncInstrument<u64>, read: Read, s: &MetricsSnapshot) {
    match read {
        Read::Value(value) => o.observe(value(s), &[]),
        Read::Maybe(value) => {
            if let Some(n) = value(s) {
                o.observe(n, &[]);
            }
        }
        Read::ByLabel(label, map) => {
            for (value, n) in map(s) {
                o.observe(*n, &[KeyValue::new(label, value.clone())]);
            }
        }
        Read::Labelled(samples) => {
            for (labels, n) in samples(s) {
                o.observe(n, &key_values(labels));
            }
        }
        // Not `u64` samples: seconds have an instrument of their own, and
        // the catalogue gives OTLP no histogram.
        Read::Seconds(_) | Read::Histogram(_) | Read::Histograms(_) => {}
    }
}

/// A sample's labels as OpenTelemetry attributes.
fn key_values(labels: Labels) -> Vec<KeyValue> {
    labels.into_iter().map(|(key, value)| KeyValue::new(key, value)).collect()
}
