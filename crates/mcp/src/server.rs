//! One MCP server connection: an actor that keeps an `rmcp` client
//! session to an MCP server alive. The runtime's root supervisor restarts
//! the actor if it crashes; the actor itself handles its *server* going
//! away.
//!
//! It connects in the background at start (`initialize`, then
//! `tools/list`), reconnects with exponential backoff when the server dies,
//! and answers calls while it is up. While it is down, calls fail at once
//! with the reason — never hang. A `tools/list_changed` notification
//! refreshes the tool list, which new cells see.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use codemode_protocol::retry::Backoff;
use ractor::{Actor, ActorProcessingErr, ActorRef};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, GetPromptRequestParams, Implementation,
    ReadResourceRequestParams,
};
use rmcp::service::{NotificationContext, Peer, RoleClient};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::AsyncBufReadExt;

use crate::config::{McpServerConfig, McpTransport};
use crate::error::{McpCallError, RequestTooLarge};
use crate::process_group::ServerGroup;
use crate::tasks::{CurrentSession, InputAnswer, InputAsk, Inputs, McpTask, OnInput, TaskCx, TaskHooks};
use crate::tree::McpToolInfo;

/// The first pause before reconnecting to a server that went away, and the
/// longest: a server that keeps failing is retried every 30 s.
const FIRST_RECONNECT: Duration = Duration::from_millis(100);
const MAX_RECONNECT: Duration = Duration::from_secs(30);

/// How long `initialize` plus `tools/list` may take: a server that starts
/// but never answers is reported, not waited on forever.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How many of a stdio server's last stderr lines a failure quotes.
const STDERR_LINES: usize = 8;
/// How long a failure waits for the rest of a dying server's stderr.
const STDERR_GRACE: Duration = Duration::from_millis(300);

/// Why a server could not be connected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum McpStartError {
    /// The program could not be started at all.
    #[error("could not start `{command}`: {reason}")]
    Spawn {
        /// The configured program.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The server exited, or closed its connection, before answering.
    #[error("the server {what}{}", stderr_suffix(.stderr))]
    Exited {
        /// What happened (`exited with exit status: 1 during initialize`).
        what: String,
        /// Its last stderr lines, when it wrote any.
        stderr: Vec<String>,
    },
    /// `initialize` or `tools/list` failed.
    #[error("{step} failed: {reason}{}", stderr_suffix(.stderr))]
    Protocol {
        /// `initialize` or `tools/list`.
        step: &'static str,
        /// rmcp's error.
        reason: String,
        /// The server's last stderr lines, when it wrote any.
        stderr: Vec<String>,
    },
    /// It did not answer within [`CONNECT_TIMEOUT`].
    #[error("no answer to initialize within {} s", .0.as_secs())]
    Timeout(Duration),
}

fn stderr_suffix(lines: &[String]) -> String {
    if lines.is_empty() { String::new() } else { format!("; its stderr ends: {}", lines.join(" | ")) }
}

/// A server's stderr, forwarded to the log line by line (at `info`: servers
/// print banners there), with its last lines kept for failure reasons.
#[derive(Clone, Default)]
pub(crate) struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    closed: Arc<tokio::sync::Notify>,
    done: Arc<std::sync::atomic::AtomicBool>,
}

impl StderrTail {
    fn spawn(server: String, stderr: tokio::process::ChildStderr) -> Self {
        let tail = Self::default();
        let keep = tail.clone();
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::info!(target: "codemode_catalog::mcp::stderr", server = %server, "{line}");
                let mut kept = keep.lines.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                // A line is quoted in errors: keep it short.
                kept.push_back(line.chars().take(300).collect());
            }
            keep.done.store(true, std::sync::atomic::Ordering::SeqCst);
            keep.closed.notify_waiters();
        });
        tail
    }

    /// The last lines, after waiting briefly for a dying server's stream to
    /// end so its final words are included.
    async fn last_lines(&self) -> Vec<String> {
        if !self.done.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = tokio::time::timeout(STDERR_GRACE, self.closed.notified()).await;
        }
        self.lines.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter().cloned().collect()
    }
}

