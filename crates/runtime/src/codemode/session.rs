//! What a host runs cells through: a [`Session`] (one conversation) and
//! its [`Reply`]s (model turns), where `exec`, `wait` and `abort` run, and
//! the [`Headless`] executor for automation scripts.

use crate::stream::OutputStream;

use codemode_protocol::{CellResult, DeciderKind, Decisions, ErrorCode};
use codemode_store::Scope;
use ractor::ActorRef;

use super::facade::CodeMode;
use super::quota;
use crate::cell::approvals::{Decide, Decider};
use crate::cell::{CellMode, CellMsg};
use crate::error::CodeModeError;
use crate::executor::ExecRequest;
use crate::route::{Ask, Routed, Router};
use codemode_protocol::RunEnd;

use codemode_protocol::calls::{ArgumentError, ExecArgs, MAX_TITLE_CHARS, MODEL_MAY_NOT_DECIDE, WaitArgs};

/// One `exec` request: the cell's source and how to run it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exec {
    code: String,
    title: Option<String>,
    restart_safe: bool,
    unattended: bool,
    stream: Option<OutputStream>,
}

impl Exec {
    /// A cell with this JavaScript source (the body of an async function).
    pub fn code(code: impl Into<String>) -> Self {
        Self { code: code.into(), ..Self::default() }
    }

    /// A short human title (at most 120 characters).
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Marks the cell restart-safe, so replaying it after a host restart has
    /// no hidden effects: it may only call tools whose
    /// [`Tool::replay_safe`](codemode_catalog::Tool::replay_safe) is true.
    /// Calling any other tool (MCP tools and node commands included) or
    /// `results.save` fails the cell with `invalid_input`, even if the guest
    /// catches the rejection; `store`/`load` are unavailable in it.
    #[must_use]
    pub fn restart_safe(mut self, restart_safe: bool) -> Self {
        self.restart_safe = restart_safe;
        self
    }

    /// Marks the cell unattended: no one can decide its approvals (an
    /// automation script such as `codemode exec`, whose process holds the
    /// store while it runs). A call the host's policy asks about is then
    /// refused at once — it rejects in the guest with `code: "denied"` and
    /// a message saying there is no one to ask, as in a [`Headless`] cell —
    /// instead of parking the cell for a decision nobody can make; the cell
    /// goes on. Everything else is as in any session cell: it parks, and
    /// [`Reply::wait`] goes on with it. The mark is journaled with the run,
    /// so a resumed run keeps it.
    #[must_use]
    pub fn unattended(mut self, unattended: bool) -> Self {
        self.unattended = unattended;
        self
    }

    /// Streams the first window's output to `stream` while it runs (the
    /// result still carries all of it); see [`OutputStream`].
    #[must_use]
    pub fn stream(mut self, stream: OutputStream) -> Self {
        self.stream = Some(stream);
        self
    }
}

impl TryFrom<&ExecArgs> for Exec {
    type Error = ArgumentError;

    /// The cell a model's `exec` call asks for (its arguments parsed with
    /// [`ExecArgs::from_arguments`] or deserialized).
    fn try_from(args: &ExecArgs) -> Result<Self, ArgumentError> {
        let mut exec = Exec::code(args.source()?);
        if let Some(title) = &args.title {
            exec = exec.title(title);
        }
        Ok(exec.restart_safe(args.restart_safe.unwrap_or(false)))
    }
}

impl CodeMode {
    /// A session: cells of one conversation.
    pub fn session(&self, id: impl Into<String>) -> Session {
        Session { rt: self.clone(), id: id.into(), principal: None }
    }

    /// The headless executor, for automation scripts with no session: each
    /// cell runs to completion in one call under the headless budgets.
    #[must_use]
    pub fn headless(&self) -> Headless {
        Headless { rt: self.clone() }
    }

    async fn exec_mode(
        &self,
        exec: Exec,
        mode: CellMode,
        principal: Option<String>,
    ) -> Result<CellResult, CodeModeError> {
        if exec.title.as_ref().is_some_and(|t| t.chars().count() > MAX_TITLE_CHARS) {
            return Ok(CellResult::input_error(
                ErrorCode::InvalidInput,
                format!("title must be at most {MAX_TITLE_CHARS} characters."),
            ));
        }
        let request = ExecRequest {
            code: exec.code,
            title: exec.title,
            mode,
            principal,
            parent: tracing::Span::current(),
            resume: None,
            stream: exec.stream,
        };
        if let Some(refusal) = quota::stored_quota(&self.inner, &request).await {
            return Ok(refusal);
        }
        self.start_cell(request).await
    }

