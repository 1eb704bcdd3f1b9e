//! The codemode cell executor.
//!
//! A *cell* is a small JavaScript program a language model writes instead
//! of calling tools one at a time. This crate runs cells:
//!
//! - [`CodeMode`] is the runtime: built once with [`CodeMode::builder`]
//!   (limits, tools), cheap to clone, `Send + Sync`. It owns a root
//!   supervisor actor — the executor, the service actors, the MCP
//!   connections, the node registry and every cell are its children; a
//!   crashed service is restarted with back-off — and a pool of JS threads
//!   (four per core, at least eight; a new cell starts on a thread not
//!   running guest code).
//! - A [`Session`] is one conversation; a [`Reply`] is one model turn in it.
//!   [`Reply::exec`] starts a cell; [`Reply::wait`] resumes observing a
//!   parked one; [`Reply::abort`] ends it. [`Headless`] runs automation
//!   scripts to completion in one call.
//! - Each cell gets a fresh QuickJS runtime and context (costs measured in
//!   `docs/benchmarks.md`) with its own memory limit, stack limit and deadline (GA-1.2). It lives
//!   in a `CellActor` pinned to one JS thread; while parked it holds memory,
//!   not a thread.
//!
//! Untrusted code cannot monopolise a thread: every `exec`/`wait` call has a
//! wall-clock budget ([`Limits::timeout`]) enforced by a QuickJS interrupt
//! handler, which stops CPU loops (`timeout`), while host work still pending
//! at the deadline parks the cell instead (`waiting`, GA-1.3). Guest code
//! runs only inside such a window; tool calls and timers keep going while a
//! cell is parked and are delivered at the next `wait`.
//!
//! A host [`Policy`] sees every nested call and may allow, deny or ask: an
//! asked call parks its cell with `reason: "approval"` until
//! [`Reply::wait_with`] (or an operator, [`operator`]) decides; decisions
//! are journaled before they take effect. [`CodeMode::run_events`] streams
//! parks, approvals and ends to the host.
//!
//! Every result is a [`CellResult`]: `completed`, `waiting` or `failed`,
//! ready to serialize for the model. Guest mistakes are results, never Rust
//! errors; [`CodeModeError`] is for host failures only.
//!
//! # Cargo features
//!
//! All on by default; an embedder with only native tools can turn them off
//! (`default-features = false`) and builds just the engine, the catalog,
//! the store and the bridge — no rmcp, HTTP client, WebSocket or node code
//! (85 crates instead of 172; see the README).
//!
//! | feature | adds | without it |
//! |---|---|---|
//! | `mcp` | MCP servers as `MCP.<server>` namespaces: `CodeModeBuilder::mcp_server`, `CodeMode::mcp_ready`, `McpServerConfig` | `MCP` has no namespaces and `MCP.$api()` lists no server, as with none configured; the prompt says nothing about MCP |
//! | `nodes` | paired nodes and their WebSocket gateway: `CodeModeBuilder::nodes`, `CodeMode::node_registry`, the store's node pairings | `nodes.list()` resolves `[]` and `nodes.get(…)` rejects with "no paired nodes", as with nodes not enabled; no nodes hint in the prompt |
//! | `workspace-tools` | the workspace tools `read`, `ls`, `find`, `grep`: `CodeModeBuilder::workspace` | no such globals, as when the builder method is not called |
//!
//! A feature never changes the guest API's shape (its globals): it only
//! decides what can be configured. The builder methods of a feature that is
//! off do not exist, so asking for one is a compile error, not a silent
//! no-op.
//!
//! `test-hooks` (off by default) adds the supervision tests' crash hook;
//! never enable it in a build that serves users.
//!
//! Where this differs from the reference system (and why):
//! - timers do not take tool-call slots; they have their own bound
//!   ([`Limits::max_timers`]), so `setTimeout` in a loop does not exhaust the
//!   16 in-flight tool slots;
//! - a cycle in a returned value is a clear error, not `"[object Object]"`;
//! - an error thrown by a `setTimeout` callback fails the cell instead of
//!   vanishing;
//! - a `wait` on an ended run says how it ended (expired, aborted, …).

#![deny(clippy::unwrap_used, clippy::expect_used)]

mod cell;
mod codemode;
mod crash_points;
mod durable;
mod engine;
mod error;
mod events;
mod executor;
mod jsthreads;
mod limits;
mod mcp;
mod nodes;
mod prompt;
mod route;
mod run_index;
mod source;
mod stream;
mod supervisor;
mod telemetry;
mod typescript;
#[cfg(test)]
mod unconfigured_tests;
mod workers;

