//! Host work of one cell: host requests in flight and queued, timers, yields.
//!
//! Everything here runs on the cell's JS thread. Every request that runs
//! as host work — a native tool call, an MCP call or operation, a node
//! command, a search, `store`/`load`, `results` — takes one of the cell's
//! `max_in_flight` slots, and past them waits in one FIFO queue (GA-6
//! limits, as in the reference, where every bridge request shares the
//! slots). A request that leaves the cell reaches the queue only through
//! the gate (`requests/gate.rs`). A native tool call's future is polled
//! once inline — a tool that answers immediately settles without any task
//! or message — and otherwise spawned as a task on the same thread's
//! runtime, which messages the cell when done; every other request runs as
//! a task from the start.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use codemode_catalog::policy::Policy;
use codemode_protocol::{PendingCall, Telemetry};
use serde_json::{Value, json};

use super::gate::Gate;
use super::outbound::{Approval, GatedFuture};
use super::{Completion, Fault, Settlement};
use crate::cell::pending::{PendingCounters, PendingId, PendingKind};
use crate::cell::tools::ToolTable;
use crate::telemetry::{Counted, Metrics};

/// A started call whose future is still running.
struct InFlight {
    pending_id: PendingId,
    task: tokio::task::AbortHandle,
    /// It was held for a write-ahead (not replay-safe).
    held: bool,
}

struct Queued {
    id: u64,
    pending_id: PendingId,
    /// What runs when a slot frees; it reports to the cell when done.
    work: GatedFuture,
    /// Polled once when it starts: it may settle in the same step.
    inline: bool,
    /// Not replay-safe, in a run that has a journal: it starts only once a
    /// stored journal records it (write-ahead), so a crash can never make
    /// a replay run it again — the replay finds it in flight and answers
    /// `outcome_unknown`.
    hold: bool,
    /// Calls (native, MCP, node) count in `nested_calls_queued` until
    /// started or dropped.
    _queued: Option<Counted>,
}

/// How a request is queued: [`HostWork::submit`].
pub(crate) struct Submit {
    pub id: u64,
    pub kind: PendingKind,
    /// A call: counted in `nested_calls_queued` while it waits.
    pub counted: bool,
    /// Held until a stored journal records it (write-ahead).
    pub hold: bool,
    /// Polled once when it starts (a native tool that may answer at once).
    pub inline: bool,
}

/// Aborts every spawned tool task when the cell's state is dropped, however
/// the cell ends (including a panic in its actor).
#[derive(Default)]
struct SpawnedCalls(HashMap<u64, InFlight>);

impl Drop for SpawnedCalls {
    fn drop(&mut self) {
        for call in self.0.values() {
            call.task.abort();
        }
    }
}

/// Outstanding host work and settled results waiting for delivery.
pub(crate) struct HostWork {
    /// Counts queued calls (`nested_calls_queued`).
    metrics: Arc<Metrics>,
    /// The gate's policy, span and metrics part.
    gate: Gate,
    tools: ToolTable,
    max_in_flight: usize,
    /// Every request holding a slot, native or not.
    in_flight: SpawnedCalls,
    queue: VecDeque<Queued>,
    timers: BinaryHeap<Reverse<(Instant, u64)>>,
    live_timers: HashMap<u64, PendingId>,
    yields: Vec<(u64, PendingId, Option<String>)>,
    /// Settled, not yet delivered to the guest.
    pub ready: Vec<Settlement>,
    counters: PendingCounters,
    /// Where finished work reports.
    completion: Completion,
    /// What the cell's requests have done so far (GA-1 telemetry).
    telemetry: Telemetry,
    /// The cell is `restartSafe`: it may only call replay-safe tools.
    restart_safe: bool,
    /// Why a restart-safe cell must fail: it asked for something a replay
    /// could repeat. Sticky, so a guest that catches the rejection still
    /// fails (`invalid_input`).
    refusal: Option<String>,
    /// Requests up to this id are in a stored journal: held ones up to it
    /// may start.
    journaled: u64,
    /// A held request settled since the last journal write: writing its
    /// answer keeps a crash from turning a finished call into
    /// `outcome_unknown`.
    held_settled: bool,
    /// Where calls restored by a replay stand with approvals (absent: a
    /// fresh call, put to the policy).
    approvals: HashMap<u64, Approval>,
    /// Calls in flight that wait on a decision, not on work: a run whose
    /// only calls are these is quiescent (it may hand off and leave memory).
    deciding: HashSet<u64>,
}

