//! The cell: a small driver over the parts it owns.
//!
//! - [`Engine`]: the QuickJS runtime and context, stepped by the cell.
//! - [`HostWork`]: host requests in flight and queued (native, MCP and
//!   node calls share one queue and one in-flight bound), timers, yields.
//! - [`CellEffects`]: buffered store writes and the network taint.
//! - [`OutputLedger`]: the output budget across windows.
//! - [`Windows`]: the window observing the cell now, parks, wake-ups.
//! - [`Durability`]: the journal, the lease and the replay.
//!
//! Stepping lives in `drive.rs`, the end of a completed cell in
//! `complete.rs`, and what the cell tells its durable side in
//! `durable_calls.rs`; none of them reads another's internals.

use std::sync::Arc;
use std::time::Instant;

use codemode_protocol::{CellResult, ErrorCode, Phase, Telemetry};
use ractor::ActorRef;

use super::approvals::{Approvals, Decide, Staged};
use super::effects::CellEffects;
use super::end::{Ending, Recording};
use super::guest_host::Backing;
use super::guest_host::Engine;
use super::mode::CellMode;
use super::msg::CellMsg;
use super::output::OutputLedger;
use super::requests::host_work::{HostSetup, HostWork};
use super::requests::{Completion, Settlement};
use super::run::RunInfo;
use super::services::CellServices;
use super::tools::ToolTable;
use super::windows::Windows;
use crate::cell::guest_host::EngineReads;
use crate::cell::journaling::{Announcements, Durability, DurableStart, HostState, Meta, Restored};
use crate::cell::journaling::{DurableMsg, Mailbox};
use crate::durable::EndNotRecorded;
use crate::engine::control::Costs;
use crate::jsthreads::ThreadLease;
use codemode_protocol::RunEnd;

use crate::run_index::Alive;

/// What an admitted cell is: fixed at admission, handed whole to its
/// actor.
pub(crate) struct CellPlan {
    pub run_id: String,
    /// The cell's wrapped source, exactly as compiled.
    pub wrapped: String,
    pub mode: CellMode,
    /// The cell's span.
    pub span: tracing::Span,
    /// When the executor admitted the cell: the span's `queue_ms` runs
    /// from here to the actor's start.
    pub admitted: Instant,
    /// The exec's title and principal, for the run's record.
    pub meta: Meta,
    /// A stored run to resume by replaying its journal.
    pub resume: Option<Box<Restored>>,
    /// Where the first window streams its output, if anywhere.
    pub stream: Option<crate::stream::OutputStream>,
}

/// Everything a cell actor starts with.
pub(crate) struct CellArgs {
    pub plan: CellPlan,
    pub services: Arc<CellServices>,
    /// The cell's tool globals: the registry's, or a replayed run's own.
    pub tools: ToolTable,
    /// The engine made (or taken from the pool) for this cell, in this
    /// process or in an engine worker.
    pub engine: Backing,
    /// Counts the cell against its JS thread.
    pub lease: ThreadLease,
}

/// What the cell does after handling a message.
pub(crate) enum Flow {
    /// Keep running (window open and waiting on host work, or parked).
    Live,
    /// The cell ended and told the run index; the actor stops.
    Ended,
}

/// A cell actor's state.
pub(crate) struct CellState {
    pub(super) run: RunInfo,
    pub(super) services: Arc<CellServices>,
    pub(super) engine: Engine,
    pub(super) host: HostWork,
    pub(super) effects: CellEffects,
    pub(super) output: OutputLedger,
    pub(super) windows: Windows,
    /// Set once the top-level promise resolved: draining the requests it
    /// did not await, or committing.
    pub(super) ending: Option<Ending>,
    pub(super) durability: Durability,
    /// Calls waiting on a person's decision, and the decisions taken.
    pub(super) approvals: Approvals,
    /// Decisions being journaled: they take effect once written.
    pub(super) staged: Option<Staged>,
    /// The engine process failed and the journal is taking the run over:
    /// nothing of the guest runs, and the cell leaves memory once written.
    pub(super) handing_over: bool,
    /// The deadline of the window a hand-over answers by, once set.
    pub(super) hand_over_by: Option<Instant>,
    /// Decisions of the `wait` that resumed this run, taken once it is
    /// live.
    pub(super) resume_decide: Option<Decide>,
    /// Where the first window streams its output, until it opens.
    pub(super) first_stream: Option<crate::stream::OutputStream>,
    /// Entries of the pending output already streamed and reported.
    pub(super) output_seen: usize,
    /// Calls running as MCP tasks.
    pub(super) tasks: super::tasks::McpTasks,
    /// Counts this cell's actor as alive until its state, span included,
    /// is gone: declared last, so it drops after every other field.
    _alive: Alive,
}

