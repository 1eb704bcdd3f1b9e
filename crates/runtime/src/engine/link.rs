//! The guest link: what one cell's native functions record for its host —
//! requests made, timers cleared, output emitted, the outcome — shared
//! between the cell's actor and the functions installed in its context.
//!
//! Native functions run synchronously on the cell's JS thread, inside a
//! step; they record what the guest asked for here, and the actor acts on
//! it when the step returns. The mutex is never contended: both sides run on
//! the same thread, one after the other (it exists because the QuickJS
//! runtime must be `Send`).

use codemode_protocol::OutputEntry;

use super::determinism::Determinism;
use super::host::Admission;
use super::output::PendingOutput;

/// A guest error, as the prelude described it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum GuestError {
    /// An `Error` object.
    /// `bridge`: an error a host request rejected with (a failed tool
    /// call) that the cell did not catch.
    Error { name: String, message: String, stack: String, bridge: bool },
    /// Any other thrown value, rendered as text.
    Thrown(String),
    /// A bare `null` or `undefined` (`value`): thrown by the cell, or what
    /// the engine throws when it runs out of memory. `building_value`: it
    /// escaped while the final value was being copied.
    Bare { value: String, building_value: bool },
}

/// How the cell's top-level promise settled.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Outcome {
    /// Resolved; the projected value, converted.
    Value(serde_json::Value),
    /// Rejected.
    Error(GuestError),
}

/// Which admission bound a request exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum AdmissionLimit {
    /// The in-flight plus queued bound of ordinary requests.
    Queue,
    /// The live-timer bound.
    Timers,
}

impl AdmissionLimit {
    /// The metrics label (`admission_rejections{reason}`).
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Queue => "queue_limit",
            Self::Timers => "timer_limit",
        }
    }
}

/// A sticky admission failure: the cell fails even if the guest catches it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct AdmissionError {
    pub limit: AdmissionLimit,
    pub message: String,
}

impl AdmissionError {
    /// Throws it in the guest: a plain `Error` for the queue, a
    /// `RangeError` for timers.
    pub(crate) fn throw(&self, ctx: &rquickjs::Ctx<'_>) -> rquickjs::Error {
        match self.limit {
            AdmissionLimit::Queue => rquickjs::Exception::throw_message(ctx, &self.message),
            AdmissionLimit::Timers => rquickjs::Exception::throw_range(ctx, &self.message),
        }
    }
}

/// Admission bounds copied from the limits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub max_in_flight: usize,
    pub max_queued: usize,
    pub max_timers: usize,
    /// The cell's output budget: at most this much pending output is kept.
    pub max_output_bytes: usize,
}

/// State shared with the native functions of one cell.
#[derive(Debug)]
pub(crate) struct GuestLink<R> {
    bounds: Bounds,
    next_id: u64,
    /// Requests made during the current step, with their ids.
    pub submitted: Vec<(u64, R)>,
    /// Timers cleared during the current step.
    pub cancelled: Vec<u64>,
    /// Output entries not yet delivered to an observer.
    pub output: PendingOutput,
    /// Set once, when the top-level promise settles.
    pub outcome: Option<Outcome>,
    /// Set once, when an admission bound is exceeded.
    pub admission: Option<AdmissionError>,
    /// Tool calls started or queued and not yet settled.
    pub outstanding_calls: usize,
    /// Timers started and not yet fired or cleared.
    live_timers: std::collections::HashSet<u64>,
    /// UTF-16 units of serialized console entries so far (GA-4.7).
    console_units: usize,
    /// The console marker was emitted and not yet counted in metrics.
    pub console_marker_emitted: bool,
    /// The guest read network-derived metadata synchronously.
    pub network: bool,
    /// The clock, `Math.random` and configuration reads, recorded and
    /// replayed.
    pub determinism: Determinism,
    /// Where the compiled source's positions are in the cell as written
    /// (a tool error's call site is reported there).
    pub positions: crate::source::Positions,
}

/// The cumulative console budget of a cell, in UTF-16 units of serialized
/// entries (GA-4.7).
pub(crate) const CONSOLE_BUDGET_UNITS: usize = 16_384;
/// Room kept for the truncation marker: an entry that would end within it
/// is replaced by the marker.
const CONSOLE_MARKER_ROOM: usize = 100;
/// The one entry that replaces console output past its budget.
pub(crate) const CONSOLE_TRUNCATED: &str = "[console output truncated]";

