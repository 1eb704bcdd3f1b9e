//! The messages a cell's durable side sends itself: a journal write done,
//! a lease to renew or hand off, an idle run to evict.

use std::sync::Arc;
use std::time::Duration;

/// A message for the cell's durable side, delivered through its actor.
pub(crate) enum DurableMsg {
    /// The hand-off delay of the park numbered `epoch` passed: release the
    /// lease.
    HandOff(u64),
    /// Idle long enough after the park numbered `epoch`: leave memory.
    Evict(u64),
    /// Another process took the run's lease: this copy is stale.
    LeaseLost,
    /// Time to renew the run's lease.
    Renew,
    /// A journal write stored every request up to this id: held requests
    /// (not replay-safe, write-ahead) may start.
    Journaled(u64),
    /// The write-ahead of held requests up to this id failed: they are
    /// rejected, not started.
    WriteAheadFailed(u64, String),
    /// The journal write of staged decisions finished: they take effect,
    /// or (an error) are taken back.
    Decided(Result<(), String>),
    /// The runtime is stopping: hand a held lease over.
    ReleaseForShutdown(ractor::RpcReplyPort<()>),
    /// The run whose engine process failed is handed over to its journal
    /// (stored, or the write failed and its lease runs out): it leaves
    /// memory now.
    HandedOver,
    /// The window open on a run being handed over reached this deadline
    /// while the journal's store had not yet answered.
    HandOverOverdue(std::time::Instant),
    /// The record of a run that went memory only is marked so (or could
    /// not be): held requests may start (or are rejected).
    Marked(Result<(), super::WriteError>),
    /// A journal write would have passed a journal quota: the run ends.
    OverQuota(String),
    /// The park's write could not make the run durable: the run ends,
    /// answering the park's observer.
    ParkRefused(ractor::RpcReplyPort<codemode_protocol::CellResult>, super::ParkRefusal),
}

/// Sends the cell's durable side a message, now or later. The cell may
/// have ended meanwhile; then nobody needs it.
#[derive(Clone)]
pub(crate) struct Mailbox(Arc<dyn Fn(DurableMsg) + Send + Sync>);

/// A message scheduled for later; aborted when replaced or dropped with
/// the cell's durable side.
pub(crate) type Scheduled = tokio::task::JoinHandle<()>;

impl Mailbox {
    /// A mailbox delivering through `send`.
    pub(crate) fn new(send: impl Fn(DurableMsg) + Send + Sync + 'static) -> Self {
        Self(Arc::new(send))
    }

    /// Sends `msg` now.
    pub(crate) fn send(&self, msg: DurableMsg) {
        (self.0)(msg);
    }

    /// Sends the message `make` builds after `delay`.
    pub(crate) fn after(&self, delay: Duration, make: impl FnOnce() -> DurableMsg + Send + 'static) -> Scheduled {
        let send = Arc::clone(&self.0);
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            send(make());
        })
    }
}

/// Replaces the scheduled message in `slot`, aborting the one it held.
pub(crate) fn reschedule(slot: &mut Option<Scheduled>, next: Option<Scheduled>) {
    if let Some(old) = std::mem::replace(slot, next) {
        old.abort();
    }
}