    /// Whether `session` may observe run `run_id`, wherever it is.
    async fn reach(&self, run_id: &str, session: &str) -> Result<RunReach, CodeModeError> {
        if self.is_shut_down() {
            return Err(CodeModeError::ShutDown);
        }
        let reach = crate::route::reach(&self.inner.runs, self.inner.durable.as_ref(), run_id, session).await;
        Ok(match reach {
            Ok(()) => RunReach::Reachable,
            Err((code, error)) => RunReach::Refused { code, error },
        })
    }

    /// `wait`/`abort` on run `run_id` of `session`, wherever it is.
    async fn route(
        &self,
        run_id: &str,
        session: &str,
        principal: Option<&String>,
        ask: Ask,
    ) -> Result<CellResult, CodeModeError> {
        if self.is_shut_down() {
            return Err(CodeModeError::ShutDown);
        }
        let inner = &self.inner;
        let router = Router {
            runs: &inner.runs,
            durable: inner.durable.as_ref(),
            limits: &inner.limits,
            metrics: &inner.metrics,
        };
        match router.route(run_id, session, principal, ask).await {
            Routed::Answer(result) => Ok(result),
            Routed::Start { run_id, request } => {
                let result = self.start_cell(request).await?;
                router.started(&run_id, &result).await;
                Ok(result)
            }
        }
    }
}

/// A session: a conversation whose cells share a store (and, later,
/// results per reply).
#[derive(Clone, Debug)]
pub struct Session {
    rt: CodeMode,
    id: String,
    principal: Option<String>,
}

impl Session {
    /// The session id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The same session, counted against `principal`'s quota of live cells
    /// (`Limits::max_live_cells_per_principal`): an authenticated client
    /// with many sessions still cannot take the whole pool. The principal
    /// does not scope the store: give each principal's sessions their own
    /// ids (as `codemode serve` does).
    #[must_use]
    pub fn for_principal(mut self, principal: impl Into<String>) -> Self {
        self.principal = Some(principal.into());
        self
    }

    /// One model reply within the session.
    pub fn reply(&self, id: impl Into<String>) -> Reply {
        Reply { session: self.clone(), id: id.into() }
    }
}

/// Whether a session can observe a run, as [`Reply::reach`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunReach {
    /// A `wait` from the session would observe the run: it is live here
    /// (starting, running or parked), or stored for the session and not
    /// ended (parked, or held by another process).
    Reachable,
    /// A `wait` from the session would be refused, failing with this code
    /// and message: `invalid_input` when the run is another session's, has
    /// ended, or is known neither here nor to the run store;
    /// `runtime_unavailable` when the run store could not be read.
    Refused {
        /// The failure's code.
        code: ErrorCode,
        /// What a `wait` would tell the model.
        error: String,
    },
}

/// One model reply (turn) within a session: where `exec` and `wait` run.
///
/// A host hands the model's `exec`/`wait` tool calls to
/// [`handle`](Self::handle) as they arrive:
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use codemode_runtime::{CellResult, CodeMode};
///
/// let rt = CodeMode::builder().start().await?;
/// let reply = rt.session("conversation-1").reply("turn-1");
/// // The arguments as the model sent them.
/// let arguments = serde_json::json!({"code": "await yield_control(); return 'later'"});
/// let parked = reply.handle("exec", arguments.as_object().unwrap()).await;
/// let CellResult::Waiting { run_id, .. } = &parked else { panic!("{parked:?}") };
/// let wait = serde_json::json!({"runId": run_id});
/// let done = reply.handle("wait", wait.as_object().unwrap()).await;
/// assert!(matches!(done, CellResult::Completed { .. }), "{done:?}");
/// rt.shutdown().await;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct Reply {
    session: Session,
    id: String,
}

impl Reply {
    /// Starts a cell in a fresh context and observes it for one window.
    ///
    /// # Errors
    /// Only host failures (the runtime is shut down); every guest problem is
    /// a [`CellResult::Failed`].
    pub async fn exec(&self, exec: Exec) -> Result<CellResult, CodeModeError> {
        // A reply ended and used again takes saves again (see `end`); sent
        // before the cell starts, so it reaches the cache before the cell's
        // first save.
        let scope = Scope { session: self.session.id.clone(), reply: self.id.clone() };
        self.session.rt.inner.results.reopen_reply(scope);
        let mode = CellMode::Interactive {
            session: self.session.id.clone(),
            reply: self.id.clone(),
            restart_safe: exec.restart_safe,
            unattended: exec.unattended,
        };
        self.session.rt.exec_mode(exec, mode, self.session.principal.clone()).await
    }