/// How a cell's host work is set up.
pub(crate) struct HostSetup {
    pub tools: ToolTable,
    pub max_in_flight: usize,
    pub metrics: Arc<Metrics>,
    /// The cell's span: each nested call gets a child span.
    pub span: tracing::Span,
    pub policy: Arc<dyn Policy>,
    pub session: Option<String>,
    /// The run's principal, for its tools' context.
    pub principal: Option<String>,
    pub run_id: Arc<str>,
    pub restart_safe: bool,
    pub completion: Completion,
}

impl HostWork {
    pub(crate) fn new(setup: HostSetup) -> Self {
        let HostSetup {
            tools,
            max_in_flight,
            metrics,
            span,
            policy,
            session,
            principal,
            run_id,
            restart_safe,
            completion,
        } = setup;
        Self {
            gate: Gate::new(policy, (session, principal, run_id), Arc::clone(&metrics), span),
            metrics,
            tools,
            max_in_flight,
            in_flight: SpawnedCalls::default(),
            queue: VecDeque::new(),
            timers: BinaryHeap::new(),
            live_timers: HashMap::new(),
            yields: Vec::new(),
            ready: Vec::new(),
            counters: PendingCounters::default(),
            completion,
            telemetry: Telemetry::default(),
            restart_safe,
            refusal: None,
            journaled: 0,
            held_settled: false,
            approvals: HashMap::new(),
            deciding: HashSet::new(),
        }
    }

    /// Where request `id` stands with approvals when it starts (a fresh
    /// call meets the policy); taken once.
    pub(crate) fn take_approval(&mut self, id: u64) -> Approval {
        self.approvals.remove(&id).unwrap_or_default()
    }

    /// Where finished work reports.
    pub(crate) fn completion(&self) -> Completion {
        Arc::clone(&self.completion)
    }

    /// The cell is `restartSafe`.
    pub(crate) fn restart_safe(&self) -> bool {
        self.restart_safe
    }

    /// Sets where restored request `id` stands with approvals.
    pub(crate) fn set_approval(&mut self, id: u64, approval: Approval) {
        self.approvals.insert(id, approval);
    }

    /// Request `id` waits on a decision (true) or on its work again.
    pub(crate) fn set_deciding(&mut self, id: u64, deciding: bool) {
        if deciding {
            self.deciding.insert(id);
        } else {
            self.deciding.remove(&id);
        }
    }

    /// Whether request `id` is still in flight.
    pub(crate) fn in_flight(&self, id: u64) -> bool {
        self.in_flight.0.contains_key(&id)
    }

    /// Whether any host request is running or queued, other than calls
    /// waiting on a decision.
    pub(crate) fn has_running_calls(&self) -> bool {
        !self.queue.is_empty() || self.in_flight.0.keys().any(|id| !self.deciding.contains(id))
    }

    /// The cell's tool globals.
    pub(crate) fn tools(&self) -> &ToolTable {
        &self.tools
    }

    /// What the cell's requests have done so far.
    pub(crate) fn telemetry(&self) -> Telemetry {
        self.telemetry
    }

    /// Counts a request.
    pub(crate) fn telemetry_mut(&mut self) -> &mut Telemetry {
        &mut self.telemetry
    }

    /// Refuses request `id` of this restart-safe cell: `what` is not
    /// replay-safe, and a replay after a host restart would repeat its
    /// effects. The request rejects with `invalid_input` and the cell fails
    /// with the same message at its next step (see
    /// [`take_refusal`](Self::take_refusal)).
    pub(crate) fn refuse_replay(&mut self, id: u64, what: &str) {
        let message = restart_safe_refusal(what);
        self.ready.push(Settlement::fault(id, Fault::error(message.clone(), "invalid_input")));
        self.refusal.get_or_insert(message);
    }

    /// The refusal that fails this restart-safe cell, once.
    pub(crate) fn take_refusal(&mut self) -> Option<String> {
        self.refusal.take()
    }

    /// Whether any tool call or other host request is running or queued.
    pub(crate) fn has_calls(&self) -> bool {
        !self.in_flight.0.is_empty() || !self.queue.is_empty()
    }

