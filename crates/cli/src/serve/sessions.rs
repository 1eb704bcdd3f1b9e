//! How many MCP sessions `serve` has, for `/metrics`
//! (`codemode_mcp_sessions{state}`): *open* while the client is connected
//! (stdio is one session; over HTTP, one per MCP session), then *closing*
//! from the moment it goes away until its dispose grace has passed and its
//! cells and results are released. Process-wide, like the process metrics:
//! one process serves one transport.

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
