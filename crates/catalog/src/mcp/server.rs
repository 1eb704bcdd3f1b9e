//! One MCP server connection: a supervised-by-itself actor that keeps an
//! `rmcp` client session to a stdio MCP server alive.
//!
//! It connects in the background at start (`initialize`, then
//! `tools/list`), reconnects with exponential backoff when the server dies,
//! and answers calls while it is up. While it is down, calls fail at once
//! with the reason — never hang. A `tools/list_changed` notification
//! refreshes the tool list, which new cells see.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use ractor::{Actor, ActorProcessingErr, ActorRef};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, GetPromptRequestParams, Implementation,
    ReadResourceRequestParams,
};
use rmcp::service::{NotificationContext, Peer, RoleClient};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Map, Value};

use super::{McpServerConfig, McpToolInfo, McpTransport};

const MAX_BACKOFF: Duration = Duration::from_secs(30);

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

/// A request too large for the server to read; it was not sent.
#[derive(Debug, thiserror::Error)]
#[error(
    "MCP server `{server}`: the {what} request is {size} bytes of JSON, over the {limit}-byte ({mib} MiB) limit of a stdio MCP server; it was not sent. Pass less data, e.g. a path or an id instead of the content.",
    mib = limit / (1024 * 1024)
)]
pub(crate) struct RequestTooLarge {
    /// The configured server name.
    pub server: String,
    /// The tool or operation.
    pub what: String,
    /// The request's size in bytes (params plus envelope).
    pub size: usize,
    /// The limit in bytes.
    pub limit: usize,
}

/// Counts the bytes written to it.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Fails when `params` serialize to more than `limit` bytes with the
/// envelope. Counting does not allocate a copy of the request.
fn check_size(
    server: &str,
    what: &str,
    params: &impl serde::Serialize,
    limit: Option<usize>,
) -> Result<(), RequestTooLarge> {
    let Some(limit) = limit else { return Ok(()) };
    let mut counter = Counter(ENVELOPE_BYTES);
    // Params that cannot serialize fail later in rmcp with their own error.
    if serde_json::to_writer(&mut counter, params).is_err() {
        return Ok(());
    }
    if counter.0 > limit {
        return Err(RequestTooLarge { server: server.to_owned(), what: what.to_owned(), size: counter.0, limit });
    }
    Ok(())
}

/// What a server connection publishes for new cells.
#[derive(Clone, Debug, Default)]
pub(crate) struct ServerView {
    pub tools: Vec<McpToolInfo>,
    pub up: bool,
    pub last_error: Option<String>,
    /// The server offers `resources/*` and `prompts/*`.
    pub resources: bool,
    pub prompts: bool,
    /// The live session. Kept in the shared view so a call reads it
    /// without a round trip through the actor's mailbox: that hop cost
    /// about 100 µs per call in `benches/mcp.rs`.
    pub peer: Option<Peer<RoleClient>>,
}

pub(crate) enum McpMsg {
    Connect,
    Connected(Peer<RoleClient>, Vec<McpToolInfo>),
    Failed(String),
    Died(String),
    Refresh,
}

pub(crate) struct McpServerActor;

pub(crate) struct McpState {
    config: McpServerConfig,
    view: Arc<RwLock<ServerView>>,
    peer: Option<Peer<RoleClient>>,
    backoff: Duration,
    connecting: bool,
}

/// The client side: forwards `tools/list_changed` to the actor.
#[derive(Clone)]
struct Handler {
    actor: ActorRef<McpMsg>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::default(), Implementation::new("codemode", env!("CARGO_PKG_VERSION")))
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.actor.send_message(McpMsg::Refresh);
    }
}

fn tool_info(t: rmcp::model::Tool) -> McpToolInfo {
    McpToolInfo {
        name: t.name.to_string(),
        description: t.description.map(|d| d.to_string()).unwrap_or_default(),
        input_schema: Value::Object((*t.input_schema).clone()),
    }
}

async fn list_tools(peer: &Peer<RoleClient>) -> Result<Vec<McpToolInfo>, String> {
    let tools = peer.list_all_tools().await.map_err(|e| format!("tools/list failed: {e}"))?;
    Ok(tools.into_iter().map(tool_info).collect())
}

async fn connect(config: McpServerConfig, me: ActorRef<McpMsg>) {
    let handler = Handler { actor: me.clone() };
    let served = match &config.transport {
        McpTransport::Stdio { command, args, env } => {
            let mut cmd = tokio::process::Command::new(command);
            cmd.args(args);
            server_env(&mut cmd, env);
            match TokioChildProcess::new(cmd) {
                Ok(t) => handler.serve(t).await,
                Err(e) => {
                    let _ = me.send_message(McpMsg::Failed(format!("could not start `{command}`: {e}")));
                    return;
                }
            }
        }
        McpTransport::Http { url } => handler.serve(StreamableHttpClientTransport::from_uri(url.as_str())).await,
    };
    let running = match served {
        Ok(r) => r,
        Err(e) => {
            let _ = me.send_message(McpMsg::Failed(format!("initialize failed: {e}")));
            return;
        }
    };
    let peer = running.peer().clone();
    match list_tools(&peer).await {
        Ok(tools) => {
            let _ = me.send_message(McpMsg::Connected(peer, tools));
        }
        Err(e) => {
            let _ = me.send_message(McpMsg::Failed(e));
            return;
        }
    }
    // Watch the session: when the server goes away, reconnect.
    let reason = match running.waiting().await {
        Ok(reason) => format!("the server closed the session ({reason:?})"),
        Err(e) => format!("the session task failed: {e}"),
    };
    let _ = me.send_message(McpMsg::Died(reason));
}

