//! The cell executor: admits cells and routes `wait`/`abort` to them.
//!
//! One `CellExecutor` actor per runtime supervises every `CellActor`. It
//! owns the routing table (run id → cell) and the admission bound, and
//! remembers recently ended runs so that a late `wait` gets a precise
//! message. A crashed cell fails alone: its caller gets `internal_error`,
//! the executor forgets it, and every other cell goes on.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use codemode_bridge::{CellResult, ErrorCode};
use codemode_catalog::{Catalog, CatalogArgs, Registry, SearchConfig};
use codemode_store::{ResultsCache, SessionStore};
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};

use crate::cell::vm::CellControl;
use crate::cell::{CellActor, CellArgs, CellMode, CellMsg};
use crate::jsthreads::JsThreads;
use crate::limits::Limits;
use crate::source;
use crate::telemetry::Metrics;

/// How many ended runs are remembered for precise `wait` errors.
const TOMBSTONES: usize = 4096;

/// How a cell ended (GA-1.5), plus a host crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndState {
    Completed,
    Failed,
    TimedOut,
    Aborted,
    Expired,
    Disposed,
    Crashed,
}

impl EndState {
    /// The metrics label of this end state.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::TimedOut => "timed_out",
            Self::Aborted => "aborted",
            Self::Expired => "expired",
            Self::Disposed => "disposed",
            Self::Crashed => "crashed",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Self::Completed => "it already completed",
            Self::Failed => "it already failed",
            Self::TimedOut => "it timed out",
            Self::Aborted => "it was aborted",
            Self::Expired => "it expired after being parked idle past its time-to-live",
            Self::Disposed => "it was disposed",
            Self::Crashed => "its host actor crashed",
        }
    }
}

/// A cell to start.
pub(crate) struct ExecRequest {
    pub code: String,
    pub title: Option<String>,
    pub mode: CellMode,
    /// The authenticated client the session belongs to, for its quota.
    pub principal: Option<String>,
    /// The caller's span: the cell's span is its child.
    pub parent: tracing::Span,
}

pub(crate) enum ExecutorMsg {
    Exec(ExecRequest, RpcReplyPort<CellResult>),
    Wait {
        run_id: String,
        session: Option<String>,
        reply: RpcReplyPort<CellResult>,
    },
    Abort {
        run_id: String,
        session: Option<String>,
        reply: RpcReplyPort<CellResult>,
    },
    Dispose {
        run_id: String,
        session: Option<String>,
        reply: RpcReplyPort<bool>,
    },
    /// Disposes every live cell a reply started; answers how many.
    DisposeReply {
        session: String,
        reply_id: String,
        reply: RpcReplyPort<usize>,
    },
    /// A cell actor started on its JS thread.
    Registered(String, ActorRef<CellMsg>, Arc<CellControl>),
    /// A cell ended.
    Ended(String, EndState),
    /// How many cells are alive (running or parked).
    LiveCells(RpcReplyPort<usize>),
}

/// What every cell of a runtime shares.
pub(crate) struct ExecutorConfig {
    pub limits: Arc<Limits>,
    pub tools: Registry,
    pub catalog: Catalog,
    pub search: SearchConfig,
    pub store: SessionStore,
    pub results: ResultsCache,
    pub api_files: Arc<Vec<codemode_catalog::files::ApiFile>>,
    pub metrics: Arc<Metrics>,
    pub mcp: codemode_mcp::McpHub,
    /// The node registry, when the host configured nodes (GA-10).
    pub nodes: Option<codemode_nodes::NodeRegistry>,
    pub policy: Arc<dyn codemode_catalog::policy::Policy>,
    pub js: JsThreads,
    /// Prepared engines and the thread that makes and frees them.
    pub engines: crate::cell::spare::EnginePool,
}

pub(crate) struct CellExecutor;

struct Entry {
    started: std::time::Instant,
    actor: Option<ActorRef<CellMsg>>,
    session: Option<String>,
    /// The reply that started the cell (interactive cells).
    reply: Option<String>,
    principal: Option<String>,
    control: Option<Arc<CellControl>>,
}

/// Live cells per key (session or principal), for the fair-share quotas.
#[derive(Default)]
struct Counts(HashMap<String, usize>);

impl Counts {
    fn get(&self, key: Option<&String>) -> usize {
        key.and_then(|k| self.0.get(k)).copied().unwrap_or(0)
    }

    fn add(&mut self, key: Option<&String>) {
        if let Some(k) = key {
            *self.0.entry(k.clone()).or_insert(0) += 1;
        }
    }