impl CellState {
    /// The cell of `args`, on its actor `myself`; a run to resume gets its
    /// replay ready to run at the first window.
    pub(crate) fn new(args: CellArgs, myself: ActorRef<CellMsg>) -> Self {
        let CellArgs { plan, services, tools, engine, lease } = args;
        let CellPlan { run_id, wrapped, mode, span, admitted, meta, resume, stream } = plan;
        // A resumed run's approvals belong to the principal that started it.
        let owner = resume.as_ref().map_or_else(|| meta.principal.clone(), |r| r.owner());
        let owner_principal = owner.clone();
        let mut approvals = Approvals::new(services.limits.approval_ttl.min(services.limits.parked_ttl), owner);
        if let Some(restored) = &resume {
            approvals.restore(restored.journal.approvals.clone());
        }
        let tasks =
            super::tasks::McpTasks::restore(resume.as_ref().map(|r| r.journal.tasks.clone()).unwrap_or_default());
        let (resume, decide) = match resume.map(|r| *r) {
            Some(Restored { journal, version, decide, .. }) => (Some((journal, version)), decide),
            None => (None, None),
        };
        let started = Instant::now();
        span.record("queue_ms", millis(started.saturating_duration_since(admitted)));
        let me = myself.clone();
        let completion: Completion = Arc::new(move |id, done| {
            // The cell may have ended meanwhile; then nobody needs it.
            let _ = me.send_message(CellMsg::Done(id, done));
        });
        let host = HostWork::new(HostSetup {
            tools,
            max_in_flight: services.limits.max_in_flight,
            metrics: Arc::clone(&services.metrics),
            span: span.clone(),
            policy: Arc::clone(&services.policy),
            session: mode.session().map(str::to_owned),
            principal: owner_principal,
            run_id: Arc::from(run_id.as_str()),
            restart_safe: mode.restart_safe(),
            completion,
        });
        let engine = Engine::new(engine, lease);
        let me = myself.clone();
        let mail = Mailbox::new(move |msg: DurableMsg| {
            let _ = me.send_message(CellMsg::Durable(msg));
        });
        let (durability, setup) = Durability::start(DurableStart {
            args: services.durable.clone(),
            run_id: &run_id,
            mode: &mode,
            wrapped: &wrapped,
            meta,
            resume,
            mail,
            runs: Arc::clone(&services.runs),
            metrics: Arc::clone(&services.metrics),
            announcements: Announcements::new(services.events.clone(), &run_id, mode.session()),
        });
        if let Some(setup) = setup {
            engine.set_up(setup);
        }
        let alive = Alive::new(&services.runs);
        Self {
            run: RunInfo { run_id, mode, wrapped, started, myself, span },
            output: OutputLedger::new(services.limits.max_output_bytes),
            engine,
            host,
            effects: CellEffects::default(),
            windows: Windows::default(),
            ending: None,
            durability,
            approvals,
            staged: None,
            handing_over: false,
            hand_over_by: None,
            resume_decide: decide,
            first_stream: stream,
            output_seen: 0,
            tasks,
            services,
            _alive: alive,
        }
    }

    /// Marks the cell parked or not, in the metrics and the run index.
    pub(super) fn set_parked(&mut self, parked: bool) {
        if self.windows.parked != parked {
            self.services.metrics.add_parked(if parked { 1 } else { -1 });
            self.services.runs.set_parked(&self.run.run_id, parked);
            self.windows.parked = parked;
        }
    }

    /// Takes in network-derived metadata the guest read synchronously.
    pub(super) fn sync_network(&mut self) {
        self.effects.network |= self.engine.network();
    }

    /// The envelope id of this cell's model text, once it has observed
    /// network-derived content (GA-9.3).
    pub(super) fn untrusted_id(&mut self) -> Option<String> {
        self.sync_network();
        self.effects.untrusted_id(&self.run.run_id)
    }