    /// Queues request `submit.id`, made by `make` from the gate and its
    /// pending id, and starts it if a slot is free. Returns how many queued
    /// requests settled inline meanwhile (their slots are free again).
    pub(crate) fn submit(&mut self, submit: Submit, make: impl FnOnce(&mut Gate, PendingId) -> GatedFuture) -> usize {
        let Submit { id, kind, counted, hold, inline } = submit;
        let pending_id = self.counters.next(kind);
        let work = make(&mut self.gate, pending_id);
        let queued = counted.then(|| self.metrics.nested_call_queued());
        self.queue.push_back(Queued { id, pending_id, work, inline, hold, _queued: queued });
        self.pump()
    }

    /// The newest held request not yet in a stored journal: a write is due.
    pub(crate) fn awaiting_journal(&self) -> Option<u64> {
        self.queue.iter().filter(|q| q.hold && q.id > self.journaled).map(|q| q.id).max()
    }

    /// A stored journal now records every request up to `upto`; returns
    /// how many queued requests settled inline as they started.
    pub(crate) fn journaled_through(&mut self, upto: u64) -> usize {
        self.journaled = self.journaled.max(upto);
        self.pump()
    }

    /// The journal recording held requests up to `upto` could not be
    /// written: they are not started (a crash could then run them twice)
    /// but rejected with `message`. Returns how many settled.
    pub(crate) fn reject_held(&mut self, upto: u64, message: &str) -> usize {
        let before = self.queue.len();
        let journaled = self.journaled;
        let mut rejected = Vec::new();
        self.queue.retain(|q| {
            let reject = q.hold && q.id > journaled && q.id <= upto;
            if reject {
                rejected.push(q.id);
            }
            !reject
        });
        for id in rejected {
            self.ready.push(Settlement::fault(id, Fault::error(message.to_owned(), "journal_unavailable")));
        }
        before - self.queue.len()
    }

    /// A request's work finished; false when it was cancelled meanwhile.
    /// Its slot is free: the caller pumps the queue.
    pub(crate) fn finished(&mut self, id: u64) -> bool {
        if !self.deciding.is_empty() {
            self.deciding.remove(&id);
        }
        match self.in_flight.0.remove(&id) {
            Some(call) => {
                self.held_settled |= call.held;
                true
            }
            None => false,
        }
    }

    /// Whether a held request settled since this was last asked.
    pub(crate) fn take_held_settled(&mut self) -> bool {
        std::mem::take(&mut self.held_settled)
    }

    /// Settles a request at once.
    pub(crate) fn settle_now(&mut self, settlement: Settlement) {
        self.ready.push(settlement);
    }

    pub(crate) fn has_timers(&self) -> bool {
        !self.live_timers.is_empty()
    }

    pub(crate) fn has_yields(&self) -> bool {
        !self.yields.is_empty()
    }

