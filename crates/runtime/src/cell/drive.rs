//! Driving a cell through its windows: the guest runs in steps — deliver
//! settled host requests, run every pending job — until the cell settles,
//! parks, or waits for host work within the window's budget.

use std::time::Instant;

use codemode_protocol::{CellResult, ErrorCode, Phase, WaitReason};
use ractor::RpcReplyPort;
use serde_json::Value;

use super::approvals::Decide;
use super::end::Ending;
use super::guest_host::Requests;
use super::report;
use super::requests::{CellFailure, Done, Handled, HostCx, HostRequest, search_reply};
use super::state::{CellState, Flow, host_state};
use super::windows::Window;
use crate::cell::journaling::{DurableMsg, Parked};
use crate::engine::Interruption;
use crate::engine::link::{GuestError, Outcome};
use crate::engine::vm::StartError;
use crate::events::RunEvent;
use codemode_protocol::RunEnd;

impl CellState {
    fn open_window(&mut self, reply: RpcReplyPort<CellResult>, stream: Option<crate::stream::OutputStream>) {
        let limits = &self.services.limits;
        let budget = if self.run.mode.is_headless() { limits.headless_timeout } else { limits.timeout };
        let deadline = Instant::now() + budget;
        self.engine.set_deadline(deadline);
        let stream = stream.map(crate::stream::Streaming::new);
        self.windows.current = Some(Window { reply, deadline, stream });
    }

    /// The open window's budget starts over now (a replay before it spent
    /// none of it).
    fn restart_window_budget(&mut self) {
        let limits = &self.services.limits;
        let budget = if self.run.mode.is_headless() { limits.headless_timeout } else { limits.timeout };
        let deadline = Instant::now() + budget;
        self.engine.set_deadline(deadline);
        if let Some(window) = self.windows.current.as_mut() {
            window.deadline = deadline;
        }
    }

    /// Sends the output the last step emitted to the window's stream, if
    /// it has one, and to the run events' subscribers, if any.
    fn stream_output(&mut self) {
        let output = self.engine.kept_output();
        let kept = output.entries();
        let Some(new) = kept.get(self.output_seen..).filter(|n| !n.is_empty()) else { return };
        let (run_id, session) = (&self.run.run_id, self.run.mode.session());
        self.services.events.emit(|| RunEvent::Output {
            run_id: run_id.clone(),
            session: session.map(str::to_owned),
            entries: new.to_vec(),
        });
        self.output_seen = kept.len();
        if let Some(streaming) = self.windows.current.as_mut().and_then(|w| w.stream.as_mut()) {
            streaming.send_new(kept);
        }
    }

    /// The first window: compiles the cell and runs it; a resumed run is
    /// replayed from its journal first.
    pub(super) fn start(&mut self, reply: RpcReplyPort<CellResult>) -> Flow {
        let stream = self.first_stream.take();
        self.open_window(reply, stream);
        let replay_timeout = self.services.durable.as_ref().map(|d| d.config.replay_timeout);
        let replaying = self.durability.will_replay().then_some(replay_timeout).flatten();
        if let Some(timeout) = replaying {
            // Work the run already paid for: its journal has the costs. The
            // replay spends neither the CPU budget nor this window's wall
            // clock, only a bound of its own.
            self.engine.pause_cpu_budget();
            self.engine.set_deadline(Instant::now() + timeout);
        }
        match self.engine.start(&self.run.wrapped) {
            Ok(()) => {
                if let Some(flow) = self.replay() {
                    return flow;
                }
                if replaying.is_some() {
                    // Live from here: the window's budget starts now.
                    self.restart_window_budget();
                }
                // The resuming wait's decisions, on the run as replayed.
                let decide = self.resume_decide.take();
                if let Err(refused) = self.take_decisions(decide) {
                    return self.park_refusing(refused);
                }
                self.advance()
            }
            Err(StartError::Syntax(failure)) => {
                self.fail_end(ErrorCode::InvalidInput, failure.to_string(), Phase::Input, RunEnd::Failed)
            }
            Err(StartError::Engine(_))
                if replaying.is_some() && self.engine.interruption() == Some(Interruption::Deadline) =>
            {
                self.replay_timed_out()
            }
            // A resumed run whose fresh engine process failed as it started
            // (killed, say) is kept, as when one fails mid-run: its journal
            // is stored and its lease held, and the next wait resumes it.
            Err(StartError::Engine(_)) if self.engine.worker_failed() && self.engine_failure_keeps_run() => {
                self.engine_lost()
            }
            Err(StartError::Engine(message)) => {
                let (code, end, message) = self.interrupted().unwrap_or((
                    ErrorCode::InternalError,
                    RunEnd::Failed,
                    format!("the cell could not start: {message}"),
                ));
                self.fail_end(code, message, Phase::Host, end)
            }
        }
    }