impl<R> GuestLink<R> {
    pub(crate) fn new(bounds: Bounds) -> Self {
        Self {
            bounds,
            next_id: 1,
            submitted: Vec::new(),
            cancelled: Vec::new(),
            output: PendingOutput::new(bounds.max_output_bytes),
            outcome: None,
            admission: None,
            outstanding_calls: 0,
            live_timers: std::collections::HashSet::new(),
            console_units: 0,
            console_marker_emitted: false,
            network: false,
            determinism: Determinism::new(),
            positions: crate::source::Positions::default(),
        }
    }

    fn next_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Records a console line within the cumulative console budget; returns
    /// whether console output is still open. Past the budget, exactly one
    /// marker entry replaces the line and later lines are dropped, across
    /// every later window too (GA-4.7).
    pub(crate) fn emit_console(&mut self, text: String) -> bool {
        if self.console_units >= CONSOLE_BUDGET_UNITS {
            return false;
        }
        let entry = OutputEntry::Text { text };
        let units = codemode_protocol::budget::utf16_len(&serde_json::to_string(&entry).unwrap_or_default());
        if self.console_units + units > CONSOLE_BUDGET_UNITS - CONSOLE_MARKER_ROOM {
            self.console_units = CONSOLE_BUDGET_UNITS;
            self.console_marker_emitted = true;
            self.output.push(OutputEntry::text(CONSOLE_TRUNCATED));
            return false;
        }
        self.console_units += units;
        self.output.push(entry);
        true
    }

    /// Admits a request under its bound and returns its id, or records
    /// the sticky admission error.
    pub(crate) fn submit(&mut self, request: R, admission: Admission) -> Result<u64, AdmissionError> {
        match admission {
            Admission::Ordinary => {
                let capacity = self.bounds.max_in_flight + self.bounds.max_queued;
                if self.outstanding_calls >= capacity {
                    return Err(self.refuse(AdmissionLimit::Queue, format!(
                        "code mode bridge queue limit exceeded ({} requests queued; {} in-flight slots). \
                         Await smaller batches (for example Promise.all over chunks of {}) before starting more tool calls.",
                        self.bounds.max_queued, self.bounds.max_in_flight, self.bounds.max_in_flight
                    )));
                }
                self.outstanding_calls += 1;
            }
            Admission::Timer => {
                if self.live_timers.len() >= self.bounds.max_timers {
                    return Err(self.refuse(AdmissionLimit::Timers, format!(
                        "code mode timer limit exceeded ({} live timers). Await or clear timers before creating more.",
                        self.bounds.max_timers
                    )));
                }
            }
            Admission::Yield => {}
        }
        let id = self.next_id();
        if admission == Admission::Timer {
            self.live_timers.insert(id);
        }
        self.submitted.push((id, request));
        Ok(id)
    }

    fn refuse(&mut self, limit: AdmissionLimit, message: String) -> AdmissionError {
        let err = AdmissionError { limit, message };
        self.admission.get_or_insert(err.clone());
        err
    }

    /// Takes the requests made and timers cleared that an engine in a
    /// worker reported for one step, counting them under the same bounds
    /// [`submit`](Self::submit) keeps: an engine admits no more, so a
    /// report past them is a worker that lies. Within a step only the
    /// report's order of kinds is known, not how timers made and cleared
    /// interleaved, so live timers are bounded where the step ended.
    ///
    /// # Errors
    /// The bound the report exceeds; nothing is taken then.
    pub(crate) fn take_reported(
        &mut self,
        made: Vec<(u64, R)>,
        cleared: Vec<u64>,
        admission: impl Fn(&R) -> Admission,
    ) -> Result<(), String> {
        let ordinary = made.iter().filter(|(_, r)| admission(r) == Admission::Ordinary).count();
        let capacity = self.bounds.max_in_flight + self.bounds.max_queued;
        if self.outstanding_calls + ordinary > capacity {
            return Err(format!(
                "it reported {ordinary} requests with {} outstanding, past the {capacity} its engine admits",
                self.outstanding_calls
            ));
        }
        // Cleared as `cancel_timer` clears: a timer live before the step or
        // made in it is freed and passed on, once.
        let mut live = self.live_timers.clone();
        live.extend(made.iter().filter(|(_, r)| admission(r) == Admission::Timer).map(|(id, _)| *id));
        let cleared: Vec<u64> = cleared.into_iter().filter(|id| live.remove(id)).collect();
        if live.len() > self.bounds.max_timers {
            return Err(format!(
                "it reported {} live timers, past the {} its engine admits",
                live.len(),
                self.bounds.max_timers
            ));
        }
        self.outstanding_calls += ordinary;
        self.live_timers = live;
        self.cancelled.extend(cleared);
        self.submitted.extend(made);
        Ok(())
    }

