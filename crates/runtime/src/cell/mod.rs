//! The cell actor: one per live or parked cell.
//!
//! A `CellActor` owns one cell — its QuickJS runtime and context, its host
//! work (tool calls, timers, yields), its output and its observer — and
//! lives on one JS thread for its whole life. Guest JavaScript only runs
//! inside an observation *window* (an `exec` or `wait` call with a
//! deadline); host work keeps going while the cell is parked, and its
//! results are delivered when the next window opens.

mod bridge;
mod catalog_api;
mod complete;
mod convert;
pub(crate) mod durable;
mod host;
pub(crate) mod journal;
mod output;
mod report;
mod requests;
mod services;
pub(crate) mod spare;
pub(crate) mod tools;
pub(crate) mod vm;

pub(crate) use bridge::McpRoute;
pub(crate) use tools::ToolTable;

use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::mcp::McpHub;
use crate::nodes::NodeRegistry;
use codemode_bridge::{CellResult, ErrorCode, Phase, Telemetry, WaitReason};
use codemode_catalog::policy::Policy;
use codemode_catalog::{Catalog, files};
use codemode_store::{ResultsCache, SessionStore};
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::jsthreads::ThreadLease;
use crate::limits::Limits;
use crate::runs::{EndState, Runs};
use crate::telemetry::Metrics;
use bridge::{Bridge, Outcome};
use host::{HostWork, Notify};
use output::OutputLedger;
use vm::{CellControl, StartError, Vm};

/// How a cell is bound to its host; carried on every host request so that
/// session-bound helpers can refuse headless and restart-safe cells.
/// Internal: hosts choose it through `Session::reply` and `CodeMode::headless`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CellMode {
    /// Bound to a session and a reply; can park and be resumed.
    Interactive {
        /// The owning session.
        session: String,
        /// The reply (model turn) the cell belongs to.
        reply: String,
        /// The cell must be safe to replay after a host restart.
        restart_safe: bool,
    },
    /// An automation script: no session, runs to completion in one call.
    Headless,
}

impl CellMode {
    fn is_headless(&self) -> bool {
        matches!(self, Self::Headless)
    }
}

/// Everything a cell actor starts with.
pub(crate) struct CellArgs {
    pub run_id: String,
    pub wrapped: String,
    pub mode: CellMode,
    pub limits: Arc<Limits>,
    /// The cell's tool globals: the registry's, or a replayed run's own.
    pub tools: ToolTable,
    pub catalog: Catalog,
    pub store: SessionStore,
    pub results: ResultsCache,
    pub api_files: Arc<Vec<files::ApiFile>>,
    pub mcp: McpHub,
    pub nodes: Option<NodeRegistry>,
    pub policy: Arc<dyn Policy>,
    pub vm: Vm,
    pub engines: spare::EnginePool,
    pub span: tracing::Span,
    /// When the executor admitted the cell: the span's `queue_ms` runs
    /// from here to the actor's start.
    pub admitted: Instant,
    pub metrics: Arc<Metrics>,
    pub runs: Arc<Runs>,
    pub lease: ThreadLease,
    /// Journals and leases, for interactive cells (issue 17).
    pub durable: Option<durable::DurableArgs>,
    /// The exec's title and principal, for the run's record.
    pub meta: durable::Meta,
    /// A run to resume by replaying its journal (and the journal's version).
    pub resume: Option<(journal::Journal, u64)>,
}

/// Messages a cell handles. Private to the crate: callers go through the
/// run index.
pub(crate) enum CellMsg {
    /// Run the first window.
    Start(RpcReplyPort<CellResult>),
    /// Open a new window on a parked cell.
    Wait(RpcReplyPort<CellResult>),
    /// End the cell as aborted.
    Abort(RpcReplyPort<CellResult>),
    /// End the cell quietly (the host no longer needs it).
    Dispose,
    /// A spawned tool call finished.
    ToolDone(u64, Result<codemode_catalog::ToolOutput, codemode_catalog::ToolError>),
    /// A session-bound request (store, load, results) finished.
    HostDone(u64, services::Done),
    /// A completing cell's reference and commit are done.
    Finalized(services::Finalized),
    /// A catalog search finished.
    SearchDone(u64, Result<Vec<codemode_catalog::SearchHit>, codemode_catalog::SearchError>),
    /// A timer may be due, or the window's deadline may have passed.
    Wake,
    /// The parked cell's idle TTL ran out (for the park numbered `epoch`).
    Expire(u64),
    /// The hand-off delay of the park numbered `epoch` passed: release the
    /// lease (issue 17).
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
    /// The runtime is stopping: hand a held lease over (see
    /// `release_for_shutdown`).
    ReleaseForShutdown(RpcReplyPort<()>),
}

