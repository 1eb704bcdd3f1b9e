//! The cell executor: admits cells and starts them on JS threads.
//!
//! One `CellExecutor` actor per runtime, a child of the root supervisor.
//! Admission is serial here (source checks, the live-cell bound and the
//! fair-share quotas); the admitted run goes into the live-run index
//! ([`Runs`]), which `wait`, `abort` and `dispose` read directly. The
//! executor keeps no state of its own beyond its configuration, so a
//! restarted executor loses nothing: cells are linked to the root, not to
//! it, and go on across its crash.

use std::sync::Arc;

use codemode_protocol::{CellResult, ErrorCode};
use ractor::{Actor, ActorCell, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::cell::guest_host::EnginePool;
use crate::cell::guest_host::{Backing, CellHost, Vm};
use crate::cell::journaling::{Meta, Restored};
use crate::cell::{CellActor, CellArgs, CellMode, CellMsg, CellPlan, CellServices, ToolTable};
use crate::engine::remote::protocol::CellRecipe;
use crate::engine::vm::PreludeGeneration;
use crate::jsthreads::JsThreads;
use crate::workers::Workers;
use codemode_protocol::RunEnd;

use crate::run_index::{LiveRun, ParkedTime, RunHandle, new_run_id};
use crate::source;

/// A cell to start.
pub(crate) struct ExecRequest {
    pub code: String,
    pub title: Option<String>,
    pub mode: CellMode,
    /// The authenticated client the session belongs to, for its quota.
    pub principal: Option<String>,
    /// The caller's span: the cell's span is its child.
    pub parent: tracing::Span,
    /// A stored run to resume by replay, decoded once. `code` is then
    /// unused: the journal has the source.
    pub resume: Option<Box<Restored>>,
    /// Where the first window streams its output, if anywhere.
    pub stream: Option<crate::stream::OutputStream>,
}

pub(crate) enum ExecutorMsg {
    Exec(ExecRequest, RpcReplyPort<CellResult>),
    /// Answers at once: a readiness probe that the executor's mailbox is
    /// being served.
    Ping(RpcReplyPort<()>),
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

/// What the executor starts cells with.
pub(crate) struct ExecutorConfig {
    /// What every cell shares.
    pub services: Arc<CellServices>,
    pub js: JsThreads,
    /// Prepared engines, and where an ended cell's engine goes.
    pub engines: EnginePool,
    /// With `isolation = "process"`: the engine workers cells run in.
    pub workers: Option<Arc<Workers>>,
    /// How the catalog actor ranks searches.
    pub search: codemode_catalog::SearchConfig,
}

pub(crate) struct CellExecutor;

pub(crate) struct ExecutorState {
    config: Arc<ExecutorConfig>,
    /// The root supervisor: every cell is linked to it.
    root: ActorCell,
}

impl Actor for CellExecutor {
    type Msg = ExecutorMsg;
    type State = ExecutorState;
    type Arguments = (Arc<ExecutorConfig>, ActorCell);

    async fn pre_start(
        &self,
        _: ActorRef<ExecutorMsg>,
        (config, root): (Arc<ExecutorConfig>, ActorCell),
    ) -> Result<ExecutorState, ActorProcessingErr> {
        Ok(ExecutorState { config, root })
    }

    async fn handle(
        &self,
        _: ActorRef<ExecutorMsg>,
        msg: ExecutorMsg,
        state: &mut ExecutorState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            ExecutorMsg::Exec(request, reply) => state.admit(request, reply),
            ExecutorMsg::Ping(reply) => {
                // The prober may have given up waiting; nothing to report.
                let _ = reply.send(());
            }
            #[cfg(feature = "test-hooks")]
            ExecutorMsg::Crash => panic!("executor: crash requested by a test hook"),
        }
        Ok(())
    }
}

/// Why admission refused a cell, for the model (`invalid_input`).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Refused(String);

fn refuse(reply: RpcReplyPort<CellResult>, refused: Refused) {
    let _ = reply.send(CellResult::input_error(ErrorCode::InvalidInput, refused.0));
}

impl ExecutorState {
    fn admit(&mut self, mut request: ExecRequest, reply: RpcReplyPort<CellResult>) {
        if let Err(refusal) = self.check(&request) {
            return refuse(reply, refusal);
        }
        let (session, reply_id) = match &request.mode {
            CellMode::Interactive { session, reply, .. } => (Some(session.clone()), Some(reply.clone())),
            CellMode::Headless => (None, None),
        };
        let (run_id, wrapped, resume) = match request.resume.take() {
            Some(restored) => (restored.run_id.clone(), restored.wrapped().to_owned(), Some(restored)),
            None => match new_run_id() {
                Ok(run_id) => (run_id, source::wrap(&request.code), None),
                Err(e) => {
                    let message = format!("the cell could not be started: {e}");
                    let _ = reply.send(CellResult::input_error(ErrorCode::RuntimeUnavailable, message));
                    return;
                }
            },
        };
        let admitted = std::time::Instant::now();
        let span = cell_span(&request, &run_id, session.as_deref());
        // In the index before the cell can register in it.
        let run = LiveRun {
            session,
            reply: reply_id,
            principal: request.principal.clone(),
            handle: None,
            started: admitted,
            parked: ParkedTime::default(),
            handed_off: None,
        };
        let runs = Arc::clone(&self.config.services.runs);
        runs.insert(run_id.clone(), run);
        let plan = CellPlan {
            run_id: run_id.clone(),
            wrapped,
            mode: request.mode,
            span,
            admitted,
            meta: Meta { title: request.title, principal: request.principal },
            resume,
            stream: request.stream,
        };
        let start = CellStart {
            services: Arc::clone(&self.config.services),
            engines: self.config.engines.clone(),
            workers: self.config.workers.clone(),
            root: self.root.clone(),
            plan,
        };
        // The fair share of the JS threads is per client: its principal,
        // or its session when it has none.
        let client: crate::jsthreads::ClientKey = match (&start.plan.meta.principal, &start.plan.mode) {
            (Some(principal), _) => Some(Arc::from(format!("principal:{principal}").as_str())),
            (None, CellMode::Interactive { session, .. }) => Some(Arc::from(format!("session:{session}").as_str())),
            (None, _) => None,
        };
        if self.config.js.run(client, move |lease| start.run(lease, reply)).is_err() {
            // The JS threads were shut down; the job (and its reply port) was
            // dropped, so the caller sees the runtime as unavailable.
            runs.withdraw(&run_id);
        }
    }

    /// Admission: a cell with code, no shell or module syntax, within the
    /// live-cell limit and its principal's and session's quotas; otherwise
    /// why not (refusals by a limit are counted by reason).
    fn check(&self, request: &ExecRequest) -> Result<(), Refused> {
        // A resumed run's source passed these checks when it started.
        if request.resume.is_none() {
            if request.code.trim().is_empty() {
                return Err(Refused("code must be a non-empty string of JavaScript.".into()));
            }
            source::check(&request.code).map_err(|refusal| Refused(refusal.message().to_string()))?;
        }
        let services = &self.config.services;
        let limits = &services.limits;
        let max = limits.max_live_cells;
        let runs = &services.runs;
        let refused = |reason: &'static str, message: String| {
            services.metrics.admission_rejected(reason);
            Err(Refused(message))
        };
        if runs.len() >= max {
            return refused(
                "live_cells",
                format!("too many live code mode runs ({max}); wait on or abort parked runs before starting new ones."),
            );
        }
        let per_principal = limits.max_live_cells_per_principal.min(max);
        if request.principal.is_some() && runs.of_principal(request.principal.as_ref()) >= per_principal {
            return refused(
                "principal_quota",
                format!(
                    "too many live code mode runs for this client ({per_principal} across its sessions); \
                     wait on or abort its parked runs before starting new ones."
                ),
            );
        }
        let per_session = limits.max_live_cells_per_session.min(max);
        let session = match &request.mode {
            CellMode::Interactive { session, .. } => Some(session),
            CellMode::Headless => None,
        };
        if session.is_some() && runs.in_session(session) >= per_session {
            return refused(
                "session_quota",
                format!(
                    "too many live code mode runs in this session ({per_session}); \
                     wait on or abort parked runs before starting new ones."
                ),
            );
        }
        Ok(())
    }
}

