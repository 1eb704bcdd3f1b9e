//! `codemode serve --http`: MCP over streamable HTTP at `/mcp`, with
//! bearer-token authentication, MCP sessions capped per principal and
//! closed when idle (`admission`), and a graceful stop (see the parent
//! module's docs).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use codemode_runtime::CodeMode;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use sha2::{Digest, Sha256};

use super::admission::{self, Refused, Sessions};
use super::connection::{CONNECTIONS_CLOSE_WAIT, CodeModeServer, LOCAL_PRINCIPAL, Principal};
use super::operator::OperatorEndpoints;
use crate::config::{OperatorSection, ServeSection};
use crate::lifecycle::{InFlight, Lifecycle};

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

/// A plain-text response with `status`.
fn plain(status: hyper::StatusCode, text: &'static str) -> hyper::Response<Body> {
    use http_body_util::BodyExt;
    let mut response =
        hyper::Response::new(http_body_util::Full::new(bytes::Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

/// The answer to an `initialize` past `[serve] max_sessions_per_principal`:
/// 429 with a JSON-RPC error, which MCP clients show (rmcp would answer
/// 500 with plain text), and `Retry-After`.
fn too_many_sessions(refused: &Refused) -> hyper::Response<Body> {
    use http_body_util::BodyExt;
    let body = http_body_util::Full::new(bytes::Bytes::from(refused.to_json_rpc().to_string())).boxed();
    let mut response = hyper::Response::new(body);
    *response.status_mut() = hyper::StatusCode::TOO_MANY_REQUESTS;
    let headers = response.headers_mut();
    headers.insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    headers.insert(hyper::header::RETRY_AFTER, hyper::header::HeaderValue::from(refused.retry_after_secs()));
    response
}

/// Answers a DELETE (the client ends its MCP session) as the streamable
/// HTTP transport says: 404 for a session this server does not have, 200
/// once it is closed. rmcp answers 202 to both, which clients report as
/// "Session termination failed: 202".
async fn close_session<S>(
    service: &rmcp::transport::streamable_http_server::StreamableHttpService<CodeModeServer, S>,
    sessions: &S,
    request: hyper::Request<hyper::body::Incoming>,
) -> hyper::Response<Body>
where
    S: rmcp::transport::streamable_http_server::session::SessionManager,
{
    let id = request.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(Arc::<str>::from);
    if let Some(id) = &id {
        match sessions.has_session(id).await {
            Ok(true) => {}
            Ok(false) => return plain(hyper::StatusCode::NOT_FOUND, "codemode: no such MCP session.\n"),
            Err(_) => {
                return plain(
                    hyper::StatusCode::INTERNAL_SERVER_ERROR,
                    "codemode: the session could not be looked up.\n",
                );
            }
        }
    }
    // Without a session id rmcp answers the client error itself.
    let mut response = service.handle(request).await;
    if response.status() == hyper::StatusCode::ACCEPTED {
        *response.status_mut() = hyper::StatusCode::OK;
    }
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

/// A response body that counts as an in-flight call until hyper drops it,
/// which it does once the body is written (or the client is gone).
struct Tracked {
    body: Body,
    _call: InFlight,
}

impl hyper::body::Body for Tracked {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// What every request to the MCP endpoint needs.
struct Endpoint {
    service: StreamableHttpService<CodeModeServer, Sessions>,
    sessions: Arc<Sessions>,
    tokens: Tokens,
    lifecycle: Arc<Lifecycle>,
    /// `/operator/…` and `/console`, when `[operator] tokens` names anyone.
    operator: Option<Arc<OperatorEndpoints>>,
}

impl Endpoint {
    /// Authenticates `request` (with tokens configured), then hands it to
    /// the MCP transport.
    async fn handle(&self, mut request: hyper::Request<hyper::body::Incoming>) -> hyper::Response<Body> {
        use http_body_util::BodyExt;
        // Operators authenticate with their own tokens, never a client's.
        if OperatorEndpoints::serves(request.uri().path()) {
            return match &self.operator {
                Some(operator) => operator.handle(request).await,
                None => plain(
                    hyper::StatusCode::NOT_FOUND,
                    "codemode: this server has no operator API or console; configure [operator] tokens.\n",
                ),
            };
        }
        let principal = if self.tokens.0.is_empty() {
            LOCAL_PRINCIPAL.to_owned()
        } else {
            match self.tokens.principal(request.headers()) {
                Some(principal) => {
                    request.extensions_mut().insert(Principal(principal.clone()));
                    principal
                }
                None => return unauthorized(),
            }
        };
        if request.method() == hyper::Method::DELETE {
            return close_session(&self.service, self.sessions.as_ref(), request).await;
        }
        // Tool calls arrive as POSTs; the call is done for the shutdown
        // once its response is written, not when the handler returns.
        if request.method() == hyper::Method::POST {
            let call = self.lifecycle.track_response();
            // An `initialize` POST opens a session: it counts as this
            // principal's, or is refused past their cap.
            let (response, refused) = admission::as_caller(principal, self.service.handle(request)).await;
            if let Some(refused) = refused {
                return too_many_sessions(&refused);
            }
            return response.map(|body| Tracked { body, _call: call }.boxed());
        }
        self.service.handle(request).await
    }
}

/// Serves MCP over streamable HTTP at `addr` (path `/mcp`) until a
/// shutdown has drained (see `serve`'s module docs). Each MCP session gets its
/// own connection identity.
pub(crate) async fn http(
    rt: CodeMode,
    addr: &str,
    config: &ServeSection,
    operator: &OperatorSection,
    lifecycle: Arc<Lifecycle>,
) -> Result<()> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::server::conn::auto::Builder;
    use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

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
    let sessions = Arc::new(Sessions::new(config));
    let stop_sessions = http_config.cancellation_token.clone();
    // Idle sessions are closed until the shutdown ends them all.
    let stop_reaping = stop_sessions.clone();
    tokio::spawn(Arc::clone(&sessions).reap(async move { stop_reaping.cancelled().await }));
    let stop_sampling = stop_sessions.clone();
    let operator = OperatorEndpoints::new(&rt, operator, config, async move { stop_sampling.cancelled().await });
    let for_handlers = Arc::clone(&lifecycle);
    let tools = super::connection::ToolCache::default();
    let service = StreamableHttpService::new(
        move || {
            CodeModeServer::new(rt.clone(), None, grace, Arc::clone(&for_handlers), &tools)
                .map_err(std::io::Error::other)
        },
        Arc::clone(&sessions),
        http_config,
    );
    let operated = operator.is_some();
    let endpoint = Arc::new(Endpoint {
        service,
        sessions,
        tokens: Tokens::new(config),
        lifecycle: Arc::clone(&lifecycle),
        operator,
    });
    let auth = if config.tokens.is_empty() { "no authentication (loopback)" } else { "bearer tokens" };
    // Ready before it is announced: whoever reads the line may ask
    // `/ready` at once (the listener is bound; connections queue).
    lifecycle.mark_serving();
    eprintln!("codemode: serving MCP over HTTP at http://{local}/mcp ({auth})");
    if operated {
        eprintln!("codemode: operator API at http://{local}/operator/runs, console at http://{local}/console");
    }
    // Connections are told to close gracefully when this turns true.
    let (closing, close) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let drained = lifecycle.drain();
    tokio::pin!(drained);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => accepted?.0,
            () = &mut drained => break,
        };
        // Reap the connections that ended, so the set stays bounded.
        while connections.try_join_next().is_some() {}
        let endpoint = Arc::clone(&endpoint);
        let handler = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
            let endpoint = Arc::clone(&endpoint);
            async move { Ok::<_, std::convert::Infallible>(endpoint.handle(request).await) }
        });
        let mut close = close.clone();
        connections.spawn(async move {
            let builder = Builder::new(TokioExecutor::new());
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), handler);
            tokio::pin!(connection);
            tokio::select! {
                _ = &mut connection => return,
                _ = close.wait_for(|closing| *closing) => {}
            }
            // Finishes the response in progress, then closes.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    drop(listener);
    // Ends every MCP session, and with them the clients' event streams.
    stop_sessions.cancel();
    let _ = closing.send(true);
    let closed = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(CONNECTIONS_CLOSE_WAIT, closed).await.is_err() {
        tracing::warn!(
            target: "codemode::lifecycle",
            "shutdown: some HTTP connections were still open after {} ms; closing them",
            CONNECTIONS_CLOSE_WAIT.as_millis()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServeToken;

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