/// The host variables a stdio server inherits; everything else (API keys,
/// tokens, cloud credentials) stays with the host. The list is the official
/// MCP SDKs' default environment on POSIX, plus the locale and temporary
/// directory so servers print and write files as the user expects.
pub(crate) const INHERITED_ENV: &[&str] =
    &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR"];

/// Gives a stdio server a cleared environment: the [`INHERITED_ENV`] subset
/// of the host's, then the server's configured `env`.
fn server_env(cmd: &mut tokio::process::Command, configured: &[(String, String)]) {
    cmd.env_clear();
    for key in INHERITED_ENV {
        if let Some(value) = std::env::var_os(key) {
            // As the SDKs do: a shell function export is not a value.
            if !value.to_string_lossy().starts_with("()") {
                cmd.env(key, value);
            }
        }
    }
    for (k, v) in configured {
        cmd.env(k, v);
    }
}

/// The largest JSON-RPC message a stdio server reads: rmcp servers drop a
/// longer line with only a log line, so the call would wait for its timeout.
pub(crate) const MAX_STDIO_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// Bytes of the JSON-RPC envelope around a request's params
/// (`{"jsonrpc":"2.0","id":…,"method":"tools/call","params":…}` and the
/// newline), with room to spare.
const ENVELOPE_BYTES: usize = 256;

/// Fails when `params` serialize to more than `limit` bytes with the
/// envelope. Counting does not allocate a copy of the request.
fn check_size(
    server: &str,
    what: &str,
    params: &impl serde::Serialize,
    limit: Option<usize>,
) -> Result<(), RequestTooLarge> {
    let Some(limit) = limit else { return Ok(()) };
    // Params that cannot serialize count as empty here and fail later in
    // rmcp with their own error.
    let size = ENVELOPE_BYTES + codemode_protocol::budget::json_bytes(params);
    if size > limit {
        return Err(RequestTooLarge { server: server.to_owned(), what: what.to_owned(), size, limit });
    }
    Ok(())
}

/// What a server connection publishes for new cells.
#[derive(Clone, Debug, Default)]
pub(crate) struct ServerView {
    pub tools: Vec<McpToolInfo>,
    pub up: bool,
    pub last_error: Option<String>,
    /// The latest connection attempt failed (not: the session died and a
    /// reconnect is pending), so waiting for readiness is pointless.
    pub attempt_failed: bool,
    /// The server offers `resources/*` and `prompts/*`.
    pub resources: bool,
    pub prompts: bool,
    /// The server speaks the MCP tasks extension (SEP-2663): any call may
    /// come back as a task.
    pub tasks_extension: bool,
    /// Raw names of tools that refused a plain call for want of a
    /// 2025-11-25 task: later calls to them go out as tasks at once.
    pub core_task_tools: HashSet<String>,
    /// The live session. Kept in the shared view so a call reads it
    /// without a round trip through the actor's mailbox: that hop cost
    /// about 100 µs per call in `benches/mcp.rs`.
    pub peer: Option<Peer<RoleClient>>,
}