pub(crate) struct CellActor;

/// A cell actor's state: the cell until the actor stops, then nothing.
///
/// ractor hands a stopped actor's state to its supervisor inside the
/// `ActorTerminated` event, so a state left in place would live until the
/// root supervisor handled that event — during a shutdown, never (the root
/// is busy stopping the tree), and under load, as long as the root's
/// mailbox is behind, holding a whole QuickJS engine. `post_stop` drops the
/// cell here instead, on its own JS thread.
pub(crate) struct CellSlot(Option<Box<CellState>>);

struct Window {
    reply: RpcReplyPort<CellResult>,
    deadline: Instant,
}

pub(crate) struct CellState {
    run_id: String,
    mode: CellMode,
    limits: Arc<Limits>,
    runs: Arc<Runs>,
    control: Arc<CellControl>,
    bridge: Arc<Mutex<Bridge>>,
    // `Drop` retires the engine to the runtime's engine factory, which
    // frees it; tool tasks (which never hold engine values) are aborted
    // when `host` drops.
    host: HostWork,
    vm: Option<Vm>,
    /// Where the engine goes when the cell ends.
    engines: spare::EnginePool,
    wrapped: String,
    notify: Notify,
    tools: ToolTable,
    catalog: Catalog,
    store: SessionStore,
    results: ResultsCache,
    /// Host-provided virtual files (`results.d.ts`).
    api_files: Arc<Vec<files::ApiFile>>,
    /// The MCP servers.
    mcp: McpHub,
    /// The paired nodes, when the host configured them (GA-10).
    nodes: Option<NodeRegistry>,
    /// Store writes not yet committed (GA-7.5).
    writes: services::WriteBuffer,
    /// The cell has observed network-derived content (GA-7.7).
    network: bool,
    /// Its untrusted-content envelope id, made when first needed.
    envelope_id: Option<String>,
    /// Set while a completed cell saves its reference and commits.
    finishing: Option<complete::Finishing>,
    /// Set while a returned cell waits for host requests it did not await.
    draining: Option<complete::Draining>,
    /// The cell's span; closed when the cell's state is dropped.
    span: tracing::Span,
    metrics: Arc<Metrics>,
    started: Instant,
    parked: bool,
    myself: ActorRef<CellMsg>,
    window: Option<Window>,
    wake_at: Option<Instant>,
    /// The pending wake-up and parked-TTL timers: aborted when replaced and
    /// when the cell ends, so an ended cell holds nothing for its TTL.
    wake_timer: Option<TimerTask>,
    ttl_timer: Option<TimerTask>,
    park_epoch: u64,
    output: OutputLedger,
    telemetry: Telemetry,
    /// Counts the cell against its JS thread; marks the thread busy while
    /// guest code runs.
    lease: ThreadLease,
    /// The journal and lease (interactive cells with a run store).
    durable: Option<durable::Durable>,
    /// A replay in progress.
    replay: Option<durable::Replaying>,
    /// The hand-off or eviction timer of the current park.
    handoff_timer: Option<TimerTask>,
    /// The next lease renewal.
    renew_timer: Option<TimerTask>,
    /// Nothing here may end the run's record: the cell left memory
    /// (evicted, or its lease was taken) and the run lives on as its
    /// record, or the record already ended with the cell's commit.
    record_closed: bool,
    /// The replay diverged: the record ends as `replay_diverged`.
    diverged: bool,
    /// The completing cell's commit ends the run's record too.
    record_through_commit: bool,
    /// The newest held request a write-ahead was asked for.
    write_ahead_sent: u64,
    /// Counts this cell's actor as alive until its state, span included,
    /// is gone: declared last, so it drops after every other field.
    _alive: crate::runs::Alive,
}