    /// A new window on a parked cell, with the decisions its `wait`
    /// brings on pending approvals.
    pub(super) fn resume(
        &mut self,
        reply: RpcReplyPort<CellResult>,
        decide: Option<Decide>,
        stream: Option<crate::stream::OutputStream>,
    ) -> Flow {
        if self.windows.is_open() {
            let _ = reply.send(CellResult::input_error(
                ErrorCode::InvalidInput,
                "a wait for this code mode run is already in flight; wait for its result before calling wait again.",
            ));
            return Flow::Live;
        }
        if self.handing_over {
            return self.wait_for_hand_over(reply, decide, stream);
        }
        self.windows.end_park();
        self.durability.reclaimed();
        self.set_parked(false);
        tracing::info!(parent: &self.run.span, "wait");
        self.open_window(reply, stream);
        if let Err(refused) = self.take_decisions(decide) {
            return self.park_refusing(refused);
        }
        self.host.resolve_yields();
        self.advance()
    }

    /// A `wait` while the run is handed to its journal (its engine process
    /// failed): answered once the journal has it, or by its deadline. The
    /// copy here is leaving, so it neither re-claims the lease nor takes
    /// decisions (refused: the resumed run takes them).
    fn wait_for_hand_over(
        &mut self,
        reply: RpcReplyPort<CellResult>,
        decide: Option<Decide>,
        stream: Option<crate::stream::OutputStream>,
    ) -> Flow {
        if decide.is_some() {
            let _ = reply.send(CellResult::input_error(
                ErrorCode::InvalidInput,
                "the engine process running this run failed, and the run is being handed to its journal; nothing \
                 was decided. Call wait again (with the decisions) to resume it on a new engine process.",
            ));
            return Flow::Live;
        }
        self.open_window(reply, stream);
        self.engine_lost()
    }

    /// Steps on when a window is open; a parked cell only collects results.
    pub(super) fn advance_if_observed(&mut self) -> Flow {
        if self.windows.is_open() { self.advance() } else { Flow::Live }
    }

    /// A request's work finished: settle it, and start what was queued
    /// behind it.
    pub(super) fn request_done(&mut self, id: u64, done: Done) -> Flow {
        let done = match done {
            // Not finished: the call waits for a decision.
            Done::Asked(asked) => return self.asked(id, asked),
            Done::TaskStarted(started) => return self.task_started(id, started),
            done => done,
        };
        if self.host.finished(id) {
            self.task_settled(id);
            let settlement = match done {
                Done::Tool(result) => super::requests::tool_settlement(id, result),
                Done::Settle(s) => s,
                Done::Stored { key, value, settlement } => {
                    self.durability.on_store(&key);
                    self.effects.writes.insert(key, value);
                    settlement
                }
                Done::Loaded { settlement, network } => {
                    self.effects.network |= network;
                    settlement
                }
                Done::Search(result) => {
                    self.effects.network |= super::requests::shows_mcp(&result);
                    search_reply(self.host.tools(), id, result, self.output.remaining())
                }
                Done::Asked(_) | Done::TaskStarted(_) => return Flow::Live,
            };
            self.host.settle_now(settlement);
            self.slot_freed();
        }
        self.advance_if_observed()
    }

    /// A request that held a slot settled: its admission slot is free, and
    /// the next queued requests start (some may settle inline at once).
    pub(super) fn slot_freed(&mut self) {
        if self.handing_over {
            // The copy is leaving: queued calls start in the resumed run.
            return;
        }
        let inline = self.host.pump();
        self.engine.release_slots(1 + inline);
    }