pub(crate) enum McpMsg {
    Connect,
    Connected(Peer<RoleClient>, Vec<McpToolInfo>),
    Failed(McpStartError),
    Died(String),
    Refresh,
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

pub(crate) struct McpServerActor;

pub(crate) struct McpState {
    config: McpServerConfig,
    view: Arc<RwLock<ServerView>>,
    inputs: Inputs,
    peer: Option<Peer<RoleClient>>,
    backoff: Backoff,
    connecting: bool,
    /// The reason last logged, so a server failing the same way on every
    /// retry logs it once, not every backoff step.
    logged: Option<String>,
    /// The task holding the session: aborted when the actor ends (a stop
    /// or a crash), which closes the session and ends a stdio server.
    session: Option<tokio::task::JoinHandle<()>>,
    /// The session's stdio server process group, once connected.
    group: HeldGroup,
}

impl Drop for McpState {
    fn drop(&mut self) {
        // The view is left to the next actor: this drop may run after a
        // restarted actor already published its own session. Calls on the
        // closed session fail with its error until then.
        if let Some(task) = self.session.take() {
            task.abort();
        }
        // Not stopped in order (a crash): the group is killed at once.
        drop(lock_group(&self.group).take());
    }
}

/// The client side: forwards `tools/list_changed` to the actor (none for a
/// one-off probe).
#[derive(Clone)]
pub(crate) struct Handler {
    pub(crate) actor: Option<ActorRef<McpMsg>>,
    /// Callers of 2025-11-25 tasks, for the elicitations that name them.
    pub(crate) inputs: Inputs,
}

/// The task a server's request belongs to
/// (`_meta["io.modelcontextprotocol/related-task"].taskId`).
fn related_task(
    meta: Option<&rmcp::model::RequestMetaObject>,
    context: &rmcp::model::RequestMetaObject,
) -> Option<String> {
    let of = |m: &rmcp::model::RequestMetaObject| {
        let value = serde_json::to_value(m).ok()?;
        value.get("io.modelcontextprotocol/related-task")?.get("taskId")?.as_str().map(str::to_owned)
    };
    meta.and_then(of).or_else(|| of(context))
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        // codemode polls tasks (both generations), so a server may answer
        // any call with one.
        let mut capabilities = ClientCapabilities::default();
        capabilities.extensions =
            Some([(rmcp::model::TASKS_EXTENSION_ID.to_owned(), Map::new())].into_iter().collect());
        // Forms only, and only for a task's input (a 2025-11-25 server
        // elicits for its task while codemode waits on `tasks/result`);
        // any other elicitation is declined.
        let mut elicitation = rmcp::model::ElicitationCapability::new();
        elicitation.form = Some(rmcp::model::FormElicitationCapability::default());
        capabilities.elicitation = Some(elicitation);
        ClientConfig::new(capabilities, Implementation::new("codemode", env!("CARGO_PKG_VERSION")))
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
        let ElicitRequestParams::FormElicitationParams { meta, message, requested_schema } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        // A form whose schema does not serialize cannot be shown: declined.
        let Ok(schema) = serde_json::to_value(requested_schema) else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        let asker =
            related_task(meta.as_ref(), &context.meta).and_then(|task| self.inputs.take_ask(&task, &message, &schema));
        let Some((on_input, key)) = asker else { return Ok(ElicitResult::new(ElicitationAction::Decline)) };
        Ok(match on_input(InputAsk { key, message, schema }).await {
            InputAnswer::Accept(content) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content))
            }
            InputAnswer::Decline => ElicitResult::new(ElicitationAction::Decline),
            InputAnswer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(actor) = &self.actor {
            let _ = actor.send_message(McpMsg::Refresh);
        }
    }
}

pub(crate) fn tool_info(t: rmcp::model::Tool) -> McpToolInfo {
    McpToolInfo {
        name: t.name.to_string(),
        description: t.description.map(|d| d.to_string()).unwrap_or_default(),
        input_schema: Value::Object((*t.input_schema).clone()),
        output_schema: t.output_schema.map(|o| Value::Object((*o).clone())),
        annotated_replay_safe: t
            .annotations
            .as_ref()
            .is_some_and(|a| a.read_only_hint == Some(true) || a.idempotent_hint == Some(true)),
    }
}

async fn list_tools(peer: &Peer<RoleClient>) -> Result<Vec<McpToolInfo>, rmcp::ServiceError> {
    let tools = peer.list_all_tools().await?;
    Ok(tools.into_iter().map(tool_info).collect())
}

/// A session: initialized and its tools listed, with a stdio server's
/// process group (killed when dropped).
type Session = (rmcp::service::RunningService<RoleClient, Handler>, Vec<McpToolInfo>, Option<ServerGroup>);

/// How long a stdio server whose session closed (its standard input
/// closed) has to exit before its process group is killed.
pub(crate) const SERVER_GRACE: Duration = Duration::from_secs(2);