    fn remove(&mut self, key: Option<&String>) {
        if let Some(k) = key
            && let Some(n) = self.0.get_mut(k)
        {
            *n -= 1;
            if *n == 0 {
                self.0.remove(k);
            }
        }
    }
}

pub(crate) struct ExecutorState {
    config: Arc<ExecutorConfig>,
    cells: HashMap<String, Entry>,
    by_actor: HashMap<ActorId, String>,
    ended: HashMap<String, EndState>,
    ended_order: VecDeque<String>,
    per_session: Counts,
    per_principal: Counts,
}

impl Actor for CellExecutor {
    type Msg = ExecutorMsg;
    type State = ExecutorState;
    type Arguments = Arc<ExecutorConfig>;

    async fn pre_start(
        &self,
        _: ActorRef<ExecutorMsg>,
        config: Arc<ExecutorConfig>,
    ) -> Result<ExecutorState, ActorProcessingErr> {
        Ok(ExecutorState {
            config,
            cells: HashMap::new(),
            by_actor: HashMap::new(),
            ended: HashMap::new(),
            ended_order: VecDeque::new(),
            per_session: Counts::default(),
            per_principal: Counts::default(),
        })
    }

    async fn post_stop(&self, _: ActorRef<ExecutorMsg>, state: &mut ExecutorState) -> Result<(), ActorProcessingErr> {
        state.config.mcp.stop();
        state.config.engines.stop();
        if let Some(nodes) = &state.config.nodes {
            nodes.stop();
        }
        for name in [state.config.catalog.name(), state.config.store.name(), state.config.results.name()] {
            if let Some(service) = ractor::registry::where_is(name) {
                service.stop(None);
            }
        }
        for entry in state.cells.values() {
            if let Some(control) = &entry.control {
                control.abort();
            }
            if let Some(actor) = &entry.actor {
                actor.stop(Some("disposed".into()));
            }
        }
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<ExecutorMsg>,
        msg: ExecutorMsg,
        state: &mut ExecutorState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            ExecutorMsg::Exec(request, reply) => state.admit(&myself, request, reply),
            ExecutorMsg::Wait { run_id, session, reply } => {
                if let Some((actor, reply)) = state.route(&run_id, session.as_deref(), reply) {
                    deliver(&actor, CellMsg::Wait(reply));
                }
            }
            ExecutorMsg::Abort { run_id, session, reply } => {
                if let Some((actor, reply)) = state.route(&run_id, session.as_deref(), reply) {
                    if let Some(control) = state.cells.get(&run_id).and_then(|e| e.control.as_ref()) {
                        control.abort();
                    }
                    deliver(&actor, CellMsg::Abort(reply));
                }
            }
            ExecutorMsg::Dispose { run_id, session, reply } => {
                let found = state.cells.get(&run_id).filter(|e| e.session == session).and_then(|e| e.actor.clone());
                if let Some(actor) = &found {
                    // Forget it now: the run is gone for every later request.
                    state.forget(&run_id, EndState::Disposed);
                    let _ = actor.send_message(CellMsg::Dispose);
                }
                let _ = reply.send(found.is_some());
            }
            ExecutorMsg::DisposeReply { session, reply_id, reply } => {
                let runs: Vec<String> = state
                    .cells
                    .iter()
                    .filter(|(_, e)| e.session.as_ref() == Some(&session) && e.reply.as_ref() == Some(&reply_id))
                    .map(|(run_id, _)| run_id.clone())
                    .collect();
                for run_id in &runs {
                    let actor = state.cells.get(run_id).and_then(|e| e.actor.clone());
                    if let Some(control) = state.cells.get(run_id).and_then(|e| e.control.clone()) {
                        control.abort();
                    }
                    state.forget(run_id, EndState::Disposed);
                    if let Some(actor) = actor {
                        let _ = actor.send_message(CellMsg::Dispose);
                    }
                }
                let _ = reply.send(runs.len());
            }
            ExecutorMsg::Registered(run_id, actor, control) => match state.cells.get_mut(&run_id) {
                Some(entry) => {
                    state.by_actor.insert(actor.get_id(), run_id);
                    entry.actor = Some(actor);
                    entry.control = Some(control);
                }
                // Ended before it registered (it cannot have: it registers
                // before it starts); stop it rather than leak it.
                None => actor.stop(None),
            },
            ExecutorMsg::Ended(run_id, end) => state.forget(&run_id, end),
            ExecutorMsg::LiveCells(reply) => {
                let _ = reply.send(state.cells.len());
            }
        }
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<ExecutorMsg>,
        event: SupervisionEvent,
        state: &mut ExecutorState,
    ) -> Result<(), ActorProcessingErr> {
        // The default would stop the executor when any cell ends; a cell's
        // end or crash concerns that cell alone.
        // A cell reports its own end (`Ended`) before it stops; only a crash
        // needs the supervisor. A crashed catalog is restarted under its
        // name, where every cell's handle looks for it.
        if let SupervisionEvent::ActorFailed(cell, _) = event {
            let name = cell.get_name();
            let config = &state.config;
            if name.as_deref() == Some(config.catalog.name()) {
                retry(|| start_catalog(&myself, config)).await;
            } else if name.as_deref() == Some(config.store.name()) {
                retry(|| async { config.store.start_actor(Some(myself.get_cell())).await.map_err(|e| e.to_string()) })
                    .await;
            } else if name.as_deref() == Some(config.results.name()) {
                retry(|| config.results.start_actor(myself.get_cell())).await;
            } else if let Some(run_id) = state.by_actor.get(&cell.get_id()).cloned() {
                state.forget(&run_id, EndState::Crashed);
            }
        }
        Ok(())
    }
}

