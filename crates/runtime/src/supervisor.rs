//! The root supervisor: the one actor that owns every other long-lived
//! actor of a runtime, restarts a crashed one with back-off, and stops the
//! tree in order.
//!
//! ```text
//! RootSupervisor
//!  ├─ CellExecutor          admission; restarted
//!  ├─ CatalogActor          restarted under its registered name
//!  ├─ SessionStoreActor     restarted on the same open sled database
//!  ├─ ResultsActor          restarted empty (saved results are lost)
//!  ├─ McpServerActor × M    restarted; reconnects into the same view
//!  ├─ NodeRegistryActor     restarted; reloads the pairings
//!  └─ CellActor × N         never restarted: a crashed cell fails alone
//! ```
//!
//! The restart policy lives in [`RestartBackoff`], a plain value unit-tested
//! without actors; see its documentation for the numbers.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_catalog::{Catalog, CatalogArgs};
use ractor::{Actor, ActorCell, ActorId, ActorProcessingErr, ActorRef, SupervisionEvent};
use tokio::sync::watch;

use crate::executor::{CellExecutor, ExecutorConfig, ExecutorMsg};
use crate::telemetry::ActorKind;

/// The first restart waits this long; each further one in a streak twice
/// as long as the one before.
const FIRST_DELAY: Duration = Duration::from_millis(10);
/// The longest wait before a restart.
const MAX_DELAY: Duration = Duration::from_secs(5);
/// A child that ran this long without crashing starts a new streak: its
/// next restart waits [`FIRST_DELAY`] again.
const QUIET_PERIOD: Duration = Duration::from_secs(30);
/// More crashes than this within [`WINDOW`] and the child is given up.
const MAX_RESTARTS: usize = 10;
/// The window [`MAX_RESTARTS`] counts crashes in.
const WINDOW: Duration = Duration::from_secs(60);
/// How long each stage of a shutdown waits for its actors to stop.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a parked run may take to hand its lease over at shutdown.
const RELEASE_TIMEOUT: Duration = Duration::from_secs(2);

/// One child's crash history: when to restart it, or that it is given up.
///
/// Back-off is exponential (10 ms, 20 ms, 40 ms … capped at 5 s) within a
/// streak; a child that stayed up for 30 s starts a new streak. A child
/// that crashed more than 10 times within 60 s is given up: it is not
/// restarted again, which is logged at `error` and counted in
/// `codemode_actor_give_ups_total` — requests to it then fail with the
/// handle's "unavailable" error. An executor given up stops the runtime,
/// since no cell can start without it.
#[derive(Debug, Default)]
pub(crate) struct RestartBackoff {
    streak: u32,
    last: Option<Instant>,
    recent: VecDeque<Instant>,
}

impl RestartBackoff {
    /// Records a crash at `now`: the delay before the restart, or `None`
    /// when the child is given up.
    pub(crate) fn on_failure(&mut self, now: Instant) -> Option<Duration> {
        if self.last.is_some_and(|last| now.duration_since(last) >= QUIET_PERIOD) {
            self.streak = 0;
        }
        self.last = Some(now);
        self.recent.push_back(now);
        while self.recent.front().is_some_and(|t| now.duration_since(*t) > WINDOW) {
            self.recent.pop_front();
        }
        if self.recent.len() > MAX_RESTARTS {
            return None;
        }
        let delay = FIRST_DELAY.saturating_mul(1 << self.streak.min(16)).min(MAX_DELAY);
        self.streak += 1;
        Some(delay)
    }
}

/// A supervised child: which one to start again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Child {
    Executor,
    Catalog,
    Store,
    Results,
    /// The MCP server at this index of the hub.
    Mcp(usize),
    Nodes,
}

impl Child {
    fn kind(self) -> ActorKind {
        match self {
            Self::Executor => ActorKind::Executor,
            Self::Catalog => ActorKind::Catalog,
            Self::Store => ActorKind::Store,
            Self::Results => ActorKind::Results,
            Self::Mcp(_) => ActorKind::McpServer,
            Self::Nodes => ActorKind::NodeRegistry,
        }
    }
}

/// What the root starts from.
pub(crate) struct RootArgs {
    pub config: Arc<ExecutorConfig>,
    /// Where the current executor is published for the runtime's handle.
    pub executor: watch::Sender<Option<ActorRef<ExecutorMsg>>>,
}

pub(crate) enum RootMsg {
    /// Start this child again (sent after its back-off).
    Restart(Child),
}

pub(crate) struct RootSupervisor;

pub(crate) struct RootState {
    args: RootArgs,
    /// The running children.
    children: HashMap<ActorId, Child>,
    backoff: HashMap<Child, RestartBackoff>,
}

impl Actor for RootSupervisor {
    type Msg = RootMsg;
    type State = RootState;
    type Arguments = RootArgs;