/// Starts the server and opens a session, within [`CONNECT_TIMEOUT`].
/// A stdio server's stderr is piped so a failure can quote it.
pub(crate) async fn open(config: &McpServerConfig, handler: Handler) -> Result<Session, McpStartError> {
    let (served, tail) = match &config.transport {
        McpTransport::Stdio { command, args, env } => {
            let mut cmd = tokio::process::Command::new(command);
            cmd.args(args);
            server_env(&mut cmd, env);
            // A group of its own: it and whatever it starts end together.
            cmd.process_group(0);
            let (transport, stderr) = TokioChildProcess::builder(cmd)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .map_err(|e| McpStartError::Spawn { command: command.clone(), reason: e.to_string() })?;
            let group = transport.id().map(ServerGroup::adopt);
            let tail = stderr.map(|s| StderrTail::spawn(config.name.clone(), s));
            (tokio::time::timeout(CONNECT_TIMEOUT, handler.serve(transport)).await, (tail, group))
        }
        McpTransport::Http { url } => (
            tokio::time::timeout(CONNECT_TIMEOUT, handler.serve(StreamableHttpClientTransport::from_uri(url.as_str())))
                .await,
            (None, None),
        ),
    };
    // A server that fails to connect is ended with its group here.
    let (tail, group) = tail;
    let stderr = async {
        match &tail {
            Some(t) => t.last_lines().await,
            None => Vec::new(),
        }
    };
    let running = match served {
        Err(_) => return Err(McpStartError::Timeout(CONNECT_TIMEOUT)),
        Ok(Err(e)) => {
            let reason = e.to_string();
            let stderr = stderr.await;
            // A closed connection during initialize is a server that died:
            // say so, with its own last words, rather than rmcp's wording.
            if reason.to_ascii_lowercase().contains("closed") {
                return Err(McpStartError::Exited { what: format!("exited during initialize ({reason})"), stderr });
            }
            return Err(McpStartError::Protocol { step: "initialize", reason, stderr });
        }
        Ok(Ok(running)) => running,
    };
    match tokio::time::timeout(CONNECT_TIMEOUT, list_tools(running.peer())).await {
        Ok(Ok(tools)) => Ok((running, tools, group)),
        Ok(Err(e)) => Err(McpStartError::Protocol { step: "tools/list", reason: e.to_string(), stderr: stderr.await }),
        Err(_) => Err(McpStartError::Timeout(CONNECT_TIMEOUT)),
    }
}

async fn connect(config: McpServerConfig, me: ActorRef<McpMsg>, inputs: Inputs, held: HeldGroup) {
    let handler = Handler { actor: Some(me.clone()), inputs };
    let (running, tools, group) = match open(&config, handler).await {
        Ok(session) => session,
        Err(e) => {
            let _ = me.send_message(McpMsg::Failed(e));
            return;
        }
    };
    // Held by the actor: its stop ends the group with a grace, after this
    // task (and the session's standard input) is gone.
    *lock_group(&held) = group;
    let _ = me.send_message(McpMsg::Connected(running.peer().clone(), tools));
    // Watch the session: when the server goes away, reconnect.
    let reason = match running.waiting().await {
        Ok(reason) => format!("the server closed the session ({reason:?})"),
        Err(e) => format!("the session task failed: {e}"),
    };
    // Whatever the server left in its group ends with the session.
    drop(lock_group(&held).take());
    let _ = me.send_message(McpMsg::Died(reason));
}

/// A stdio server's process group, held where the actor's stop can end it.
type HeldGroup = Arc<std::sync::Mutex<Option<ServerGroup>>>;