/// What the cell does after handling a message.
enum Flow {
    /// Keep running (window open and waiting on host work, or parked).
    Live,
    /// The cell ended and told the run index; the actor stops.
    Ended,
}

/// A message scheduled with `send_after`.
type TimerTask = tokio::task::JoinHandle<Result<(), ractor::MessagingErr<CellMsg>>>;

fn replace_timer(slot: &mut Option<TimerTask>, task: Option<TimerTask>) {
    if let Some(old) = std::mem::replace(slot, task) {
        old.abort();
    }
}

impl Drop for CellState {
    fn drop(&mut self) {
        replace_timer(&mut self.wake_timer, None);
        replace_timer(&mut self.ttl_timer, None);
        replace_timer(&mut self.handoff_timer, None);
        replace_timer(&mut self.renew_timer, None);
        // Freeing an engine costs about a third of preparing one; the
        // factory thread does it, off the JS thread.
        if let Some(vm) = self.vm.take() {
            self.engines.retire(vm);
        }
    }
}

impl Actor for CellActor {
    type Msg = CellMsg;
    type State = CellSlot;
    type Arguments = CellArgs;

    async fn pre_start(&self, myself: ActorRef<CellMsg>, args: CellArgs) -> Result<CellSlot, ActorProcessingErr> {
        let vm = args.vm;
        let session = match &args.mode {
            CellMode::Interactive { session, .. } => Some(session.clone()),
            CellMode::Headless => None,
        };
        let restart_safe = matches!(args.mode, CellMode::Interactive { restart_safe: true, .. });
        let me = myself.clone();
        let notify: Notify = Arc::new(move |id, result| {
            // The cell may have ended meanwhile; then nobody needs the result.
            let _ = me.send_message(CellMsg::ToolDone(id, result));
        });
        let started = Instant::now();
        args.span.record("queue_ms", millis(started.saturating_duration_since(args.admitted)));
        let durable = match (&args.resume, args.durable.clone()) {
            (None, Some(d)) => durable::Durable::new(d, &args.run_id, &args.mode, &args.wrapped, args.meta),
            _ => None,
        };
        if let Some(d) = &durable {
            vm_lock(vm.bridge()).determinism.start(d.seed());
        }
        let resume = args.resume;
        let resume_args = args.durable;
        let alive = crate::runs::Alive::new(&args.runs);
        let mut state = CellState {
            run_id: args.run_id,
            mode: args.mode,
            host: HostWork::new(
                args.tools.clone(),
                args.limits.max_in_flight,
                Arc::clone(&args.metrics),
                args.span.clone(),
                args.policy,
                session,
                restart_safe,
            ),
            tools: args.tools,
            catalog: args.catalog,
            store: args.store,
            results: args.results,
            api_files: args.api_files,
            mcp: args.mcp,
            nodes: args.nodes,
            writes: services::WriteBuffer::new(),
            network: false,
            envelope_id: None,
            finishing: None,
            draining: None,
            span: args.span,
            metrics: args.metrics,
            started,
            parked: false,
            myself: myself.clone(),
            output: OutputLedger::new(args.limits.max_output_bytes),
            limits: args.limits,
            runs: args.runs,
            control: Arc::clone(vm.control()),
            bridge: Arc::clone(vm.bridge()),
            vm: Some(vm),
            engines: args.engines,
            wrapped: args.wrapped,
            notify,
            window: None,
            wake_at: None,
            wake_timer: None,
            ttl_timer: None,
            park_epoch: 0,
            telemetry: Telemetry::default(),
            lease: args.lease,
            durable,
            replay: None,
            handoff_timer: None,
            renew_timer: None,
            record_closed: false,
            diverged: false,
            record_through_commit: false,
            write_ahead_sent: 0,
            _alive: alive,
        };
        if let (Some((journal, version)), Some(d)) = (resume, resume_args) {
            state.begin_replay(journal, d, version);
        }
        Ok(CellSlot(Some(Box::new(state))))
    }

