//! The catalog actor: owns the search index behind a typed handle.
//!
//! One `CatalogActor` per runtime holds the registry and its BM25 index and
//! answers `catalog.search` requests. It is registered under a name unique
//! to its runtime, so a supervisor can restart it and every [`Catalog`]
//! handle finds the new one.

use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::{Actor, ActorCell, ActorProcessingErr, ActorRef, RpcReplyPort, SpawnErr};

use std::sync::Arc;

use crate::registry::Registry;
use crate::search::{SearchDoc, SearchIndex, parameter_text};
use crate::tool::ToolSource;

/// How long a search may take before the caller gives up.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(5);

/// Search limits (reference: default 8, at most 50).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Results when the guest gives no `limit`.
    pub default_limit: usize,
    /// The largest `limit` honoured; larger ones are clamped to it.
    pub max_limit: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self { default_limit: 8, max_limit: 50 }
    }
}

/// Why a search was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// `limit` was not a positive integer.
    #[error("limit must be a positive integer.")]
    InvalidLimit,
    /// The catalog actor is not running.
    #[error("the tool catalog is unavailable; retry in a moment.")]
    Unavailable,
}

/// One search match.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchHit {
    /// A native tool: its registry index.
    Native(usize),
    /// An MCP tool (GA-8.5, GA-9.1).
    Mcp(McpHandle),
}

/// What a guest MCP handle carries (GA-9.1, GA-9.2): no input or output
/// hints, the remote description cut at 512 UTF-16 units.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpHandle {
    /// `MCP.<server>.<method>`.
    pub callable_name: String,
    /// The raw MCP tool name.
    pub tool_name: String,
    /// The remote description, bounded.
    pub description: String,
    /// Always `mcp`.
    pub source: &'static str,
    /// `mcp/<server>.d.ts`.
    pub api_path: String,
    /// The server identifier.
    pub server: String,
    /// The method identifier.
    pub method: String,
}

/// Tools from outside the registry that search ranks beside the native
/// ones: the MCP servers' tools. `codemode_mcp::McpHub` implements it, so
/// the catalog sees handles only and does not depend on the MCP client.
pub trait McpSource: Send + Sync + 'static {
    /// A handle for every MCP tool cells can reach now, in namespace order
    /// (servers by name, then methods). Called before each search: it
    /// should read a published snapshot, not wait on a server.
    fn handles(&self) -> Vec<McpHandle>;
}

/// No MCP servers.
impl McpSource for () {
    fn handles(&self) -> Vec<McpHandle> {
        Vec::new()
    }
}

/// Messages of the catalog actor.
pub(crate) enum CatalogMsg {
    /// Rank tools for a query.
    Search { query: String, limit: Option<f64>, reply: RpcReplyPort<Result<Vec<(SearchHit, f64)>, SearchError>> },
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

/// The catalog actor.
pub(crate) struct CatalogActor;

/// The actor's state: the registry, the MCP servers, and one index over both.
pub(crate) struct CatalogState {
    registry: Registry,
    native_docs: Vec<SearchDoc>,
    mcp: Arc<dyn McpSource>,
    /// The MCP handles the index was built for, in index order (after the
    /// native tools).
    mcp_handles: Vec<McpHandle>,
    index: SearchIndex,
    config: SearchConfig,
}

/// What a catalog actor starts from.
pub struct CatalogArgs {
    /// The tools.
    pub registry: Registry,
    /// The MCP servers' tools.
    pub mcp: Arc<dyn McpSource>,
    /// Search limits.
    pub config: SearchConfig,
}

impl CatalogState {
    /// Rebuilds the index when the MCP servers' tools changed.
    fn refresh(&mut self) {
        let handles = self.mcp.handles();
        if handles == self.mcp_handles {
            return;
        }
        let mut docs = self.native_docs.clone();
        docs.extend(handles.iter().map(|h| SearchDoc {
            id: format!("mcp:{}:{}", h.server, h.tool_name),
            name: h.tool_name.clone(),
            text: format!("{} {}", h.callable_name, h.description),
        }));
        self.index = SearchIndex::new(&docs);
        self.mcp_handles = handles;
    }

    fn hit(&self, doc: usize) -> Option<SearchHit> {
        let n = self.native_docs.len();
        if doc < n { Some(SearchHit::Native(doc)) } else { self.mcp_handles.get(doc - n).cloned().map(SearchHit::Mcp) }
    }
}

impl Actor for CatalogActor {
    type Msg = CatalogMsg;
    type State = CatalogState;
    type Arguments = CatalogArgs;

    async fn pre_start(&self, _: ActorRef<CatalogMsg>, args: CatalogArgs) -> Result<CatalogState, ActorProcessingErr> {
        let native_docs: Vec<SearchDoc> = args
            .registry
            .entries()
            .iter()
            .map(|e| {
                let params = if e.tool.source() == ToolSource::Native {
                    parameter_text(e.input.schema())
                } else {
                    String::new()
                };
                SearchDoc {
                    id: e.id.clone(),
                    name: e.metadata.tool_name.clone(),
                    text: format!(
                        "{} {} {} {params}",
                        e.metadata.callable_name,
                        e.metadata.label.as_deref().unwrap_or(""),
                        e.tool.description()
                    ),
                }
            })
            .collect();
        Ok(CatalogState {
            index: SearchIndex::new(&native_docs),
            native_docs,
            registry: args.registry,
            mcp: args.mcp,
            mcp_handles: Vec::new(),
            config: args.config,
        })
    }

