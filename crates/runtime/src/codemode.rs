//! The embedding facade: `CodeMode`, its builder, sessions and replies.

use std::sync::Arc;

pub(crate) mod readiness;
mod resume;

use codemode_bridge::{CellResult, ErrorCode, Phase};
use codemode_catalog::policy::{AllowAll, Policy};
use codemode_catalog::{Catalog, Registry, SearchConfig, Tool};
#[cfg(feature = "mcp")]
use codemode_mcp::McpServerConfig;
#[cfg(feature = "nodes")]
use codemode_nodes::NodesConfig;
use codemode_store::{ResultsCache, ResultsLimits, Scope, SessionStore, StoreLimits};
#[cfg(feature = "workspace-tools")]
use codemode_tools::workspace;
use ractor::rpc::CallResult;
use ractor::{Actor, ActorRef, ActorStatus};
use tokio::sync::watch;

use crate::cell::spare::{EnginePool, Recipe};
use crate::cell::{CellMode, CellMsg};

/// Prepared engines kept ready per runtime: enough for a burst of cells
/// while the factory catches up; each holds an engine's memory (measured
/// in `docs/benchmarks.md`).
const SPARE_ENGINES: usize = 2;
use crate::error::CodeModeError;
use crate::executor::{ExecRequest, ExecutorConfig, ExecutorMsg};
use crate::jsthreads::JsThreads;
use crate::limits::Limits;
use crate::mcp::McpHub;
use crate::nodes::NodeRegistry;
use crate::prompt::{self, ExecToolDescriptions};
use crate::runs::{EndState, Runs, new_run_id};
use crate::supervisor::{RootArgs, RootMsg, RootSupervisor};
use crate::telemetry::{Metrics, MetricsSnapshot};

/// How long an `exec` waits for a restarting executor before it reports
/// the runtime as shut down.
const EXECUTOR_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The longest `title` an `exec` accepts, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

/// One `exec` request: the cell's source and how to run it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exec {
    code: String,
    title: Option<String>,
    restart_safe: bool,
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
}

/// Builds a [`CodeMode`] runtime; rejects invalid limits and tools before
/// any cell runs.
#[derive(Default)]
pub struct CodeModeBuilder {
    limits: Limits,
    tools: Vec<Arc<dyn Tool>>,
    #[cfg(feature = "workspace-tools")]
    workspace: Option<std::path::PathBuf>,
    store_path: Option<std::path::PathBuf>,
    /// `None`: the store's default retention.
    store_retention: Option<Option<std::time::Duration>>,
    #[cfg(feature = "mcp")]
    mcp_servers: Vec<McpServerConfig>,
    policy: Option<Arc<dyn Policy>>,
    #[cfg(feature = "nodes")]
    nodes: Option<(NodesConfig, Option<String>)>,
    js_threads: Option<usize>,
    /// `Some` when set with [`CodeModeBuilder::store_backend`]; else sled at
    /// `store_path`.
    backend: Option<crate::durable::StoreBackend>,
    runs: crate::durable::RunsConfig,
}

impl CodeModeBuilder {
    /// Limits for every cell (validated by [`start`](Self::start)).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets how many JS threads run guest code (default `max(4 × available
    /// cores, 8)`, range 1–1,024; checked by [`start`](Self::start)). More
    /// threads than cores let a new cell start while others spin in CPU
    /// loops: the OS time-slices them. Each has a 16 MiB stack, virtual
    /// memory that stays mostly unused.
    #[must_use]
    pub fn js_threads(mut self, count: usize) -> Self {
        self.js_threads = Some(count);
        self
    }

    /// Registers a native tool, installed in every cell as an async global.
    #[must_use]
    pub fn tool(self, tool: impl Tool) -> Self {
        self.tool_arc(Arc::new(tool))
    }

    /// Adds the built-in workspace tools (`read`, `ls`, `find`, `grep`),
    /// confined to `root` (GA-11.4, GA-12). Feature `workspace-tools`.
    #[must_use]
    #[cfg(feature = "workspace-tools")]
    pub fn workspace(mut self, root: impl Into<std::path::PathBuf>) -> Self {
        self.workspace = Some(root.into());
        self
    }

    /// Keeps the session store (GA-7) in a sled database at `path`, so
    /// stored values survive restarts. Without it the store is temporary:
    /// it lasts as long as the process.
    #[must_use]
    pub fn session_store_path(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.store_path = Some(path.into());
        self
    }