    async fn post_stop(&self, _: ActorRef<CellMsg>, slot: &mut CellSlot) -> Result<(), ActorProcessingErr> {
        slot.0 = None;
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<CellMsg>,
        msg: CellMsg,
        slot: &mut CellSlot,
    ) -> Result<(), ActorProcessingErr> {
        // Messages that reach a stopping actor find no cell: nothing to do.
        let Some(state) = slot.0.as_deref_mut() else { return Ok(()) };
        let flow = match msg {
            CellMsg::Start(reply) => state.start(&myself, reply),
            CellMsg::Wait(reply) => state.resume(&myself, reply),
            CellMsg::Abort(reply) if state.finishing.is_some() => {
                // The cell already completed and is committing: the commit
                // cannot be taken back, so the abort gets the final result.
                if let Some(f) = state.finishing.as_mut() {
                    f.also_reply.push(reply);
                }
                Flow::Live
            }
            CellMsg::Abort(reply) => {
                let result = state.fail(ErrorCode::Aborted, "code mode execution aborted".into(), Phase::Guest);
                let flow = state.finish(result.clone(), EndState::Aborted);
                let _ = reply.send(result);
                flow
            }
            CellMsg::Dispose => {
                let result =
                    state.fail(ErrorCode::Aborted, "code mode run was disposed by the host".into(), Phase::Host);
                state.finish(result, EndState::Disposed)
            }
            CellMsg::ToolDone(id, result) => {
                if state.host.complete(id, result) {
                    state.slot_freed();
                }
                state.advance_if_observed(&myself)
            }
            CellMsg::HostDone(id, done) => {
                if state.host.task_done(id) {
                    let settlement = match done {
                        services::Done::Settle(s) => s,
                        services::Done::Stored { key, value, settlement } => {
                            if let Some(d) = state.durable.as_mut() {
                                d.wrote(&key);
                            }
                            state.writes.insert(key, value);
                            settlement
                        }
                        services::Done::Loaded { settlement, network } => {
                            state.network |= network;
                            settlement
                        }
                    };
                    state.host.settle_now(settlement);
                    state.slot_freed();
                }
                state.advance_if_observed(&myself)
            }
            CellMsg::Finalized(finalized) => state.finalized(finalized),
            CellMsg::SearchDone(id, result) => {
                if state.host.task_done(id) {
                    let remaining = state.output.remaining();
                    state.network |= catalog_api::shows_mcp(&result);
                    state.host.settle_now(catalog_api::search_reply(&state.tools, id, result, remaining));
                    state.slot_freed();
                }
                state.advance_if_observed(&myself)
            }
            CellMsg::Wake => {
                state.wake_at = None;
                state.advance_if_observed(&myself)
            }
            CellMsg::Expire(epoch) if state.window.is_none() && epoch == state.park_epoch => {
                state.finish_unobserved(EndState::Expired)
            }
            CellMsg::Expire(_) => Flow::Live,
            CellMsg::HandOff(epoch) => state.hand_off(&myself, epoch),
            CellMsg::Evict(epoch) => state.evict(epoch),
            CellMsg::LeaseLost => state.lease_lost(),
            CellMsg::Renew => state.renew(),
            CellMsg::Journaled(upto) => {
                state.journaled(upto);
                state.advance_if_observed(&myself)
            }
            CellMsg::WriteAheadFailed(upto, why) => {
                state.write_ahead_failed(upto, &why);
                state.advance_if_observed(&myself)
            }
            CellMsg::ReleaseForShutdown(done) => state.release_for_shutdown(done),
        };
        if let Flow::Ended = flow {
            myself.stop(None);
        }
        Ok(())
    }
}

impl CellState {
    fn open_window(&mut self, reply: RpcReplyPort<CellResult>) {
        let budget = if self.mode.is_headless() { self.limits.headless_timeout } else { self.limits.timeout };
        let deadline = Instant::now() + budget;
        self.control.set_deadline(deadline);
        self.window = Some(Window { reply, deadline });
    }

