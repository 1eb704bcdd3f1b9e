//! The messages a cell's actor handles. Private to the crate: callers go
//! through the run index.

use codemode_protocol::CellResult;
use ractor::RpcReplyPort;

use super::end::Finalized;
use super::requests::Done;
use crate::cell::journaling::DurableMsg;

/// A message to a cell.
pub(crate) enum CellMsg {
    /// Run the first window.
    Start(RpcReplyPort<CellResult>),
    /// Open a new window on a parked cell, with decisions on its pending
    /// approvals.
    Wait(RpcReplyPort<CellResult>, Option<super::approvals::Decide>, Option<crate::stream::OutputStream>),
    /// End the cell as aborted.
    Abort(RpcReplyPort<CellResult>),
    /// End the cell quietly (the host no longer needs it).
    Dispose,
    /// A request's work finished (a tool call, a service request, a search).
    Done(u64, Done),
    /// A completing cell's reference and commit are done.
    Finalized(Finalized),
    /// An ending cell's end was recorded, or why not.
    EndRecorded(Result<(), crate::durable::EndNotRecorded>),
    /// A timer may be due, or the window's deadline may have passed.
    Wake,
    /// The parked cell's idle TTL ran out (for the park numbered `epoch`).
    Expire(u64),
    /// For the cell's durable side.
    Durable(DurableMsg),
}

/// A message scheduled with `send_after`.
pub(crate) type TimerTask = tokio::task::JoinHandle<Result<(), ractor::MessagingErr<CellMsg>>>;

/// Replaces the scheduled message in `slot`, aborting the one it held.
pub(crate) fn replace_timer(slot: &mut Option<TimerTask>, task: Option<TimerTask>) {
    if let Some(old) = std::mem::replace(slot, task) {
        old.abort();
    }
}
