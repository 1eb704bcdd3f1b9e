//! The benchmark's statistics and report rows: nearest-rank quantiles of
//! millisecond samples, the process's resident memory, and one table row.

use std::time::Duration;

use serde::Serialize;

/// Quantiles of samples in milliseconds (nearest rank, as the reference).
#[derive(Clone, Copy, Debug, Serialize)]
pub(super) struct Quantiles {
    pub(super) n: usize,
    pub(super) min: f64,
    pub(super) p50: f64,
    pub(super) p90: f64,
    pub(super) p99: f64,
    pub(super) max: f64,
}

pub(super) fn quantiles(samples: &[f64]) -> Quantiles {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let q = |p: f64| {
        if sorted.is_empty() {
            return f64::NAN;
        }
        let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    };
    Quantiles {
        n: sorted.len(),
        min: sorted.first().copied().unwrap_or(f64::NAN),
        p50: q(0.5),
        p90: q(0.9),
        p99: q(0.99),
        max: sorted.last().copied().unwrap_or(f64::NAN),
    }
}

/// `d` in milliseconds.
pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The process's resident set size, in bytes.
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    pages * 4096
}

/// The resident set size after a short pause, so freed memory settles.
pub(super) async fn settled_rss() -> u64 {
    tokio::time::sleep(Duration::from_millis(300)).await;
    rss_bytes()
}

/// Prints one scenario's quantiles as a table row; nothing when it did
/// not run.
pub(super) fn row(name: &str, q: &Quantiles) {
    if q.n == 0 {
        return;
    }
    println!("{name:<34} {:>10.3} {:>10.3} {:>10.3} {:>10.3}   n={}", q.min, q.p50, q.p90, q.p99, q.n);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_use_the_nearest_rank_like_the_reference() {
        let q = quantiles(&[5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!((q.min, q.p50, q.p90, q.p99, q.max, q.n), (1.0, 3.0, 5.0, 5.0, 5.0, 5));
        let q = quantiles(&(1..=100).map(f64::from).collect::<Vec<_>>());
        assert_eq!((q.p50, q.p90, q.p99), (50.0, 90.0, 99.0));
    }
}