    async fn pre_start(&self, myself: ActorRef<RootMsg>, args: RootArgs) -> Result<RootState, ActorProcessingErr> {
        let root = myself.get_cell();
        let mut state = RootState { args, children: HashMap::new(), backoff: HashMap::new() };
        for child in [Child::Executor, Child::Catalog, Child::Store, Child::Results] {
            let config = &state.args.config;
            // On PostgreSQL the store and results have no actor to
            // supervise (every request is a statement); the store still
            // starts its retention sweeper.
            if child == Child::Store && !config.services.store.has_actor() {
                config.services.store.start_actor(None).await?;
                continue;
            }
            if child == Child::Results && !config.services.results.has_actor() {
                continue;
            }
            let id = start(child, &root, &state.args).await?;
            state.children.insert(id, child);
        }
        // MCP connections and the node registry were started before the
        // root (the registry must listen first); the root adopts them.
        for (index, cell) in state.args.config.services.mcp.actors().into_iter().enumerate() {
            cell.link(root.clone());
            state.children.insert(cell.get_id(), Child::Mcp(index));
        }
        if let Some(nodes) = &state.args.config.services.nodes {
            let cell = nodes.actor_cell();
            cell.link(root.clone());
            state.children.insert(cell.get_id(), Child::Nodes);
        }
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<RootMsg>,
        msg: RootMsg,
        state: &mut RootState,
    ) -> Result<(), ActorProcessingErr> {
        let RootMsg::Restart(child) = msg;
        match start(child, &myself.get_cell(), &state.args).await {
            Ok(id) => {
                state.children.insert(id, child);
                state.args.config.services.metrics.actor_restarted(child.kind());
                tracing::info!(actor = child.kind().label(), "supervised actor restarted");
            }
            Err(e) => state.failed(&myself, child, &e.to_string()),
        }
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<RootMsg>,
        event: SupervisionEvent,
        state: &mut RootState,
    ) -> Result<(), ActorProcessingErr> {
        // The default would stop the root when any child ends. A cell ends
        // on its own (it reported its end already); a service stopped
        // through its handle is not restarted.
        match event {
            SupervisionEvent::ActorFailed(cell, err) => match state.children.remove(&cell.get_id()) {
                Some(child) => state.failed(&myself, child, &err.to_string()),
                None => {
                    state.args.config.services.runs.crashed(cell.get_id());
                }
            },
            SupervisionEvent::ActorTerminated(cell, _, _) => {
                state.children.remove(&cell.get_id());
            }
            _ => {}
        }
        Ok(())
    }

    async fn post_stop(&self, _: ActorRef<RootMsg>, state: &mut RootState) -> Result<(), ActorProcessingErr> {
        state.stop_in_order().await;
        Ok(())
    }
}

impl RootState {
    /// A child crashed (or failed to restart): schedule its restart, or
    /// give it up.
    fn failed(&mut self, myself: &ActorRef<RootMsg>, child: Child, why: &str) {
        let kind = child.kind();
        if child == Child::Executor {
            // Callers wait for the next executor rather than message a dead one.
            self.args.executor.send_replace(None);
        }
        match self.backoff.entry(child).or_default().on_failure(Instant::now()) {
            Some(delay) => {
                tracing::warn!(
                    actor = kind.label(),
                    delay_ms = delay.as_millis() as u64,
                    "supervised actor crashed: {why}"
                );
                myself.send_after(delay, move || RootMsg::Restart(child));
            }
            None => {
                tracing::error!(actor = kind.label(), "supervised actor crashed too often; not restarted again: {why}");
                self.args.config.services.metrics.actor_given_up(kind);
                if child == Child::Executor {
                    myself.stop(Some("the executor crashed too often".into()));
                }
            }
        }
    }

    /// Stops the tree: cells, then the executor, then the services, the
    /// MCP servers and the node registry; the store is flushed last.
    async fn stop_in_order(&mut self) {
        let config = Arc::clone(&self.args.config);
        // Parked runs holding a lease hand it over first (bounded): another
        // process can resume them at once.
        let mut releases = tokio::task::JoinSet::new();
        for run in config.services.runs.handles() {
            let cell: ActorRef<crate::cell::CellMsg> = run.actor.into();
            releases.spawn(async move {
                let release =
                    |port| crate::cell::CellMsg::Durable(crate::cell::journaling::DurableMsg::ReleaseForShutdown(port));
                let _ = cell.call(release, Some(RELEASE_TIMEOUT)).await;
            });
        }
        releases.join_all().await;
        let mut cells = tokio::task::JoinSet::new();
        for run in config.services.runs.handles() {
            (run.abort)();
            cells.spawn(async move { run.actor.stop_and_wait(Some("disposed".into()), Some(STOP_TIMEOUT)).await });
        }
        cells.join_all().await;
        // Cells that ended just before (their runs already left the index)
        // may still be dropping their state: their spans end then.
        config.services.runs.all_cells_gone(STOP_TIMEOUT).await;
        let executor = self.args.executor.send_replace(None);
        if let Some(executor) = executor {
            let _ = executor.stop_and_wait(None, Some(STOP_TIMEOUT)).await;
        }
        for name in [config.services.catalog.name(), config.services.results.name(), config.services.store.name()] {
            if let Some(service) = ractor::registry::where_is(name) {
                let _ = service.stop_and_wait(None, Some(STOP_TIMEOUT)).await;
            }
        }
        for server in config.services.mcp.actors() {
            let _ = server.stop_and_wait(None, Some(STOP_TIMEOUT)).await;
        }
        if let Some(nodes) = &config.services.nodes {
            let registry = nodes.actor_cell();
            nodes.stop();
            let _ = registry.wait(Some(STOP_TIMEOUT)).await;
        }
        config.engines.stop();
        if let Err(e) = config.services.store.flush().await {
            tracing::warn!("the session store could not be flushed at shutdown: {e}");
        }
    }
}