    /// Resumes observing a parked cell with a fresh budget.
    ///
    /// # Errors
    /// Only host failures; an unknown run is a `failed`/`invalid_input` result.
    pub async fn wait(&self, run_id: &str) -> Result<CellResult, CodeModeError> {
        let s = &self.session;
        s.rt.route(run_id, &s.id, s.principal.as_ref(), Ask::Wait(None, None)).await
    }

    /// Whether this session may observe run `run_id`, found without
    /// opening a window, taking the run's lease or changing anything: for
    /// a host that keeps something per run (an MCP task table) and must
    /// not keep it for a run that is not the session's.
    ///
    /// # Errors
    /// Only host failures (the runtime is shut down); a run out of reach
    /// is [`RunReach::Refused`].
    pub async fn reach(&self, run_id: &str) -> Result<RunReach, CodeModeError> {
        let s = &self.session;
        s.rt.reach(run_id, &s.id).await
    }

    /// [`wait_with`](Self::wait_with), streaming the window's output to
    /// `stream` while it runs (the result still carries all of it).
    ///
    /// # Errors
    /// Only host failures.
    pub async fn wait_streaming(
        &self,
        run_id: &str,
        decisions: Decisions,
        stream: OutputStream,
    ) -> Result<CellResult, CodeModeError> {
        self.wait_decided_by(run_id, decisions, DeciderKind::Host, Some(stream)).await
    }

    /// [`wait`](Self::wait) with decisions on the run's pending approvals
    /// (`pendingApprovals` of its `waiting` result), taken as this
    /// session's principal. Each decision is journaled before it takes
    /// effect: an approved call runs (once, also across a crash), a denied
    /// one rejects in the guest with `code: "denied"`. Naming an id that
    /// is not pending, deciding one twice, or deciding another principal's
    /// run is a `failed`/`invalid_input` result that changes nothing.
    /// The decisions are recorded as the host's ([`DeciderKind::Host`]).
    ///
    /// # Errors
    /// Only host failures.
    pub async fn wait_with(&self, run_id: &str, decisions: Decisions) -> Result<CellResult, CodeModeError> {
        self.wait_decided_by(run_id, decisions, DeciderKind::Host, None).await
    }

    /// [`wait_with`](Self::wait_with), recording the decisions as taken by
    /// `kind` (the MCP client's user answering an elicitation, say), its
    /// output streamed to `stream` when given. Decisions by the model
    /// ([`DeciderKind::Model`]) are refused unless the runtime lets the
    /// model decide ([`CodeModeBuilder::model_decides_approvals`](crate::CodeModeBuilder::model_decides_approvals)).
    ///
    /// # Errors
    /// Only host failures.
    pub async fn wait_decided_by(
        &self,
        run_id: &str,
        decisions: Decisions,
        kind: DeciderKind,
        stream: Option<OutputStream>,
    ) -> Result<CellResult, CodeModeError> {
        let s = &self.session;
        if !decisions.is_empty() && kind == DeciderKind::Model && !s.rt.inner.model_decides {
            return Ok(CellResult::input_error(ErrorCode::InvalidInput, MODEL_MAY_NOT_DECIDE));
        }
        if matches!(kind, DeciderKind::Operator | DeciderKind::Ttl) {
            return Ok(CellResult::input_error(
                ErrorCode::InvalidInput,
                "a session's wait decides as its host, its client's user or its model; operators decide through \
                 `codemode runs approve|deny`.",
            ));
        }
        let decide =
            (!decisions.is_empty()).then(|| Decide { decisions, by: Decider::Session(s.principal.clone(), kind) });
        s.rt.route(run_id, &s.id, s.principal.as_ref(), Ask::Wait(decide, stream)).await
    }

    /// Runs one of the model's tool calls as it arrives — `exec` or `wait`
    /// with the arguments the model gave — and returns what to give the
    /// model back. Arguments are checked as the published input schemas say
    /// ([`ExecArgs::from_arguments`], [`WaitArgs::from_arguments`]): an
    /// unknown or malformed one, or an unknown tool, is a `failed` result
    /// with `invalid_input` naming what was wrong. Decisions in a `wait` are
    /// the model's ([`DeciderKind::Model`]), refused unless the runtime lets
    /// the model decide. A host failure (the runtime shutting down) is a
    /// `failed` result with `runtime_unavailable`: the model always gets one
    /// of the three result shapes.
    ///
    /// ```no_run
    /// # async fn f(rt: codemode_runtime::CodeMode) {
    /// let reply = rt.session("conversation-1").reply("turn-1");
    /// let args = serde_json::json!({"code": "return 1 + 1"});
    /// let result = reply.handle("exec", args.as_object().unwrap()).await;
    /// println!("{}", result.to_model_text());
    /// # }
    /// ```
    pub async fn handle(&self, tool: &str, arguments: &serde_json::Map<String, serde_json::Value>) -> CellResult {
        self.handle_streaming(tool, arguments, None).await
    }

