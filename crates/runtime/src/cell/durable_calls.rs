//! What the cell tells its durable side, and what it does with what comes
//! back: requests to record, steps and parks to journal, a replay to run
//! before the first live step, the durable side's own messages.

use std::time::Instant;

use codemode_protocol::{CellResult, ErrorCode, Phase, WaitReason};
use codemode_store::runs::now_ms;

use super::requests::asked::Refusal;
use super::requests::outbound::Approval;
use super::requests::{Fault, HostCx, HostRequest, Rerun, RestoredInput, ResumedTask, Settlement};
use super::state::{CellState, Flow};
use crate::cell::journaling::DurableMsg;
use crate::cell::journaling::{CellIds, ParkRefusal, Replayed, Resumed, WriteAhead};
use crate::durable::journal;
use crate::telemetry::RunMetrics;
use codemode_protocol::RunEnd;
use codemode_protocol::Verdict;

impl CellState {
    /// Records request `id`'s fingerprint in the run's journal.
    pub(super) fn record_request(&mut self, id: u64, request: &HostRequest) {
        if !self.durability.records() {
            return;
        }
        let routes = self.engine.mcp_routes();
        let ids = CellIds { tools: self.host.tools(), mcp: &self.services.mcp, routes: routes.as_deref() };
        let fingerprint = ids.fingerprint(request);
        self.durability.on_request(id, fingerprint);
    }

    /// After a step's requests are recorded: a held request waits for a
    /// write (write-ahead), a held request's answer is written, or the
    /// step is (`every_call`).
    pub(super) fn journal_after_step(&mut self, stepped: bool) {
        if let Some(newest) = self.host.awaiting_journal() {
            let start_all = self.with_host_state(|d, state| d.write_ahead(newest, state));
            if let WriteAhead::StartAll = start_all {
                let inline = self.host.journaled_through(u64::MAX);
                self.engine.release_slots(inline);
            }
        } else if stepped {
            let held = self.host.take_held_settled();
            self.with_host_state(|d, state| d.after_step(held, state));
        }
    }

    /// Parks durably: the journal is written, then `send` reports
    /// `waiting`.
    pub(super) fn park_durably(&mut self, send: crate::cell::journaling::ParkSend) {
        let quiescent = !self.host.has_running_calls();
        let epoch = self.windows.park_epoch;
        self.with_host_state(|d, state| d.park(state, quiescent, epoch, send));
    }

    /// A message of the durable side.
    pub(super) fn on_durable(&mut self, msg: DurableMsg) -> Flow {
        if self.handing_over {
            return self.on_durable_handing_over(msg);
        }
        match msg {
            DurableMsg::HandOff(epoch) => {
                if self.windows.idle_in(epoch) {
                    let quiescent = !self.host.has_running_calls();
                    self.with_host_state(|d, state| d.hand_off(epoch, quiescent, state));
                }
                Flow::Live
            }
            DurableMsg::Evict(epoch) => self.evict(epoch),
            DurableMsg::LeaseLost => self.lease_lost(),
            DurableMsg::Renew => {
                self.durability.renew();
                Flow::Live
            }
            DurableMsg::Journaled(upto) => {
                let inline = self.host.journaled_through(upto);
                self.engine.release_slots(inline);
                self.advance_if_observed()
            }
            DurableMsg::WriteAheadFailed(upto, why) => {
                let message = self.durability.write_ahead_failed(upto, &why);
                let rejected = self.host.reject_held(upto, &message);
                self.engine.release_slots(rejected);
                self.advance_if_observed()
            }
            DurableMsg::Decided(written) => self.decisions_written(written),
            // Only sent while handing over.
            DurableMsg::HandedOver | DurableMsg::HandOverOverdue(_) => Flow::Live,
            DurableMsg::ReleaseForShutdown(done) => {
                // With a window open the run is not parked: `done` is
                // dropped, which answers at once.
                if !self.windows.is_open() {
                    self.with_host_state(|d, state| d.release_for_shutdown(state, done));
                }
                Flow::Live
            }
            DurableMsg::Marked(Ok(())) => {
                self.durability.marked(true);
                let inline = self.host.journaled_through(u64::MAX);
                self.engine.release_slots(inline);
                self.advance_if_observed()
            }
            DurableMsg::Marked(Err(e)) if e.lease_lost() => self.lease_lost(),
            DurableMsg::Marked(Err(e)) => {
                self.durability.marked(false);
                let message = format!(
                    "the call was not started: it is not replay-safe, and this run outgrew its journal but its stored \
                     record could not be marked memory-only ({e}), so a crash could make a replay of the stale \
                     journal run it twice. Retry it when the run store is back."
                );
                let rejected = self.host.reject_held(u64::MAX, &message);
                self.engine.release_slots(rejected);
                self.advance_if_observed()
            }
            DurableMsg::OverQuota(why) => self.over_quota(&why, None),
            DurableMsg::ParkRefused(reply, ParkRefusal::OverQuota(why)) => self.over_quota(&why, Some(reply)),
            DurableMsg::ParkRefused(reply, ParkRefusal::Unstored(why)) => self.unstored(&why, reply),
            DurableMsg::ParkRefused(reply, ParkRefusal::LeaseLost) => self.lease_lost_at_park(reply),
        }
    }

