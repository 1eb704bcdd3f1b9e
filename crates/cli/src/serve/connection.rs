//! One MCP connection of `codemode serve`: its handler
//! ([`CodeModeServer`]), the principal and session key it acts for, and
//! the connection constants both transports share.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode_protocol::ids::{self, NoRandomness};
use codemode_runtime::{CellResult, CodeMode, ErrorCode, ExecToolDescriptions, OutputStream, Reply};
use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ErrorData, GetTaskParams, GetTaskResult, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};
use tracing::Instrument;

use super::calls::tool_result;
use super::trace_context;
use crate::lifecycle::Lifecycle;
use crate::metrics::counters::sessions;
use codemode_runtime::result_schema;

/// How long open connections (idle keep-alives, the clients' event
/// streams) or the stdio service get to close once the transport stops.
pub(super) const CONNECTIONS_CLOSE_WAIT: Duration = Duration::from_secs(2);

/// The principal of unauthenticated clients (stdio, loopback HTTP without
/// tokens).
pub(crate) const LOCAL_PRINCIPAL: &str = "local";
/// The HTTP header a client names its session key with.
pub(crate) const SESSION_HEADER: &str = "codemode-session";
/// Longest session key.
pub(super) const MAX_KEY_CHARS: usize = 128;

/// The authenticated principal of an HTTP request, put in its extensions
/// by the auth layer and read by the MCP handler.
#[derive(Clone, Debug)]
pub(super) struct Principal(pub(super) String);

/// Whether `key` may name a session: 1–128 of `A-Z a-z 0-9 _ . : -`, so
/// the scoped session id `principal/key` is unambiguous.
pub(crate) fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.chars().count() <= MAX_KEY_CHARS
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
}

/// Why a call cannot act in the session it names.
#[derive(Debug, thiserror::Error)]
enum BindingError {
    /// The session key has characters or a length a key cannot have.
    #[error("the session key must be 1-{max} characters of letters, digits, `_`, `.`, `:` or `-`.", max = MAX_KEY_CHARS)]
    InvalidKey,
    /// The connection already acts for another principal or session key.
    #[error(
        "this MCP connection is bound to session `{key}` of principal `{principal}`; open a new connection to use \
         another session or credential."
    )]
    Bound {
        /// The session key it is bound to.
        key: String,
        /// The principal it acts for.
        principal: String,
    },
}

/// What one connection is bound to once its first call arrives.
struct Binding {
    principal: String,
    key: String,
    reply: Reply,
}

/// One MCP connection: its id, and the session and reply it acts in.
struct Connection {
    rt: CodeMode,
    id: String,
    /// `serve --session KEY` (stdio): the key when the request names none.
    default_key: Option<String>,
    grace: Duration,
    binding: Mutex<Option<Binding>>,
    /// Counts the connection in `codemode_mcp_sessions`.
    open: Option<sessions::Open>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        let binding = self.binding.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        // Without a binding the connection made no call: it holds nothing.
        let (Some(binding), Ok(handle)) = (binding, tokio::runtime::Handle::try_current()) else { return };
        let closing = self.open.take().map(sessions::Open::close);
        let grace = self.grace;
        // A named session's runs are durable: another connection,
        // here or on another process, may `wait` on them later, so they stay
        // (parked runs expire by their TTL). A connection's own session is
        // unreachable once it closes: its runs are disposed.
        let named = binding.key != self.id;
        handle.spawn(async move {
            tokio::time::sleep(grace).await;
            // Shut down meanwhile: nothing is left to dispose.
            if !named {
                let _ = binding.reply.dispose_all().await;
            }
            binding.reply.end();
            drop(closing);
        });
    }
}

impl Connection {
    /// The reply a call of `principal` naming `key` (if any) acts in.
    fn reply(&self, principal: &str, key: Option<&str>) -> Result<Reply, BindingError> {
        let key = match key.or(self.default_key.as_deref()) {
            Some(k) if !valid_key(k) => return Err(BindingError::InvalidKey),
            Some(k) => k.to_owned(),
            None => self.id.clone(),
        };
        let mut binding = self.binding.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match binding.as_ref() {
            Some(b) if b.principal == principal && b.key == key => Ok(b.reply.clone()),
            Some(b) => Err(BindingError::Bound { key: b.key.clone(), principal: b.principal.clone() }),
            None => {
                let scope = format!("{principal}/{key}");
                let reply = self.rt.session(scope).for_principal(principal).reply(self.id.clone());
                *binding = Some(Binding { principal: principal.to_owned(), key, reply: reply.clone() });
                Ok(reply)
            }
        }
    }
}

/// The MCP handler of one connection.
#[derive(Clone)]
pub(crate) struct CodeModeServer {
    connection: Arc<Connection>,
    /// The `exec` calls answered as MCP tasks.
    tasks: Arc<super::tasks::TaskRuns>,
    tools: Arc<Vec<Tool>>,
    lifecycle: Arc<Lifecycle>,
}

fn schema_object(v: &Value) -> Arc<Map<String, Value>> {
    Arc::new(v.as_object().cloned().unwrap_or_default())
}

/// The `exec`/`wait` tool list the connections of one server share while
/// it describes them the same way: a session holds a pointer to it, not a
/// copy of its descriptions and schemas (a client that opens many sessions
/// grows the server by little more than rmcp's own per-session state).
#[derive(Default)]
pub(crate) struct ToolCache(Mutex<Option<(ExecToolDescriptions, Arc<Vec<Tool>>)>>);

