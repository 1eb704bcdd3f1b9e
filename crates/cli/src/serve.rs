//! `codemode serve`: code mode as an MCP server.
//!
//! Exposes two tools, `exec` and `wait`, whose descriptions and input
//! schemas are exactly `CodeMode::exec_tool_description()`. One long-lived
//! runtime serves every call, so parked cells, the session store and saved
//! results work across calls.
//!
//! **Identity.** Every client acts for a *principal*: over HTTP the one its
//! bearer token names (`[serve] tokens`), else `local` (loopback only, or
//! stdio). Each MCP connection gets an unguessable connection id and, by
//! default, a fresh code mode session named after it: nothing of one
//! connection is visible to another, and no id is ever reused across
//! restarts. A client that wants its store back across reconnects names a
//! session key (the `codemode-session` HTTP header, or `serve --session`
//! for stdio); keys are scoped to the principal, so two principals using
//! the same key never share data.
//!
//! **Lifetime.** A connection is one reply: when the client goes away, its
//! live cells are disposed after `[serve] dispose_grace_ms` (another
//! connection of the same principal and session key may `wait` on them
//! meanwhile) and its saved results are freed.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Result, bail};
use codemode_runtime::{CellResult, CodeMode, Exec, Reply};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::config::ServeSection;

/// The principal of unauthenticated clients (stdio, loopback HTTP without
/// tokens).
pub(crate) const LOCAL_PRINCIPAL: &str = "local";
/// The HTTP header a client names its session key with.
pub(crate) const SESSION_HEADER: &str = "codemode-session";
/// Longest session key.
const MAX_KEY_CHARS: usize = 128;

/// The authenticated principal of an HTTP request, put in its extensions
/// by the auth layer and read by the MCP handler.
#[derive(Clone, Debug)]
struct Principal(String);

/// Whether `key` may name a session: 1–128 of `A-Z a-z 0-9 _ . : -`, so
/// the scoped session id `principal/key` is unambiguous.
pub(crate) fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.chars().count() <= MAX_KEY_CHARS
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
}

/// A fresh unguessable id: `prefix` + 128 random bits in hex.
fn random_id(prefix: &str) -> Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no OS randomness for a connection id: {e}"))?;
    Ok(bytes.iter().fold(prefix.to_owned(), |mut s, b| {
        s.push_str(&format!("{b:02x}"));
        s
    }))
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
}

impl Drop for Connection {
    fn drop(&mut self) {
        let binding = self.binding.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        let (Some(binding), Ok(handle)) = (binding, tokio::runtime::Handle::try_current()) else { return };
        let grace = self.grace;
        handle.spawn(async move {
            tokio::time::sleep(grace).await;
            // Shut down meanwhile: nothing is left to dispose.
            let _ = binding.reply.dispose_all().await;
            binding.reply.end();
        });
    }
}