/// Starts the catalog actor, linked to the executor.
pub(crate) async fn start_catalog(executor: &ActorRef<ExecutorMsg>, config: &ExecutorConfig) -> Result<(), String> {
    let args = CatalogArgs { registry: config.tools.clone(), mcp: Arc::new(config.mcp.clone()), config: config.search };
    Catalog::spawn(config.catalog.name().to_owned(), args, Some(executor.get_cell()))
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Restarts a supervised service actor; its name is released only once the
/// failed actor has stopped, so retry briefly with backoff.
async fn retry<F, Fut>(mut start: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), String>>,
{
    for attempt in 0..10_u64 {
        if start().await.is_ok() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10 * (attempt + 1))).await;
    }
}

/// Sends a request to a cell; if the cell is already gone, answers for it.
fn deliver(actor: &ActorRef<CellMsg>, msg: CellMsg) {
    if let Err(ractor::MessagingErr::SendErr(CellMsg::Wait(reply) | CellMsg::Abort(reply))) = actor.send_message(msg) {
        refuse(reply, "code mode run is unavailable: it has just ended. Start a new exec.");
    }
}

fn refuse(reply: RpcReplyPort<CellResult>, message: impl Into<String>) {
    let _ = reply.send(CellResult::input_error(ErrorCode::InvalidInput, message));
}

impl ExecutorState {
    fn admit(&mut self, myself: &ActorRef<ExecutorMsg>, request: ExecRequest, reply: RpcReplyPort<CellResult>) {
        if request.code.trim().is_empty() {
            return refuse(reply, "code must be a non-empty string of JavaScript.");
        }
        if let Err(refusal) = source::check(&request.code) {
            return refuse(reply, refusal.message());
        }
        let (session, reply_id) = match &request.mode {
            CellMode::Interactive { session, reply, .. } => (Some(session.clone()), Some(reply.clone())),
            CellMode::Headless => (None, None),
        };
        let limits = &self.config.limits;
        let max = limits.max_live_cells;
        if self.cells.len() >= max {
            self.config.metrics.admission_rejected("live_cells");
            return refuse(
                reply,
                format!("too many live code mode runs ({max}); wait on or abort parked runs before starting new ones."),
            );
        }
        let principal = request.principal.clone();
        let per_principal = limits.max_live_cells_per_principal.min(max);
        if principal.is_some() && self.per_principal.get(principal.as_ref()) >= per_principal {
            self.config.metrics.admission_rejected("principal_quota");
            return refuse(
                reply,
                format!(
                    "too many live code mode runs for this client ({per_principal} across its sessions); \
                     wait on or abort its parked runs before starting new ones."
                ),
            );
        }
        let per_session = limits.max_live_cells_per_session.min(max);
        if session.is_some() && self.per_session.get(session.as_ref()) >= per_session {
            self.config.metrics.admission_rejected("session_quota");
            return refuse(
                reply,
                format!(
                    "too many live code mode runs in this session ({per_session}); \
                     wait on or abort parked runs before starting new ones."
                ),
            );
        }
        let run_id = new_run_id();
        let config = Arc::clone(&self.config);
        let executor = myself.clone();
        let spawn_id = run_id.clone();
        let wrapped = source::wrap(&request.code);
        let mode = request.mode;
        let span = tracing::info_span!(
            parent: &request.parent,
            "cell",
            run_id = %run_id,
            title = request.title.as_deref().unwrap_or(""),
            mode = if matches!(mode, CellMode::Headless) { "headless" } else { "interactive" },
            status = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
            output_bytes = tracing::field::Empty,
            tool_calls = tracing::field::Empty,
            timers = tracing::field::Empty,
            searches = tracing::field::Empty,
        );
        let started = self.config.js.run(move |lease| async move {
            let unavailable = |reply: RpcReplyPort<CellResult>, why: String| {
                let message = format!("the cell could not be started: {why}");
                let _ = reply.send(CellResult::input_error(ErrorCode::RuntimeUnavailable, message));
                let _ = executor.send_message(ExecutorMsg::Ended(spawn_id.clone(), EndState::Failed));
            };
            let vm = match config.engines.take() {
                Ok(vm) => vm,
                Err(e) => return unavailable(reply, format!("{e:?}")),
            };
            let control = Arc::clone(vm.control());
            let args = CellArgs {
                run_id: spawn_id.clone(),
                wrapped,
                mode,
                limits: Arc::clone(&config.limits),
                tools: config.tools.clone(),
                catalog: config.catalog.clone(),
                store: config.store.clone(),
                results: config.results.clone(),
                api_files: Arc::clone(&config.api_files),
                mcp: config.mcp.clone(),
                nodes: config.nodes.clone(),
                policy: Arc::clone(&config.policy),
                vm,
                engines: config.engines.clone(),
                span,
                metrics: Arc::clone(&config.metrics),
                executor: executor.clone(),
                lease,
            };
            match Actor::spawn_linked(None, CellActor, args, executor.get_cell()).await {
                Ok((actor, _)) => {
                    let _ = executor.send_message(ExecutorMsg::Registered(spawn_id.clone(), actor.clone(), control));
                    let _ = actor.send_message(CellMsg::Start(reply));
                }
                Err(e) => unavailable(reply, e.to_string()),
            }
        });
        if started.is_err() {
            // The JS threads were shut down; the job (and its reply port) was
            // dropped, so the caller sees the runtime as unavailable.
            return;
        }
        self.config.metrics.add_live(1);
        self.per_session.add(session.as_ref());
        self.per_principal.add(principal.as_ref());
        let entry = Entry {
            actor: None,
            session,
            reply: reply_id,
            principal,
            control: None,
            started: std::time::Instant::now(),
        };
        self.cells.insert(run_id, entry);
    }