    /// Keeps sessions, results and run journals in `backend` (default: sled
    /// at [`session_store_path`](Self::session_store_path), or temporary).
    /// With [`StoreBackend::Postgres`](crate::StoreBackend) many processes
    /// share them: a run parked by one can be resumed by any other.
    #[must_use]
    pub fn store_backend(mut self, backend: crate::durable::StoreBackend) -> Self {
        self.backend = Some(backend);
        self
    }

    /// How runs are journaled, leased, handed off and evicted (issue 17).
    #[must_use]
    pub fn runs(mut self, runs: crate::durable::RunsConfig) -> Self {
        self.runs = runs;
        self
    }

    /// Sets how long the session store keeps a session after it was last
    /// used (a `load`, a `store` or a commit): past that, all its values
    /// are deleted, so sessions that never come back (each `codemode
    /// serve` connection gets a fresh one) do not accumulate. Default 30
    /// days; `None` keeps every session forever; at least one second
    /// (checked by [`start`](Self::start)). Sessions stored before
    /// retention existed count as seen when the runtime starts.
    #[must_use]
    pub fn session_retention(mut self, retention: Option<std::time::Duration>) -> Self {
        self.store_retention = Some(retention);
        self
    }

    /// Connects an MCP server (stdio): its tools become
    /// `MCP.<server>.<tool>` in every cell (GA-9). Feature `mcp`.
    #[must_use]
    #[cfg(feature = "mcp")]
    pub fn mcp_server(mut self, config: McpServerConfig) -> Self {
        self.mcp_servers.push(config);
        self
    }

    /// Enables paired nodes (GA-10): cells reach them through `nodes`.
    /// With `listen` (`host:port`, port 0 picks one) the runtime serves the
    /// node gateway there, so node hosts (`codemode node`) can pair and
    /// connect. Pairings live in the session store's database, so they
    /// survive restarts when [`session_store_path`](Self::session_store_path)
    /// is set. Feature `nodes`.
    #[must_use]
    #[cfg(feature = "nodes")]
    pub fn nodes(mut self, config: NodesConfig, listen: Option<String>) -> Self {
        self.nodes = Some((config, listen));
        self
    }

    /// Sets the policy that decides which tools exist for cells and sees
    /// every nested call before it runs (allow, deny, or hold for
    /// approval). Default: allow everything.
    #[must_use]
    pub fn policy(mut self, policy: impl Policy) -> Self {
        self.policy = Some(Arc::new(policy));
        self
    }

    /// Registers a shared native tool.
    #[must_use]
    pub fn tool_arc(mut self, tool: Arc<dyn Tool>) -> Self {
        self.tools.push(tool);
        self
    }