fn lock_group(held: &HeldGroup) -> std::sync::MutexGuard<'_, Option<ServerGroup>> {
    held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Actor for McpServerActor {
    type Msg = McpMsg;
    type State = McpState;
    type Arguments = (McpServerConfig, Arc<RwLock<ServerView>>, Inputs);

    async fn pre_start(
        &self,
        myself: ActorRef<McpMsg>,
        (config, view, inputs): (McpServerConfig, Arc<RwLock<ServerView>>, Inputs),
    ) -> Result<McpState, ActorProcessingErr> {
        let _ = myself.send_message(McpMsg::Connect);
        Ok(McpState {
            config,
            view,
            inputs,
            peer: None,
            backoff: Backoff::new(FIRST_RECONNECT, MAX_RECONNECT),
            connecting: false,
            logged: None,
            session: None,
            group: HeldGroup::default(),
        })
    }

    /// A stop (the host shutting down, or the hub stopping): the session
    /// closes — a stdio server's standard input with it — and its process
    /// group gets [`SERVER_GRACE`] to exit before it is killed.
    async fn post_stop(&self, _: ActorRef<McpMsg>, state: &mut McpState) -> Result<(), ActorProcessingErr> {
        if let Some(task) = state.session.take() {
            task.abort();
            let _ = task.await;
        }
        let group = lock_group(&state.group).take();
        if let Some(group) = group {
            group.end(SERVER_GRACE).await;
        }
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<McpMsg>,
        msg: McpMsg,
        state: &mut McpState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            McpMsg::Connect if !state.connecting => {
                state.connecting = true;
                let held = Arc::clone(&state.group);
                state.session =
                    Some(tokio::spawn(connect(state.config.clone(), myself.clone(), state.inputs.clone(), held)));
            }
            McpMsg::Connect => {}
            McpMsg::Connected(peer, tools) => {
                state.connecting = false;
                state.backoff.reset();
                let caps = peer.peer_info().map(|info| info.capabilities.clone()).unwrap_or_default();
                state.peer = Some(peer.clone());
                if state.logged.take().is_some() {
                    tracing::info!(server = %state.config.name, tools = tools.len(), "MCP server connected");
                }
                *state.view.write().unwrap_or_else(std::sync::PoisonError::into_inner) = ServerView {
                    tools,
                    up: true,
                    last_error: None,
                    attempt_failed: false,
                    resources: caps.resources.is_some(),
                    prompts: caps.prompts.is_some(),
                    tasks_extension: caps.supports_tasks(),
                    core_task_tools: HashSet::new(),
                    peer: Some(peer.clone()),
                };
            }
            McpMsg::Failed(_) | McpMsg::Died(_) => {
                let (reason, attempt_failed) = match msg {
                    // A stdio server that failed to start will fail the same
                    // way again; an HTTP endpoint may just not be up yet,
                    // so readiness keeps waiting for it.
                    McpMsg::Failed(e) => (e.to_string(), matches!(state.config.transport, McpTransport::Stdio { .. })),
                    McpMsg::Died(reason) => (reason, false),
                    _ => return Ok(()),
                };
                // Once per distinct reason: operators see why at start
                // (stderr), not a line per backoff step.
                if state.logged.as_deref() != Some(reason.as_str()) {
                    tracing::warn!(server = %state.config.name, retry_in_ms = u64::try_from(state.backoff.peek().as_millis()).unwrap_or(u64::MAX), "MCP server is down: {reason}");
                    state.logged = Some(reason.clone());
                }
                state.connecting = false;
                state.peer = None;
                {
                    let mut view = state.view.write().unwrap_or_else(std::sync::PoisonError::into_inner);
                    view.up = false;
                    view.peer = None;
                    view.last_error = Some(reason);
                    view.attempt_failed = attempt_failed;
                }
                myself.send_after(state.backoff.next_delay(), || McpMsg::Connect);
            }
            McpMsg::Refresh => {
                if let Some(peer) = state.peer.clone() {
                    let view = Arc::clone(&state.view);
                    tokio::spawn(async move {
                        if let Ok(tools) = list_tools(&peer).await {
                            view.write().unwrap_or_else(std::sync::PoisonError::into_inner).tools = tools;
                        }
                    });
                }
            }
            #[cfg(feature = "test-hooks")]
            McpMsg::Crash => panic!("MCP server `{}`: crash requested by a test hook", state.config.name),
        }
        Ok(())
    }
}

