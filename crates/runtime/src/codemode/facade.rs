//! The runtime an embedding host holds: [`CodeMode`], its shared state,
//! and what it answers about itself (limits, descriptions, metrics,
//! search); cells reach the executor through it.

use std::sync::Arc;

use codemode_catalog::{Catalog, Registry};
use codemode_protocol::CellResult;
use codemode_store::{ResultsCache, SessionStore};
use ractor::rpc::CallResult;
use ractor::{ActorRef, ActorStatus};
use tokio::sync::watch;

use crate::durable::{DurableArgs, JournalMode};
use crate::error::CodeModeError;
use crate::executor::{ExecRequest, ExecutorMsg};
use crate::limits::Limits;
#[cfg(feature = "mcp")]
use crate::mcp::McpHub;
use crate::nodes::NodeRegistry;
use crate::prompt::{self, ExecToolDescriptions};
use crate::run_index::{RunIndex, crashed};
use crate::supervisor::RootMsg;
use crate::telemetry::{Metrics, MetricsSnapshot};

/// How long an `exec` waits for a restarting executor before it reports
/// the runtime as shut down.
const EXECUTOR_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Which supervised actor [`CodeMode::crash_actor_for_test`] crashes.
#[doc(hidden)]
#[cfg(feature = "test-hooks")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashTarget {
    /// The cell executor.
    Executor,
    /// The catalog actor.
    Catalog,
    /// The session store actor.
    Store,
    /// The results cache actor.
    Results,
    /// The connection actor of the MCP server at this index (configuration
    /// order).
    McpServer(usize),
    /// The node registry actor.
    NodeRegistry,
}

pub(crate) struct Inner {
    #[cfg(feature = "mcp")]
    pub mcp: McpHub,
    pub metrics: Arc<Metrics>,
    /// Reads the JS threads' queue depth for [`CodeMode::metrics`].
    pub js_queue: crate::jsthreads::JsQueue,
    pub catalog: Catalog,
    /// The root supervisor: stopping it stops the whole tree in order.
    pub root: ActorRef<RootMsg>,
    /// The current executor, republished by the root when it restarts it.
    pub executor: watch::Receiver<Option<ActorRef<ExecutorMsg>>>,
    pub runs: Arc<RunIndex>,
    pub limits: Arc<Limits>,
    pub tools: Registry,
    pub store: SessionStore,
    pub results: ResultsCache,
    pub nodes: Option<(NodeRegistry, Option<std::net::SocketAddr>)>,
    /// Run journals and leases.
    pub durable: Option<DurableArgs>,
    /// Deletes old ended run records; aborted with the runtime.
    pub pruning: Option<tokio::task::JoinHandle<()>>,
    /// Run events for subscribers.
    pub events: crate::events::EventFeed,
    /// The model may decide approvals (`CodeModeBuilder::model_decides_approvals`).
    pub model_decides: bool,
    /// The engine pool, for its counts and `codemode bench`.
    pub engines: crate::cell::guest_host::EnginePool,
    /// The engine workers, with `isolation = "process"`.
    pub workers: Option<Arc<crate::workers::Workers>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(task) = &self.pruning {
            task.abort();
        }
        // Disposes every live cell; their tool calls and timers are cancelled.
        self.root.stop(None);
        self.events.close();
    }
}

/// One match of [`CodeMode::search`]: what `catalog.search` would hand a
/// cell, for operators and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchHit {
    /// The name a cell calls it by (`listInvoices`, `MCP.billing.list`).
    pub callable_name: String,
    /// Its BM25 score; infinite for an exact spelling match.
    pub score: f64,
    /// Its compact input hint (`(MCP; see describe())` for an MCP tool).
    pub input: String,
}

/// An embeddable Code Mode runtime.
///
/// Cheap to clone (an `Arc`); `Send + Sync`. Dropping the last clone, or
/// calling [`shutdown`](Self::shutdown), disposes every live cell and ends
/// every [`run_events`](Self::run_events) stream.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use codemode_runtime::{CellResult, CodeMode, Exec};
///
/// let rt = CodeMode::builder().start().await?;
/// let reply = rt.session("conversation-1").reply("turn-1");
/// let result = reply.exec(Exec::code("const xs = [1, 2, 3]; return xs.map(x => x * 2)")).await?;
/// assert!(matches!(result, CellResult::Completed { .. }));
/// println!("{}", result.to_model_text());
/// rt.shutdown().await;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct CodeMode {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for CodeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeMode").field("limits", &self.inner.limits).finish_non_exhaustive()
    }
}

impl CodeMode {
    /// What this runtime's engine workers have done and which run now;
    /// `None` when cells' engines run in this process.
    #[must_use]
    pub fn engine_workers(&self) -> Option<crate::workers::EngineWorkersSnapshot> {
        self.inner.workers.as_ref().map(|w| w.snapshot())
    }

