//! Run events: what happens to runs, as a stream for the embedding host —
//! a cell parked (and why), output it emitted, a call asked for approval,
//! an approval decided, an MCP call running as a task and its end, a run
//! ended. A host that notifies people of pending approvals,
//! or keeps its own view of runs, subscribes instead of polling.
//!
//! Events are a broadcast: every subscriber gets every event of this
//! process from the moment it subscribed. The feed is bounded
//! ([`EVENTS_BUFFERED`] per subscriber); a subscriber that falls further
//! behind is told how many it missed ([`RunEventError::Lagged`]) and goes
//! on with the newest — runs never wait for a slow subscriber. Events carry
//! the run's session: a host serving several clients must filter by it
//! before showing one client anything (they are the host's view, not a
//! client's). A run resumed on another process reports there.

use std::sync::{Arc, PoisonError, RwLock};

use codemode_protocol::{PendingApproval, RunEnd, Verdict, WaitReason};
use tokio::sync::broadcast;

/// Events a subscriber may fall behind by before it misses some.
pub const EVENTS_BUFFERED: usize = 1024;

/// One thing that happened to a run.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum RunEvent {
    /// The cell parked: its window returned `waiting` (emitted once the
    /// park's journal write is over, just before the answer; a park that
    /// answers otherwise, its run ended or moved, emits none).
    Parked {
        /// The run.
        run_id: String,
        /// Its session (none for headless cells, which never park).
        session: Option<String>,
        /// Why.
        reason: WaitReason,
        /// The calls waiting for a decision.
        pending_approvals: Vec<PendingApproval>,
    },
    /// A nested call asked for approval. Emitted once the run's record
    /// holds the approval (a journal write with it pending was stored;
    /// before the `Parked` event that write answers), or as it is asked
    /// when no record will (a run with no journal, or gone memory only):
    /// a decision is taken only on an id the run's record holds, and a
    /// run resumed from an older record asks about the call again under a
    /// new id. A store that never takes the write means no event, as it
    /// means no `waiting` answer showing the approval.
    ApprovalRequested {
        /// The run.
        run_id: String,
        /// Its session.
        session: Option<String>,
        /// The pending approval, as `waiting` lists it.
        approval: PendingApproval,
    },
    /// An approval was decided, or expired (none for one never announced:
    /// it expired before any record held it).
    ApprovalDecided {
        /// The run.
        run_id: String,
        /// Its session.
        session: Option<String>,
        /// The approval's id.
        approval: String,
        /// What was decided.
        verdict: Verdict,
        /// Who: the principal, `session`, `operator`, or `ttl`.
        by: String,
        /// Which kind of decider (none for decisions journaled by builds
        /// that did not record it).
        kind: Option<codemode_protocol::DeciderKind>,
    },
    /// The guest emitted output (`text`, `json`, console) while a window
    /// ran: the new entries, in order. A preview, as a window's
    /// [`OutputStream`](crate::OutputStream) gets it: the result carries
    /// the output in full, within the cell's budget.
    Output {
        /// The run.
        run_id: String,
        /// Its session.
        session: Option<String>,
        /// The entries.
        entries: Vec<codemode_protocol::OutputEntry>,
    },
    /// An MCP call of the run is running as a task at its server.
    TaskStarted {
        /// The run.
        run_id: String,
        /// Its session.
        session: Option<String>,
        /// The MCP server's configured name.
        server: String,
        /// The raw tool name.
        tool: String,
        /// The server's task id.
        task_id: String,
    },
    /// A call that ran as an MCP task settled (with the task's result or
    /// error).
    TaskFinished {
        /// The run.
        run_id: String,
        /// Its session.
        session: Option<String>,
        /// The MCP server's configured name.
        server: String,
        /// The server's task id.
        task_id: String,
    },
    /// The run ended.
    Ended {
        /// The run.
        run_id: String,
        /// Its session.
        session: Option<String>,
        /// How.
        end: RunEnd,
    },
}

/// Why [`RunEvents::recv`] returned no event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunEventError {
    /// The subscriber fell behind: this many events were dropped for it;
    /// the next `recv` returns the oldest kept.
    #[error("{0} run events were missed: the subscriber fell behind")]
    Lagged(u64),
    /// The runtime is gone.
    #[error("the runtime stopped")]
    Closed,
}

/// A subscription to run events ([`CodeMode::run_events`](crate::CodeMode::run_events)).
#[derive(Debug)]
pub struct RunEvents(broadcast::Receiver<RunEvent>);

impl RunEvents {
    /// The next event.
    ///
    /// # Errors
    /// [`RunEventError::Lagged`] when events were dropped for this
    /// subscriber; [`RunEventError::Closed`] once the runtime is gone.
    pub async fn recv(&mut self) -> Result<RunEvent, RunEventError> {
        self.0.recv().await.map_err(|e| match e {
            broadcast::error::RecvError::Lagged(n) => RunEventError::Lagged(n),
            broadcast::error::RecvError::Closed => RunEventError::Closed,
        })
    }
}

/// Where cells report events; cheap to clone.
/// The sending side, shared by every part of the runtime that reports.
/// One sender behind a shared slot: closing the feed (the runtime shut down
/// or dropped) ends every subscription at once, however many clones of the
/// feed the runtime's parts still hold while they wind down.
#[derive(Clone, Debug)]
pub(crate) struct EventFeed(Arc<RwLock<Option<broadcast::Sender<RunEvent>>>>);

impl Default for EventFeed {
    fn default() -> Self {
        Self(Arc::new(RwLock::new(Some(broadcast::channel(EVENTS_BUFFERED).0))))
    }
}

impl EventFeed {
    fn sender(&self) -> std::sync::RwLockReadGuard<'_, Option<broadcast::Sender<RunEvent>>> {
        self.0.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new subscription; after [`close`](Self::close), one that is
    /// already closed.
    pub(crate) fn subscribe(&self) -> RunEvents {
        match &*self.sender() {
            Some(sender) => RunEvents(sender.subscribe()),
            None => RunEvents(broadcast::channel(1).1),
        }
    }

    /// Sends the event `make` builds, when anyone listens.
    pub(crate) fn emit(&self, make: impl FnOnce() -> RunEvent) {
        if let Some(sender) = &*self.sender()
            && sender.receiver_count() > 0
        {
            // Only fails when every receiver went away meanwhile.
            let _ = sender.send(make());
        }
    }

    /// Ends every subscription: each gets what was sent, then
    /// [`RunEventError::Closed`].
    pub(crate) fn close(&self) {
        self.0.write().unwrap_or_else(PoisonError::into_inner).take();
    }
}
