//! Building a runtime: [`CodeModeBuilder`] collects the host's choices and
//! [`start`](CodeModeBuilder::start) checks them all before any cell runs,
//! then opens the backend and starts the services and the supervision
//! tree.

use std::sync::Arc;

use codemode_catalog::policy::{AllowAll, Policy};
use codemode_catalog::{Catalog, Registry, SearchConfig, Tool};
#[cfg(feature = "mcp")]
use codemode_mcp::McpServerConfig;
#[cfg(feature = "nodes")]
use codemode_nodes::NodesConfig;
use codemode_store::ResultsLimits;
#[cfg(feature = "workspace-tools")]
use codemode_tools::workspace;
use ractor::Actor;
use tokio::sync::watch;

use super::facade::{CodeMode, Inner};
use crate::cell::guest_host::{CellHost, EnginePool};
use crate::cell::{CellServices, ToolTable};
use crate::durable::{DurableArgs, JournalQuota, RunsConfig, StoreBackend};
use crate::engine::pool::Recipe;
use crate::error::CodeModeError;
use crate::executor::ExecutorConfig;
use crate::jsthreads::JsThreads;
use crate::limits::{Isolation, Limits};
use crate::mcp::McpHub;
use crate::nodes::NodeRegistry;
use crate::run_index::{RunIndex, new_run_id};
use crate::supervisor::{RootArgs, RootSupervisor};
use crate::telemetry::Metrics;
use crate::workers::{EngineWorkers, Workers};

/// Prepared engines kept ready per runtime: enough for a burst of cells
/// while the factory catches up; each holds an engine's memory (measured
/// in `docs/benchmarks.md`).
const SPARE_ENGINES: usize = 2;

impl CodeMode {
    /// A builder with the default limits and no tools.
    #[must_use]
    pub fn builder() -> CodeModeBuilder {
        CodeModeBuilder::default()
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
    backend: Option<StoreBackend>,
    runs: RunsConfig,
    /// The model may decide approvals through its `wait` tool.
    model_decides: bool,
    /// Where cells' engines run.
    isolation: Isolation,
    /// How engine workers start, with `isolation = "process"`.
    engine_workers: Option<EngineWorkers>,
}

impl CodeModeBuilder {
    /// Limits for every cell (validated by [`start`](Self::start)).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Where cells' engines run (default [`Isolation::Thread`]; with
    /// [`Isolation::Process`], in engine workers started as
    /// [`engine_workers`](Self::engine_workers) says).
    #[must_use]
    pub fn isolation(mut self, isolation: Isolation) -> Self {
        self.isolation = isolation;
        self
    }

