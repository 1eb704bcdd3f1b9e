//! The process's own figures over the last minutes, for the console's
//! charts: sampled from the runtime's metrics every [`EVERY`], the newest
//! [`KEPT`] kept.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use codemode_runtime::{CodeMode, HistogramSnapshot, MetricsSnapshot};

/// How often the figures are sampled.
pub(crate) const EVERY: Duration = Duration::from_secs(5);

/// Samples kept: ten minutes.
pub(crate) const KEPT: usize = 120;

/// One point of every chart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Point {
    /// Cells ended per second since the sample before.
    pub cells_per_s: f64,
    /// Median and 99th percentile of the windows (a cell's active time)
    /// that ended since the sample before, in ms (bucket upper bounds).
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Cells parked now.
    pub parked: f64,
    /// Approvals asked and not yet decided or expired.
    pub approvals_waiting: f64,
    /// Bytes of journal written since start.
    pub journal_bytes: f64,
    /// Nested calls that did not end `ok`, since the sample before.
    pub nested_errors: f64,
}

/// What a chart shows.
pub(crate) struct Series {
    pub title: &'static str,
    pub unit: &'static str,
    pub read: fn(&Point) -> f64,
}

/// Every chart, in the console's order.
pub(crate) const SERIES: &[Series] = &[
    Series { title: "cells/s", unit: "/s", read: |p| p.cells_per_s },
    Series { title: "window p50", unit: " ms", read: |p| p.p50_ms },
    Series { title: "window p99", unit: " ms", read: |p| p.p99_ms },
    Series { title: "parked runs", unit: "", read: |p| p.parked },
    Series { title: "approvals waiting", unit: "", read: |p| p.approvals_waiting },
    Series { title: "journal bytes written", unit: " B", read: |p| p.journal_bytes },
    Series { title: "nested-call errors", unit: "", read: |p| p.nested_errors },
];

/// The sampled points, oldest first.
#[derive(Default)]
pub(crate) struct Figures {
    points: Mutex<VecDeque<Point>>,
    /// The last sample's metrics: a page's point for "now" is measured
    /// from it.
    last: Mutex<Option<(Instant, MetricsSnapshot)>>,
}

impl Figures {
    /// Samples `rt` every [`EVERY`] until `stop` resolves.
    pub(crate) async fn sample(self: std::sync::Arc<Self>, rt: CodeMode, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        let mut last = (Instant::now(), rt.metrics());
        self.push(point(&last.1, &last.1, Duration::ZERO));
        self.remember(&last);
        let mut ticks = tokio::time::interval(EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            tokio::select! {
                () = &mut stop => return,
                _ = ticks.tick() => {}
            }
            let now = (Instant::now(), rt.metrics());
            self.push(point(&last.1, &now.1, now.0 - last.0));
            self.remember(&now);
            last = now;
        }
    }

    fn push(&self, p: Point) {
        let mut points = self.points.lock().unwrap_or_else(PoisonError::into_inner);
        if points.len() == KEPT {
            points.pop_front();
        }
        points.push_back(p);
    }

    fn remember(&self, sample: &(Instant, MetricsSnapshot)) {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(sample.clone());
    }

    /// The points, oldest first.
    pub(crate) fn points(&self) -> Vec<Point> {
        self.points.lock().unwrap_or_else(PoisonError::into_inner).iter().copied().collect()
    }

    /// The points, then one for now (measured from the last sample), so a
    /// page shows the present however recent the last sample is.
    pub(crate) fn points_and_now(&self, rt: &CodeMode) -> Vec<Point> {
        let mut points = self.points();
        let last = self.last.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some((at, before)) = last {
            points.push(point(&before, &rt.metrics(), at.elapsed()));
        }
        points
    }
}

fn ended(m: &MetricsSnapshot) -> u64 {
    m.cells_by_status.values().sum()
}

fn nested_errors(m: &MetricsSnapshot) -> u64 {
    m.nested_calls.iter().flat_map(|c| c.outcomes.iter()).filter(|(outcome, _)| *outcome != "ok").map(|(_, n)| n).sum()
}

/// The point between samples `before` and `now`, `elapsed` apart.
fn point(before: &MetricsSnapshot, now: &MetricsSnapshot, elapsed: Duration) -> Point {
    let secs = elapsed.as_secs_f64();
    let r = &now.runs;
    let decided = r.approvals_approved + r.approvals_denied + r.approvals_expired;
    let window = delta(&before.cell_active, &now.cell_active);
    #[allow(clippy::cast_precision_loss, reason = "chart figures")]
    Point {
        cells_per_s: if secs > 0.0 { ended(now).saturating_sub(ended(before)) as f64 / secs } else { 0.0 },
        p50_ms: quantile(&window, 0.5) * 1_000.0,
        p99_ms: quantile(&window, 0.99) * 1_000.0,
        parked: now.parked_cells as f64,
        approvals_waiting: r.approvals_requested.saturating_sub(decided) as f64,
        journal_bytes: r.journal_bytes as f64,
        nested_errors: nested_errors(now).saturating_sub(nested_errors(before)) as f64,
    }
}

/// What was observed between two snapshots of one histogram: per bucket
/// `(upper bound, count)`, cumulative as Prometheus keeps them.
fn delta(before: &HistogramSnapshot, now: &HistogramSnapshot) -> Vec<(f64, u64)> {
    now.buckets
        .iter()
        .map(|(bound, n)| {
            let old = before.buckets.iter().find(|(b, _)| b == bound).map_or(0, |(_, n)| *n);
            (*bound, n.saturating_sub(old))
        })
        .collect()
}

/// The upper bound of the bucket holding quantile `q` (0 when nothing
/// was observed).
fn quantile(cumulative: &[(f64, u64)], q: f64) -> f64 {
    let Some(&(_, total)) = cumulative.iter().max_by_key(|(_, n)| *n) else { return 0.0 };
    if total == 0 {
        return 0.0;
    }
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a rank")]
    let rank = ((total as f64) * q).ceil().max(1.0) as u64;
    cumulative.iter().find(|(_, n)| *n >= rank).map_or(0.0, |(bound, _)| if bound.is_finite() { *bound } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantile_is_the_bound_of_the_bucket_that_holds_it() {
        let buckets = [(0.001, 50), (0.01, 99), (0.1, 100), (f64::INFINITY, 100)];
        assert!((quantile(&buckets, 0.5) - 0.001).abs() < 1e-12);
        assert!((quantile(&buckets, 0.99) - 0.01).abs() < 1e-12);
        assert!((quantile(&buckets, 1.0) - 0.1).abs() < 1e-12);
        assert!(quantile(&[(0.001, 0)], 0.5).abs() < 1e-12, "nothing observed");
    }

    #[test]
    fn only_the_newest_samples_are_kept() {
        let figures = Figures::default();
        for i in 0..(KEPT + 5) {
            #[allow(clippy::cast_precision_loss, reason = "test values")]
            figures.push(Point { parked: i as f64, ..Point::default() });
        }
        let points = figures.points();
        assert_eq!(points.len(), KEPT);
        #[allow(clippy::cast_precision_loss, reason = "test values")]
        let first = 5.0_f64;
        assert!((points[0].parked - first).abs() < 1e-12);
    }
}