    fn start(&mut self, myself: &ActorRef<CellMsg>, reply: RpcReplyPort<CellResult>) -> Flow {
        self.open_window(reply);
        let started = match &self.vm {
            Some(vm) => {
                let _busy = self.lease.guest_step();
                vm.start(&self.wrapped)
            }
            None => Err(StartError::Engine("the cell's engine is gone".into())),
        };
        match started {
            Ok(()) if self.replay.is_some() => {
                // A resumed run: its first window is the `wait` that
                // resumed it, after the journal is replayed.
                if let Some(flow) = self.take_submissions() {
                    return flow;
                }
                if let Some(flow) = self.replay_steps() {
                    return flow;
                }
                tracing::info!(parent: &self.span, "resumed by replay");
                self.host.resolve_yields();
                self.advance(myself)
            }
            Ok(()) => self.advance(myself),
            Err(StartError::Syntax(message)) => {
                self.fail_end(ErrorCode::InvalidInput, message, Phase::Input, EndState::Failed)
            }
            Err(StartError::Engine(message)) => {
                let (code, end, message) = self.interrupted().unwrap_or((
                    ErrorCode::InternalError,
                    EndState::Failed,
                    format!("the cell could not start: {message}"),
                ));
                self.fail_end(code, message, Phase::Host, end)
            }
        }
    }

    fn resume(&mut self, myself: &ActorRef<CellMsg>, reply: RpcReplyPort<CellResult>) -> Flow {
        if self.window.is_some() {
            let _ = reply.send(CellResult::input_error(
                ErrorCode::InvalidInput,
                "a wait for this code mode run is already in flight; wait for its result before calling wait again.",
            ));
            return Flow::Live;
        }
        self.park_epoch += 1;
        replace_timer(&mut self.ttl_timer, None);
        replace_timer(&mut self.handoff_timer, None);
        self.lease_reclaimed();
        self.set_parked(false);
        tracing::info!(parent: &self.span, "wait");
        self.open_window(reply);
        self.host.resolve_yields();
        self.advance(myself)
    }

    fn advance_if_observed(&mut self, myself: &ActorRef<CellMsg>) -> Flow {
        if self.window.is_some() { self.advance(myself) } else { Flow::Live }
    }

    /// A request that held a slot settled: its bridge slot is free, and the
    /// next queued requests start (some may settle inline at once).
    fn slot_freed(&mut self) {
        let inline = self.host.pump(&self.notify);
        self.release_call_slot(1 + inline);
    }

    fn release_call_slot(&mut self, n: usize) {
        let mut bridge = vm_lock(&self.bridge);
        bridge.outstanding_calls = bridge.outstanding_calls.saturating_sub(n);
    }

    /// Runs the guest and its host work until the cell settles, parks, or
    /// must wait for host work within the window.
    fn advance(&mut self, myself: &ActorRef<CellMsg>) -> Flow {
        let Some(deadline) = self.window.as_ref().map(|w| w.deadline) else {
            return Flow::Live;
        };
        if self.finishing.is_some() {
            // The top-level promise has settled; nothing else runs.
            return Flow::Live;
        }
        if self.draining.is_some() {
            return self.drain(deadline);
        }
        loop {
            if let Some(flow) = self.check_settled() {
                return flow;
            }
            let now = Instant::now();
            if now >= deadline {
                // Guest code only runs with budget left: park (or, headless,
                // fail) instead of starting a step that would be interrupted.
                return self.out_of_budget(myself);
            }
            let fired = self.host.fire_due_timers(now);
            if !fired.is_empty() {
                let mut bridge = vm_lock(&self.bridge);
                for id in fired {
                    bridge.timer_fired(id);
                }
            }
            let ready = std::mem::take(&mut self.host.ready);
            let stepped = !ready.is_empty();
            if stepped && let Some(d) = self.durable.as_mut() {
                d.step(&ready);
            }
            if let Some(vm) = &self.vm {
                let _busy = self.lease.guest_step();
                vm.step(ready);
            }
            if let Some(flow) = self.check_settled() {
                return flow;
            }
            if let Some(flow) = self.take_submissions() {
                return flow;
            }
            // After the step's requests are recorded: the journal ends at a
            // step boundary with everything that step asked for.
            if self.host.awaiting_journal().is_some() {
                self.write_ahead_if_due();
            } else if stepped && self.host.take_held_settled() {
                self.journal_held_answers();
            } else if stepped {
                self.journal_step();
            }
            // Settled inline, or a timer already due (`setTimeout(f, 0)`):
            // go round again without a trip through the timer wheel.
            if !self.host.ready.is_empty() || self.host.next_timer().is_some_and(|t| t <= Instant::now()) {
                continue;
            }
            if !(self.host.has_calls() || self.host.has_timers() || self.host.has_yields()) {
                let message = "code mode promise is pending without host work: the cell awaits a promise that \
                               nothing will settle (no tool call, timer or yield is pending). Resolve it, or await \
                               a tool call or timer instead."
                    .to_owned();
                return self.fail_end(ErrorCode::InternalError, message, Phase::Guest, EndState::Failed);
            }
            if self.host.has_yields() {
                if self.mode.is_headless() {
                    // Headless cells have no `wait`: a yield resumes at once.
                    self.host.resolve_yields();
                    continue;
                }
                let only_yields = !self.host.has_calls() && !self.host.has_timers();
                return self.park(myself, if only_yields { WaitReason::Yield } else { WaitReason::PendingTools });
            }
            let wake = self.host.next_timer().map_or(deadline, |t| t.min(deadline));
            self.schedule_wake(myself, wake);
            return Flow::Live;
        }
    }