    /// `clearTimeout` of a live timer: frees its slot at once.
    pub(crate) fn cancel_timer(&mut self, id: u64) {
        if self.live_timers.remove(&id) {
            self.cancelled.push(id);
        }
    }

    /// A timer fired: frees its slot.
    pub(crate) fn timer_fired(&mut self, id: u64) {
        self.live_timers.remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request as the link sees it: only its admission matters here.
    type Request = &'static str;

    fn link() -> GuestLink<Request> {
        GuestLink::new(Bounds { max_in_flight: 2, max_queued: 1, max_timers: 2, max_output_bytes: 1 << 20 })
    }

    #[test]
    fn calls_are_admitted_up_to_in_flight_plus_queued_and_then_refused_stickily() {
        let mut b = link();
        for _ in 0..3 {
            b.submit("call", Admission::Ordinary).unwrap();
        }
        let err = b.submit("call", Admission::Ordinary).unwrap_err();
        assert!(err.message.contains("queue limit exceeded (1 requests queued; 2 in-flight slots)"), "{}", err.message);
        assert_eq!(err.limit, AdmissionLimit::Queue);
        assert_eq!(b.admission, Some(err));
    }

    #[test]
    fn console_output_past_its_budget_becomes_exactly_one_marker() {
        let mut b = link();
        let mut open = true;
        let mut calls = 0;
        while open {
            open = b.emit_console(String::new());
            calls += 1;
        }
        // Each empty entry `{"type":"text","text":""}` costs 25 units.
        assert_eq!(calls, (CONSOLE_BUDGET_UNITS - CONSOLE_MARKER_ROOM) / 25 + 1);
        let entries = b.output.entries().unwrap();
        assert_eq!(entries.last(), Some(&OutputEntry::text(CONSOLE_TRUNCATED)));
        assert!(!b.emit_console("after".into()));
        let entries = b.output.entries().unwrap();
        assert_eq!(entries.iter().filter(|e| **e == OutputEntry::text(CONSOLE_TRUNCATED)).count(), 1);
    }

    #[test]
    fn timers_are_admitted_up_to_their_own_bound() {
        let mut b = link();
        let first = b.submit("timer", Admission::Timer).unwrap();
        b.submit("timer", Admission::Timer).unwrap();
        assert_eq!(b.submit("timer", Admission::Timer).map_err(|e| e.limit), Err(AdmissionLimit::Timers));
        b.admission = None;
        b.cancel_timer(first);
        assert!(b.submit("timer", Admission::Timer).is_ok(), "a cleared timer frees its slot");
        assert_eq!(b.outstanding_calls, 0, "timers take no tool slots");
    }

    fn kind(r: &Request) -> Admission {
        match *r {
            "timer" => Admission::Timer,
            "yield" => Admission::Yield,
            _ => Admission::Ordinary,
        }
    }

    #[test]
    fn a_workers_report_is_taken_up_to_the_admission_bounds_and_refused_one_past_them() {
        // Exactly at in-flight plus queued (3), across two reports.
        let mut b = link();
        b.take_reported(vec![(1, "call"), (2, "call"), (3, "yield")], vec![], kind).unwrap();
        b.take_reported(vec![(4, "call")], vec![], kind).unwrap();
        assert_eq!(b.outstanding_calls, 3);
        // One over: refused, and nothing of the report is taken.
        let err = b.take_reported(vec![(5, "call"), (6, "timer")], vec![], kind).unwrap_err();
        assert!(err.contains("1 requests with 3 outstanding, past the 3"), "{err}");
        assert_eq!((b.submitted.len(), b.outstanding_calls, b.live_timers.len()), (4, 3, 0));
        // A settled call frees its slot, as in process.
        b.outstanding_calls -= 1;
        b.take_reported(vec![(5, "call")], vec![], kind).unwrap();
    }

    #[test]
    fn a_workers_timers_are_bounded_where_its_step_ended_and_clears_are_passed_on_once() {
        let mut b = link();
        // Set, set, clear the first, set: two live at the end (the bound).
        b.take_reported(vec![(1, "timer"), (2, "timer"), (3, "timer")], vec![1, 1, 99], kind).unwrap();
        assert_eq!(b.cancelled, vec![1], "an unknown or repeated clear is not passed on");
        assert_eq!(b.live_timers.len(), 2);
        // A third live timer is one past the bound.
        let err = b.take_reported(vec![(4, "timer")], vec![], kind).unwrap_err();
        assert!(err.contains("3 live timers, past the 2"), "{err}");
        b.timer_fired(2);
        b.take_reported(vec![(4, "timer")], vec![], kind).unwrap();
    }
}
