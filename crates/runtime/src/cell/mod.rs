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
mod host;
mod output;
mod report;
mod services;
pub(crate) mod spare;
pub(crate) mod vm;

use std::sync::{Arc, Mutex};
use std::time::Instant;

use codemode_bridge::{CellResult, ErrorCode, Output, Phase, Telemetry, WaitReason};
use codemode_catalog::mcp::McpHub;
use codemode_catalog::policy::{Decision, NestedCall, Policy};
use codemode_catalog::{Catalog, Registry, files};
use codemode_store::{ResultsCache, SessionStore, StoredValue};
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use serde_json::Value;

use crate::executor::{EndState, ExecutorMsg};
use crate::jsthreads::ThreadLease;
use crate::limits::Limits;
use crate::telemetry::Metrics;
use bridge::{Bridge, Outcome, Submitted};
use host::{HostWork, Notify};
use output::OutputLedger;
use vm::{CellControl, StartError, Vm};

/// How a cell is bound to its host; carried on every host request so that
/// session-bound helpers can refuse headless and restart-safe cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellMode {
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
    pub tools: Registry,
    pub catalog: Catalog,
    pub store: SessionStore,
    pub results: ResultsCache,
    pub api_files: Arc<Vec<files::ApiFile>>,
    pub mcp: McpHub,
    pub policy: Arc<dyn Policy>,
    pub vm: Vm,
    pub span: tracing::Span,
    pub metrics: Arc<Metrics>,
    pub executor: ActorRef<ExecutorMsg>,
    pub lease: ThreadLease,
}

/// Messages a cell handles. Private to the crate: callers go through the
/// executor.
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
}

pub(crate) struct CellActor;

struct Window {
    reply: RpcReplyPort<CellResult>,
    deadline: Instant,
}

pub(crate) struct CellState {
    run_id: String,
    mode: CellMode,
    limits: Arc<Limits>,
    executor: ActorRef<ExecutorMsg>,
    control: Arc<CellControl>,
    bridge: Arc<Mutex<Bridge>>,
    // Drop order: host work (tool tasks) first, then the engine.
    host: HostWork,
    vm: Vm,
    wrapped: String,
    notify: Notify,
    tools: Registry,
    catalog: Catalog,
    store: SessionStore,
    results: ResultsCache,
    /// Host-provided virtual files (`results.d.ts`).
    api_files: Arc<Vec<files::ApiFile>>,
    /// The MCP servers.
    mcp: McpHub,
    /// Sees every nested call before it runs.
    policy: Arc<dyn Policy>,
    /// Store writes not yet committed (GA-7.5).
    writes: services::WriteBuffer,
    /// The cell has observed network-derived content (GA-7.7).
    network: bool,
    /// Its untrusted-content envelope id, made when first needed.
    envelope_id: Option<String>,
    /// Set while a completed cell saves its reference and commits.
    finishing: Option<Finishing>,
    /// The cell's span; closed when the cell's state is dropped.
    span: tracing::Span,
    metrics: Arc<Metrics>,
    started: Instant,
    parked: bool,
    myself: ActorRef<CellMsg>,
    window: Option<Window>,
    wake_at: Option<Instant>,
    park_epoch: u64,
    output: OutputLedger,
    telemetry: Telemetry,
    _lease: ThreadLease,
}

/// What the cell does after handling a message.
enum Flow {
    /// Keep running (window open and waiting on host work, or parked).
    Live,
    /// The cell ended and told the executor; the actor stops.
    Ended,
}

impl Actor for CellActor {
    type Msg = CellMsg;
    type State = CellState;
    type Arguments = CellArgs;