/// Why a supervised child could not be (re)started.
#[derive(Debug, thiserror::Error)]
enum ChildError {
    /// Its actor could not be spawned.
    #[error("could not spawn its actor: {0}")]
    Spawn(#[from] ractor::SpawnErr),
    /// The service behind it failed to start.
    #[error("{0}")]
    Service(Box<dyn std::error::Error + Send + Sync>),
    /// It started but did not register under its name.
    #[error("{0} did not register")]
    NotRegistered(String),
    /// A node registry restart was asked with nodes off.
    #[error("nodes are not enabled")]
    NoNodes,
}

impl ChildError {
    fn service(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::Service(e.into())
    }
}

/// Starts `child` linked to `root`; its actor id.
async fn start(child: Child, root: &ActorCell, args: &RootArgs) -> Result<ActorId, ChildError> {
    let config = &args.config;
    match child {
        Child::Executor => {
            let executor_args = (Arc::clone(config), root.clone());
            let (actor, _) = Actor::spawn_linked(None, CellExecutor, executor_args, root.clone()).await?;
            let id = actor.get_id();
            args.executor.send_replace(Some(actor));
            Ok(id)
        }
        Child::Catalog => {
            let catalog_args = CatalogArgs {
                registry: config.services.registry.clone(),
                mcp: Arc::new(config.services.mcp.clone()),
                config: config.search,
            };
            let (_, cell) =
                Catalog::spawn(config.services.catalog.name().to_owned(), catalog_args, Some(root.clone())).await?;
            Ok(cell.get_id())
        }
        Child::Store => {
            config.services.store.start_actor(Some(root.clone())).await.map_err(ChildError::service)?;
            registered(config.services.store.name())
        }
        Child::Results => {
            config.services.results.start_actor(root.clone()).await.map_err(ChildError::service)?;
            registered(config.services.results.name())
        }
        Child::Mcp(index) => config
            .services
            .mcp
            .restart_server(index, root.clone())
            .await
            .map(|c| c.get_id())
            .map_err(ChildError::service),
        Child::Nodes => match &config.services.nodes {
            Some(nodes) => nodes.restart(root.clone()).await.map(|c| c.get_id()).map_err(ChildError::service),
            None => Err(ChildError::NoNodes),
        },
    }
}

/// The id of the actor registered as `name`.
fn registered(name: &str) -> Result<ActorId, ChildError> {
    ractor::registry::where_is(name).map(|c| c.get_id()).ok_or_else(|| ChildError::NotRegistered(name.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restarts_back_off_exponentially_up_to_a_cap() {
        let mut b = RestartBackoff::default();
        let t = Instant::now();
        let delays: Vec<_> = (0..4).map(|i| b.on_failure(t + Duration::from_millis(i)).unwrap()).collect();
        assert_eq!(delays, [10, 20, 40, 80].map(Duration::from_millis));
        let mut capped = RestartBackoff { streak: 12, ..RestartBackoff::default() };
        assert_eq!(capped.on_failure(t), Some(MAX_DELAY));
    }

    #[test]
    fn a_quiet_period_starts_a_new_streak() {
        let mut b = RestartBackoff::default();
        let t = Instant::now();
        b.on_failure(t);
        b.on_failure(t);
        assert_eq!(b.on_failure(t + QUIET_PERIOD), Some(FIRST_DELAY));
    }

    #[test]
    fn too_many_crashes_in_the_window_give_the_child_up() {
        let mut b = RestartBackoff::default();
        let t = Instant::now();
        for _ in 0..MAX_RESTARTS {
            assert!(b.on_failure(t).is_some());
        }
        assert_eq!(b.on_failure(t), None);
        // Past the window the old crashes no longer count.
        assert!(b.on_failure(t + WINDOW + QUIET_PERIOD).is_some());
    }
}