/// Runs this process as a codemode engine worker, until its host hangs
/// up; returns the process's exit code. A worker is started by its host
/// with an empty environment and its channel as descriptor 3; started any
/// other way, this returns an error code at once and runs nothing.
///
/// Call it first thing in `main`, while the process has one thread (it
/// leaves the host's namespaces, which a threaded process cannot):
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     codemode_runtime::engine_worker()
/// }
/// ```
pub fn engine_worker() -> std::process::ExitCode {
    engine::remote::worker::serve::<cell::CellRequests>()
}

/// Runs this process as an engine worker when it was started as one by
/// [`EngineWorkers::this_program`] (its first argument is
/// `engine-worker`), returning its exit code; `None` otherwise. One call
/// that works with any `main`: make it the first thing a plain `fn main`
/// does, before any runtime starts threads, and keep an async runtime in
/// a function of its own —
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     if let Some(code) = codemode_runtime::engine_worker_if_asked() {
///         return code;
///     }
///     run()
/// }
///
/// #[tokio::main]
/// async fn run() -> std::process::ExitCode {
///     // … build a CodeMode with `.isolation(Isolation::Process)` …
///     std::process::ExitCode::SUCCESS
/// }
/// ```
///
/// A worker whose program started threads first (a `#[tokio::main]` on
/// `main` itself) cannot leave the host's namespaces, and its host
/// refuses it unless [`EngineWorkers::accept_threaded_handoff`] is set.
#[must_use]
pub fn engine_worker_if_asked() -> Option<std::process::ExitCode> {
    std::env::args_os().nth(1).is_some_and(|arg| arg == workers::WORKER_ARGUMENT).then(engine_worker)
}

/// The journal micro-benchmark's hook (`benches/journal.rs`); not an API.
#[doc(hidden)]
pub use cell::journaling::bench_record_calls;
/// `codemode bench`'s engine floor and pool counts; not an API.
#[doc(hidden)]
pub use codemode::bench_hooks::{EngineTakes, bench_engine_floor};
pub use codemode::builder::CodeModeBuilder;
#[cfg(feature = "test-hooks")]
pub use codemode::facade::CrashTarget;
pub use codemode::facade::{CodeMode, RunDurability, SearchHit};
pub use codemode::readiness::NotReady;
pub use codemode::session::{Exec, Headless, Reply, RunReach, Session};
pub use codemode_catalog::policy::{AllowAll, CALL_SOURCES, CallSource, Decision, DecisionFuture, NestedCall, Policy};
pub use codemode_catalog::{Tool, ToolContext, ToolError, ToolFuture, ToolOutput, ToolSource, TypedTool, typed_tool};
#[cfg(feature = "mcp")]
pub use codemode_mcp::{McpServerConfig, McpServerStatus, McpTransport};
#[cfg(feature = "nodes")]
pub use codemode_nodes::{CommandPolicy, InvokeError, NodeInfo, NodeRegistry, NodesConfig, PendingNode};
pub use codemode_protocol::{
    ArgumentError, CellResult, DeciderKind, Decisions, Denial, ErrorCode, ExecArgs, MAX_TITLE_CHARS, Output,
    OutputEntry, PendingApproval, Phase, RunEnd, Telemetry, Verdict, WaitArgs, WaitReason, result_schema,
};
pub use codemode_store::runs::Durability;
pub use durable::journal::{ApprovalLog, ApprovalRecord, DecisionRecord, InboxEntry};
pub use durable::operator;
pub use durable::{JournalMode, RunsConfig, StoreBackend};
pub use engine::local_time::{CellTimeZone, UnknownTimeZone};
pub use engine::warm_up;
pub use error::CodeModeError;
pub use events::{EVENTS_BUFFERED, RunEvent, RunEventError, RunEvents};
pub use limits::{Isolation, Limits, LimitsError};
pub use prompt::{ExecToolDescriptions, ToolDescription};
pub use stream::{OutputStream, Streamed};
pub use telemetry::{HistogramSnapshot, MetricsSnapshot, NestedCallSnapshot, ResultsHeld, RunsSnapshot, UNKNOWN_TOOL};
/// The TypeScript micro-benchmarks' hooks (`benches/typescript.rs`); not
/// an API.
#[doc(hidden)]
#[cfg(feature = "typescript")]
pub use typescript::{bench_scan, bench_strip};
pub use workers::{BoundWorker, EngineWorkers, EngineWorkersSnapshot, PoolStats, WorkerSharing, default_address_space};