    /// How engine worker processes are started and pooled with
    /// [`Isolation::Process`] (default: this program, re-executed as
    /// `<program> engine-worker`, which must then call
    /// [`engine_worker`](crate::engine_worker) first thing in `main`).
    #[must_use]
    pub fn engine_workers(mut self, workers: EngineWorkers) -> Self {
        self.engine_workers = Some(workers);
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

    /// Lets the model decide the approvals its own calls asked for: the
    /// model-facing `wait` definition then takes `approve` and `deny`, and
    /// decisions it brings are recorded as the model's. Off by default: a
    /// call a policy asks about is for a person (the MCP client's user, an
    /// operator, or the host through [`Reply::wait_with`](crate::Reply::wait_with)),
    /// and a model — or a prompt injection steering it — that may approve
    /// its own calls makes `ask` no stronger than `allow`.
    #[must_use]
    pub fn model_decides_approvals(mut self, allowed: bool) -> Self {
        self.model_decides = allowed;
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
    pub fn store_backend(mut self, backend: StoreBackend) -> Self {
        self.backend = Some(backend);
        self
    }

    /// How runs are journaled, leased, handed off and evicted (validated
    /// by [`start`](Self::start)).
    #[must_use]
    pub fn runs(mut self, runs: RunsConfig) -> Self {
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
    /// Invalid limits, `[runs]` settings or tools, a backend that cannot be
    /// opened, or threads and actors that could not be started.
    pub async fn start(self) -> Result<CodeMode, CodeModeError> {
        self.limits.validate()?;
        self.runs.validate()?;
        let threads = crate::jsthreads::thread_count(self.js_threads)?;
        let workspace = self.workspace_root();
        let (policy, tools) = registry(self.tools, self.policy, workspace)?;
        let limits = Arc::new(self.limits);
        // The MCP hub and the engine factory first: the factory compiles the
        // prelude and prepares the first spare engines while the store opens
        // (a first `exec` waits for both). Both are stopped if a later part
        // of the start fails.
        #[cfg(feature = "mcp")]
        let mcp = McpHub::start(self.mcp_servers, Arc::clone(&policy)).await?;
        #[cfg(not(feature = "mcp"))]
        let mcp = McpHub;
        let recipe = Recipe {
            limits: Arc::clone(&limits),
            host: CellHost { tools: ToolTable::live(tools.clone()), mcp: mcp.clone() },
        };
        // With engine workers, the spares are the workers' own; the host
        // makes an engine only for `codemode bench`'s floor.
        let process = self.isolation == Isolation::Process;
        let engines = match EnginePool::start(recipe, if process { 0 } else { SPARE_ENGINES }) {
            Ok(engines) => engines,
            Err(source) => {
                mcp.stop();
                return Err(CodeModeError::Threads { what: "engine factory", source });
            }
        };
        let started = StartGuard { mcp: mcp.clone(), engines: engines.clone(), armed: true };
        let workers = if process {
            let config = match self.engine_workers {
                Some(config) => config,
                None => EngineWorkers::this_program()
                    .map_err(|source| CodeModeError::Threads { what: "engine worker", source })?,
            };
            let names = ToolTable::live(tools.clone());
            let names = (0..names.len()).map(|i| names.callable(i).unwrap_or_default().to_owned()).collect();
            let workers = Workers::start(&config, Arc::clone(&limits), names)
                .map_err(|e| CodeModeError::EngineWorkers(e.to_string()))?;
            Some(Arc::new(workers))
        } else {
            None
        };
        let js = JsThreads::start(threads).map_err(|source| CodeModeError::Threads { what: "JS", source })?;
        let instance = new_run_id()?;
        let backend = self.backend.unwrap_or(StoreBackend::Sled { path: self.store_path });
        let results_limits =
            ResultsLimits { max_entries: limits.results_max_entries, max_bytes: limits.results_max_bytes };
        let options = codemode_store::OpenOptions {
            retention: self.store_retention,
            results: results_limits,
            durability: self.runs.durability,
            release_stale_leases: true,
            ..codemode_store::OpenOptions::named(instance.as_str())
        };
        let opened = codemode_store::open(&backend, options).await?;
        let durable = Some(DurableArgs {
            store: Arc::clone(&opened.runs),
            audit: Arc::clone(&opened.audit),
            owner: Arc::from(instance.as_str()),
            config: Arc::new(self.runs.clone()),
            tools: ToolTable::refs(&tools),
            quota: JournalQuota {
                session_bytes: limits.max_journal_bytes_per_session,
                principal_bytes: limits.max_journal_bytes_per_principal,
                runs: limits.max_live_cells.saturating_add(1),
            },
        });
        // A policy can hide nodes like any tool.
        #[cfg(feature = "nodes")]
        let nodes = match self.nodes {
            Some((config, listen)) if policy.visible(codemode_catalog::policy::CallSource::Nodes, None, "nodes") => {
                Some(start_nodes(config, listen, &opened, &policy).await?)
            }
            _ => None,
        };
        #[cfg(not(feature = "nodes"))]
        let nodes: Option<(NodeRegistry, Option<std::net::SocketAddr>)> = None;
        // From here `launch` stops what it was given when it fails.
        started.disarm();
        let metrics = Arc::new(Metrics::default());
        let services = Arc::new(CellServices {
            limits: Arc::clone(&limits),
            registry: tools,
            catalog: Catalog::named(format!("codemode-catalog-{instance}")),
            api_files: Arc::new(vec![results_api_file(opened.results.limits())]),
            runs: Arc::new(RunIndex::new(Arc::clone(&metrics))),
            metrics,
            mcp,
            nodes: nodes.as_ref().map(|(registry, _)| registry.clone()),
            policy,
            store: opened.sessions,
            results: opened.results,
            durable,
            events: crate::events::EventFeed::default(),
        });
        launch(services, js, engines, workers, nodes, self.model_decides).await
    }

    /// The workspace root, when the workspace tools are configured.
    fn workspace_root(&self) -> Option<std::path::PathBuf> {
        #[cfg(feature = "workspace-tools")]
        return self.workspace.clone();
        #[cfg(not(feature = "workspace-tools"))]
        None
    }
}

/// Stops the MCP hub and the engine factory of a start that failed before
/// `launch` took them over.
struct StartGuard {
    mcp: McpHub,
    engines: EnginePool,
    armed: bool,
}

impl StartGuard {
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for StartGuard {
    fn drop(&mut self) {
        if self.armed {
            self.mcp.stop();
            self.engines.stop();
        }
    }
}

/// Starts the supervision tree over `services` and returns the runtime.
async fn launch(
    services: Arc<CellServices>,
    js: JsThreads,
    engines: EnginePool,
    workers: Option<Arc<Workers>>,
    nodes: Option<(NodeRegistry, Option<std::net::SocketAddr>)>,
    model_decides: bool,
) -> Result<CodeMode, CodeModeError> {
    let limits = Arc::clone(&services.limits);
    let js_queue = js.queue();
    let config = Arc::new(ExecutorConfig {
        services: Arc::clone(&services),
        js,
        engines: engines.clone(),
        workers: workers.clone(),
        search: SearchConfig::default(),
    });
    let (slot, executor) = watch::channel(None);
    let root = match Actor::spawn(None, RootSupervisor, RootArgs { config, executor: slot }).await {
        Ok((root, _)) => root,
        Err(e) => {
            // The root's children died with it; what it did not adopt
            // yet is stopped here.
            services.mcp.stop();
            engines.stop();
            if let Some(nodes) = &services.nodes {
                nodes.stop();
            }
            return Err(CodeModeError::Supervisor(e));
        }
    };
    if let Some(d) = &services.durable {
        // A run this process evicted and another resumed leaves the
        // evicted-runs gauge here.
        let (runs, me) = (Arc::downgrade(&services.runs), Arc::clone(&d.owner));
        d.store.on_taken(Arc::new(move |run_id: &str, owner: &str| {
            if owner != &*me
                && let Some(runs) = runs.upgrade()
            {
                runs.taken_elsewhere(run_id);
            }
        }));
    }
    let pruning = services.durable.as_ref().map(|d| {
        crate::durable::start_pruning(Arc::clone(&d.store), Arc::clone(&d.owner), limits.parked_ttl, d.config.lease)
    });
    Ok(CodeMode {
        inner: Arc::new(Inner {
            #[cfg(feature = "mcp")]
            mcp: services.mcp.clone(),
            metrics: Arc::clone(&services.metrics),
            js_queue,
            catalog: services.catalog.clone(),
            runs: Arc::clone(&services.runs),
            root,
            executor,
            limits,
            tools: services.registry.clone(),
            store: services.store.clone(),
            results: services.results.clone(),
            nodes,
            pruning,
            durable: services.durable.clone(),
            events: services.events.clone(),
            model_decides,
            engines,
            workers,
        }),
    })
}

/// The policy (allow-all by default) and the registry of the tools it
/// lets cells see, the workspace tools under `workspace` included.
fn registry(
    mut tools: Vec<Arc<dyn Tool>>,
    policy: Option<Arc<dyn Policy>>,
    workspace: Option<std::path::PathBuf>,
) -> Result<(Arc<dyn Policy>, Registry), CodeModeError> {
    #[cfg(feature = "workspace-tools")]
    if let Some(dir) = workspace {
        let root = workspace::Root::new(&dir).map_err(|source| CodeModeError::Workspace { root: dir, source })?;
        tools.extend(workspace::tools(&root));
    }
    #[cfg(not(feature = "workspace-tools"))]
    let _ = workspace;
    let policy: Arc<dyn Policy> = policy.unwrap_or_else(|| Arc::new(AllowAll));
    // Hidden tools have no global and no handle.
    tools.retain(|t| policy.visible(t.source().into(), None, t.name()));
    Ok((Arc::clone(&policy), Registry::new(tools)?))
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

/// Starts the node registry on the store's pairings and, with `listen`,
/// its gateway; the address it bound.
#[cfg(feature = "nodes")]
async fn start_nodes(
    config: NodesConfig,
    listen: Option<String>,
    store: &codemode_store::Database,
    policy: &Arc<dyn Policy>,
) -> Result<(NodeRegistry, Option<std::net::SocketAddr>), CodeModeError> {
    // Beside the sessions, in the store's backend: on PostgreSQL every
    // process on the database shares them.
    let pairings = store.pairings().await?;
    let registry = NodeRegistry::start(config, pairings, Arc::clone(policy), None).await?;
    let Some(addr) = listen else { return Ok((registry, None)) };
    match registry.listen(&addr).await {
        Ok(bound) => Ok((registry, Some(bound))),
        Err(e) => {
            registry.stop();
            Err(e.into())
        }
    }
}