    /// Runs the guest and its host work until the cell settles, parks, or
    /// must wait for host work within the window.
    pub(super) fn advance(&mut self) -> Flow {
        let Some(deadline) = self.windows.deadline() else { return Flow::Live };
        match self.ending {
            // The top-level promise has settled; nothing else runs.
            Some(Ending::Finishing(_) | Ending::Recording(_)) => return Flow::Live,
            Some(Ending::Draining(_)) => return self.drain(deadline),
            None => {}
        }
        loop {
            if let Some(flow) = self.check_settled() {
                return flow;
            }
            let now = Instant::now();
            if now >= deadline {
                // Guest code only runs with budget left: park (or, headless,
                // fail) instead of starting a step that would be interrupted.
                return self.out_of_budget();
            }
            let fired = self.host.fire_due_timers(now);
            self.engine.timers_fired(fired);
            let ready = std::mem::take(&mut self.host.ready);
            let stepped = !ready.is_empty();
            if stepped {
                self.durability.on_step(&ready);
            }
            self.engine.step(ready);
            self.stream_output();
            if let Some(flow) = self.check_settled() {
                return flow;
            }
            if let Some(flow) = self.intake() {
                return flow;
            }
            // After the step's requests are recorded: the journal ends at a
            // step boundary with everything that step asked for.
            self.journal_after_step(stepped);
            // Settled inline, or a timer already due (`setTimeout(f, 0)`):
            // go round again without a trip through the timer wheel.
            if !self.host.ready.is_empty() || self.host.next_timer().is_some_and(|t| t <= Instant::now()) {
                continue;
            }
            if self.approvals.has_pending() && self.staged.is_none() {
                // Asked calls wait for a person: the window's budget does
                // not run down meanwhile.
                return self.park(WaitReason::Approval);
            }
            if !(self.host.has_calls() || self.host.has_timers() || self.host.has_yields()) {
                let message = "code mode promise is pending without host work: the cell awaits a promise that \
                               nothing will settle (no tool call, timer or yield is pending). Resolve it, or await \
                               a tool call or timer instead."
                    .to_owned();
                return self.fail_end(ErrorCode::InternalError, message, Phase::Guest, RunEnd::Failed);
            }
            if self.host.has_yields() {
                if self.run.mode.is_headless() {
                    // Headless cells have no `wait`: a yield resumes at once.
                    self.host.resolve_yields();
                    continue;
                }
                let only_yields = !self.host.has_calls() && !self.host.has_timers();
                return self.park(if only_yields { WaitReason::Yield } else { WaitReason::PendingTools });
            }
            let wake = self.host.next_timer().map_or(deadline, |t| t.min(deadline));
            self.windows.schedule_wake(&self.run.myself, wake);
            return Flow::Live;
        }
    }

    /// Ends the cell if it was interrupted, refused admission, diverged
    /// from its journal, or settled.
    fn check_settled(&mut self) -> Option<Flow> {
        if self.handing_over || self.engine_failure_keeps_run() {
            return Some(self.engine_lost());
        }
        if let Some((code, end, message)) = self.interrupted() {
            return Some(self.fail_end(code, message, Phase::Guest, end));
        }
        if let Some(flow) = self.check_divergence() {
            return Some(flow);
        }
        let (admission, outcome) = self.engine.take_ending();
        // Both are the input breaking a rule of the cell (as the reference
        // reports them), though guest code ran before it did.
        if let Some(err) = admission {
            self.services.metrics.admission_rejected(err.limit.label());
            return Some(self.fail_end(ErrorCode::InvalidInput, err.message, Phase::Input, RunEnd::Failed));
        }
        if let Some(refusal) = self.host.take_refusal() {
            return Some(self.fail_end(ErrorCode::InvalidInput, refusal, Phase::Input, RunEnd::Failed));
        }
        match outcome? {
            Outcome::Value(value) => Some(self.returned(value)),
            Outcome::Error(error) => {
                let (limit, used) = (self.services.limits.memory_limit_bytes, self.engine.memory_used());
                let (code, message) = report::guest_error(&error, limit, used, self.engine.positions());
                let phase = match &error {
                    _ if code == ErrorCode::InvalidInput => Phase::Input,
                    // A failed host request the cell did not catch.
                    GuestError::Error { bridge: true, .. } => Phase::Bridge,
                    _ => Phase::Guest,
                };
                Some(self.fail_end(code, message, phase, RunEnd::Failed))
            }
        }
    }