    /// What a parked run of this runtime survives: the backend it is
    /// journaled in, when, and how durably (`None`: runs are not journaled
    /// at all — `[runs] journal = "off"`, or a temporary store).
    #[must_use]
    pub fn run_durability(&self) -> Option<RunDurability> {
        let d = self.inner.durable.as_ref()?;
        if d.config.journal == JournalMode::Off || !self.inner.store.persists() {
            return None;
        }
        Some(RunDurability {
            shared: self.inner.store.shared(),
            journal: d.config.journal,
            durability: d.config.durability,
        })
    }

    /// An operator's handle on this runtime's stored runs and audit trail:
    /// what the server's operator API acts through (`None` without a run
    /// store).
    #[must_use]
    pub fn operator(&self) -> Option<crate::durable::operator::Operator> {
        let d = self.inner.durable.as_ref()?;
        Some(crate::durable::operator::Operator::new(Arc::clone(&d.store), Arc::clone(&d.audit)))
    }

    /// The runtime's limits.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The model-facing `exec` and `wait` definitions: how to write cells,
    /// the limits, the quick index of tool globals (GA-6.2) and the MCP
    /// servers with their tool counts. Identical for the same catalog,
    /// limits and MCP servers' state.
    #[must_use]
    pub fn exec_tool_description(&self) -> ExecToolDescriptions {
        let inner = &self.inner;
        let d = prompt::descriptions(&inner.limits, &inner.tools, inner.nodes.is_some(), inner.model_decides);
        #[cfg(feature = "mcp")]
        let d = prompt::with_mcp(d, &self.inner.mcp.tree());
        d
    }

    /// Whether the model may decide approvals through its `wait` tool
    /// ([`CodeModeBuilder::model_decides_approvals`]).
    #[must_use]
    pub fn model_decides_approvals(&self) -> bool {
        self.inner.model_decides
    }

    /// Starts session `to` with a copy of session `from`'s committed store
    /// values; the two diverge from then on (GA-7.7).
    ///
    /// # Errors
    /// `to` already has stored values, or the store failed.
    pub async fn fork_session(&self, from: &str, to: &str) -> Result<(), CodeModeError> {
        Ok(self.inner.store.fork(from, to).await?)
    }

    /// Waits until every configured MCP server is connected, or `timeout`
    /// passes; returns whether all are up. Cells started before see the
    /// servers' tools as they are at that moment. Feature `mcp`.
    #[cfg(feature = "mcp")]
    pub async fn mcp_ready(&self, timeout: std::time::Duration) -> bool {
        self.inner.mcp.ready(timeout).await
    }

    /// The node registry, when nodes are enabled: pairing codes,
    /// revocation, the paired nodes (GA-10). Feature `nodes`.
    #[must_use]
    #[cfg(feature = "nodes")]
    pub fn node_registry(&self) -> Option<&NodeRegistry> {
        self.inner.nodes.as_ref().map(|(registry, _)| registry)
    }

    /// Where the node gateway listens, when it does. Feature `nodes`.
    #[must_use]
    #[cfg(feature = "nodes")]
    pub fn node_gateway_addr(&self) -> Option<std::net::SocketAddr> {
        self.inner.nodes.as_ref().and_then(|(_, addr)| *addr)
    }

    /// A subscription to this process's run events: parks, approvals
    /// requested and decided, ends (see [`RunEvent`](crate::RunEvent)).
    /// Bounded: a subscriber that falls behind misses the oldest events and
    /// is told how many.
    #[must_use]
    pub fn run_events(&self) -> crate::events::RunEvents {
        self.inner.events.subscribe()
    }

    /// The runtime's metrics now: cells by end state, durations, nested
    /// calls, parked cells, store and results bytes, console truncations,
    /// admission rejections, the JS-thread queue, MCP servers and nodes
    /// connected.
    #[must_use]
    pub fn metrics(&self) -> MetricsSnapshot {
        let mut snapshot = self.inner.metrics.snapshot();
        snapshot.js_queue_depth = self.inner.js_queue.depth() as u64;
        snapshot.runs.store_flushes = self.inner.store.flushes();
        let results = self.inner.results.stats();
        snapshot.results_saved = results.saves;
        snapshot.results_saved_bytes = results.saved_bytes;
        snapshot.results_held = results.held;
        snapshot.engine_workers = self.inner.workers.as_ref().map(|w| w.snapshot().pool);
        #[cfg(feature = "mcp")]
        {
            snapshot.mcp_servers_connected = self.inner.mcp.status().into_iter().map(|s| (s.name, s.up)).collect();
        }
        #[cfg(feature = "nodes")]
        if let Some((registry, _)) = &self.inner.nodes {
            snapshot.nodes_connected = Some(registry.list().iter().filter(|n| n.connected).count() as u64);
        }
        snapshot
    }