    /// Ends the cell if it was interrupted, refused admission, or settled.
    fn check_settled(&mut self) -> Option<Flow> {
        if let Some((code, end, message)) = self.interrupted() {
            return Some(self.fail_end(code, message, Phase::Guest, end));
        }
        if let Some(flow) = self.replay_check() {
            return Some(flow);
        }
        let (admission, outcome) = {
            let mut bridge = vm_lock(&self.bridge);
            (bridge.admission.clone(), bridge.outcome.take())
        };
        if let Some(err) = admission {
            self.metrics.admission_rejected(err.limit.label());
            return Some(self.fail_end(ErrorCode::InvalidInput, err.message, Phase::Guest, EndState::Failed));
        }
        if let Some(refusal) = self.host.take_refusal() {
            return Some(self.fail_end(ErrorCode::InvalidInput, refusal, Phase::Guest, EndState::Failed));
        }
        match outcome? {
            Outcome::Value(value) => Some(self.returned(value)),
            Outcome::Error(error) => {
                let used = self.vm.as_ref().map_or(0, Vm::memory_used);
                let (code, message) = report::guest_error(&error, self.limits.memory_limit_bytes, used);
                let phase = if code == ErrorCode::InvalidInput { Phase::Input } else { Phase::Guest };
                Some(self.fail_end(code, message, phase, EndState::Failed))
            }
        }
    }

    fn interrupted(&self) -> Option<(ErrorCode, EndState, String)> {
        if !self.control.was_interrupted() {
            return None;
        }
        Some(if self.control.is_aborted() {
            (ErrorCode::Aborted, EndState::Aborted, "code mode execution aborted".to_owned())
        } else {
            let budget = if self.mode.is_headless() { self.limits.headless_timeout } else { self.limits.timeout };
            (ErrorCode::Timeout, EndState::TimedOut, report::timeout_message(budget))
        })
    }

    fn out_of_budget(&mut self, myself: &ActorRef<CellMsg>) -> Flow {
        if self.mode.is_headless() {
            let message = report::timeout_message(self.limits.headless_timeout);
            return self.fail_end(ErrorCode::Timeout, message, Phase::Guest, EndState::TimedOut);
        }
        self.park(myself, WaitReason::PendingTools)
    }

    /// Reports `waiting` and keeps the cell until `wait`, abort or expiry.
    fn park(&mut self, myself: &ActorRef<CellMsg>, reason: WaitReason) -> Flow {
        let Some(window) = self.window.take() else {
            return Flow::Live;
        };
        self.control.clear_deadline();
        self.set_parked(true);
        self.park_epoch += 1;
        tracing::info!(parent: &self.span, reason = reason.as_str(), "waiting");
        let result = CellResult::Waiting {
            run_id: self.run_id.clone(),
            reason,
            pending_tool_calls: self.host.pending_calls(),
            output: self.take_output(),
            telemetry: self.telemetry,
            untrusted: self.untrusted_id(),
        };
        self.delivered();
        let reply = window.reply;
        self.park_durably(
            myself,
            Box::new(move || {
                let _ = reply.send(result);
            }),
        );
        let epoch = self.park_epoch;
        let ttl = myself.send_after(self.limits.parked_ttl, move || CellMsg::Expire(epoch));
        replace_timer(&mut self.ttl_timer, Some(ttl));
        Flow::Live
    }