    /// Whether the cell's engine process failed and its run outlives it:
    /// journaled, stored and leased here, so it leaves memory and the next
    /// wait resumes it on a fresh engine process. One rule for a failure
    /// at start and one mid-run.
    fn engine_failure_keeps_run(&self) -> bool {
        self.engine.crash().is_some() && self.durability.resumable()
    }

    /// Why guest code was interrupted: aborted, or out of its CPU budget.
    pub(super) fn interrupted(&self) -> Option<(ErrorCode, RunEnd, String)> {
        Some(match self.engine.interruption()? {
            Interruption::Aborted => (ErrorCode::Aborted, RunEnd::Aborted, "code mode execution aborted".to_owned()),
            Interruption::Deadline => {
                let limits = &self.services.limits;
                let budget = if self.run.mode.is_headless() { limits.headless_timeout } else { limits.timeout };
                (ErrorCode::Timeout, RunEnd::TimedOut, report::timeout_message(budget))
            }
            Interruption::CpuBudget => {
                let budget = self.services.limits.cpu_budget.unwrap_or_default();
                (ErrorCode::Timeout, RunEnd::TimedOut, report::cpu_budget_message(budget))
            }
            Interruption::Crashed => {
                let why = self.engine.crash().unwrap_or_default();
                (ErrorCode::EngineCrashed, RunEnd::Failed, report::engine_crashed_message(&why))
            }
        })
    }

    fn out_of_budget(&mut self) -> Flow {
        if self.run.mode.is_headless() {
            let message = report::timeout_message(self.services.limits.headless_timeout);
            return self.fail_end(ErrorCode::Timeout, message, Phase::Guest, RunEnd::TimedOut);
        }
        self.park(WaitReason::PendingTools)
    }

    /// Reports `waiting` and keeps the cell until `wait`, abort or expiry.
    fn park(&mut self, reason: WaitReason) -> Flow {
        self.park_as(reason, None)
    }

    /// Parks again at once, answering the window with `refused` (its
    /// decisions were refused): no output is taken, nothing else changes.
    pub(super) fn park_refusing(&mut self, (code, message): (ErrorCode, String)) -> Flow {
        let reason = if self.approvals.has_pending() { WaitReason::Approval } else { WaitReason::PendingTools };
        self.park_as(reason, Some(CellResult::input_error(code, message)))
    }

    fn park_as(&mut self, reason: WaitReason, refused: Option<CellResult>) -> Flow {
        let Some(window) = self.windows.current.take() else { return Flow::Live };
        self.engine.clear_deadline();
        self.set_parked(true);
        self.windows.start_park(&self.run.myself, self.services.limits.parked_ttl);
        tracing::info!(parent: &self.run.span, reason = reason.as_str(), "waiting");
        let result = match refused {
            Some(refused) => refused,
            None => {
                let result = CellResult::waiting(self.run.run_id.clone(), reason)
                    .with_pending(self.host.pending_calls(), self.approvals.shown())
                    .with_output(self.take_output())
                    .with_warnings(self.durability.take_warning().into_iter().collect())
                    .with_telemetry(self.telemetry())
                    .with_untrusted(self.untrusted_id());
                self.durability.on_delivered();
                result
            }
        };
        let (reply, myself) = (window.reply, self.run.myself.clone());
        // The event says what the observer hears, once its write decided it.
        let (events, run_id, session) =
            (self.services.events.clone(), self.run.run_id.clone(), self.run.mode.session().map(str::to_owned));
        let answer = move |reply: RpcReplyPort<CellResult>, result: CellResult| {
            if let CellResult::Waiting { reason, pending_approvals, .. } = &result {
                events.emit(|| RunEvent::Parked {
                    run_id,
                    session,
                    reason: *reason,
                    pending_approvals: pending_approvals.clone(),
                });
            }
            let _ = reply.send(result);
        };
        self.park_durably(Box::new(move |outcome| match outcome {
            Ok(Parked::Kept) => answer(reply, result),
            Ok(Parked::Behind(why)) => answer(reply, shown_once_stored(result, &why)),
            // The run could not park durably: the cell ends it and answers.
            Err(why) => {
                let _ = myself.send_message(super::msg::CellMsg::Durable(DurableMsg::ParkRefused(reply, why)));
            }
        }));
        Flow::Live
    }