    /// The output entries emitted since the last delivery.
    pub(super) fn take_entries(&mut self) -> super::output::PendingOutput {
        self.output_seen = 0;
        let (entries, marker) = self.engine.take_output();
        if marker {
            self.services.metrics.console_truncated();
        }
        entries
    }

    /// The output since the last delivery, within the budget.
    pub(super) fn take_output(&mut self) -> codemode_protocol::Output {
        let entries = self.take_entries();
        self.output.deliver(entries)
    }

    /// The cell's counters and receipt for a result: what it did and what
    /// it cost so far (the heap's peak as its allocator counted it).
    pub(super) fn telemetry(&self) -> Telemetry {
        self.engine.note_heap();
        self.journal_telemetry()
    }

    /// The counters and costs a journal write records (the heap as last
    /// measured: a write does not walk it).
    pub(super) fn journal_telemetry(&self) -> Telemetry {
        with_costs(self.host.telemetry(), self.engine.costs(), self.output.used())
    }

    /// A failed result with the output since the last delivery.
    pub(super) fn fail(&mut self, code: ErrorCode, error: String, phase: Phase) -> CellResult {
        let entries = self.take_entries();
        let (output, error) = self.output.deliver_error(entries, error);
        let telemetry = self.telemetry();
        CellResult::failed(code, error, phase)
            .with_output(output)
            .with_telemetry(telemetry)
            .with_untrusted(self.untrusted_id())
    }

    /// Fails the cell and ends it as `end`.
    pub(super) fn fail_end(&mut self, code: ErrorCode, error: String, phase: Phase, end: RunEnd) -> Flow {
        let result = self.fail(code, error, phase);
        self.finish(result, end)
    }

    /// Ends the cell and reports `result` to the observer. The run index
    /// hears of the end first, so a `wait` sent after the observer has the
    /// result always finds the run ended, never a stopping actor.
    pub(super) fn finish(&mut self, result: CellResult, end: RunEnd) -> Flow {
        self.finish_replying(result, end, Vec::new())
    }

    /// [`finish`](Self::finish), telling `also` the result too. A run with
    /// a record ends it first (GA-1.3: one end, recorded before it is
    /// reported, the same on every process): the cell stops, and reports
    /// once the record says so ([`end_recorded`](Self::end_recorded)).
    pub(super) fn finish_replying(
        &mut self,
        result: CellResult,
        end: RunEnd,
        also: Vec<ractor::RpcReplyPort<CellResult>>,
    ) -> Flow {
        // A disposed cell is not a failure (see `finish_unobserved`).
        if let CellResult::Failed { code, .. } = &result
            && end != RunEnd::Disposed
        {
            self.run.span.record("error.code", code.as_str());
        }
        let mut replies: Vec<_> = self.windows.current.take().map(|w| w.reply).into_iter().collect();
        replies.extend(also);
        // A disposed cell has nobody to tell: its record ends behind it.
        let record = if end == RunEnd::Disposed { None } else { self.durability.end_record(end) };
        if let Some(record) = record {
            self.set_parked(false);
            self.windows.cancel_timers();
            self.cancel_tasks();
            let end = record.end();
            self.ending = Some(Ending::Recording(Box::new(Recording { result, end, replies })));
            let me = self.run.myself.clone();
            tokio::spawn(async move {
                let _ = me.send_message(CellMsg::EndRecorded(record.record().await));
            });
            return Flow::Live;
        }
        let flow = self.finish_unobserved(end);
        for reply in replies {
            let _ = reply.send(result.clone());
        }
        flow
    }