    fn schedule_wake(&mut self, myself: &ActorRef<CellMsg>, at: Instant) {
        if self.wake_at.is_some_and(|w| w <= at) {
            return;
        }
        self.wake_at = Some(at);
        let wake = myself.send_after(at.saturating_duration_since(Instant::now()), || CellMsg::Wake);
        replace_timer(&mut self.wake_timer, Some(wake));
    }

    fn take_output(&mut self) -> codemode_bridge::Output {
        let entries = self.take_entries();
        self.output.deliver(entries)
    }

    fn fail(&mut self, code: ErrorCode, error: String, phase: Phase) -> CellResult {
        let entries = self.take_entries();
        let (output, error) = self.output.deliver_error(entries, error);
        CellResult::Failed { code, error, phase, output, telemetry: self.telemetry, untrusted: self.untrusted_id() }
    }

    /// The envelope id of this cell's model text once it has observed
    /// network-derived content (GA-9.3); one id per cell.
    fn untrusted_id(&mut self) -> Option<String> {
        self.network |= vm_lock(&self.bridge).network;
        if !self.network {
            return None;
        }
        Some(self.envelope_id.get_or_insert_with(|| crate::runs::new_run_id()[4..20].to_owned()).clone())
    }

    fn fail_end(&mut self, code: ErrorCode, error: String, phase: Phase, end: EndState) -> Flow {
        let result = self.fail(code, error, phase);
        self.finish(result, end)
    }

    /// Ends the cell and reports `result` to the observer. The run index
    /// hears of the end first, so a `wait` sent after the observer has the
    /// result always finds the run ended, never a stopping actor.
    fn finish(&mut self, result: CellResult, end: EndState) -> Flow {
        // A disposed cell is not a failure (see `finish_unobserved`).
        if let CellResult::Failed { code, .. } = &result
            && end != EndState::Disposed
        {
            self.span.record("error.code", code.as_str());
        }
        let flow = self.finish_unobserved(end);
        if let Some(window) = self.window.take() {
            let _ = window.reply.send(result);
        }
        flow
    }

    /// The output entries emitted since the last delivery.
    fn take_entries(&mut self) -> output::PendingOutput {
        let mut bridge = vm_lock(&self.bridge);
        if std::mem::take(&mut bridge.console_marker_emitted) {
            self.metrics.console_truncated();
        }
        bridge.output.take()
    }

    fn set_parked(&mut self, parked: bool) {
        if self.parked != parked {
            self.metrics.add_parked(if parked { 1 } else { -1 });
            self.runs.set_parked(&self.run_id, parked);
            self.parked = parked;
        }
    }

    fn finish_unobserved(&mut self, end: EndState) -> Flow {
        self.set_parked(false);
        replace_timer(&mut self.wake_timer, None);
        replace_timer(&mut self.ttl_timer, None);
        self.span.record("status", end.label());
        // Completed is OK; disposed is the host letting go, not a failure
        // (UNSET); every other end is an error, described by the end state
        // (never the error text, which may carry guest data).
        match end {
            EndState::Completed => {
                self.span.record("otel.status_code", "OK");
            }
            EndState::Disposed => {}
            _ => {
                self.span.record("otel.status_code", "ERROR");
                self.span.record("otel.status_description", end.label());
            }
        }
        self.span.record("duration_ms", millis(self.started.elapsed()));
        self.span.record("output_bytes", self.output.used());
        self.span.record("tool_calls", self.telemetry.call_count);
        self.span.record("timers", self.telemetry.timer_count);
        self.span.record("searches", self.telemetry.search_count);
        self.end_record(end);
        self.runs.ended(&self.run_id, end);
        Flow::Ended
    }
}

/// Whole milliseconds, saturating.
fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn vm_lock(bridge: &Mutex<Bridge>) -> std::sync::MutexGuard<'_, Bridge> {
    bridge.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