impl Connection {
    /// The reply a call of `principal` naming `key` (if any) acts in.
    fn reply(&self, principal: &str, key: Option<&str>) -> Result<Reply, String> {
        let key = match key.or(self.default_key.as_deref()) {
            Some(k) if !valid_key(k) => {
                return Err(format!(
                    "the session key must be 1-{MAX_KEY_CHARS} characters of letters, digits, `_`, `.`, `:` or `-`."
                ));
            }
            Some(k) => k.to_owned(),
            None => self.id.clone(),
        };
        let mut binding = self.binding.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match binding.as_ref() {
            Some(b) if b.principal == principal && b.key == key => Ok(b.reply.clone()),
            Some(b) => Err(format!(
                "this MCP connection is bound to session `{}` of principal `{}`; open a new connection to use another \
                 session or credential.",
                b.key, b.principal
            )),
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
    tools: Arc<Vec<Tool>>,
}

fn schema_object(v: &Value) -> Arc<Map<String, Value>> {
    Arc::new(v.as_object().cloned().unwrap_or_default())
}

impl CodeModeServer {
    fn new(rt: CodeMode, default_key: Option<String>, grace: Duration) -> Result<Self> {
        let d = rt.exec_tool_description();
        let tools = vec![
            Tool::new(d.exec.name, d.exec.description.clone(), schema_object(&d.exec.input_schema)),
            Tool::new(d.wait.name, d.wait.description.clone(), schema_object(&d.wait.input_schema)),
        ];
        let connection = Connection { rt, id: random_id("mcp_")?, default_key, grace, binding: Mutex::new(None) };
        Ok(Self { connection: Arc::new(connection), tools: Arc::new(tools) })
    }

    async fn call(&self, reply: &Reply, name: &str, args: &Map<String, Value>) -> Result<CellResult, String> {
        match name {
            "exec" => {
                let code =
                    args.get("code").and_then(Value::as_str).ok_or("exec needs `code`: a string of JavaScript")?;
                let mut exec = Exec::code(code);
                if let Some(title) = args.get("title").and_then(Value::as_str) {
                    exec = exec.title(title);
                }
                if let Some(flag) = args.get("restartSafe") {
                    exec = exec.restart_safe(flag.as_bool().ok_or("restartSafe must be a boolean.")?);
                }
                reply.exec(exec).await.map_err(|e| e.to_string())
            }
            "wait" => {
                let run_id = args
                    .get("runId")
                    .or_else(|| args.get("run_id"))
                    .and_then(Value::as_str)
                    .ok_or("runId must be a non-empty string.")?;
                reply.wait(run_id).await.map_err(|e| e.to_string())
            }
            other => Err(format!("unknown tool `{other}`; this server has `exec` and `wait`")),
        }
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
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
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
        let args = request.arguments.unwrap_or_default();
        let (principal, key) = identity(&context);
        let outcome = match self.connection.reply(&principal, key.as_deref()) {
            Ok(reply) => self.call(&reply, &request.name, &args).await,
            Err(refusal) => Err(refusal),
        };
        let result = match outcome {
            Ok(result) => {
                let failed = matches!(result, CellResult::Failed { .. });
                let mut r = CallToolResult::success(vec![ContentBlock::text(result.to_model_text())]);
                r.is_error = Some(failed);
                r
            }
            Err(message) => {
                let mut r = CallToolResult::success(vec![ContentBlock::text(message)]);
                r.is_error = Some(true);
                r
            }
        };
        Ok(result.into())
    }
}

/// Bearer tokens, kept as SHA-256 digests and compared in constant time.
struct Tokens(Vec<([u8; 32], String)>);

impl Tokens {
    fn new(config: &ServeSection) -> Self {
        Self(config.tokens.iter().map(|t| (Sha256::digest(t.token.as_bytes()).into(), t.principal.clone())).collect())
    }

    /// The principal a request's `Authorization: Bearer …` names.
    fn principal(&self, headers: &hyper::HeaderMap) -> Option<String> {
        let presented = headers.get(hyper::header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ")?;
        let digest: [u8; 32] = Sha256::digest(presented.trim().as_bytes()).into();
        // Every entry is compared, whether or not an earlier one matched.
        let mut found = None;
        for (expected, principal) in &self.0 {
            let diff = expected.iter().zip(digest.iter()).fold(0u8, |acc, (a, b)| acc | (a ^ b));
            if diff == 0 {
                found = Some(principal.clone());
            }
        }
        found
    }
}

type Body = http_body_util::combinators::BoxBody<bytes::Bytes, std::convert::Infallible>;

fn unauthorized() -> hyper::Response<Body> {
    use http_body_util::BodyExt;
    let body = http_body_util::Full::new(bytes::Bytes::from_static(
        b"codemode: this server requires `Authorization: Bearer <token>` with a token from its [serve] tokens.\n",
    ))
    .boxed();
    let mut response = hyper::Response::new(body);
    *response.status_mut() = hyper::StatusCode::UNAUTHORIZED;
    response.headers_mut().insert(hyper::header::WWW_AUTHENTICATE, hyper::header::HeaderValue::from_static("Bearer"));
    response
}

/// Checks that serving at `addr` with `config` is safe: a non-loopback
/// address needs tokens.
pub(crate) fn check_exposure(addr: &std::net::SocketAddr, config: &ServeSection) -> Result<()> {
    if !addr.ip().is_loopback() && config.tokens.is_empty() {
        bail!(
            "refusing to serve on {addr} without authentication: a non-loopback address needs [serve] tokens \
             (each `{{ token = \"…\", principal = \"name\" }}`), or bind to 127.0.0.1"
        );
    }
    Ok(())
}

/// Serves MCP over streamable HTTP at `addr` (path `/mcp`) until the
/// process ends. Each MCP session gets its own connection identity.
pub(crate) async fn http(rt: CodeMode, addr: &str, config: &ServeSection) -> Result<()> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::server::conn::auto::Builder;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    check_exposure(&local, config)?;
    let mut http_config = StreamableHttpServerConfig::default();
    if !config.allowed_hosts.is_empty() {
        http_config = http_config.with_allowed_hosts(config.allowed_hosts.clone());
    } else if !local.ip().is_loopback() {
        // Only the bound address itself, beside the loopback names.
        let mut hosts = http_config.allowed_hosts.clone();
        hosts.push(local.ip().to_string());
        http_config = http_config.with_allowed_hosts(hosts);
    }
    let grace = Duration::from_millis(config.dispose_grace_ms);
    let service = Arc::new(StreamableHttpService::new(
        move || CodeModeServer::new(rt.clone(), None, grace).map_err(std::io::Error::other),
        Arc::new(LocalSessionManager::default()),
        http_config,
    ));
    let tokens = Arc::new(Tokens::new(config));
    let auth = if config.tokens.is_empty() { "no authentication (loopback)" } else { "bearer tokens" };
    eprintln!("codemode: serving MCP over HTTP at http://{local}/mcp ({auth})");
    loop {
        let (stream, _) = listener.accept().await?;
        let (service, tokens) = (Arc::clone(&service), Arc::clone(&tokens));
        let handler = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            let (service, tokens) = (Arc::clone(&service), Arc::clone(&tokens));
            async move {
                if !tokens.0.is_empty() {
                    match tokens.principal(request.headers()) {
                        Some(principal) => {
                            request.extensions_mut().insert(Principal(principal));
                        }
                        None => return Ok::<_, std::convert::Infallible>(unauthorized()),
                    }
                }
                Ok(service.handle(request).await)
            }
        });
        tokio::spawn(async move {
            let _ =
                Builder::new(TokioExecutor::new()).serve_connection_with_upgrades(TokioIo::new(stream), handler).await;
        });
    }
}

