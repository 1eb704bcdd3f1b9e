//! A cell's observation windows: the `exec` or `wait` call watching it now
//! (with its deadline), its parks, and the wake-ups and idle TTL it has
//! scheduled.

use std::time::Instant;

use codemode_protocol::CellResult;
use ractor::{ActorRef, RpcReplyPort};

use super::msg::{CellMsg, TimerTask, replace_timer};

/// One `exec` or `wait` call observing the cell.
pub(crate) struct Window {
    pub reply: RpcReplyPort<CellResult>,
    pub deadline: Instant,
    /// Where its output goes while it runs, if anywhere.
    pub stream: Option<crate::stream::Streaming>,
}

/// The window open now, the parks so far, and the scheduled wake-ups.
#[derive(Default)]
pub(crate) struct Windows {
    /// The window open now.
    pub current: Option<Window>,
    /// When the next wake-up is scheduled.
    wake_at: Option<Instant>,
    /// The pending wake-up and parked-TTL timers: aborted when replaced
    /// and when the cell ends, so an ended cell holds nothing for its TTL.
    wake_timer: Option<TimerTask>,
    ttl_timer: Option<TimerTask>,
    /// Numbers the parks: a message for an older park is stale.
    pub park_epoch: u64,
    /// The cell is parked now.
    pub parked: bool,
}

impl Windows {
    /// Whether a window is open.
    pub(crate) fn is_open(&self) -> bool {
        self.current.is_some()
    }

    /// The open window's deadline.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.current.as_ref().map(|w| w.deadline)
    }

    /// Schedules a `Wake` at `at`, unless one is due by then.
    pub(crate) fn schedule_wake(&mut self, myself: &ActorRef<CellMsg>, at: Instant) {
        if self.wake_at.is_some_and(|w| w <= at) {
            return;
        }
        self.wake_at = Some(at);
        let wake = myself.send_after(at.saturating_duration_since(Instant::now()), || CellMsg::Wake);
        replace_timer(&mut self.wake_timer, Some(wake));
    }

    /// The scheduled wake-up arrived.
    pub(crate) fn woken(&mut self) {
        self.wake_at = None;
    }

    /// A new park (numbered `park_epoch`): its idle TTL starts.
    pub(crate) fn start_park(&mut self, myself: &ActorRef<CellMsg>, ttl: std::time::Duration) {
        self.park_epoch += 1;
        let epoch = self.park_epoch;
        let expire = myself.send_after(ttl, move || CellMsg::Expire(epoch));
        replace_timer(&mut self.ttl_timer, Some(expire));
    }

    /// A window opens on the parked cell: the park's TTL stops.
    pub(crate) fn end_park(&mut self) {
        self.park_epoch += 1;
        replace_timer(&mut self.ttl_timer, None);
    }

    /// Whether `epoch` is the current park and no window is open.
    pub(crate) fn idle_in(&self, epoch: u64) -> bool {
        self.current.is_none() && epoch == self.park_epoch
    }

    /// The cell ends or leaves memory: nothing more is scheduled.
    pub(crate) fn cancel_timers(&mut self) {
        replace_timer(&mut self.wake_timer, None);
        replace_timer(&mut self.ttl_timer, None);
    }
}

impl Drop for Windows {
    fn drop(&mut self) {
        self.cancel_timers();
    }
}