    /// What `catalog.search(query, {limit})` would return, best first, with
    /// each match's score.
    ///
    /// # Errors
    /// The catalog is unavailable.
    pub async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, CodeModeError> {
        let ranked = self.inner.catalog.ranked(query.to_owned(), Some(limit as f64)).await?;
        Ok(ranked
            .into_iter()
            .filter_map(|(hit, score)| match hit {
                codemode_catalog::SearchHit::Native(i) => {
                    let m = &self.inner.tools.get(i)?.metadata;
                    Some(SearchHit { callable_name: m.callable_name.clone(), score, input: m.input.clone() })
                }
                codemode_catalog::SearchHit::Mcp(h) => {
                    Some(SearchHit { callable_name: h.callable_name, score, input: "(MCP; see describe())".to_owned() })
                }
            })
            .collect())
    }

    /// How many cells are alive (running or parked).
    ///
    /// # Errors
    /// The runtime is shut down.
    pub async fn live_cells(&self) -> Result<usize, CodeModeError> {
        if self.is_shut_down() {
            return Err(CodeModeError::ShutDown);
        }
        Ok(self.inner.runs.len())
    }

    /// Disposes every live cell and stops the runtime's actors in order:
    /// cells, the executor, the services, the MCP servers, the node
    /// registry; the session store is flushed last.
    pub async fn shutdown(&self) {
        if let Some(task) = &self.inner.pruning {
            task.abort();
        }
        let _ = self.inner.root.stop_and_wait(None, None).await;
        // Subscribers hear the end: every event of the stopped cells was
        // sent before the tree stopped.
        self.inner.events.close();
    }

    /// Makes a supervised actor panic, so the root supervisor restarts it
    /// (supervision tests only); returns whether the request was sent.
    #[doc(hidden)]
    #[cfg(feature = "test-hooks")]
    pub fn crash_actor_for_test(&self, target: CrashTarget) -> bool {
        let inner = &self.inner;
        match target {
            CrashTarget::Executor => {
                inner.executor.borrow().as_ref().is_some_and(|a| a.send_message(ExecutorMsg::Crash).is_ok())
            }
            CrashTarget::Catalog => inner.catalog.crash_for_test(),
            CrashTarget::Store => inner.store.crash_for_test(),
            CrashTarget::Results => inner.results.crash_for_test(),
            #[cfg(feature = "mcp")]
            CrashTarget::McpServer(index) => inner.mcp.crash_server_for_test(index),
            // No MCP server can be configured.
            #[cfg(not(feature = "mcp"))]
            CrashTarget::McpServer(_) => false,
            CrashTarget::NodeRegistry => inner.nodes.as_ref().is_some_and(|(n, _)| n.crash_for_test()),
        }
    }

    pub(crate) fn is_shut_down(&self) -> bool {
        self.inner.root.get_status() >= ActorStatus::Stopping
    }

    /// The current executor; while it restarts, waits for the next one.
    pub(crate) async fn executor(&self) -> Result<ActorRef<ExecutorMsg>, CodeModeError> {
        let mut slot = self.inner.executor.clone();
        let deadline = tokio::time::Instant::now() + EXECUTOR_WAIT;
        loop {
            if self.is_shut_down() {
                return Err(CodeModeError::ShutDown);
            }
            if let Some(actor) = slot.borrow_and_update().clone()
                && actor.get_status() < ActorStatus::Stopping
            {
                return Ok(actor);
            }
            match tokio::time::timeout_at(deadline, slot.changed()).await {
                Ok(Ok(())) => {}
                _ => return Err(CodeModeError::ShutDown),
            }
        }
    }

    /// Sends a cell to the executor and waits for its first answer.
    ///
    /// Cancel safety: dropping the future does not cancel the cell; a parked
    /// cell stays parked and can be resumed with `wait`, a running one keeps
    /// its result until the next `wait`… except the result of the dropped
    /// call itself, which is lost (the cell goes on).
    pub(crate) async fn start_cell(&self, request: ExecRequest) -> Result<CellResult, CodeModeError> {
        let executor = self.executor().await?;
        match executor.call(|reply| ExecutorMsg::Exec(request, reply), None).await {
            Ok(CallResult::Success(result)) => Ok(result),
            // The cell's actor (or the executor) crashed holding our reply port.
            Ok(CallResult::SenderError | CallResult::Timeout) => Ok(crashed()),
            Err(_) if self.is_shut_down() => Err(CodeModeError::ShutDown),
            // The executor stopped as the request reached it: it never ran.
            Err(_) => Ok(crashed()),
        }
    }
}

/// How a runtime's parked runs are kept ([`CodeMode::run_durability`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunDurability {
    /// On a database other processes share (PostgreSQL), so any of them
    /// resumes the run; else on this machine's sled store.
    pub shared: bool,
    /// When journals are written.
    pub journal: JournalMode,
    /// What a written journal survives.
    pub durability: codemode_store::runs::Durability,
}