    async fn pre_start(&self, myself: ActorRef<CellMsg>, args: CellArgs) -> Result<CellState, ActorProcessingErr> {
        let vm = args.vm;
        let session = match &args.mode {
            CellMode::Interactive { session, .. } => Some(session.clone()),
            CellMode::Headless => None,
        };
        let me = myself.clone();
        let notify: Notify = Arc::new(move |id, result| {
            // The cell may have ended meanwhile; then nobody needs the result.
            let _ = me.send_message(CellMsg::ToolDone(id, result));
        });
        Ok(CellState {
            run_id: args.run_id,
            mode: args.mode,
            host: HostWork::new(
                args.tools.clone(),
                args.limits.max_in_flight,
                Arc::clone(&args.metrics),
                args.span.clone(),
                Arc::clone(&args.policy),
                session,
            ),
            policy: Arc::clone(&args.policy),
            tools: args.tools,
            catalog: args.catalog,
            store: args.store,
            results: args.results,
            api_files: args.api_files,
            mcp: args.mcp,
            writes: services::WriteBuffer::new(),
            network: false,
            envelope_id: None,
            finishing: None,
            span: args.span,
            metrics: args.metrics,
            started: Instant::now(),
            parked: false,
            myself: myself.clone(),
            output: OutputLedger::new(args.limits.max_output_bytes),
            limits: args.limits,
            executor: args.executor,
            control: Arc::clone(vm.control()),
            bridge: Arc::clone(vm.bridge()),
            vm,
            wrapped: args.wrapped,
            notify,
            window: None,
            wake_at: None,
            park_epoch: 0,
            telemetry: Telemetry::default(),
            _lease: args.lease,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<CellMsg>,
        msg: CellMsg,
        state: &mut CellState,
    ) -> Result<(), ActorProcessingErr> {
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
                    state.release_call_slot(1);
                    state.host.pump(&state.notify);
                }
                state.advance_if_observed(&myself)
            }
            CellMsg::HostDone(id, done) => {
                if state.host.other_done(id) {
                    let settlement = match done {
                        services::Done::Settle(s) => s,
                        services::Done::Stored { key, value, settlement } => {
                            state.writes.insert(key, value);
                            settlement
                        }
                        services::Done::Loaded { settlement, network } => {
                            state.network |= network;
                            settlement
                        }
                        services::Done::Saved { settlement, bytes } => {
                            state.metrics.result_saved(bytes);
                            settlement
                        }
                    };
                    state.host.settle_now(settlement);
                    state.release_call_slot(1);
                }
                state.advance_if_observed(&myself)
            }
            CellMsg::Finalized(finalized) => state.finalized(finalized),
            CellMsg::SearchDone(id, result) => {
                if state.host.other_done(id) {
                    let remaining = state.output.remaining();
                    state.network |= catalog_api::shows_mcp(&result);
                    state.host.settle_now(catalog_api::search_reply(&state.tools, id, result, remaining));
                    state.release_call_slot(1);
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
        match self.vm.start(&self.wrapped) {
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
        self.set_parked(false);
        self.open_window(reply);
        self.host.resolve_yields();
        self.advance(myself)
    }

    fn advance_if_observed(&mut self, myself: &ActorRef<CellMsg>) -> Flow {
        if self.window.is_some() { self.advance(myself) } else { Flow::Live }
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
            self.vm.step(ready);
            if let Some(flow) = self.check_settled() {
                return flow;
            }
            if let Some(flow) = self.take_submissions() {
                return flow;
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

    /// Moves the guest's requests from the bridge into host work.
    fn take_submissions(&mut self) -> Option<Flow> {
        let (submitted, cancelled) = {
            let mut bridge = vm_lock(&self.bridge);
            // Metadata read synchronously (`$serverName`) marks later writes too.
            self.network |= bridge.network;
            (std::mem::take(&mut bridge.submitted), std::mem::take(&mut bridge.cancelled))
        };
        for id in cancelled {
            self.host.cancel_timer(id);
        }
        let now = Instant::now();
        let mut settled_inline = 0;
        for request in submitted {
            match request {
                Submitted::Call { id, tool, input } => {
                    self.telemetry.call_count += 1;
                    if self.mode.is_headless() && self.telemetry.call_count > self.limits.headless_max_tool_calls {
                        let message = format!(
                            "headless code mode tool budget exceeded ({} tool calls); make fewer calls per script.",
                            self.limits.headless_max_tool_calls
                        );
                        return Some(self.fail_end(
                            ErrorCode::ToolBudgetExceeded,
                            message,
                            Phase::Guest,
                            EndState::Failed,
                        ));
                    }
                    settled_inline += self.host.submit_call(id, tool, input, &self.notify);
                }
                Submitted::Timer { id, delay_ms } => {
                    self.telemetry.timer_count += 1;
                    self.host.add_timer(id, delay_ms, now);
                }
                Submitted::Yield { id, reason } => {
                    self.telemetry.yield_count += 1;
                    self.host.add_yield(id, reason);
                }
                Submitted::Search { id, query, limit } => {
                    self.telemetry.search_count += 1;
                    let catalog = self.catalog.clone();
                    let me = self.myself.clone();
                    self.host.spawn_other(id, "search", async move {
                        let result = catalog.search(query, limit).await;
                        let _ = me.send_message(CellMsg::SearchDone(id, result));
                    });
                }
                Submitted::Describe { id, tool } => {
                    self.telemetry.describe_count += 1;
                    settled_inline += 1;
                    self.host.settle_now(catalog_api::describe(&self.tools, id, tool));
                }
                Submitted::ApiList { id, prefix } => {
                    settled_inline += 1;
                    let files = self.all_api_files();
                    // Listing MCP declarations shows server-provided text.
                    self.network |=
                        !self.mcp.is_empty() && ("mcp/".starts_with(prefix.as_str()) || prefix.starts_with("mcp/"));
                    self.host.settle_now(catalog_api::list(&self.tools, &files, id, &prefix));
                }
                Submitted::ApiRead { id, path } => {
                    settled_inline += 1;
                    let files = self.all_api_files();
                    self.network |= path.starts_with("mcp/");
                    self.host.settle_now(catalog_api::read(&self.tools, &files, id, &path));
                }
                Submitted::Store { id, key, value } => match services::store_session(&self.mode) {
                    Err(refusal) => {
                        settled_inline += 1;
                        self.host.settle_now(services::refused(id, refusal));
                    }
                    Ok(session) => {
                        let value = value.map(|json| StoredValue { json, network: self.network });
                        let buffered: Vec<(String, Option<usize>)> =
                            self.writes.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.json.len()))).collect();
                        let task = services::store(self.store.clone(), session.to_owned(), buffered, id, key, value);
                        self.spawn_service(id, "store", task);
                    }
                },
                Submitted::Load { id, key } => match services::store_session(&self.mode) {
                    Err(refusal) => {
                        settled_inline += 1;
                        self.host.settle_now(services::refused(id, refusal));
                    }
                    Ok(session) => match services::load_buffered(&self.writes, id, &key) {
                        Some((settlement, network)) => {
                            settled_inline += 1;
                            self.network |= network;
                            self.host.settle_now(settlement);
                        }
                        None => {
                            let task = services::load(self.store.clone(), session.to_owned(), id, key);
                            self.spawn_service(id, "load", task);
                        }
                    },
                },
                Submitted::ResultSave { id, json } => match services::results_scope(&self.mode) {
                    Err(refusal) => {
                        settled_inline += 1;
                        self.host.settle_now(services::refused(id, refusal));
                    }
                    Ok(scope) => {
                        let task = services::result_save(self.results.clone(), scope, id, json, self.network);
                        self.spawn_service(id, "resultSave", task);
                    }
                },
                Submitted::ResultLoad { id, result_id } => match services::results_scope(&self.mode) {
                    Err(refusal) => {
                        settled_inline += 1;
                        self.host.settle_now(services::refused(id, refusal));
                    }
                    Ok(scope) => {
                        let task = services::result_load(self.results.clone(), scope, id, result_id);
                        self.spawn_service(id, "resultLoad", task);
                    }
                },
                Submitted::McpCall { id, server, tool, args } => {
                    let hub = self.mcp.clone();
                    let policy = Arc::clone(&self.policy);
                    let session = match &self.mode {
                        CellMode::Interactive { session, .. } => Some(session.clone()),
                        CellMode::Headless => None,
                    };
                    self.telemetry.call_count += 1;
                    let span = tracing::info_span!(parent: &self.span, "host_call", tool = %tool, source = "mcp");
                    let metrics = Arc::clone(&self.metrics);
                    let task = async move {
                        let started = Instant::now();
                        let args: serde_json::Map<String, Value> = serde_json::from_str(&args).unwrap_or_default();
                        let call = NestedCall {
                            source: "mcp",
                            server: hub.server_name(server).map(str::to_owned),
                            tool: tool.clone(),
                            arguments: Value::Object(args.clone()),
                            session,
                        };
                        // A denial resolves like an in-band MCP error (GA-9.4).
                        let result = match policy.check(call).await {
                            Decision::Deny(reason) => Ok(serde_json::json!({
                                "content": [{"type": "text", "text": format!("denied by policy: {reason}")}],
                                "isError": true
                            })),
                            Decision::Allow => hub.call(server, tool.clone(), args).await,
                        };
                        metrics.call_finished(&tool, "mcp", started.elapsed());
                        let settlement = match result {
                            Ok(value) => vm::Settlement { id, ok: true, payload: value.to_string() },
                            Err(message) => vm::Settlement {
                                id,
                                ok: false,
                                payload: serde_json::json!({"name": "Error", "message": message, "code": "tool_error"})
                                    .to_string(),
                            },
                        };
                        // MCP results are network-derived content (GA-9.3).
                        services::Done::Loaded { settlement, network: true }
                    };
                    self.spawn_service(id, "callValue", tracing::Instrument::instrument(task, span));
                }
                Submitted::McpOp { id, server, op, args } => {
                    let hub = self.mcp.clone();
                    let task = async move {
                        let args = serde_json::from_str(&args).unwrap_or_default();
                        let settlement = match hub.operation(server, &op, args).await {
                            Ok(value) => vm::Settlement { id, ok: true, payload: value.to_string() },
                            Err(message) => vm::Settlement {
                                id,
                                ok: false,
                                payload: serde_json::json!({"name": "Error", "message": message, "code": "tool_error"})
                                    .to_string(),
                            },
                        };
                        services::Done::Loaded { settlement, network: true }
                    };
                    self.spawn_service(id, "namespace", task);
                }
                Submitted::McpApi { id, server, method, schema } => {
                    settled_inline += 1;
                    self.network = true;
                    let tree = self.mcp.tree();
                    let target = server.and_then(|i| tree.servers.iter().find(|s| s.index == i));
                    let settlement = match codemode_catalog::mcp::api_response(&tree, target, method.as_deref(), schema)
                    {
                        Ok(v) => vm::Settlement { id, ok: true, payload: v.to_string() },
                        Err(message) => vm::Settlement {
                            id,
                            ok: false,
                            payload: serde_json::json!({"name": "Error", "message": message, "code": "invalid_input"})
                                .to_string(),
                        },
                    };
                    self.host.settle_now(settlement);
                }
                Submitted::ResultDelete { id, result_id } => match services::results_scope(&self.mode) {
                    Err(refusal) => {
                        settled_inline += 1;
                        self.host.settle_now(services::refused(id, refusal));
                    }
                    Ok(scope) => {
                        let task = services::result_delete(self.results.clone(), scope, id, result_id);
                        self.spawn_service(id, "resultDelete", task);
                    }
                },
            }
        }
        if settled_inline > 0 {
            self.release_call_slot(settled_inline);
        }
        None
    }

    /// The virtual files now: the host's, plus one declaration per MCP
    /// server and `mcp/index.d.ts` (GA-2.3, GA-9.6).
    fn all_api_files(&self) -> Vec<files::ApiFile> {
        let mut all = self.api_files.as_ref().clone();
        if self.mcp.is_empty() {
            return all;
        }
        let tree = self.mcp.tree();
        let mut add = |path: String, description: String, content: String| {
            all.push(files::ApiFile { path, description, bytes: content.len(), content });
        };
        add(
            "mcp/index.d.ts".into(),
            "Root MCP namespace declaration and server list.".into(),
            codemode_catalog::mcp::index_declaration(&tree),
        );
        for s in &tree.servers {
            add(
                format!("mcp/{}.d.ts", s.identifier),
                format!("MCP server declaration for {}.", s.server_name),
                codemode_catalog::mcp::server_declaration(s),
            );
        }
        all
    }

    /// Runs a session-bound request as a task; its answer comes back as
    /// `HostDone`.
    fn spawn_service(
        &mut self,
        id: u64,
        method: &str,
        task: impl std::future::Future<Output = services::Done> + Send + 'static,
    ) {
        let me = self.myself.clone();
        self.host.spawn_other(id, method, async move {
            let done = task.await;
            let _ = me.send_message(CellMsg::HostDone(id, done));
        });
    }

    /// Ends the cell if it was interrupted, refused admission, or settled.
    fn check_settled(&mut self) -> Option<Flow> {
        if let Some((code, end, message)) = self.interrupted() {
            return Some(self.fail_end(code, message, Phase::Guest, end));
        }
        let (admission, outcome) = {
            let mut bridge = vm_lock(&self.bridge);
            (bridge.admission.clone(), bridge.outcome.take())
        };
        if let Some(err) = admission {
            let reason = if err.0.starts_with("code mode timer") { "timer_limit" } else { "queue_limit" };
            self.metrics.admission_rejected(reason);
            return Some(self.fail_end(ErrorCode::InvalidInput, err.0, Phase::Guest, EndState::Failed));
        }
        match outcome? {
            Outcome::Value(json) => Some(self.complete(json)),
            Outcome::Error(error) => {
                let (code, message) = report::guest_error(&error, self.limits.memory_limit_bytes);
                let phase = if code == ErrorCode::InvalidInput { Phase::Input } else { Phase::Guest };
                Some(self.fail_end(code, message, phase, EndState::Failed))
            }
        }
    }

    /// The top-level promise resolved: deliver the value, keeping an
    /// oversized object or array by reference (GA-6.6), and commit the
    /// store writes (GA-7.6) before reporting `completed`.
    fn complete(&mut self, json: String) -> Flow {
        let entries = self.take_entries();
        let delivered = self.output.deliver_value(entries, &json);
        let structured = json.starts_with('{') || json.starts_with('[');
        let wants_reference = structured && !matches!(delivered, Ok((_, _, false)));
        let (reference, not_retained) = match services::results_scope(&self.mode) {
            Ok(scope) if wants_reference => (Some((scope, json, self.network)), None),
            Err(refusal) if wants_reference => (None, Some(format!("Not retained: {refusal}"))),
            _ => (None, None),
        };
        let commit_bytes: usize = self.writes.values().flatten().map(|v| v.json.len()).sum();
        let commit = match (&self.mode, self.writes.is_empty()) {
            (CellMode::Interactive { session, restart_safe: false, .. }, false) => {
                Some((session.clone(), std::mem::take(&mut self.writes).into_iter().collect()))
            }
            _ => None,
        };
        if reference.is_none() && commit.is_none() {
            return match delivered {
                Ok(..) | Err(_) => {
                    let result = self.completed_result(delivered, not_retained.map(Err), Vec::new());
                    let end = if matches!(result, CellResult::Completed { .. }) {
                        EndState::Completed
                    } else {
                        EndState::Failed
                    };
                    self.finish(result, end)
                }
            };
        }
        let me = self.myself.clone();
        let task = services::finalize(self.results.clone(), self.store.clone(), reference, commit);
        tokio::spawn(async move {
            let _ = me.send_message(CellMsg::Finalized(task.await));
        });
        self.finishing = Some(Finishing { delivered, commit_bytes, also_reply: Vec::new() });
        Flow::Live
    }

    /// The services answered a completing cell: report its result.
    fn finalized(&mut self, done: services::Finalized) -> Flow {
        let Some(finishing) = self.finishing.take() else { return Flow::Live };
        let mut warnings = Vec::new();
        let result = match done.commit {
            Some(Err(e @ codemode_store::StoreError::SessionFull(_))) => {
                let message = format!("RangeError: {e} The cell's store writes were not committed.");
                self.fail(ErrorCode::InternalError, message, Phase::Guest)
            }
            other => {
                match other {
                    Some(Err(_)) => warnings.push(services::PERSISTENCE_WARNING.to_owned()),
                    Some(Ok(())) => self.metrics.store_committed(finishing.commit_bytes),
                    None => {}
                }
                self.completed_result(finishing.delivered, done.reference, warnings)
            }
        };
        let end = if matches!(result, CellResult::Completed { .. }) { EndState::Completed } else { EndState::Failed };
        for reply in finishing.also_reply {
            let _ = reply.send(result.clone());
        }
        self.finish(result, end)
    }

    fn completed_result(
        &mut self,
        delivered: Result<(Output, Value, bool), output::OutputLimitExceeded>,
        reference: Option<Result<Value, String>>,
        warnings: Vec<String>,
    ) -> CellResult {
        let telemetry = self.telemetry;
        let untrusted = self.untrusted_id();
        match (delivered, reference) {
            (Ok((output, value, truncated)), reference) => {
                let value = match reference {
                    Some(Ok(descriptor)) if truncated => self.reference_value(descriptor),
                    Some(Err(reason)) if truncated => with_guidance(value, &reason),
                    _ => value,
                };
                CellResult::Completed { value, output, warnings, telemetry, untrusted }
            }
            (Err(limit), Some(Ok(descriptor))) => {
                let value = self.reference_value(descriptor);
                CellResult::Completed { value, output: limit.output, warnings, telemetry, untrusted }
            }
            (Err(limit), reason) => {
                let why = reason.and_then(Result::err).map(|r| format!(" {r}")).unwrap_or_default();
                let error = self.output.fit_error(format!("{}{why}", limit.message));
                CellResult::Failed {
                    code: ErrorCode::OutputLimitExceeded,
                    error,
                    phase: Phase::Guest,
                    output: limit.output,
                    telemetry,
                    untrusted,
                }
            }
        }
    }

    /// `{truncated: true, reference, guidance}`: the descriptor is bounded
    /// metadata (≤ 768 bytes) and is delivered even past the budget.
    fn reference_value(&mut self, descriptor: Value) -> Value {
        let value =
            serde_json::json!({"truncated": true, "reference": descriptor, "guidance": services::REFERENCE_GUIDANCE});
        self.output.charge_metadata(value.to_string().len());
        value
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
        let result = CellResult::Waiting {
            run_id: self.run_id.clone(),
            reason,
            pending_tool_calls: self.host.pending_calls(),
            output: self.take_output(),
            telemetry: self.telemetry,
            untrusted: self.untrusted_id(),
        };
        let _ = window.reply.send(result);
        let epoch = self.park_epoch;
        myself.send_after(self.limits.parked_ttl, move || CellMsg::Expire(epoch));
        Flow::Live
    }

    fn schedule_wake(&mut self, myself: &ActorRef<CellMsg>, at: Instant) {
        if self.wake_at.is_some_and(|w| w <= at) {
            return;
        }
        self.wake_at = Some(at);
        myself.send_after(at.saturating_duration_since(Instant::now()), || CellMsg::Wake);
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
        Some(self.envelope_id.get_or_insert_with(|| crate::executor::new_run_id()[4..20].to_owned()).clone())
    }

    fn fail_end(&mut self, code: ErrorCode, error: String, phase: Phase, end: EndState) -> Flow {
        let result = self.fail(code, error, phase);
        self.finish(result, end)
    }

    /// Ends the cell and reports `result` to the observer. The executor
    /// hears of the end first, so a `wait` sent after the observer has the
    /// result always finds the run ended, never a stopping actor.
    fn finish(&mut self, result: CellResult, end: EndState) -> Flow {
        let flow = self.finish_unobserved(end);
        if let Some(window) = self.window.take() {
            let _ = window.reply.send(result);
        }
        flow
    }

    /// The output entries emitted since the last delivery.
    fn take_entries(&mut self) -> Vec<codemode_bridge::OutputEntry> {
        let mut bridge = vm_lock(&self.bridge);
        if std::mem::take(&mut bridge.console_marker_emitted) {
            self.metrics.console_truncated();
        }
        std::mem::take(&mut bridge.output)
    }

    fn set_parked(&mut self, parked: bool) {
        if self.parked != parked {
            self.metrics.add_parked(if parked { 1 } else { -1 });
            self.parked = parked;
        }
    }

    fn finish_unobserved(&mut self, end: EndState) -> Flow {
        self.set_parked(false);
        self.span.record("status", end.label());
        self.span.record("duration_ms", u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX));
        self.span.record("output_bytes", self.output.used());
        self.span.record("tool_calls", self.telemetry.call_count);
        self.span.record("timers", self.telemetry.timer_count);
        self.span.record("searches", self.telemetry.search_count);
        let _ = self.executor.send_message(ExecutorMsg::Ended(self.run_id.clone(), end));
        Flow::Ended
    }
}

/// A completed cell waiting for its reference and commit.
struct Finishing {
    delivered: Result<(Output, Value, bool), output::OutputLimitExceeded>,
    /// Bytes of the values being committed, for metrics.
    commit_bytes: usize,
    /// Aborts that arrived meanwhile: they get the final result too.
    also_reply: Vec<RpcReplyPort<CellResult>>,
}

/// A truncation marker whose guidance says why it was not kept by reference.
fn with_guidance(mut marker: Value, reason: &str) -> Value {
    if let Some(obj) = marker.as_object_mut() {
        obj.insert("guidance".into(), Value::String(reason.to_owned()));
    }
    marker
}

fn vm_lock(bridge: &Mutex<Bridge>) -> std::sync::MutexGuard<'_, Bridge> {
    bridge.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