    async fn handle(
        &self,
        _: ActorRef<CatalogMsg>,
        msg: CatalogMsg,
        state: &mut CatalogState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            CatalogMsg::Search { query, limit, reply } => {
                state.refresh();
                let _ = reply.send(search(state, &query, limit));
            }
            #[cfg(feature = "test-hooks")]
            CatalogMsg::Crash => panic!("catalog: crash requested by a test hook"),
        }
        Ok(())
    }
}

/// Exact callable spelling first (MCP, then native), then the tool's own
/// name, then a case-insensitive match; otherwise BM25 ranking over native
/// and MCP tools together, with one total limit (GA-8.5, GA-8.7).
fn search(state: &CatalogState, query: &str, limit: Option<f64>) -> Result<Vec<(SearchHit, f64)>, SearchError> {
    let limit = match limit {
        None => state.config.default_limit,
        Some(l) if l.is_finite() && l >= 1.0 && l.fract() == 0.0 => (l as usize).min(state.config.max_limit),
        Some(_) => return Err(SearchError::InvalidLimit),
    }
    .min(state.config.max_limit);
    let spelling = query.trim();
    let lower = spelling.to_lowercase();
    let mcp = state
        .mcp_handles
        .iter()
        .find(|h| h.callable_name == spelling)
        .or_else(|| state.mcp_handles.iter().find(|h| h.callable_name.to_lowercase() == lower));
    if let Some(h) = mcp {
        return Ok(vec![(SearchHit::Mcp(h.clone()), f64::INFINITY)]);
    }
    let entries = state.registry.entries();
    let exact = entries
        .iter()
        .position(|e| e.metadata.callable_name == spelling)
        .or_else(|| entries.iter().position(|e| e.metadata.tool_name == spelling))
        .or_else(|| {
            entries.iter().position(|e| {
                e.metadata.callable_name.to_lowercase() == lower || e.metadata.tool_name.to_lowercase() == lower
            })
        });
    if let Some(index) = exact {
        return Ok(vec![(SearchHit::Native(index), f64::INFINITY)]);
    }
    Ok(state.index.search(query, limit).into_iter().filter_map(|h| Some((state.hit(h.index)?, h.score))).collect())
}

/// A handle to a runtime's catalog actor.
#[derive(Clone, Debug)]
pub struct Catalog {
    name: String,
}

impl Catalog {
    /// Spawns the catalog actor under `name` (unique per runtime), linked to
    /// `supervisor` when given.
    ///
    /// # Errors
    /// The actor could not be spawned (for example, the name is taken).
    pub async fn spawn(
        name: String,
        args: CatalogArgs,
        supervisor: Option<ActorCell>,
    ) -> Result<(Self, ActorCell), SpawnErr> {
        let (actor, _) = match supervisor {
            Some(s) => Actor::spawn_linked(Some(name.clone()), CatalogActor, args, s).await?,
            None => Actor::spawn(Some(name.clone()), CatalogActor, args).await?,
        };
        Ok((Self { name }, actor.get_cell()))
    }

    /// A handle to the catalog actor registered (now or later) as `name`.
    #[must_use]
    pub fn named(name: String) -> Self {
        Self { name }
    }

    /// The actor's registered name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Makes the actor panic, so its supervisor restarts it (supervision
    /// tests only); returns whether the request was sent.
    #[doc(hidden)]
    #[cfg(feature = "test-hooks")]
    pub fn crash_for_test(&self) -> bool {
        ActorRef::<CatalogMsg>::where_is(self.name.clone()).is_some_and(|a| a.send_message(CatalogMsg::Crash).is_ok())
    }

    /// Registry indexes of the tools matching `query`, best first.
    ///
    /// Cancel safety: dropping the future only drops the answer.
    ///
    /// # Errors
    /// An invalid `limit`, or the actor is unavailable.
    pub async fn search(&self, query: String, limit: Option<f64>) -> Result<Vec<SearchHit>, SearchError> {
        Ok(self.ranked(query, limit).await?.into_iter().map(|(h, _)| h).collect())
    }

    /// Like [`search`](Self::search), with each match's BM25 score
    /// (infinite for an exact spelling match).
    ///
    /// # Errors
    /// An invalid `limit`, or the actor is unavailable.
    pub async fn ranked(&self, query: String, limit: Option<f64>) -> Result<Vec<(SearchHit, f64)>, SearchError> {
        let actor: ActorRef<CatalogMsg> = ActorRef::where_is(self.name.clone()).ok_or(SearchError::Unavailable)?;
        match actor.call(|reply| CatalogMsg::Search { query, limit, reply }, Some(SEARCH_TIMEOUT)).await {
            Ok(CallResult::Success(result)) => result,
            _ => Err(SearchError::Unavailable),
        }
    }
}