    /// [`handle`](Self::handle), streaming the window's output to `stream`
    /// while it runs.
    pub async fn handle_streaming(
        &self,
        tool: &str,
        arguments: &serde_json::Map<String, serde_json::Value>,
        stream: Option<OutputStream>,
    ) -> CellResult {
        let refused = |e: ArgumentError| CellResult::input_error(ErrorCode::InvalidInput, e.to_string());
        let unavailable = |e: CodeModeError| CellResult::input_error(ErrorCode::RuntimeUnavailable, e.to_string());
        match tool {
            "exec" => match ExecArgs::from_arguments(arguments).and_then(|args| Exec::try_from(&args)) {
                Ok(exec) => {
                    let exec = match stream {
                        Some(stream) => exec.stream(stream),
                        None => exec,
                    };
                    self.exec(exec).await.unwrap_or_else(unavailable)
                }
                Err(e) => refused(e),
            },
            "wait" => match WaitArgs::from_arguments(arguments, self.session.rt.inner.model_decides) {
                Ok(wait) => self
                    .wait_decided_by(&wait.run_id, wait.decisions(), DeciderKind::Model, stream)
                    .await
                    .unwrap_or_else(unavailable),
                Err(e) => refused(e),
            },
            other => refused(ArgumentError::UnknownTool(other.to_owned())),
        }
    }

    /// Aborts a cell: it fails with `aborted`, its tool calls and timers are
    /// cancelled and its pending writes discarded.
    ///
    /// # Errors
    /// Only host failures.
    pub async fn abort(&self, run_id: &str) -> Result<CellResult, CodeModeError> {
        let s = &self.session;
        s.rt.route(run_id, &s.id, s.principal.as_ref(), Ask::Abort).await
    }
}

impl Reply {
    /// Ends a live cell quietly: no result is produced for it (an observer
    /// waiting on it gets `aborted`), its host work is cancelled and its
    /// pending writes discarded. Returns whether the run was live.
    ///
    /// # Errors
    /// Only host failures.
    pub async fn dispose(&self, run_id: &str) -> Result<bool, CodeModeError> {
        let rt = &self.session.rt;
        if rt.is_shut_down() {
            return Err(CodeModeError::ShutDown);
        }
        // Forgotten at once: the run is gone for every later request.
        let found = rt.inner.runs.dispose(run_id, Some(&self.session.id));
        if let Some(handle) = &found {
            let _ = ActorRef::<CellMsg>::from(handle.actor.clone()).send_message(CellMsg::Dispose);
        }
        Ok(found.is_some())
    }
}

impl Reply {
    /// Ends the reply: its saved results expire (GA-6.5). Cells of the reply
    /// that are still parked keep running; their later `results` calls find
    /// nothing, and their saves — an oversized final value's automatic
    /// reference included — are refused, so nothing outlives the end. A
    /// later [`exec`](Self::exec) in the reply opens it again.
    pub fn end(&self) {
        let scope = Scope { session: self.session.id.clone(), reply: self.id.clone() };
        self.session.rt.inner.results.end_reply(scope);
    }

    /// Disposes every live cell this reply started (running or parked),
    /// quietly, as [`Reply::dispose`] does one; returns how many. A host
    /// whose client went away calls this, then [`Reply::end`], so nothing
    /// of the client outlives it.
    ///
    /// # Errors
    /// Only host failures.
    pub async fn dispose_all(&self) -> Result<usize, CodeModeError> {
        let rt = &self.session.rt;
        if rt.is_shut_down() {
            return Err(CodeModeError::ShutDown);
        }
        let runs = rt.inner.runs.of_reply(&self.session.id, &self.id);
        for run_id in &runs {
            let handle = rt.inner.runs.handle(run_id);
            if let Some(handle) = &handle {
                (handle.abort)();
            }
            rt.inner.runs.ended(run_id, RunEnd::Disposed);
            if let Some(handle) = handle {
                let _ = ActorRef::<CellMsg>::from(handle.actor).send_message(CellMsg::Dispose);
            }
        }
        Ok(runs.len())
    }
}

/// The headless executor: cells run to completion in one call.
#[derive(Clone, Debug)]
pub struct Headless {
    rt: CodeMode,
}

impl Headless {
    /// Runs a cell to completion under the headless wall-clock and tool
    /// budgets; `yield_control` resumes at once.
    ///
    /// # Errors
    /// Only host failures.
    pub async fn exec(&self, exec: Exec) -> Result<CellResult, CodeModeError> {
        self.rt.exec_mode(exec, CellMode::Headless, None).await
    }
}