fn call_error(name: &str, tool: &str, error: String) -> McpCallError {
    McpCallError::CallFailed { server: name.to_owned(), tool: tool.to_owned(), reason: error }
}

/// The text of an `isError` result that refuses a call for want of MCP
/// task augmentation (how the TypeScript SDK answers a plain call to a
/// tool with `taskSupport: "required"`; the tool did not run).
fn task_required(result: &Value) -> Option<String> {
    if result.get("isError").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    let blocks = result.get("content").and_then(Value::as_array)?;
    blocks
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .find(|t| t.contains("task augmentation"))
        .map(str::to_owned)
}

/// A handle to one server's actor.
#[derive(Clone, Debug)]
pub(crate) struct ServerHandle {
    /// The current actor: replaced when its supervisor restarts it. Calls
    /// do not use it (they read the view), so they keep working across a
    /// restart once the new actor reconnects.
    pub actor: Arc<Mutex<ActorRef<McpMsg>>>,
    pub view: Arc<RwLock<ServerView>>,
    /// The largest request the server reads, when it has a known limit
    /// ([`MAX_STDIO_REQUEST_BYTES`] for stdio servers).
    pub max_request_bytes: Option<usize>,
    /// Callers of this server's 2025-11-25 tasks, shared with its client
    /// handler.
    pub inputs: Inputs,
}

