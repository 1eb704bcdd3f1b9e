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
//! saved results are freed after `[serve] dispose_grace_ms`, and so are the
//! live cells of its connection-derived session (nobody else can reach
//! them). Runs of a *named* session key stay: they are durable,
//! so another connection of the same principal and key — on this process
//! or any other on the same store — may `wait` on them later; a parked run
//! expires by its TTL. Once the connection's reply has ended they save no
//! results into it, so nothing of the connection is held for good.
//! `codemode_mcp_sessions{state}` counts connections open, and closing
//! (gone, within the grace); see `sessions`. Over HTTP a session no
//! request used for `[serve] session_idle_ttl_ms` is closed, and a
//! principal holds at most `[serve] max_sessions_per_principal` open (see
//! `admission`); every session shares one copy of the tool list.
//!
//! **Results.** Every call answers with one text block, the model-facing
//! text (`CellResult::to_model_text`), and the same result as
//! `structuredContent`, described by both tools' `outputSchema`. When the
//! cell observed network-derived content the text is wrapped in the
//! untrusted-content envelope (GA-9.3); `structuredContent` then carries
//! the plain result with `"untrusted": true`, because a JSON value cannot
//! hold the envelope and a client reading it must still know to treat
//! `value` and `output` as data. Arguments the input schemas do not list
//! are refused (`invalid_input`), never ignored.
//!
//! **Shutdown.** Once a shutdown signal arrives (`crate::lifecycle`), `exec`
//! is refused (`runtime_unavailable`, "shutting down") while calls already
//! running, and `wait`s, get the grace to finish; over HTTP a call counts
//! until its response is written. Then the transport stops.
//!
//! **Layout.** `connection` is one connection's MCP handler and identity,
//! `calls` the argument checks and answer shape of one tool call, `http`
//! the streamable HTTP transport, `admission` which HTTP sessions it keeps;
//! stdio is served here.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use codemode_runtime::CodeMode;
use rmcp::ServiceExt;

use crate::config::{Config, ServeSection};
use crate::lifecycle::Lifecycle;
use crate::start::Running;

mod admission;
mod calls;
mod connection;
mod elicit;
mod http;
mod operator;
mod progress;
mod tasks;
mod trace_context;
use connection::{CONNECTIONS_CLOSE_WAIT, CodeModeServer, MAX_KEY_CHARS, SESSION_HEADER, valid_key};
pub(crate) use http::http;

/// `codemode serve`'s arguments.
#[derive(clap::Args)]
pub(crate) struct ServeArgs {
    /// Serve MCP over streamable HTTP at this address (path `/mcp`)
    /// instead of stdio.
    #[arg(long)]
    http: Option<String>,
    /// Also serve Prometheus metrics at `/metrics`, liveness at
    /// `/health` and readiness at `/ready` here.
    #[arg(long)]
    metrics: Option<String>,
    /// How long running calls may take to finish after SIGTERM or
    /// SIGINT, in milliseconds (overrides `[serve] shutdown_grace_ms`;
    /// default 10000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=crate::config::MAX_SHUTDOWN_GRACE_MS))]
    shutdown_grace_ms: Option<u64>,
    /// Over stdio: keep this session key (letters, digits, `_.:-`) so a
    /// restarted server finds the same store; default: a fresh session
    /// per process. Over HTTP, clients name keys with the
    /// `codemode-session` header.
    #[arg(long)]
    session: Option<String>,
}

/// Serves MCP on stdio, or over HTTP with `--http`, and the probes with
/// `--metrics`, until a shutdown signal has drained the calls; then stops
/// the runtime and flushes the exporters.
///
/// # Errors
/// A listener cannot be bound, the signal handlers cannot be installed, or
/// the transport failed.
pub(crate) async fn run(running: Running, config: &Config, args: ServeArgs) -> Result<()> {
    let Running { rt, telemetry } = running;
    let grace = args.shutdown_grace_ms.unwrap_or(config.serve.shutdown_grace_ms);
    let lifecycle = Lifecycle::new(Duration::from_millis(grace));
    crate::lifecycle::listen(Arc::clone(&lifecycle))?;
    if let Some(addr) = &args.metrics {
        let required_mcp = config.mcp_servers.iter().filter(|s| s.required).map(|s| s.name.clone()).collect();
        let probes = crate::health::Probes { rt: rt.clone(), lifecycle: Arc::clone(&lifecycle), required_mcp };
        let local = crate::health::serve(addr, probes).await?;
        eprintln!("codemode: serving /metrics, /health and /ready at http://{local}");
    }
    let served = match (args.http, args.session) {
        (Some(_), Some(_)) => Err(anyhow::anyhow!(
            "--session is for stdio; over HTTP each client names its session key with the `{SESSION_HEADER}` header"
        )),
        (Some(addr), None) => http(rt.clone(), &addr, &config.serve, &config.operator, lifecycle).await,
        (None, session) => stdio(rt.clone(), session, &config.serve, lifecycle).await,
    };
    crate::lifecycle::finish(&rt, telemetry).await;
    served
}

/// Serves one MCP client over stdin/stdout until it disconnects. Its
/// session is fresh unless `session` names a key to keep across runs.
pub(crate) async fn stdio(
    rt: CodeMode,
    session: Option<String>,
    config: &ServeSection,
    lifecycle: Arc<Lifecycle>,
) -> Result<()> {
    if let Some(key) = &session
        && !valid_key(key)
    {
        bail!(
            "--session {key:?} is not a valid session key: use 1-{MAX_KEY_CHARS} of letters, digits, `_`, `.`, `:`, `-`"
        );
    }
    let grace = Duration::from_millis(config.dispose_grace_ms);
    let server = CodeModeServer::new(rt, session, grace, Arc::clone(&lifecycle), &connection::ToolCache::default())?;
    // Serving from here: the client's `initialize` is read from stdin
    // whenever it comes (`serve` below waits for it).
    lifecycle.mark_serving();
    let running = server.serve(rmcp::transport::stdio()).await?;
    let stop = running.cancellation_token();
    let waiting = running.waiting();
    tokio::pin!(waiting);
    tokio::select! {
        quit = &mut waiting => {
            quit?;
        }
        () = lifecycle.drain() => {
            stop.cancel();
            // The service loop writes what it holds, then ends; stdin
            // blocks until the client writes, so do not wait on it long.
            if tokio::time::timeout(CONNECTIONS_CLOSE_WAIT, waiting).await.is_err() {
                tracing::warn!(target: "codemode::lifecycle", "shutdown: the stdio transport did not stop in time");
            }
        }
    }
    Ok(())
}
