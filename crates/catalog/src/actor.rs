//! The catalog actor: owns the search index behind a typed handle.
//!
//! One `CatalogActor` per runtime holds the registry and its BM25 index and
//! answers `catalog.search` requests. It is registered under a name unique
//! to its runtime, so a supervisor can restart it and every [`Catalog`]
//! handle finds the new one.

use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::{Actor, ActorCell, ActorProcessingErr, ActorRef, RpcReplyPort, SpawnErr};

use crate::registry::Registry;
use crate::search::{SearchDoc, SearchIndex, parameter_text};

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

/// Messages of the catalog actor.
pub(crate) enum CatalogMsg {
    /// Rank tools for a query; replies with registry indexes.
    Search { query: String, limit: Option<f64>, reply: RpcReplyPort<Result<Vec<(usize, f64)>, SearchError>> },
}

/// The catalog actor.
pub(crate) struct CatalogActor;

/// The actor's state: the registry and its index.
pub(crate) struct CatalogState {
    registry: Registry,
    index: SearchIndex,
    config: SearchConfig,
}

/// What a catalog actor starts from.
pub struct CatalogArgs {
    /// The tools.
    pub registry: Registry,
    /// Search limits.
    pub config: SearchConfig,
}

impl Actor for CatalogActor {
    type Msg = CatalogMsg;
    type State = CatalogState;
    type Arguments = CatalogArgs;

    async fn pre_start(&self, _: ActorRef<CatalogMsg>, args: CatalogArgs) -> Result<CatalogState, ActorProcessingErr> {
        let docs: Vec<SearchDoc> = args
            .registry
            .entries()
            .iter()
            .map(|e| {
                let params =
                    if e.metadata.source == "openclaw" { parameter_text(e.input.schema()) } else { String::new() };
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
        Ok(CatalogState { index: SearchIndex::new(&docs), registry: args.registry, config: args.config })
    }

    async fn handle(
        &self,
        _: ActorRef<CatalogMsg>,
        msg: CatalogMsg,
        state: &mut CatalogState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            CatalogMsg::Search { query, limit, reply } => {
                let _ = reply.send(search(state, &query, limit));
            }
        }
        Ok(())
    }
}

/// Exact callable spelling first, then the tool's own name, then a
/// case-insensitive match; otherwise BM25 ranking (GA-8.7).
fn search(state: &CatalogState, query: &str, limit: Option<f64>) -> Result<Vec<(usize, f64)>, SearchError> {
    let limit = match limit {
        None => state.config.default_limit,
        Some(l) if l.is_finite() && l >= 1.0 && l.fract() == 0.0 => (l as usize).min(state.config.max_limit),
        Some(_) => return Err(SearchError::InvalidLimit),
    }
    .min(state.config.max_limit);
    let spelling = query.trim();
    let entries = state.registry.entries();
    let exact = entries
        .iter()
        .position(|e| e.metadata.callable_name == spelling)
        .or_else(|| entries.iter().position(|e| e.metadata.tool_name == spelling))
        .or_else(|| {
            let lower = spelling.to_lowercase();
            entries.iter().position(|e| {
                e.metadata.callable_name.to_lowercase() == lower || e.metadata.tool_name.to_lowercase() == lower
            })
        });
    if let Some(index) = exact {
        return Ok(vec![(index, f64::INFINITY)]);
    }
    Ok(state.index.search(query, limit).into_iter().map(|h| (h.index, h.score)).collect())
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

    /// Registry indexes of the tools matching `query`, best first.
    ///
    /// Cancel safety: dropping the future only drops the answer.
    ///
    /// # Errors
    /// An invalid `limit`, or the actor is unavailable.
    pub async fn search(&self, query: String, limit: Option<f64>) -> Result<Vec<usize>, SearchError> {
        Ok(self.ranked(query, limit).await?.into_iter().map(|(i, _)| i).collect())
    }

    /// Like [`search`](Self::search), with each match's BM25 score
    /// (infinite for an exact spelling match).
    ///
    /// # Errors
    /// An invalid `limit`, or the actor is unavailable.
    pub async fn ranked(&self, query: String, limit: Option<f64>) -> Result<Vec<(usize, f64)>, SearchError> {
        let actor: ActorRef<CatalogMsg> = ActorRef::where_is(self.name.clone()).ok_or(SearchError::Unavailable)?;
        match actor.call(|reply| CatalogMsg::Search { query, limit, reply }, Some(SEARCH_TIMEOUT)).await {
            Ok(CallResult::Success(result)) => result,
            _ => Err(SearchError::Unavailable),
        }
    }
}