    /// A journal write would have passed a journal quota: the run ends
    /// (nothing more of it is stored), answering the window open now and
    /// the park whose write was refused, if any.
    fn over_quota(&mut self, why: &str, park: Option<ractor::RpcReplyPort<codemode_protocol::CellResult>>) -> Flow {
        self.end_unstored(ErrorCode::QuotaExceeded, quota_message(why), park)
    }

    /// The first park's write was not stored (the store is away): nothing
    /// of the run is stored, so no other process could find it, and a
    /// crash here would lose it unseen. It ends now, saying so, instead of
    /// waiting in this process's memory; nothing it did is undone (its
    /// store writes were never committed, and calls that ran ran once).
    fn unstored(&mut self, why: &str, park: ractor::RpcReplyPort<codemode_protocol::CellResult>) -> Flow {
        let message = format!(
            "code mode run ended: it reached a park, but the run store did not take its journal ({why}), so it could \
             not wait durably. Its calls that ran ran once and will not run again; nothing it stored was kept. Start \
             a new exec when the run store is back."
        );
        self.end_unstored(ErrorCode::RuntimeUnavailable, message, Some(park))
    }

    /// Ends a run whose write was not made, answering the window open now
    /// and the park whose write it was, if any.
    fn end_unstored(
        &mut self,
        code: ErrorCode,
        message: String,
        park: Option<ractor::RpcReplyPort<codemode_protocol::CellResult>>,
    ) -> Flow {
        if self.ending.is_some() {
            // Already ending: its own end is recorded.
            if let Some(reply) = park {
                let _ = reply.send(self.fail(code, message, Phase::Host));
            }
            return Flow::Live;
        }
        if let Some(reply) = park {
            if self.windows.is_open() {
                let _ = reply.send(self.fail(code, message.clone(), Phase::Host));
            } else {
                let deadline = Instant::now();
                self.windows.current = Some(super::windows::Window { reply, deadline, stream: None });
            }
        }
        self.fail_end(code, message, Phase::Host, RunEnd::Failed)
    }

    /// Idle past `evict_after` with its lease released: leave memory. The
    /// run lives on as its journal; a `wait` replays it.
    fn evict(&mut self, epoch: u64) -> Flow {
        if !self.windows.idle_in(epoch) || self.host.has_running_calls() {
            return Flow::Live;
        }
        if !self.with_host_state(|d, state| d.ready_to_leave(epoch, state)) {
            return Flow::Live;
        }
        crate::crash_points::point("run.evicted");
        self.leave_memory();
        RunMetrics::bump(&self.services.metrics.runs.evicted);
        self.services.runs.evicted_to_journal(&self.run.run_id, self.services.limits.parked_ttl);
        Flow::Ended
    }

