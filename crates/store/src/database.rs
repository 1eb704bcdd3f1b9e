//! The database, opened once: the configured backend is chosen here and
//! nowhere else, and every concept's handle — sessions, results, runs,
//! node pairings, the operators' audit trail — is made over its one connection (the sled database, or
//! the PostgreSQL pool). A runtime, an operator's command and a test open
//! a store the same way.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::audit::AuditStore;
use crate::error::StoreError;
use crate::results::{ResultsCache, ResultsLimits};
use crate::runs::{Durability, RunStore, RunStoreError, SledRuns};
use crate::sessions::SessionStore;
use crate::value::StoreLimits;

/// Where the database is: the one choice of backend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreBackend {
    /// sled on local disk (the embedded default): durable across restarts
    /// of one process at a time. `None` is a temporary database that ends
    /// with the process.
    Sled {
        /// The database directory.
        path: Option<PathBuf>,
    },
    /// PostgreSQL: many processes on many machines share sessions, results
    /// and runs. Feature `postgres`.
    #[cfg(feature = "postgres")]
    Postgres {
        /// `postgres://user@host:port/db` (or `host=… user=…`).
        url: String,
        /// Connections in this process's pool (1–1,024).
        pool_size: usize,
    },
}

impl Default for StoreBackend {
    fn default() -> Self {
        Self::Sled { path: None }
    }
}

/// How one process opens the database.
#[derive(Clone, Debug)]
pub struct OpenOptions {
    /// Names this process's handles (the sled session actor registers as
    /// `codemode-store-<name>`, the results cache as
    /// `codemode-results-<name>`).
    pub name: String,
    /// Session value bounds.
    pub limits: StoreLimits,
    /// Results cache bounds.
    pub results: ResultsLimits,
    /// How long an unused session is kept; `None` keeps the store's
    /// default.
    pub retention: Option<Option<Duration>>,
    /// How run writes reach the disk on sled (PostgreSQL commits every run
    /// write synchronously).
    pub durability: Durability,
    /// Only open a sled database that exists (an operator's command: a
    /// typo must not create one).
    pub existing_only: bool,
    /// Release the run leases found on a sled database: one process at a
    /// time uses it, so they are a dead process's (a runtime starting).
    pub release_stale_leases: bool,
}

impl OpenOptions {
    /// Defaults for handles named `name`: default bounds and retention,
    /// [`Durability::Process`], creating a database that does not exist.
    #[must_use]
    pub fn named(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            limits: StoreLimits::default(),
            results: ResultsLimits::default(),
            retention: None,
            durability: Durability::Process,
            existing_only: false,
            release_stale_leases: false,
        }
    }
}

/// The opened database: each concept's handle over one connection.
#[derive(Clone)]
pub struct Database {
    /// Session values.
    pub sessions: SessionStore,
    /// Per-reply results.
    pub results: ResultsCache,
    /// Durable runs.
    pub runs: Arc<dyn RunStore>,
    /// The operators' audit trail.
    pub audit: Arc<dyn AuditStore>,
}

/// Why a database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// `existing_only`, and there is no sled database at the path.
    #[error("no codemode store at {0}")]
    NoStore(PathBuf),
    /// The sessions or the connection failed (another process holds the
    /// sled database: [`StoreError::Locked`]).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The run store failed to start.
    #[error(transparent)]
    Runs(#[from] RunStoreError),
}

/// Opens the database `backend` names, with every concept's handle.
///
/// # Errors
/// [`OpenError`]; nothing was created when `existing_only` refused.
pub async fn open(backend: &StoreBackend, options: OpenOptions) -> Result<Database, OpenError> {
    let store_name = format!("codemode-store-{}", options.name);
    let results_name = format!("codemode-results-{}", options.name);
    let retain = |store: SessionStore| match options.retention {
        Some(retention) => store.with_retention(retention),
        None => Ok(store),
    };
    match backend {
        StoreBackend::Sled { path } => {
            if let Some(path) = path.as_deref().filter(|p| options.existing_only && !p.exists()) {
                return Err(OpenError::NoStore(path.to_path_buf()));
            }
            let sessions = SessionStore::open(path.as_deref(), options.limits, store_name).and_then(retain)?;
            let runs = SledRuns::open(&sessions).and_then(|r| r.with_durability(options.durability))?;
            if options.release_stale_leases {
                let released = runs.release_stale_leases()?;
                if released > 0 {
                    tracing::info!(released, "released the run leases of a previous process on this store");
                }
            }
            let audit =
                crate::audit::SledAudit::new(sessions.tree(crate::audit::AUDIT_TREE)?, sessions.sled()?.flush_gate());
            let results = ResultsCache::new(results_name, options.results);
            Ok(Database { sessions, results, runs: Arc::new(runs), audit: Arc::new(audit) })
        }
        #[cfg(feature = "postgres")]
        StoreBackend::Postgres { url, pool_size } => {
            let pg = crate::Pg::connect(url, *pool_size).await?;
            let sessions = retain(SessionStore::postgres(pg.clone(), options.limits, store_name))?;
            let results = ResultsCache::postgres(pg.clone(), results_name, options.results);
            let runs = crate::runs::PgRuns::start(&sessions).await?;
            let audit = Arc::new(crate::audit::PgAudit::new(&pg));
            Ok(Database { sessions, results, runs: Arc::new(runs), audit })
        }
    }
}

impl Database {
    /// The node pairings kept beside the sessions: a tree of the same sled
    /// database ([`SledPairings`](crate::SledPairings)), or on PostgreSQL
    /// its table, shared by every process on the database (`PgPairings`,
    /// which opens its `LISTEN` connection here).
    ///
    /// # Errors
    /// [`StoreError::Io`] (sled); [`StoreError::Database`] when the
    /// PostgreSQL listening connection cannot be made.
    #[cfg(feature = "nodes")]
    pub async fn pairings(&self) -> Result<Arc<dyn codemode_nodes::PairingStore>, StoreError> {
        node_pairings(&self.sessions).await
    }
}

/// The node pairings beside `sessions` (see [`Database::pairings`]).
///
/// # Errors
/// As [`Database::pairings`].
#[cfg(feature = "nodes")]
pub async fn node_pairings(sessions: &SessionStore) -> Result<Arc<dyn codemode_nodes::PairingStore>, StoreError> {
    #[cfg(feature = "postgres")]
    if let Some(pg) = sessions.pg() {
        return Ok(Arc::new(crate::pairings::PgPairings::start(pg).await?));
    }
    let tree = sessions.tree(crate::pairings::PAIRINGS_TREE)?;
    Ok(Arc::new(crate::pairings::SledPairings::new(tree, sessions.sled()?.flush_gate())))
}