/// Serves one MCP client over stdin/stdout until it disconnects. Its
/// session is fresh unless `session` names a key to keep across runs.
pub(crate) async fn stdio(rt: CodeMode, session: Option<String>, config: &ServeSection) -> Result<()> {
    if let Some(key) = &session
        && !valid_key(key)
    {
        bail!(
            "--session {key:?} is not a valid session key: use 1-{MAX_KEY_CHARS} of letters, digits, `_`, `.`, `:`, `-`"
        );
    }
    let server = CodeModeServer::new(rt, session, Duration::from_millis(config.dispose_grace_ms))?;
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServeToken;

    #[test]
    fn session_keys_are_bounded_and_cannot_cross_a_principal() {
        assert!(valid_key("a"));
        assert!(valid_key(&"k".repeat(MAX_KEY_CHARS)));
        assert!(!valid_key(&"k".repeat(MAX_KEY_CHARS + 1)));
        assert!(!valid_key(""));
        assert!(!valid_key("alice/x"), "a key cannot reach into another principal's scope");
    }

    #[test]
    fn a_bearer_token_names_its_principal_and_anything_else_is_refused() {
        let config = ServeSection {
            tokens: vec![ServeToken { token: "t".repeat(32), principal: "alice".into() }],
            ..ServeSection::default()
        };
        let tokens = Tokens::new(&config);
        let mut headers = hyper::HeaderMap::new();
        assert_eq!(tokens.principal(&headers), None);
        headers.insert(hyper::header::AUTHORIZATION, format!("Bearer {}", "t".repeat(32)).parse().unwrap());
        assert_eq!(tokens.principal(&headers).as_deref(), Some("alice"));
        headers.insert(hyper::header::AUTHORIZATION, format!("Bearer {}", "t".repeat(31)).parse().unwrap());
        assert_eq!(tokens.principal(&headers), None);
    }

    #[test]
    fn a_non_loopback_address_without_tokens_is_refused() {
        let open = ServeSection::default();
        assert!(check_exposure(&"0.0.0.0:1".parse().unwrap(), &open).is_err());
        assert!(check_exposure(&"127.0.0.1:1".parse().unwrap(), &open).is_ok());
        let with_tokens = ServeSection {
            tokens: vec![ServeToken { token: "t".repeat(32), principal: "p".into() }],
            ..ServeSection::default()
        };
        assert!(check_exposure(&"0.0.0.0:1".parse().unwrap(), &with_tokens).is_ok());
    }
}