    /// Another process holds the run now: this copy is stale. Leave memory
    /// without ending the run.
    fn lease_lost(&mut self) -> Flow {
        self.leave_as_moved(None)
    }

    /// The park's write found the lease lost: the park is answered as moved
    /// (never `waiting`: what it would list, a pending approval above all,
    /// is in no record), and this copy leaves memory.
    fn lease_lost_at_park(&mut self, park: ractor::RpcReplyPort<CellResult>) -> Flow {
        self.leave_as_moved(Some(park))
    }

    /// Leaves memory without ending the run, answering the window open on
    /// this copy and `park` as unavailable, once the run index no longer
    /// points here (a wait sent on that answer finds the record, never this
    /// stopping copy).
    fn leave_as_moved(&mut self, park: Option<ractor::RpcReplyPort<CellResult>>) -> Flow {
        const MOVED: &str =
            "code mode run moved to another codemode process (its lease was taken over or ran out); call wait again.";
        // The park's observer came first: it gets the output taken now; a
        // window opened since, the same answer without it.
        let mut replies = park.into_iter().chain(self.windows.current.take().map(|w| w.reply));
        let first =
            replies.next().map(|reply| (reply, self.fail(ErrorCode::RuntimeUnavailable, MOVED.into(), Phase::Host)));
        let second = replies.next().map(|reply| {
            (
                reply,
                CellResult::failed(ErrorCode::RuntimeUnavailable, MOVED.to_owned(), Phase::Host)
                    .with_telemetry(self.telemetry()),
            )
        });
        self.leave_memory();
        for (reply, result) in first.into_iter().chain(second) {
            let _ = reply.send(result);
        }
        Flow::Ended
    }

    /// The cell's engine process failed, and the run's journal can take
    /// it over: once every journal write under way is over, the lease is
    /// released, then this copy leaves memory without
    /// ending the run, and the next `wait` resumes it from its journal on
    /// a new engine, as after a crash of the whole process — calls in
    /// flight are re-issued or `outcome_unknown` there, never run twice.
    /// Until then nothing of the guest runs (its engine is gone).
    pub(super) fn engine_lost(&mut self) -> Flow {
        if !self.handing_over {
            self.handing_over = true;
            let why = self.engine.crash().unwrap_or_default();
            tracing::warn!(parent: &self.run.span, reason = %why, "the cell's engine process failed; the run is kept");
            let mail = self.durability.mailbox();
            if !self.durability.hand_over(move || mail.send(DurableMsg::HandedOver)) {
                return self.engine_handed_over();
            }
        }
        self.hand_over_by_deadline();
        Flow::Live
    }

    /// A window open while the run is handed over is answered by its
    /// deadline, even if the journal's store does not answer by then: no
    /// engine is left to interrupt at the deadline, as it would be.
    fn hand_over_by_deadline(&mut self) {
        let Some(deadline) = self.windows.deadline() else { return };
        if self.hand_over_by == Some(deadline) {
            return;
        }
        self.hand_over_by = Some(deadline);
        let left = deadline.saturating_duration_since(Instant::now());
        // Not kept: once the cell has left memory the message goes nowhere.
        drop(self.durability.mailbox().after(left, move || DurableMsg::HandOverOverdue(deadline)));
    }

    /// The window open on a run being handed over reached its deadline:
    /// it is answered `waiting`, and the hand-over goes on (a `wait` meanwhile
    /// finds the cell here, and waits for it in turn).
    fn hand_over_overdue(&mut self, deadline: Instant) -> Flow {
        if self.windows.deadline() != Some(deadline) {
            return Flow::Live;
        }
        let Some(window) = self.windows.current.take() else { return Flow::Live };
        let why = self.engine.crash().unwrap_or_default();
        let result = self.kept_after_engine_failure(format!(
            "the engine process running this cell failed ({why}), and its journal is still being written. The run \
             is kept: call wait to resume it on a new engine process once it is written."
        ));
        let _ = window.reply.send(result);
        Flow::Live
    }