    /// Validates the configuration and starts the executor and its JS
    /// threads. Must be called inside a tokio runtime.
    ///
    /// # Errors
    /// Invalid limits or tools, or threads that could not be started.
    pub async fn start(self) -> Result<CodeMode, CodeModeError> {
        self.limits.validate()?;
        let mut tools = self.tools;
        #[cfg(feature = "workspace-tools")]
        if let Some(dir) = &self.workspace {
            let root = workspace::Root::new(dir)
                .map_err(|e| CodeModeError::Start(format!("workspace root {}: {e}", dir.display())))?;
            tools.extend(workspace::tools(&root));
        }
        let policy: Arc<dyn Policy> = self.policy.unwrap_or_else(|| Arc::new(AllowAll));
        // Hidden tools have no global and no handle.
        tools.retain(|t| policy.visible(t.source().guest_name(), None, t.name()));
        let tools = Registry::new(tools).map_err(|e| CodeModeError::InvalidTool(e.to_string()))?;
        let threads = crate::jsthreads::thread_count(self.js_threads)?;
        let js = JsThreads::start(threads).map_err(|e| CodeModeError::Start(e.to_string()))?;
        let js_queue = js.queue();
        let limits = Arc::new(self.limits);
        let instance = new_run_id();
        let catalog = Catalog::named(format!("codemode-catalog-{instance}"));
        let backend = self.backend.unwrap_or(crate::durable::StoreBackend::Sled { path: self.store_path });
        let results_limits =
            ResultsLimits { max_entries: limits.results_max_entries, max_bytes: limits.results_max_bytes };
        let opened = crate::durable::open(
            backend,
            self.store_retention,
            StoreLimits::default(),
            results_limits,
            &instance,
            self.runs.durability,
        )
        .await
        .map_err(CodeModeError::Start)?;
        let (store, results) = (opened.store, opened.results);
        let durable = opened.runs.map(|store| crate::cell::durable::DurableArgs {
            store,
            owner: Arc::from(instance.as_str()),
            config: Arc::new(self.runs.clone()),
            tools: crate::cell::ToolTable::refs(&tools),
        });
        // A policy can hide nodes like any tool.
        #[cfg(feature = "nodes")]
        let nodes = match self.nodes {
            Some((config, listen)) if policy.visible("nodes", None, "nodes") => {
                Some(start_nodes(config, listen, &store, &policy).await?)
            }
            _ => None,
        };
        #[cfg(not(feature = "nodes"))]
        let nodes: Option<(NodeRegistry, Option<std::net::SocketAddr>)> = None;
        #[cfg(feature = "mcp")]
        let mcp = McpHub::start(self.mcp_servers, Arc::clone(&policy))
            .await
            .map_err(|e| CodeModeError::Start(e.to_string()))?;
        #[cfg(not(feature = "mcp"))]
        let mcp = McpHub;
        let recipe = Recipe {
            limits: Arc::clone(&limits),
            tools: crate::cell::ToolTable::live(tools.clone()),
            mcp: mcp.clone(),
        };
        let engines = EnginePool::start(recipe, SPARE_ENGINES).map_err(|e| CodeModeError::Start(e.to_string()))?;
        let metrics = Arc::new(Metrics::default());
        let config = Arc::new(ExecutorConfig {
            limits: Arc::clone(&limits),
            tools,
            catalog,
            search: SearchConfig::default(),
            api_files: Arc::new(vec![results_api_file(results.limits())]),
            runs: Arc::new(Runs::new(Arc::clone(&metrics))),
            metrics,
            mcp,
            engines,
            nodes: nodes.as_ref().map(|(registry, _)| registry.clone()),
            policy,
            store,
            results,
            js,
            durable: durable.clone(),
        });
        let (slot, executor) = watch::channel(None);
        let root =
            match Actor::spawn(None, RootSupervisor, RootArgs { config: Arc::clone(&config), executor: slot }).await {
                Ok((root, _)) => root,
                Err(e) => {
                    // The root's children died with it; what it did not adopt
                    // yet is stopped here.
                    config.mcp.stop();
                    config.engines.stop();
                    if let Some(nodes) = &config.nodes {
                        nodes.stop();
                    }
                    return Err(CodeModeError::Start(e.to_string()));
                }
            };
        Ok(CodeMode {
            inner: Arc::new(Inner {
                #[cfg(feature = "mcp")]
                mcp: config.mcp.clone(),
                metrics: Arc::clone(&config.metrics),
                js_queue,
                catalog: config.catalog.clone(),
                runs: Arc::clone(&config.runs),
                root,
                executor,
                limits,
                tools: config.tools.clone(),
                store: config.store.clone(),
                results: config.results.clone(),
                nodes,
                pruning: durable.as_ref().map(|d| {
                    crate::durable::start_pruning(
                        Arc::clone(&d.store),
                        Arc::clone(&d.owner),
                        config.limits.parked_ttl,
                        d.config.lease,
                    )
                }),
                durable,
            }),
        })
    }
}

/// The answer to a request whose actor crashed while holding its reply.
fn crashed() -> CellResult {
    CellResult::Failed {
        code: ErrorCode::InternalError,
        error: "the cell's host actor crashed; the cell is gone, other cells are unaffected. Retry it in a new exec."
            .into(),
        phase: Phase::Host,
        output: Default::default(),
        telemetry: Default::default(),
        untrusted: None,
    }
}

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

/// `results.d.ts` as an `API` virtual file (GA-2.3, GA-6.5).
fn results_api_file(limits: &ResultsLimits) -> codemode_catalog::files::ApiFile {
    let content = codemode_store::results_declaration(limits);
    codemode_catalog::files::ApiFile {
        path: "results.d.ts".into(),
        description: "Temporary JSON results shared across cells in the current agent run.".into(),
        bytes: content.len(),
        content,
    }
}