    /// Starts queued requests while slots are free, in queue order; returns
    /// how many settled inline (their slots are free again).
    pub(crate) fn pump(&mut self) -> usize {
        let mut settled = 0;
        while self.in_flight.0.len() < self.max_in_flight {
            // In call order: a held request waits for its journal, and so
            // does everything queued behind it.
            if self.queue.front().is_some_and(|q| q.hold && q.id > self.journaled) {
                break;
            }
            let Some(queued) = self.queue.pop_front() else {
                break;
            };
            let Queued { id, pending_id, mut work, inline, hold, _queued } = queued;
            if inline {
                // Fast path: a call that is ready at once settles in this step.
                if let Poll::Ready(done) = work.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                    match done.settle_inline(id) {
                        Ok(settlement) => {
                            self.ready.push(settlement);
                            settled += 1;
                            self.held_settled |= hold;
                            continue;
                        }
                        // Reported like any other answer, through the cell.
                        Err(done) => work = Box::pin(std::future::ready(*done)),
                    }
                }
            }
            let completion = Arc::clone(&self.completion);
            let task = tokio::spawn(async move { completion(id, work.await) });
            self.in_flight.0.insert(id, InFlight { pending_id, task: task.abort_handle(), held: hold });
        }
        settled
    }

    pub(crate) fn add_timer(&mut self, id: u64, delay_ms: u64, now: Instant) {
        let pending_id = self.counters.next(PendingKind::Sleep);
        let due = now.checked_add(Duration::from_millis(delay_ms)).unwrap_or(now + Duration::from_secs(86_400 * 365));
        self.timers.push(Reverse((due, id)));
        self.live_timers.insert(id, pending_id);
    }

    /// Cancels a timer; true when it was live.
    pub(crate) fn cancel_timer(&mut self, id: u64) -> bool {
        self.live_timers.remove(&id).is_some()
    }

    /// Moves every due timer to `ready`; returns the ids that fired.
    pub(crate) fn fire_due_timers(&mut self, now: Instant) -> Vec<u64> {
        let mut fired = Vec::new();
        while let Some(Reverse((due, id))) = self.timers.peek().copied() {
            if due > now {
                break;
            }
            self.timers.pop();
            if self.live_timers.remove(&id).is_some() {
                self.ready.push(Settlement::value(id, Value::Null));
                fired.push(id);
            }
        }
        fired
    }

    /// Every live timer and when it is due (for a journal's snapshot).
    pub(crate) fn timer_deadlines(&self) -> Vec<(u64, Instant)> {
        self.timers
            .iter()
            .filter(|Reverse((_, id))| self.live_timers.contains_key(id))
            .map(|Reverse((due, id))| (*id, *due))
            .collect()
    }

    /// When the next live timer is due.
    pub(crate) fn next_timer(&mut self) -> Option<Instant> {
        while let Some(Reverse((due, id))) = self.timers.peek().copied() {
            if self.live_timers.contains_key(&id) {
                return Some(due);
            }
            self.timers.pop();
        }
        None
    }

    pub(crate) fn add_yield(&mut self, id: u64, reason: Option<String>) {
        let pending_id = self.counters.next(PendingKind::Yield);
        self.yields.push((id, pending_id, reason));
    }

    /// Resolves every pending `yield_control` with `{status:"yielded", reason}`.
    pub(crate) fn resolve_yields(&mut self) {
        for (id, _, reason) in self.yields.drain(..) {
            self.ready.push(Settlement::value(id, json!({"status": "yielded", "reason": reason})));
        }
    }

    /// Outstanding work in creation order, as the model sees it.
    pub(crate) fn pending_calls(&self) -> Vec<PendingCall> {
        let mut all: Vec<(u64, PendingId)> = self.in_flight.0.iter().map(|(id, c)| (*id, c.pending_id)).collect();
        all.extend(self.queue.iter().map(|q| (q.id, q.pending_id)));
        all.extend(self.live_timers.iter().map(|(id, b)| (*id, *b)));
        all.extend(self.yields.iter().map(|(id, b, _)| (*id, *b)));
        all.sort_unstable_by_key(|(id, _)| *id);
        all.into_iter()
            .map(|(_, pending_id)| PendingCall {
                id: pending_id.to_string(),
                method: pending_id.kind().name().to_owned(),
            })
            .collect()
    }
}

/// Why a restart-safe cell may not use `what`.
pub(crate) fn restart_safe_refusal(what: &str) -> String {
    format!(
        "{what} is not replay-safe, so a restartSafe cell cannot use it: replaying the cell after a host restart \
         could repeat its effects. Run it in a cell without restartSafe, or use only replay-safe tools here."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_fire_in_due_order_and_cleared_ones_never_fire() {
        let mut work = HostWork::new(HostSetup {
            tools: ToolTable::live(codemode_catalog::Registry::default()),
            max_in_flight: 4,
            metrics: Arc::default(),
            span: tracing::Span::none(),
            policy: Arc::new(codemode_catalog::policy::AllowAll),
            session: None,
            principal: None,
            run_id: Arc::from("run_test"),
            restart_safe: false,
            completion: Arc::new(|_, _| {}),
        });
        let now = Instant::now();
        work.add_timer(1, 20, now);
        work.add_timer(2, 10, now);
        work.add_timer(3, 10, now);
        assert!(work.cancel_timer(3));
        assert_eq!(work.fire_due_timers(now + Duration::from_millis(15)), vec![2]);
        assert_eq!(work.ready[0].id, 2);
        assert_eq!(work.next_timer(), Some(now + Duration::from_millis(20)));
        assert_eq!(work.pending_calls(), vec![PendingCall { id: "bridge:sleep:1".into(), method: "sleep".into() }]);
    }
}