impl Actor for McpServerActor {
    type Msg = McpMsg;
    type State = McpState;
    type Arguments = (McpServerConfig, Arc<RwLock<ServerView>>);

    async fn pre_start(
        &self,
        myself: ActorRef<McpMsg>,
        (config, view): (McpServerConfig, Arc<RwLock<ServerView>>),
    ) -> Result<McpState, ActorProcessingErr> {
        let _ = myself.send_message(McpMsg::Connect);
        Ok(McpState { config, view, peer: None, backoff: Duration::from_millis(100), connecting: false })
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
                tokio::spawn(connect(state.config.clone(), myself.clone()));
            }
            McpMsg::Connect => {}
            McpMsg::Connected(peer, tools) => {
                state.connecting = false;
                state.backoff = Duration::from_millis(100);
                let caps = peer.peer_info().map(|info| info.capabilities.clone()).unwrap_or_default();
                state.peer = Some(peer.clone());
                *state.view.write().unwrap_or_else(std::sync::PoisonError::into_inner) = ServerView {
                    tools,
                    up: true,
                    last_error: None,
                    resources: caps.resources.is_some(),
                    prompts: caps.prompts.is_some(),
                    peer: Some(peer.clone()),
                };
            }
            McpMsg::Failed(reason) | McpMsg::Died(reason) => {
                state.connecting = false;
                state.peer = None;
                {
                    let mut view = state.view.write().unwrap_or_else(std::sync::PoisonError::into_inner);
                    view.up = false;
                    view.peer = None;
                    view.last_error = Some(reason);
                }
                myself.send_after(state.backoff, || McpMsg::Connect);
                state.backoff = (state.backoff * 2).min(MAX_BACKOFF);
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
        }
        Ok(())
    }
}

/// A handle to one server's actor.
#[derive(Clone, Debug)]
pub(crate) struct ServerHandle {
    pub actor: ActorRef<McpMsg>,
    pub view: Arc<RwLock<ServerView>>,
    /// The largest request the server reads, when it has a known limit
    /// ([`MAX_STDIO_REQUEST_BYTES`] for stdio servers).
    pub max_request_bytes: Option<usize>,
}

impl ServerHandle {
    async fn peer(&self, name: &str) -> Result<Peer<RoleClient>, String> {
        let view = self.view.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        match (&view.peer, &view.last_error) {
            (Some(peer), _) => Ok(peer.clone()),
            (None, why) => Err(format!(
                "MCP server `{name}` is down ({}); it is being restarted, retry in a moment.",
                why.as_deref().unwrap_or("not connected yet")
            )),
        }
    }

    /// `resources/list`, `resources/read`, `prompts/list` or `prompts/get`.
    pub(crate) async fn operation(
        &self,
        name: &str,
        op: &str,
        args: Map<String, Value>,
        timeout: Duration,
    ) -> Result<Value, String> {
        check_size(name, op, &args, self.max_request_bytes).map_err(|e| e.to_string())?;
        let peer = self.peer(name).await?;
        let text = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_owned);
        let work = async {
            let value = match op {
                "resources/list" => serde_json::to_value(peer.list_resources(None).await.map_err(|e| e.to_string())?),
                "resources/read" => {
                    let uri = text("uri").ok_or("resources.read needs {uri}")?;
                    let read =
                        peer.read_resource(ReadResourceRequestParams::new(uri)).await.map_err(|e| e.to_string())?;
                    serde_json::to_value(read)
                }
                "prompts/list" => serde_json::to_value(peer.list_prompts(None).await.map_err(|e| e.to_string())?),
                "prompts/get" => {
                    let prompt = text("name").ok_or("prompts.get needs {name}")?;
                    let mut params = GetPromptRequestParams::new(prompt);
                    params.arguments = args.get("arguments").and_then(Value::as_object).cloned();
                    serde_json::to_value(peer.get_prompt(params).await.map_err(|e| e.to_string())?)
                }
                other => return Err(format!("unknown MCP operation {other}")),
            };
            value.map_err(|e| e.to_string())
        };
        match tokio::time::timeout(timeout, work).await {
            Ok(result) => result.map_err(|e| format!("MCP server `{name}`: {op} failed: {e}")),
            Err(_) => Err(format!("MCP server `{name}` did not answer {op} within {} ms", timeout.as_millis())),
        }
    }

    /// Calls a tool. The request runs in the caller's task: when the caller
    /// is dropped (a cell that stopped), rmcp sends the server
    /// `notifications/cancelled` for it.
    pub(crate) async fn call(
        &self,
        name: &str,
        tool: String,
        args: Map<String, Value>,
        timeout: Duration,
    ) -> Result<Value, String> {
        let params = CallToolRequestParams::new(tool.clone()).with_arguments(args);
        // Refuse here: an oversized line would be dropped by the server
        // and the call would wait for its whole timeout.
        check_size(name, &format!("`{tool}`"), &params, self.max_request_bytes).map_err(|e| e.to_string())?;
        let peer = self.peer(name).await?;
        match tokio::time::timeout(timeout, peer.call_tool(params)).await {
            Ok(Ok(result)) => serde_json::to_value(result).map_err(|e| e.to_string()),
            Ok(Err(e)) => Err(format!("MCP server `{name}` failed the call to `{tool}`: {e}")),
            Err(_) => Err(format!("MCP server `{name}` did not answer `{tool}` within {} ms", timeout.as_millis())),
        }
    }
}