/// Why an operation failed; the reason of
/// [`McpCallError::OperationFailed`].
#[derive(Debug, thiserror::Error)]
enum OperationError {
    /// A required argument is missing.
    #[error("{0}")]
    Missing(&'static str),
    /// Not one of the four operations.
    #[error("unknown MCP operation {0}")]
    Unknown(String),
    /// The server answered with an error, or went away.
    #[error(transparent)]
    Server(#[from] rmcp::ServiceError),
    /// The answer could not be read as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl CurrentSession for ServerHandle {
    fn current_peer(&self) -> Option<Peer<RoleClient>> {
        self.view.read().unwrap_or_else(std::sync::PoisonError::into_inner).peer.clone()
    }
}

impl ServerHandle {
    /// The current connection actor.
    pub(crate) fn actor(&self) -> ActorRef<McpMsg> {
        self.actor.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// The session, waiting up to `timeout` for one: a run resumed on a
    /// process that just started meets its servers still connecting.
    async fn peer_within(&self, name: &str, timeout: Duration) -> Result<Peer<RoleClient>, McpCallError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            match self.peer(name).await {
                Err(_) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                answer => return answer,
            }
        }
    }

    /// A task call of `tool` on `peer`, following the server's reconnects.
    fn task_cx<'a>(
        &'a self,
        name: &'a str,
        tool: &'a str,
        peer: Peer<RoleClient>,
        timeout: Duration,
        on_input: Option<OnInput>,
    ) -> TaskCx<'a> {
        TaskCx { server: name, tool, peer: Mutex::new(peer), sessions: self, timeout, on_input, inputs: &self.inputs }
    }

    async fn peer(&self, name: &str) -> Result<Peer<RoleClient>, McpCallError> {
        let view = self.view.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        match (&view.peer, &view.last_error) {
            (Some(peer), _) => Ok(peer.clone()),
            (None, why) => Err(McpCallError::Down { server: name.to_owned(), reason: why.clone() }),
        }
    }

    /// `resources/list`, `resources/read`, `prompts/list` or `prompts/get`.
    pub(crate) async fn operation(
        &self,
        name: &str,
        op: &str,
        args: Map<String, Value>,
        timeout: Duration,
    ) -> Result<Value, McpCallError> {
        check_size(name, op, &args, self.max_request_bytes)?;
        let peer = self.peer(name).await?;
        let text = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_owned);
        let work = async {
            let value = match op {
                "resources/list" => serde_json::to_value(peer.list_resources(None).await?),
                "resources/read" => {
                    let uri = text("uri").ok_or(OperationError::Missing("resources.read needs {uri}"))?;
                    serde_json::to_value(peer.read_resource(ReadResourceRequestParams::new(uri)).await?)
                }
                "prompts/list" => serde_json::to_value(peer.list_prompts(None).await?),
                "prompts/get" => {
                    let prompt = text("name").ok_or(OperationError::Missing("prompts.get needs {name}"))?;
                    let mut params = GetPromptRequestParams::new(prompt);
                    params.arguments = args.get("arguments").and_then(Value::as_object).cloned();
                    serde_json::to_value(peer.get_prompt(params).await?)
                }
                other => return Err(OperationError::Unknown(other.to_owned())),
            };
            Ok(value?)
        };
        let (server, op) = (name.to_owned(), op.to_owned());
        match tokio::time::timeout(timeout, work).await {
            Ok(result) => {
                result.map_err(|e: OperationError| McpCallError::OperationFailed { server, op, reason: e.to_string() })
            }
            Err(_) => Err(McpCallError::OperationTimeout { server, op, ms: timeout.as_millis() }),
        }
    }

    /// Calls a tool. The request runs in the caller's task: when the caller
    /// is dropped (a cell that stopped), rmcp sends the server
    /// `notifications/cancelled` for it. A call the server answers with a
    /// task is polled until the task ends; `on_task` learns the task first.
    pub(crate) async fn call(
        &self,
        name: &str,
        tool: String,
        args: Map<String, Value>,
        timeout: Duration,
        hooks: TaskHooks,
    ) -> Result<Value, McpCallError> {
        let params = CallToolRequestParams::new(tool.clone()).with_arguments(args);
        // Refuse here: an oversized line would be dropped by the server
        // and the call would wait for its whole timeout.
        check_size(name, &format!("`{tool}`"), &params, self.max_request_bytes)?;
        let peer = self.peer(name).await?;
        let (extension, core) = {
            let view = self.view.read().unwrap_or_else(std::sync::PoisonError::into_inner);
            (view.tasks_extension, view.core_task_tools.contains(&tool))
        };
        let TaskHooks { on_task, on_input } = hooks;
        let cx = self.task_cx(name, &tool, peer.clone(), timeout, on_input);
        if extension {
            return cx.call_extension(params, on_task).await;
        }
        if core {
            return cx.call_core(params, on_task).await;
        }
        // Kept for a retry as a task; arguments are small next to a call.
        let retry = params.clone();
        match tokio::time::timeout(timeout, peer.call_tool(params)).await {
            Ok(Ok(result)) => {
                let value = serde_json::to_value(result)?;
                // The TypeScript SDK refuses a plain call to a task-only
                // tool in-band; the tool never ran, so it is called again
                // as a task, and later calls go out as tasks at once.
                if task_required(&value).is_none() {
                    return Ok(value);
                }
                self.view
                    .write()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .core_task_tools
                    .insert(tool.clone());
                cx.call_core(retry, on_task).await
            }
            Ok(Err(e)) => Err(call_error(name, &tool, e.to_string())),
            Err(_) => Err(McpCallError::CallTimeout { server: name.to_owned(), tool, ms: timeout.as_millis() }),
        }
    }

    /// Polls a task an earlier call (maybe on another process) created.
    pub(crate) async fn resume_task(
        &self,
        name: &str,
        tool: &str,
        task: &McpTask,
        timeout: Duration,
        on_input: Option<OnInput>,
    ) -> Result<Value, McpCallError> {
        let peer = self.peer_within(name, timeout).await?;
        self.task_cx(name, tool, peer, timeout, on_input).finish(task).await
    }

    /// Asks the server to cancel a task.
    pub(crate) async fn cancel_task(
        &self,
        name: &str,
        tool: &str,
        task: &McpTask,
        timeout: Duration,
    ) -> Result<(), McpCallError> {
        let peer = self.peer_within(name, timeout).await?;
        self.task_cx(name, tool, peer, timeout, None).cancel(task).await
    }
}