    /// The `waiting` answer of a window on a run whose engine process
    /// failed, with `warning` saying so.
    fn kept_after_engine_failure(&self, warning: String) -> CellResult {
        CellResult::waiting(self.run.run_id.clone(), WaitReason::PendingTools)
            .with_pending(self.host.pending_calls(), Vec::new())
            .with_warnings(vec![warning])
            .with_telemetry(self.telemetry())
    }

    /// A message while the run is handed to its journal: nothing starts
    /// (no held call, no decided call, no park: the copy is leaving), and
    /// only what ends the hand-over, or the run, is acted on.
    fn on_durable_handing_over(&mut self, msg: DurableMsg) -> Flow {
        match msg {
            DurableMsg::HandedOver => self.engine_handed_over(),
            DurableMsg::HandOverOverdue(deadline) => self.hand_over_overdue(deadline),
            DurableMsg::LeaseLost => self.lease_lost(),
            // The run cannot be stored: it ends, as it would have.
            DurableMsg::OverQuota(why) => self.over_quota(&why, None),
            DurableMsg::ParkRefused(reply, ParkRefusal::OverQuota(why)) => self.over_quota(&why, Some(reply)),
            DurableMsg::ParkRefused(reply, ParkRefusal::Unstored(why)) => self.unstored(&why, reply),
            DurableMsg::ParkRefused(reply, ParkRefusal::LeaseLost) => self.lease_lost_at_park(reply),
            // Journaled, they stand there and the resumed run applies
            // them; not journaled, they were never decided.
            DurableMsg::Decided(_) => {
                self.staged = None;
                Flow::Live
            }
            DurableMsg::HandOff(_)
            | DurableMsg::Evict(_)
            | DurableMsg::Renew
            | DurableMsg::Journaled(_)
            | DurableMsg::WriteAheadFailed(..)
            | DurableMsg::ReleaseForShutdown(_)
            | DurableMsg::Marked(_) => Flow::Live,
        }
    }

    /// The journal has the run whose engine failed: it leaves memory. A
    /// window open on it is answered `waiting` (the run goes on: a client
    /// that waits, as for any parked run, gets it back), saying why in a
    /// warning. Output is not taken here: the journal does not know it
    /// was delivered, so the resumed run delivers it, once.
    fn engine_handed_over(&mut self) -> Flow {
        let why = self.engine.crash().unwrap_or_default();
        let window = self.windows.current.take();
        let result = window.is_some().then(|| {
            self.kept_after_engine_failure(format!(
                "the engine process running this cell failed ({why}). The run is kept: call wait to resume it \
                 on a new engine process from its journal (what it did since it last parked runs again, or \
                 reports that its outcome is unknown)."
            ))
        });
        self.leave_memory();
        if let (Some(window), Some(result)) = (window, result) {
            let _ = window.reply.send(result);
        }
        Flow::Ended
    }

    /// A resumed run: replays its journal into the started cell, then
    /// restores the host side and goes on live. Returns the flow when the
    /// replay ended the cell.
    pub(super) fn replay(&mut self) -> Option<Flow> {
        let (replay, recorder) = self.durability.take_replay()?;
        let (engine, tools, mcp) = (&self.engine, self.host.tools(), &self.services.mcp);
        let fingerprint = |request: &HostRequest| {
            let routes = engine.mcp_routes();
            CellIds { tools, mcp, routes: routes.as_deref() }.fingerprint(request)
        };
        match replay.run(engine, recorder, &fingerprint) {
            Replayed::Diverged(why) => Some(self.fail_diverged(&why)),
            Replayed::Interrupted if self.engine.interruption() == Some(crate::engine::Interruption::Deadline) => {
                Some(self.replay_timed_out())
            }
            // Aborted, or out of budget, while replaying: the usual ending.
            Replayed::Interrupted => None,
            Replayed::Live(resumed) => {
                if let Some(flow) = self.go_live(*resumed) {
                    return Some(flow);
                }
                tracing::info!(parent: &self.run.span, "resumed by replay");
                self.host.resolve_yields();
                None
            }
        }
    }

