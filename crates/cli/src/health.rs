//! `serve --metrics ADDR`: `/metrics` (Prometheus text), `/health`
//! (liveness) and `/ready` (readiness) over HTTP/1.1.
//!
//! Served with hyper, so requests are parsed as servers usually do: `HEAD`
//! answers like `GET` without a body, other methods get `405` with an
//! `Allow` header, the query string is ignored for routing and unknown
//! paths get `404`. Request heads are bounded in size and time, and each
//! connection in total time, so a slow or hostile client cannot hold one
//! open.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use bytes::Bytes;
use codemode_protocol::retry::Backoff;
use codemode_runtime::{CodeMode, NotReady};
use http_body_util::Full;
use hyper::header::{ALLOW, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::json;

use crate::lifecycle::Lifecycle;

/// How long `/ready` waits for the executor to answer.
const EXECUTOR_PROBE: Duration = Duration::from_secs(1);
/// How long `/health` waits for the runtime to count its cells.
const LIVENESS_PROBE: Duration = Duration::from_secs(1);
/// How long a client may take to send a request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one connection may stay open, requests and keep-alive included.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest request head read (hyper's smallest allowed buffer is 8 KiB).
const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The pause after a failed accept (out of file descriptors, usually),
/// every time: descriptors free up as connections close, however long
/// accepting has failed.
const ACCEPT_RETRY: Duration = Duration::from_millis(100);
/// The methods every endpoint answers.
const ALLOWED: &str = "GET, HEAD";

/// Why `/ready` fails.
#[derive(Debug, thiserror::Error)]
enum Unready {
    /// The server is shutting down.
    #[error("shutting down ({0})")]
    ShuttingDown(&'static str),
    /// The MCP transport does not accept calls yet.
    #[error("starting: the MCP transport is not serving yet")]
    Starting,
    /// The executor cannot admit cells now.
    #[error("{0}")]
    Executor(#[from] NotReady),
    /// A server marked `required = true` is not connected.
    #[error("required MCP server `{name}` is not connected{}", .why.as_deref().map(|w| format!(": {w}")).unwrap_or_default())]
    McpDown {
        /// Its configured name.
        name: String,
        /// Its last connection error, when an attempt failed.
        why: Option<String>,
    },
}

/// What the probes look at.
pub(crate) struct Probes {
    /// The runtime serving the cells.
    pub rt: CodeMode,
    /// Whether the server is shutting down.
    pub lifecycle: Arc<Lifecycle>,
    /// The names of the `required = true` MCP servers.
    pub required_mcp: Vec<String>,
}

/// An endpoint of the listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Endpoint {
    Metrics,
    Health,
    Ready,
}

/// A response before HEAD stripping: status, content type, body.
type Answer = (StatusCode, &'static str, String);

/// The endpoint `method` and `path` (no query string) name, or the
/// answer when they name none: `404` for an unknown path, `405` for a
/// method other than GET or HEAD.
fn route(method: &Method, path: &str) -> Result<Endpoint, Answer> {
    let endpoint = match path {
        "/metrics" => Endpoint::Metrics,
        "/health" => Endpoint::Health,
        "/ready" => Endpoint::Ready,
        _ => {
            let text = "not found; try /metrics, /health or /ready\n".to_owned();
            return Err((StatusCode::NOT_FOUND, "text/plain", text));
        }
    };
    if method == Method::GET || method == Method::HEAD {
        Ok(endpoint)
    } else {
        Err((StatusCode::METHOD_NOT_ALLOWED, "text/plain", format!("{method} is not allowed; use {ALLOWED}\n")))
    }
}

impl Probes {
    /// `/ready`: fails while shutting down, before the MCP transport
    /// serves, when the executor does not answer within
    /// [`EXECUTOR_PROBE`], or when a required MCP server is down.
    async fn readiness(&self) -> Result<(), Unready> {
        if let Some(signal) = self.lifecycle.shutting_down() {
            return Err(Unready::ShuttingDown(signal));
        }
        if !self.lifecycle.is_serving() {
            return Err(Unready::Starting);
        }
        self.rt.executor_ready(EXECUTOR_PROBE).await?;
        if !self.required_mcp.is_empty() {
            for server in self.rt.mcp_status() {
                if !server.up && self.required_mcp.contains(&server.name) {
                    return Err(Unready::McpDown { name: server.name, why: server.error });
                }
            }
        }
        Ok(())
    }

    async fn answer(&self, endpoint: Endpoint) -> Answer {
        let json = "application/json";
        match endpoint {
            Endpoint::Metrics => crate::metrics::response(&self.rt.metrics()),
            // Liveness: the process answers. It stays 200 during a graceful
            // shutdown, so a supervisor does not kill the drain.
            Endpoint::Health => match tokio::time::timeout(LIVENESS_PROBE, self.rt.live_cells()).await {
                Ok(Ok(n)) => (StatusCode::OK, json, json!({"status": "ok", "liveCells": n}).to_string()),
                Ok(Err(e)) => (
                    StatusCode::SERVICE_UNAVAILABLE,
                    json,
                    json!({"status": "down", "reason": e.to_string()}).to_string(),
                ),
                Err(_) => {
                    let reason = format!("the runtime did not answer within {} ms", LIVENESS_PROBE.as_millis());
                    (StatusCode::SERVICE_UNAVAILABLE, json, json!({"status": "down", "reason": reason}).to_string())
                }
            },
            Endpoint::Ready => match self.readiness().await {
                Ok(()) => (StatusCode::OK, json, json!({"ready": true}).to_string()),
                Err(e) => (
                    StatusCode::SERVICE_UNAVAILABLE,
                    json,
                    json!({"ready": false, "reason": e.to_string()}).to_string(),
                ),
            },
        }
    }

    async fn respond(&self, request: &Request<hyper::body::Incoming>) -> Response<Full<Bytes>> {
        let (status, kind, body) = match route(request.method(), request.uri().path()) {
            Ok(endpoint) => self.answer(endpoint).await,
            Err(answer) => answer,
        };
        // HEAD: the same headers, content-length included, and no body;
        // hyper sends none for a HEAD request whatever the body is.
        let mut response = Response::new(Full::new(Bytes::from(body)));
        *response.status_mut() = status;
        response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(kind));
        if status == StatusCode::METHOD_NOT_ALLOWED {
            response.headers_mut().insert(ALLOW, HeaderValue::from_static(ALLOWED));
        }
        response
    }
}

/// Serves the probes on `addr` until the process ends; returns the bound
/// address.
///
/// # Errors
/// `addr` cannot be bound.
pub(crate) async fn serve(addr: &str, probes: Probes) -> Result<std::net::SocketAddr> {
    use hyper_util::rt::{TokioIo, TokioTimer};

    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("binding {addr}"))?;
    let local = listener.local_addr()?;
    let probes = Arc::new(probes);
    tokio::spawn(async move {
        let mut backoff = Backoff::new(ACCEPT_RETRY, ACCEPT_RETRY);
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => {
                    backoff.reset();
                    stream
                }
                Err(e) => {
                    // Out of file descriptors, usually: back off, keep serving.
                    tracing::warn!("metrics listener: accept failed: {e}");
                    tokio::time::sleep(backoff.next_delay()).await;
                    continue;
                }
            };
            let probes = Arc::clone(&probes);
            let service = hyper::service::service_fn(move |request| {
                let probes = Arc::clone(&probes);
                async move { Ok::<_, Infallible>(probes.respond(&request).await) }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(HEAD_TIMEOUT).max_buf_size(MAX_HEAD_BYTES);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            tokio::spawn(async move {
                // Past the bound the connection is dropped, closing it.
                let _ = tokio::time::timeout(CONNECTION_TIMEOUT, connection).await;
            });
        }
    });
    Ok(local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_paths_answer_get_and_head_and_refuse_other_methods_with_405() {
        for path in ["/metrics", "/health", "/ready"] {
            assert!(route(&Method::GET, path).is_ok(), "{path}");
            assert!(route(&Method::HEAD, path).is_ok(), "{path}");
            let (status, _, body) = route(&Method::POST, path).unwrap_err();
            assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
            assert!(body.contains("GET, HEAD"), "{body}");
        }
        assert_eq!(route(&Method::GET, "/nope").unwrap_err().0, StatusCode::NOT_FOUND);
        assert_eq!(route(&Method::DELETE, "/nope").unwrap_err().0, StatusCode::NOT_FOUND, "an unknown path is 404");
    }
}
