//! The process-wide counters `/metrics` and the OTLP export read: MCP
//! sessions (`codemode_mcp_sessions{state}`) and failed OTLP exports.
//! They live here, beside the catalogue that reads them, so the metrics
//! read nothing of the parts that count (no module cycle).

use std::sync::atomic::{AtomicU64, Ordering};

/// Failed exports since start, by signal (`/metrics`:
/// `codemode_otlp_export_failures_total{signal}`).
static FAILURES: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
/// Spans in exports that failed: lost (`codemode_otlp_spans_lost_total`).
static SPANS_LOST: AtomicU64 = AtomicU64::new(0);

/// The signals, in the order of [`FAILURES`] (and of `export_failed`).
pub(crate) const SIGNALS: [&str; 2] = ["spans", "metrics"];

/// Failed exports since start per signal, every signal listed.
pub(crate) fn failures() -> [(&'static str, u64); 2] {
    [0, 1].map(|i| (SIGNALS[i], FAILURES[i].load(Ordering::Relaxed)))
}

/// Spans lost in failed exports since start.
pub(crate) fn spans_lost() -> u64 {
    SPANS_LOST.load(Ordering::Relaxed)
}

/// Counts a failed export of signal `i` (the order of [`SIGNALS`]).
pub(crate) fn export_failed(i: usize) {
    FAILURES[i].fetch_add(1, Ordering::Relaxed);
}

/// Counts spans lost in a failed export.
pub(crate) fn spans_lost_add(spans: u64) {
    SPANS_LOST.fetch_add(spans, Ordering::Relaxed);
}

/// How many MCP sessions `serve` has (`codemode_mcp_sessions{state}`):
/// *open* while the client is connected (stdio is one session; over HTTP,
/// one per MCP session), then *closing* from the moment it goes away until
/// its dispose grace has passed and its cells and results are released.
/// Process-wide, like the process metrics: one process serves one
/// transport.
pub(crate) mod sessions {
    use std::sync::atomic::{AtomicU64, Ordering};

    static OPEN: AtomicU64 = AtomicU64::new(0);
    static CLOSING: AtomicU64 = AtomicU64::new(0);

    /// The MCP sessions now: `(open, closing)`.
    pub(crate) fn counts() -> (u64, u64) {
        (OPEN.load(Ordering::Relaxed), CLOSING.load(Ordering::Relaxed))
    }

    /// Counts one session as open while it lives.
    #[derive(Debug)]
    pub(crate) struct Open(());

    impl Open {
        /// A session opened.
        pub(crate) fn new() -> Self {
            OPEN.fetch_add(1, Ordering::Relaxed);
            Self(())
        }

        /// The client went away: the session counts as closing until the
        /// returned guard drops.
        pub(crate) fn close(self) -> Closing {
            CLOSING.fetch_add(1, Ordering::Relaxed);
            Closing(())
        }
    }

    impl Drop for Open {
        fn drop(&mut self) {
            OPEN.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Counts one session as closing while it lives: held by the task that
    /// disposes of the session after the grace, so a task dropped unfinished
    /// (the runtime stopping) uncounts it too.
    #[derive(Debug)]
    pub(crate) struct Closing(());

    impl Drop for Closing {
        fn drop(&mut self) {
            CLOSING.fetch_sub(1, Ordering::Relaxed);
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_session_is_open_then_closing_then_gone() {
            // Other tests of this binary may hold sessions: compare deltas.
            let (open, closing) = counts();
            let session = Open::new();
            assert_eq!(counts(), (open + 1, closing));
            let closing_guard = session.close();
            assert_eq!(counts(), (open, closing + 1));
            drop(closing_guard);
            assert_eq!(counts(), (open, closing));
        }
    }
}