    /// The replay ran past its own bound: the run ends timed out, saying
    /// it was the replay.
    pub(super) fn replay_timed_out(&mut self) -> Flow {
        let timeout = self.services.durable.as_ref().map(|d| d.config.replay_timeout).unwrap_or_default();
        let message = format!(
            "code mode run could not be resumed: replaying its journal took longer than {} ms ([runs] \
             replay_timeout_ms), so it was stopped. Start a new exec.",
            timeout.as_millis()
        );
        self.fail_end(ErrorCode::Timeout, message, Phase::Host, RunEnd::TimedOut)
    }

    /// A divergence the replay left behind (read after it went live).
    pub(super) fn check_divergence(&mut self) -> Option<Flow> {
        if self.durability.diverged() {
            return None;
        }
        let why = self.engine.diverged()?;
        if self.engine.interruption().is_some() {
            // Out of budget (or aborted) while replaying: the usual ending.
            return None;
        }
        Some(self.fail_diverged(&why))
    }

    /// The replay diverged: the run is stopped rather than resumed wrongly.
    fn fail_diverged(&mut self, why: &str) -> Flow {
        RunMetrics::bump(&self.services.metrics.runs.replay_diverged);
        self.durability.set_diverged();
        let message = format!(
            "code mode run cannot be resumed: its replay diverged from its journal ({why}). The run was stopped \
             rather than resumed wrongly; start a new exec."
        );
        self.fail_end(ErrorCode::ReplayDiverged, message, Phase::Host, RunEnd::Failed)
    }

    /// The journal is replayed: restore the host side and go on live.
    fn go_live(&mut self, resumed: Resumed) -> Option<Flow> {
        let Resumed { snapshot, ready, ready_ordinary, pending, timers_due, fresh, started } = resumed;
        self.effects.writes = journal::buffer_of(snapshot.writes);
        self.effects.network |= snapshot.network;
        self.effects.envelope_id = snapshot.envelope_id;
        self.output.restore_used(snapshot.output_used);
        let (now, wall) = (Instant::now(), now_ms());
        // Every request the replay restores is in the stored journal
        // already: none waits for a write to record it.
        let recorded = pending.keys().copied().max().unwrap_or(0);
        let mut settled_inline = ready_ordinary + self.host.journaled_through(recorded);
        for s in ready {
            self.host.settle_now(s);
        }
        let mut failure = None;
        for (id, request) in pending {
            match request {
                HostRequest::Yield(y) => self.host.add_yield(id, y.reason),
                HostRequest::Timer(t) => {
                    let left = timers_due.get(&id).map_or(t.delay_ms, |at| at.saturating_sub(wall));
                    self.host.add_timer(id, left, now);
                }
                request => match self.restart_call(id, request, now) {
                    Ok(n) => settled_inline += n,
                    Err(f) => failure = failure.or(Some(f)),
                },
            }
        }
        // The snapshot's telemetry counted the calls restarted above
        // already; requests made fresh count as new.
        *self.host.telemetry_mut() = snapshot.telemetry;
        self.engine.resume_costs(super::state::recorded_costs(&snapshot.telemetry));
        for (id, request) in fresh {
            match self.live_request(id, request, now) {
                Ok(n) => settled_inline += n,
                Err(f) => failure = failure.or(Some(f)),
            }
        }
        self.engine.release_slots(settled_inline);
        let metrics = &self.services.metrics;
        metrics.runs.replay_took(started.elapsed());
        RunMetrics::bump(&metrics.runs.resumed_by_replay);
        self.services.runs.resumed(&self.run.run_id);
        failure.map(|f| self.cell_failure(f))
    }