    /// Moves the guest's requests from the guest link into host work.
    pub(super) fn intake(&mut self) -> Option<Flow> {
        let Requests { made, cleared, network } = self.engine.take_requests();
        // Metadata read synchronously (`$serverName`) marks later writes too.
        self.effects.network |= network;
        for id in cleared {
            self.host.cancel_timer(id);
        }
        let now = Instant::now();
        let mut settled_inline = 0;
        for (id, request) in made {
            match self.live_request(id, request, now) {
                Ok(n) => settled_inline += n,
                Err(failure) => return Some(self.cell_failure(failure)),
            }
        }
        self.engine.release_slots(settled_inline);
        None
    }

    /// A request made live: recorded in the journal, then handled.
    pub(super) fn live_request(&mut self, id: u64, request: HostRequest, now: Instant) -> Handled {
        self.record_request(id, &request);
        self.dispatch(id, request, now)
    }

    /// Hands one request to its handler.
    pub(super) fn dispatch(&mut self, id: u64, request: HostRequest, now: Instant) -> Handled {
        let routes = self.engine.mcp_routes();
        let mut cx = HostCx {
            services: &self.services,
            mode: &self.run.mode,
            host: &mut self.host,
            effects: &mut self.effects,
            routes: routes.as_deref(),
            now,
            journaled: self.durability.journaled(),
        };
        request.handle(id, &mut cx)
    }

    /// A request that ends the cell.
    pub(super) fn cell_failure(&mut self, failure: CellFailure) -> Flow {
        let CellFailure { code, message, phase, end } = failure;
        self.fail_end(code, message, phase, end)
    }

    /// The top-level promise resolved with `value`. Host requests the guest
    /// started but did not await (`store('k', 1); return 1`) still run to
    /// the end within the window — a store issued before the return commits
    /// with the cell — and then the cell completes. No guest code runs
    /// meanwhile.
    fn returned(&mut self, value: Value) -> Flow {
        // Requests made in the step that returned are not host work yet.
        if let Some(flow) = self.intake() {
            return flow;
        }
        self.ending = Some(Ending::draining(value));
        let deadline = self.windows.deadline().unwrap_or_else(Instant::now);
        self.drain(deadline)
    }

    /// The journal snapshot's view of the cell now, for a write.
    pub(super) fn with_host_state<T>(
        &mut self,
        f: impl FnOnce(&mut crate::cell::journaling::Durability, &crate::cell::journaling::HostState<'_>) -> T,
    ) -> T {
        let telemetry = self.journal_telemetry();
        let reads = self.engine.reads();
        let state = host_state(
            &self.host,
            telemetry,
            &self.effects,
            &reads,
            &self.host.ready,
            self.approvals.records(),
            self.tasks.log(),
        );
        f(&mut self.durability, &state)
    }
}

/// A park's answer when its write was not stored (`why`): as it is, unless
/// it shows approvals. An approval is shown only once the record holds it
/// — a decision on an id the record lacks would be refused by the run's
/// next copy, and none can be journaled while the store fails anyway — so
/// the park answers unavailable instead, with its output, and the next
/// `wait` (this copy, kept in memory) shows the approvals once stored.
fn shown_once_stored(result: CellResult, why: &str) -> CellResult {
    match result {
        CellResult::Waiting { pending_approvals, output, telemetry, untrusted, .. }
            if !pending_approvals.is_empty() =>
        {
            let error = format!(
                "code mode run is waiting for approval of {} call(s), but the run store did not take its journal \
                 ({why}), so they cannot be decided yet; the run is kept and nothing was decided or run. Call wait \
                 again to see them once it is stored.",
                pending_approvals.len()
            );
            CellResult::Failed {
                code: ErrorCode::RuntimeUnavailable,
                error,
                phase: Phase::Host,
                output,
                telemetry,
                untrusted,
            }
        }
        result => result,
    }
}