/// The `cell` span of an admitted run, a child of the span `exec` was
/// called in; the cell records the rest as it ends.
fn cell_span(request: &ExecRequest, run_id: &str, session: Option<&str>) -> tracing::Span {
    let session_tag = session.map(session_tag);
    tracing::info_span!(
        parent: &request.parent,
        "cell",
        run_id = %run_id,
        title = request.title.as_deref().unwrap_or(""),
        mode = if matches!(request.mode, CellMode::Headless) { "headless" } else { "interactive" },
        codemode.session = session_tag.as_deref(),
        status = tracing::field::Empty,
        error.code = tracing::field::Empty,
        otel.status_code = tracing::field::Empty,
        otel.status_description = tracing::field::Empty,
        queue_ms = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        output_bytes = tracing::field::Empty,
        tool_calls = tracing::field::Empty,
        timers = tracing::field::Empty,
        searches = tracing::field::Empty,
    )
}

/// An admitted cell on its way to a JS thread.
struct CellStart {
    services: Arc<CellServices>,
    engines: EnginePool,
    workers: Option<Arc<Workers>>,
    root: ActorCell,
    plan: CellPlan,
}

impl CellStart {
    /// On the JS thread: takes an engine, spawns the cell actor under the
    /// root, registers it and starts it; a failure answers the caller as
    /// the runtime being unavailable and ends the run.
    async fn run(self, lease: crate::jsthreads::ThreadLease, reply: RpcReplyPort<CellResult>) {
        let Self { services, engines, workers, root, plan } = self;
        let run_id = plan.run_id.clone();
        let unavailable = |reply: RpcReplyPort<CellResult>, why: String| {
            let message = format!("the cell could not be started: {why}");
            let _ = reply.send(CellResult::input_error(ErrorCode::RuntimeUnavailable, message));
            services.runs.ended(&run_id, RunEnd::Failed);
        };
        // A run resumed by replay gets the tool globals its journal names;
        // when they are not the registry's (a deploy changed the tools),
        // its engine is made here with them instead of taken from the pool.
        let tools = match &plan.resume {
            Some(restored) => restored.tools(&services.registry),
            None => ToolTable::live(services.registry.clone()),
        };
        // A run started by a build whose prelude behaved otherwise replays
        // with that behaviour.
        let prelude = plan.resume.as_ref().map_or(PreludeGeneration::CURRENT, |restored| restored.prelude());
        let own = !tools.is_registry() || prelude != PreludeGeneration::CURRENT;
        let host = CellHost { tools: tools.clone(), mcp: services.mcp.clone() };
        let engine = match &workers {
            Some(workers) => {
                let recipe = own.then(|| CellRecipe {
                    tools: (0..tools.len()).map(|i| tools.callable(i).unwrap_or_default().to_owned()).collect(),
                    prelude: prelude.0,
                });
                let (principal, session) = (plan.meta.principal.as_deref(), plan.mode.session());
                workers.open(principal, session, recipe, host).map(|remote| Backing::Remote(Box::new(remote)))
            }
            None if own => Vm::prepare(&services.limits, &host, prelude)
                .map(|vm| Backing::Local { vm, pool: engines })
                .map_err(|e| format!("{e:?}")),
            None => engines.take().map(|vm| Backing::Local { vm, pool: engines.clone() }).map_err(|e| format!("{e:?}")),
        };
        let engine = match engine {
            Ok(engine) => engine,
            Err(why) => return unavailable(reply, why),
        };
        let abort = engine.aborter();
        let args = CellArgs { plan, services: Arc::clone(&services), tools, engine, lease };
        match Actor::spawn_linked(None, CellActor, args, root).await {
            Ok((actor, _)) => {
                let handle = RunHandle { actor: actor.get_cell(), abort };
                if services.runs.register(&run_id, handle) {
                    let _ = actor.send_message(CellMsg::Start(reply));
                } else {
                    // Ended before it registered (it cannot have: it
                    // registers before it starts); stop it rather than
                    // leak it.
                    actor.stop(None);
                }
            }
            Err(e) => unavailable(reply, e.to_string()),
        }
    }
}

/// The cell span's `codemode.session`: the first 64 bits of the session
/// id's SHA-256, in hex. Not the id itself: a session id is a capability
/// (the connection-derived ones are 128 random bits that nobody else can
/// guess, docs/security.md), and traces go to a collector operators share
/// more widely than the server. A hash still lets them group a session's
/// cells, and cannot be turned back into the id.
fn session_tag(session: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(session.as_bytes())[..8].iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_session_tag_is_a_short_stable_hash_that_does_not_contain_the_id() {
        let tag = super::session_tag("local/mcp_0123456789abcdef");
        assert_eq!(tag.len(), 16);
        assert_eq!(tag, super::session_tag("local/mcp_0123456789abcdef"));
        assert_ne!(tag, super::session_tag("local/mcp_0123456789abcdee"));
        assert!(!tag.contains("mcp_"));
    }
}