struct Inner {
    #[cfg(feature = "mcp")]
    mcp: McpHub,
    metrics: Arc<Metrics>,
    /// Reads the JS threads' queue depth for [`CodeMode::metrics`].
    js_queue: crate::jsthreads::JsQueue,
    catalog: Catalog,
    /// The root supervisor: stopping it stops the whole tree in order.
    root: ActorRef<RootMsg>,
    /// The current executor, republished by the root when it restarts it.
    executor: watch::Receiver<Option<ActorRef<ExecutorMsg>>>,
    runs: Arc<Runs>,
    limits: Arc<Limits>,
    tools: Registry,
    store: SessionStore,
    results: ResultsCache,
    nodes: Option<(NodeRegistry, Option<std::net::SocketAddr>)>,
    /// Run journals and leases (issue 17).
    durable: Option<crate::cell::durable::DurableArgs>,
    /// Deletes old ended run records; aborted with the runtime.
    pruning: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(task) = &self.pruning {
            task.abort();
        }
        // Disposes every live cell; their tool calls and timers are cancelled.
        self.root.stop(None);
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
/// calling [`shutdown`](Self::shutdown), disposes every live cell.
#[derive(Clone)]
pub struct CodeMode {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for CodeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeMode").field("limits", &self.inner.limits).finish_non_exhaustive()
    }
}

/// Starts the node registry on the store's pairings and, with `listen`,
/// its gateway; the address it bound.
#[cfg(feature = "nodes")]
async fn start_nodes(
    config: NodesConfig,
    listen: Option<String>,
    store: &SessionStore,
    policy: &Arc<dyn Policy>,
) -> Result<(NodeRegistry, Option<std::net::SocketAddr>), CodeModeError> {
    let start = |e: &dyn std::fmt::Display| CodeModeError::Start(e.to_string());
    // Beside the sessions, in the store's backend: on PostgreSQL every
    // process on the database shares them.
    let pairings = store.node_pairings().await.map_err(|e| start(&e))?;
    let registry = NodeRegistry::start(config, pairings, Arc::clone(policy), None).await.map_err(|e| start(&e))?;
    let Some(addr) = listen else { return Ok((registry, None)) };
    match registry.listen(&addr).await {
        Ok(bound) => Ok((registry, Some(bound))),
        Err(e) => {
            registry.stop();
            Err(start(&e))
        }
    }
}

impl CodeMode {
    /// A builder with the default limits and no tools.
    #[must_use]
    pub fn builder() -> CodeModeBuilder {
        CodeModeBuilder::default()
    }

    /// What a parked run of this runtime survives: the backend it is
    /// journaled in, when, and how durably (`None`: runs are not journaled
    /// at all — `[runs] journal = "off"`, or a temporary store).
    #[must_use]
    pub fn run_durability(&self) -> Option<RunDurability> {
        let d = self.inner.durable.as_ref()?;
        if d.config.journal == crate::durable::JournalMode::Off || !self.inner.store.persists() {
            return None;
        }
        Some(RunDurability {
            shared: self.inner.store.shared(),
            journal: d.config.journal,
            durability: d.config.durability,
        })
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
        let d = prompt::descriptions(&self.inner.limits, &self.inner.tools, self.inner.nodes.is_some());
        #[cfg(feature = "mcp")]
        let d = prompt::with_mcp(d, &self.inner.mcp.tree());
        d
    }