    /// A request that was in flight when the journal was written, as its
    /// approval left it: one waiting for a decision waits again (it never
    /// ran); one denied or expired is refused as it was; one approved, or
    /// one that never asked, is re-issued if that is safe. An MCP call
    /// whose server runs it as a task polls that task again: it is past
    /// its policy, and the tool is not called a second time.
    fn restart_call(&mut self, id: u64, request: HostRequest, now: Instant) -> super::requests::Handled {
        let request = match (request, self.tasks.of_request(id)) {
            (HostRequest::McpCall(mut call), Some(record)) => {
                let (task, since) = (record.task.clone(), record.started_at_ms);
                let inputs = self.approvals.task_inputs(id, since);
                if inputs.values().any(|i| matches!(i, RestoredInput::Awaiting(_))) {
                    self.host.set_deciding(id, true);
                }
                call.resume = Some(ResumedTask { task, inputs });
                self.host.set_approval(id, Approval::Approved);
                RunMetrics::bump(&self.services.metrics.runs.reissued);
                return self.dispatch(id, HostRequest::McpCall(call), now);
            }
            (request, _) => request,
        };
        let Some(record) = self.approvals.of_request(id) else { return self.reissue(id, request, now) };
        match record.decision.as_ref().map(|d| (d.verdict, d.reason.clone())) {
            None => {
                let Some(rx) = self.approvals.rewait(id) else { return self.reissue(id, request, now) };
                self.host.set_approval(id, Approval::Awaiting(rx));
                self.host.set_deciding(id, true);
                self.dispatch(id, request, now)
            }
            Some((Verdict::Approved, _)) => {
                self.host.set_approval(id, Approval::Approved);
                self.reissue(id, request, now)
            }
            Some((verdict, reason)) => {
                let refusal = match verdict {
                    Verdict::Expired => Refusal::Expired(self.approvals.ttl()),
                    _ => Refusal::Denied(reason),
                };
                let message = refusal.message(&record.what);
                self.host.settle_now(Settlement::fault(id, Fault::error(message, refusal.code())));
                Ok(1)
            }
        }
    }

    /// A request that was in flight when the journal was written: run it
    /// again if that is safe, else reject it with `outcome_unknown`.
    fn reissue(&mut self, id: u64, request: HostRequest, now: Instant) -> super::requests::Handled {
        let class = {
            let routes = self.engine.mcp_routes();
            let cx = HostCx {
                services: &self.services,
                mode: &self.run.mode,
                host: &mut self.host,
                effects: &mut self.effects,
                routes: routes.as_deref(),
                now,
                journaled: false,
            };
            request.rerun(&cx)
        };
        let what = match class {
            Rerun::Repeatable | Rerun::ReplaySafe => {
                RunMetrics::bump(&self.services.metrics.runs.reissued);
                return self.dispatch(id, request, now);
            }
            Rerun::Once(what) => what,
            // Re-armed from the journal, never re-issued; one reaching here
            // would be a bug, so it is not run again.
            Rerun::Restored => request.what().to_owned(),
        };
        // An approval restored for it is not needed: it does not run.
        drop(self.host.take_approval(id));
        RunMetrics::bump(&self.services.metrics.runs.outcome_unknown);
        let message = format!(
            "{what} was in flight when this run's previous process stopped: whether it ran is unknown, and it is \
             not replay-safe, so it was not run again. Check its effect before retrying it."
        );
        self.host.settle_now(Settlement::fault(id, Fault::error(message, "outcome_unknown")));
        Ok(1)
    }
}

/// What the model reads when a quota ended the run.
fn quota_message(why: &str) -> String {
    format!(
        "code mode run ended: {why}. Nothing more of it could be stored, so it was ended rather than kept past the \
         quota. Wait on or abort this session's other parked runs, or keep less state in one run, and start a new \
         exec."
    )
}