impl ToolCache {
    /// The tool list `described` makes: the one shared so far when it is
    /// described the same, else a new one, shared from now on.
    fn tools(&self, described: ExecToolDescriptions) -> Arc<Vec<Tool>> {
        let mut held = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((known, tools)) = held.as_ref()
            && *known == described
        {
            return Arc::clone(tools);
        }
        let output_schema = schema_object(&result_schema());
        let tools: Arc<Vec<Tool>> = Arc::new(
            [&described.exec, &described.wait]
                .into_iter()
                .map(|t| {
                    let mut tool = Tool::new(t.name, t.description.clone(), schema_object(&t.input_schema));
                    tool.output_schema = Some(Arc::clone(&output_schema));
                    tool
                })
                .collect(),
        );
        *held = Some((described, Arc::clone(&tools)));
        tools
    }
}

impl CodeModeServer {
    pub(super) fn new(
        rt: CodeMode,
        default_key: Option<String>,
        grace: Duration,
        lifecycle: Arc<Lifecycle>,
        cache: &ToolCache,
    ) -> Result<Self, NoRandomness> {
        let tools = cache.tools(rt.exec_tool_description());
        let connection = Connection {
            rt,
            id: ids::unguessable::<16>("mcp_")?,
            default_key,
            grace,
            binding: Mutex::new(None),
            open: Some(sessions::Open::new()),
        };
        let tasks = Arc::new(super::tasks::TaskRuns::new(connection.rt.limits().parked_ttl));
        Ok(Self { connection: Arc::new(connection), tasks, tools, lifecycle })
    }

    /// The reply a task request of this connection acts in.
    fn task_reply(&self, context: &RequestContext<RoleServer>) -> Result<Reply, ErrorData> {
        let (principal, key) = identity(context);
        self.connection.reply(&principal, key.as_deref()).map_err(|e| ErrorData::invalid_request(e.to_string(), None))
    }

    /// Runs one call ([`Reply::handle_streaming`]): every refusal of its
    /// arguments is a `failed` result with `invalid_input`, so clients
    /// always get the one result shape.
    async fn call(
        &self,
        reply: &Reply,
        name: &str,
        args: &Map<String, Value>,
        stream: Option<OutputStream>,
    ) -> CellResult {
        reply.handle_streaming(name, args, stream).await
    }
}

/// The principal and session key an MCP request carries over HTTP; none
/// over stdio.
fn identity(context: &RequestContext<RoleServer>) -> (String, Option<String>) {
    let Some(parts) = context.extensions.get::<hyper::http::request::Parts>() else {
        return (LOCAL_PRINCIPAL.to_owned(), None);
    };
    let principal = parts.extensions.get::<Principal>().map_or_else(|| LOCAL_PRINCIPAL.to_owned(), |p| p.0.clone());
    // A header that is not text cannot be a valid key: keep its bytes'
    // lossy form so the refusal names it rather than ignoring it.
    let key = parts.headers.get(SESSION_HEADER).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    (principal, key)
}

impl ServerHandler for CodeModeServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
            .with_server_info(Implementation::new("codemode", env!("CARGO_PKG_VERSION")))
            .with_instructions("Write JavaScript cells with `exec`; resume parked cells with `wait`.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let carrier = trace_context::Carrier::of_call(&context, request.meta.as_ref());
        let span = trace_context::call_span(&request.name, &carrier);
        let args = request.arguments.unwrap_or_default();
        let (principal, key) = identity(&context);
        // Only `exec` starts cells; a `wait` may still collect a result
        // during the shutdown grace.
        let admitted = if request.name == "exec" { self.lifecycle.admit() } else { Ok(self.lifecycle.track()) };
        let result = match (admitted, self.connection.reply(&principal, key.as_deref())) {
            (Err(refusal), _) => CellResult::input_error(ErrorCode::RuntimeUnavailable, refusal.to_string()),
            // The cell's span is a child of the span current at `exec`.
            (Ok(_in_flight), Ok(reply)) => {
                // A client that asked for progress sees the output as it
                // happens.
                let progress = context
                    .meta
                    .get_progress_token()
                    .or_else(|| request.meta.as_ref().and_then(|m| m.get_progress_token()))
                    .map(|token| super::progress::notify(context.peer.clone(), token));
                let (stream, notifier) = progress.unzip();
                let result = self.call(&reply, &request.name, &args, stream).instrument(span.clone()).await;
                if let Some(notifier) = notifier {
                    super::progress::finish(notifier).await;
                }
                if super::elicit::can_ask(&context.peer) {
                    super::elicit::settle(&context.peer, &reply, result).instrument(span).await
                } else {
                    result
                }
            }
            (Ok(_), Err(refusal)) => CellResult::input_error(ErrorCode::InvalidInput, refusal.to_string()),
        };
        // A client that polls tasks gets a parked `exec` as one.
        let tasks = context.client_capabilities().is_some_and(|c| c.supports_tasks());
        if tasks
            && request.name == "exec"
            && let Some(task) = self.tasks.start(&result)
        {
            return Ok(CallToolResponse::Task(task));
        }
        Ok(tool_result(&result)?.into())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let reply = self.task_reply(&context)?;
        self.tasks.get(&reply, &request.task_id).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let reply = self.task_reply(&context)?;
        self.tasks.update(&reply, &request.task_id, &request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let reply = self.task_reply(&context)?;
        self.tasks.cancel(&reply, &request.task_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_keys_are_bounded_and_cannot_cross_a_principal() {
        assert!(valid_key("a"));
        assert!(valid_key(&"k".repeat(MAX_KEY_CHARS)));
        assert!(!valid_key(&"k".repeat(MAX_KEY_CHARS + 1)));
        assert!(!valid_key(""));
        assert!(!valid_key("alice/x"), "a key cannot reach into another principal's scope");
    }
}
