//! Opening the configured backend: the session store, the results cache
//! and, for durable runs, the run store.

use std::sync::Arc;
use std::time::Duration;

use codemode_store::runs::{Durability, RunStore};
use codemode_store::{ResultsCache, ResultsLimits, SessionStore, StoreLimits};

use super::config::StoreBackend;
use crate::error::CodeModeError;

/// The opened backend: sessions, results and (when durable) run journals.
pub(crate) struct Opened {
    pub store: SessionStore,
    pub results: ResultsCache,
    pub runs: Option<Arc<dyn RunStore>>,
}

/// Opens `backend`'s session store, results cache and run store.
///
/// # Errors
/// The database cannot be opened or reached.
pub(crate) async fn open(
    backend: StoreBackend,
    retention: Option<Option<Duration>>,
    limits: StoreLimits,
    results: ResultsLimits,
    instance: &str,
    durability: Durability,
) -> Result<Opened, CodeModeError> {
    let retain = |store: SessionStore| match retention {
        Some(retention) => store.with_retention(retention),
        None => Ok(store),
    };
    let store_name = format!("codemode-store-{instance}");
    let results_name = format!("codemode-results-{instance}");
    match backend {
        StoreBackend::Sled { path } => {
            let store = SessionStore::open(path.as_deref(), limits, store_name).and_then(retain)?;
            let runs = sled_runs(&store, durability)?;
            Ok(Opened { store, results: ResultsCache::new(results_name, results), runs })
        }
        #[cfg(feature = "postgres")]
        StoreBackend::Postgres { url, pool_size } => {
            let pg = codemode_store::Pg::connect(&url, pool_size).await?;
            let store = retain(SessionStore::postgres(pg.clone(), limits, store_name))?;
            let results = ResultsCache::postgres(pg.clone(), results_name, results);
            // PostgreSQL commits every run write synchronously, whatever
            // `durability` says (see `PgRuns`).
            let runs: Arc<dyn RunStore> = Arc::new(codemode_store::runs::PgRuns::start(&store).await?);
            Ok(Opened { store, results, runs: Some(runs) })
        }
    }
}

/// The sled run store beside the session store.
fn sled_runs(store: &SessionStore, durability: Durability) -> Result<Option<Arc<dyn RunStore>>, CodeModeError> {
    let runs = codemode_store::runs::SledRuns::open(store).and_then(|r| r.with_durability(durability))?;
    // One process at a time uses a sled store: leases found now are a dead
    // process's, and its parked runs can be resumed at once.
    let released = runs.release_stale_leases()?;
    if released > 0 {
        tracing::info!(released, "released the run leases of a previous process on this store");
    }
    Ok(Some(Arc::new(runs)))
}