    /// The ending cell's record says how it ended, or could not be
    /// written: report the end, or that the run lives on as its record.
    pub(super) fn end_recorded(&mut self, outcome: Result<(), EndNotRecorded>) -> Flow {
        let Some(Ending::Recording(recording)) = self.ending.take() else { return Flow::Live };
        let Recording { mut result, end, replies } = *recording;
        match outcome {
            Ok(()) => {
                let flow = self.finish_unobserved(end);
                for reply in replies {
                    let _ = reply.send(result.clone());
                }
                flow
            }
            Err(why) => {
                let message = match why {
                    EndNotRecorded::Moved => format!(
                        "code mode run ended here as {end}, but another codemode process had advanced it; this \
                         copy stopped and the run lives on there. Call wait again."
                    ),
                    EndNotRecorded::Unavailable(e) => format!(
                        "code mode run ended here as {end}, but its end could not be recorded ({e}). The run is \
                         not lost and nothing of this end counts: call wait again, and it resumes from its \
                         journal."
                    ),
                };
                if let CellResult::Failed { code, error, phase, .. } = &mut result {
                    (*code, *error, *phase) = (ErrorCode::RuntimeUnavailable, message, Phase::Host);
                }
                // Out of the run index first: a wait sent once the observer
                // has the answer finds the record, never this stopping copy.
                self.leave_memory();
                for reply in replies {
                    let _ = reply.send(result.clone());
                }
                Flow::Ended
            }
        }
    }

    /// Ends the cell as `end` with no observer to tell.
    pub(super) fn finish_unobserved(&mut self, end: RunEnd) -> Flow {
        let (run_id, session) = (&self.run.run_id, self.run.mode.session());
        self.services.events.emit(|| crate::events::RunEvent::Ended {
            run_id: run_id.clone(),
            session: session.map(str::to_owned),
            end,
        });
        self.set_parked(false);
        self.windows.cancel_timers();
        self.cancel_tasks();
        let span = &self.run.span;
        span.record("status", end.label());
        // Completed is OK; disposed is the host letting go, not a failure
        // (UNSET); every other end is an error, described by the end state
        // (never the error text, which may carry guest data).
        match end {
            RunEnd::Completed => {
                span.record("otel.status_code", "OK");
            }
            RunEnd::Disposed => {}
            _ => {
                span.record("otel.status_code", "ERROR");
                span.record("otel.status_description", end.label());
            }
        }
        let telemetry = self.host.telemetry();
        span.record("duration_ms", millis(self.run.started.elapsed()));
        span.record("output_bytes", self.output.used());
        span.record("tool_calls", telemetry.call_count);
        span.record("timers", telemetry.timer_count);
        span.record("searches", telemetry.search_count);
        self.durability.on_end(end);
        self.services.runs.ended(&self.run.run_id, end);
        Flow::Ended
    }

    /// The cell leaves memory without ending its run (evicted, or another
    /// process took its lease): the run lives on as its record.
    pub(super) fn leave_memory(&mut self) {
        self.set_parked(false);
        self.windows.cancel_timers();
        self.durability.leave_memory();
        self.services.runs.evicted(&self.run.run_id, self.run.myself.get_id());
    }
}

/// The host-side state a journal write snapshots, from the cell's parts;
/// `telemetry` is the cell's with its costs ([`CellState::journal_telemetry`]).
pub(super) fn host_state<'a>(
    host: &'a HostWork,
    telemetry: Telemetry,
    effects: &'a CellEffects,
    reads: &'a EngineReads<'_>,
    undelivered: &'a [Settlement],
    approvals: &'a crate::durable::journal::ApprovalLog,
    tasks: &'a crate::durable::journal::TaskLog,
) -> HostState<'a> {
    HostState {
        timers: host.timer_deadlines(),
        output_used: usize::try_from(telemetry.output_bytes).unwrap_or(usize::MAX),
        telemetry,
        network: effects.network || reads.network(),
        envelope_id: effects.envelope_id.clone(),
        undelivered,
        reads,
        writes: &effects.writes,
        approvals,
        tasks,
    }
}

/// `telemetry` with the receipt's costs.
fn with_costs(mut telemetry: Telemetry, costs: Costs, output_used: usize) -> Telemetry {
    let micros = |d: std::time::Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
    telemetry.guest_cpu_us = micros(costs.guest_cpu);
    telemetry.host_wait_us = micros(costs.host_wait);
    telemetry.heap_peak_bytes = costs.heap_peak_bytes;
    telemetry.output_bytes = output_used as u64;
    telemetry
}

/// The costs a journal recorded in `telemetry`.
pub(super) fn recorded_costs(telemetry: &Telemetry) -> Costs {
    Costs {
        guest_cpu: std::time::Duration::from_micros(telemetry.guest_cpu_us),
        host_wait: std::time::Duration::from_micros(telemetry.host_wait_us),
        heap_peak_bytes: telemetry.heap_peak_bytes,
    }
}

/// Whole milliseconds, saturating.
pub(super) fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