    /// Starts session `to` with a copy of session `from`'s committed store
    /// values; the two diverge from then on (GA-7.7).
    ///
    /// # Errors
    /// `to` already has stored values, or the store failed.
    pub async fn fork_session(&self, from: &str, to: &str) -> Result<(), CodeModeError> {
        self.inner.store.fork(from, to).await.map_err(|e| CodeModeError::Store(e.to_string()))
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
        let ranked = self
            .inner
            .catalog
            .ranked(query.to_owned(), Some(limit as f64))
            .await
            .map_err(|e| CodeModeError::Start(e.to_string()))?;
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

    fn is_shut_down(&self) -> bool {
        self.inner.root.get_status() >= ActorStatus::Stopping
    }

    /// The current executor; while it restarts, waits for the next one.
    async fn executor(&self) -> Result<ActorRef<ExecutorMsg>, CodeModeError> {
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
    async fn start_cell(&self, request: ExecRequest) -> Result<CellResult, CodeModeError> {
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
        };
        if let Some(refusal) = self.stored_quota(&request).await {
            return Ok(refusal);
        }
        self.start_cell(request).await
    }

    /// With durable runs, the quotas count what the session and its
    /// principal have stored too: runs not ended that are not live here
    /// (evicted to their journal, or held by another process), and their
    /// journals' bytes. The live cells are counted again, exactly, when
    /// the executor admits the cell; two execs of one session racing here
    /// can overshoot the stored count by one each.
    async fn stored_quota(&self, request: &ExecRequest) -> Option<CellResult> {
        let CellMode::Interactive { session, .. } = &request.mode else { return None };
        let d = self.inner.durable.as_ref().filter(|d| d.config.journal != crate::durable::JournalMode::Off)?;
        let limits = &self.inner.limits;
        let per_session = limits.max_live_cells_per_session.min(limits.max_live_cells);
        let per_principal = limits.max_live_cells_per_principal.min(limits.max_live_cells);
        let principal = request.principal.as_deref();
        let usage = match d.store.usage(session, principal, per_session.max(per_principal) + 1).await {
            Ok(usage) => usage,
            Err(e) => {
                return Some(CellResult::input_error(
                    ErrorCode::RuntimeUnavailable,
                    format!("the run store is unavailable ({e}), so the session's quota cannot be checked; retry."),
                ));
            }
        };
        let runs = &self.inner.runs;
        let elsewhere = |list: &[(String, u64)]| list.iter().filter(|(id, _)| !runs.counted_here(id)).count();
        let bytes = |list: &[(String, u64)]| list.iter().map(|(_, b)| *b).sum::<u64>();
        let refused = |reason: &'static str, message: String| {
            self.inner.metrics.admission_rejected(reason);
            Some(CellResult::input_error(ErrorCode::InvalidInput, message))
        };
        // Only the stored runs are this check's: with none, the executor's
        // exact count of live cells decides (and says so).
        let stored = elsewhere(&usage.session);
        if stored > 0 && runs.in_session(Some(session)) + stored >= per_session {
            return refused(
                "session_quota",
                format!(
                    "too many code mode runs in this session ({per_session}, counting runs parked in the store); \
                     wait on or abort parked runs before starting new ones."
                ),
            );
        }
        if bytes(&usage.session) >= limits.max_journal_bytes_per_session {
            return refused(
                "session_journal_bytes",
                format!(
                    "this session's parked runs hold {} bytes of journals, its quota ({}); wait on or abort parked \
                     runs before starting new ones.",
                    bytes(&usage.session),
                    limits.max_journal_bytes_per_session
                ),
            );
        }
        if principal.is_some() {
            let stored = elsewhere(&usage.principal);
            if stored > 0 && runs.of_principal(request.principal.as_ref()) + stored >= per_principal {
                return refused(
                    "principal_quota",
                    format!(
                        "too many code mode runs for this client ({per_principal} across its sessions, counting \
                         runs parked in the store); wait on or abort its parked runs before starting new ones."
                    ),
                );
            }
            if bytes(&usage.principal) >= limits.max_journal_bytes_per_principal {
                return refused(
                    "principal_journal_bytes",
                    format!(
                        "this client's parked runs hold {} bytes of journals, its quota ({}); wait on or abort its \
                         parked runs before starting new ones.",
                        bytes(&usage.principal),
                        limits.max_journal_bytes_per_principal
                    ),
                );
            }
        }
        None
    }
}

/// How a runtime's parked runs are kept ([`CodeMode::run_durability`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunDurability {
    /// On a database other processes share (PostgreSQL), so any of them
    /// resumes the run; else on this machine's sled store.
    pub shared: bool,
    /// When journals are written.
    pub journal: crate::durable::JournalMode,
    /// What a written journal survives.
    pub durability: codemode_store::runs::Durability,
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

/// One model reply (turn) within a session: where `exec` and `wait` run.
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
        };
        self.session.rt.exec_mode(exec, mode, self.session.principal.clone()).await
    }

    /// Resumes observing a parked cell with a fresh budget.
    ///
    /// # Errors
    /// Only host failures; an unknown run is a `failed`/`invalid_input` result.
    pub async fn wait(&self, run_id: &str) -> Result<CellResult, CodeModeError> {
        let s = &self.session;
        s.rt.route_run(run_id, &s.id, s.principal.as_ref(), resume::Ask::Wait).await
    }

    /// Aborts a cell: it fails with `aborted`, its tool calls and timers are
    /// cancelled and its pending writes discarded.
    ///
    /// # Errors
    /// Only host failures.
    pub async fn abort(&self, run_id: &str) -> Result<CellResult, CodeModeError> {
        let s = &self.session;
        s.rt.route_run(run_id, &s.id, s.principal.as_ref(), resume::Ask::Abort).await
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
            rt.inner.runs.ended(run_id, EndState::Disposed);
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
