//! `setTimeout` (GA-5) and `yield_control`: host-side timers and yields.

use std::time::Instant;

use crate::cell::CellState;

impl CellState {
    pub(super) fn timer(&mut self, id: u64, delay_ms: u64, now: Instant) -> usize {
        self.telemetry.timer_count += 1;
        self.host.add_timer(id, delay_ms, now);
        0
    }

    pub(super) fn yield_control(&mut self, id: u64, reason: Option<String>) -> usize {
        self.telemetry.yield_count += 1;
        self.host.add_yield(id, reason);
        0
    }
}