    /// The live cell for `run_id`, or a refusal sent to `reply`.
    fn route(
        &self,
        run_id: &str,
        session: Option<&str>,
        reply: RpcReplyPort<CellResult>,
    ) -> Option<(ActorRef<CellMsg>, RpcReplyPort<CellResult>)> {
        let message = if run_id.trim().is_empty() {
            "runId must be a non-empty string.".to_owned()
        } else if let Some(entry) = self.cells.get(run_id) {
            match (&entry.actor, entry.session.as_deref() == session) {
                (_, false) => "code mode run belongs to a different session.".to_owned(),
                (Some(actor), true) => return Some((actor.clone(), reply)),
                (None, true) => "code mode run is still starting; retry the wait.".to_owned(),
            }
        } else if let Some(end) = self.ended.get(run_id) {
            format!("code mode run is unavailable: {}. Start a new exec.", end.describe())
        } else {
            // Not live and not among the recently ended: this process never
            // started it (or ended it long ago). One-shot clients that start
            // a fresh server per call hit this on every `wait`.
            "code mode run is unavailable or expired: runs live in the process that started them; a run started \
             by another server process (a client that starts one per call), or before a restart, cannot be \
             resumed here. Start a new exec, and keep one server connection for exec and its waits."
                .to_owned()
        };
        refuse(reply, message);
        None
    }

    fn forget(&mut self, run_id: &str, end: EndState) {
        let Some(entry) = self.cells.remove(run_id) else {
            return;
        };
        self.config.metrics.add_live(-1);
        self.per_session.remove(entry.session.as_ref());
        self.per_principal.remove(entry.principal.as_ref());
        self.config.metrics.cell_ended(end.label(), entry.started.elapsed());
        if let Some(actor) = entry.actor {
            self.by_actor.remove(&actor.get_id());
        }
        if self.ended_order.len() >= TOMBSTONES
            && let Some(old) = self.ended_order.pop_front()
        {
            self.ended.remove(&old);
        }
        self.ended.insert(run_id.to_owned(), end);
        self.ended_order.push_back(run_id.to_owned());
    }
}

/// A fresh, unguessable run id.
pub(crate) fn new_run_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS randomness: fall back to time plus a counter, still unique.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        bytes[8..].copy_from_slice(&(t as u64).to_le_bytes());
    }
    let mut id = String::with_capacity(36);
    id.push_str("run_");
    for b in bytes {
        id.push_str(&format!("{b:02x}"));
    }
    id
}
