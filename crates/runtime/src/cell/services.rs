//! The services every cell of a runtime shares, passed to each cell as
//! one value.

use std::sync::Arc;

use codemode_catalog::policy::Policy;
use codemode_catalog::{Catalog, Registry, files};
use codemode_store::{ResultsCache, SessionStore};

use crate::durable::DurableArgs;
use crate::events::EventFeed;
use crate::limits::Limits;
use crate::mcp::McpHub;
use crate::nodes::NodeRegistry;
use crate::run_index::RunIndex;
use crate::telemetry::Metrics;

/// What every cell of a runtime shares (cheap to share: one `Arc`).
pub(crate) struct CellServices {
    pub limits: Arc<Limits>,
    /// The registry's tools: every fresh cell's globals.
    pub registry: Registry,
    pub catalog: Catalog,
    pub store: SessionStore,
    pub results: ResultsCache,
    /// Host-provided virtual files (`results.d.ts`).
    pub api_files: Arc<Vec<files::ApiFile>>,
    pub mcp: McpHub,
    /// The paired nodes, when the host configured them (GA-10).
    pub nodes: Option<NodeRegistry>,
    pub policy: Arc<dyn Policy>,
    pub metrics: Arc<Metrics>,
    /// The live runs, read by `wait`/`abort`/`dispose` without a hop
    /// through the executor; a cell removes itself when it ends.
    pub runs: Arc<RunIndex>,
    /// Run journals and leases, for interactive cells.
    pub durable: Option<DurableArgs>,
    /// Run events for the embedding host.
    pub events: EventFeed,
}
