//! Durable runs (issue 17): where sessions, results and run journals live,
//! and how runs are journaled, handed off and resumed by replay.
//!
//! A parked cell cannot be saved as memory (QuickJS has no heap
//! snapshots), so a run is made durable by its *journal*: everything
//! non-deterministic the cell observed, in order. Any process can resume
//! the run by running the same code in a fresh context and answering its
//! host requests from the journal (see `cell::journal`).

use std::time::Duration;

/// Which backend keeps sessions, results and runs (`[store] backend`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreBackend {
    /// sled on local disk (the embedded default): durable across restarts
    /// of one process at a time. `None` is a temporary database that ends
    /// with the process.
    Sled {
        /// The database directory.
        path: Option<std::path::PathBuf>,
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

/// When a run's journal is written to the backend (`[runs] journal`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JournalMode {
    /// Before a `waiting` result is returned (the default): a crash after
    /// the client saw `waiting` never loses the run; a crash while a window
    /// is open loses what the cell did since its last park.
    #[default]
    Park,
    /// Also after every settlement a window delivers: a crash mid-window
    /// resumes from the last settlement, at the cost of a write per call.
    EveryCall,
    /// No journal: parked runs live only in this process's memory (as
    /// before durable runs), and nothing is recorded per call.
    Off,
}

/// How runs are journaled, leased and evicted (`[runs]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunsConfig {
    /// When journals are written.
    pub journal: JournalMode,
    /// How long a live owner's lease lasts; renewed at half of it. A crashed
    /// owner's runs can be claimed by another process after this.
    pub lease: Duration,
    /// How long after a park the owner keeps its lease before releasing it
    /// (it keeps the cell in memory as a cache either way and re-checks the
    /// lease before resuming from it). Default 0: a quiescent parked run is
    /// released with the park's own journal write, so a `wait` on any
    /// process resumes it at once.
    pub handoff_after: Duration,
    /// Idle parked cells are evicted from memory to their journal after
    /// this long and resumed by replay on `wait`; `None` never evicts.
    pub evict_after: Option<Duration>,
    /// What a journal write survives once a `waiting` result is returned
    /// (`[runs] durability`): `Process` (the default) a crash or `kill -9`
    /// of this process and restarts — the journal is out of the process,
    /// in the kernel or on the PostgreSQL server — but not a power loss in
    /// the moments before the background flush; `Machine` also a power loss
    /// (each park waits for the disk, grouped with concurrent parks).
    pub durability: codemode_store::runs::Durability,
}

impl Default for RunsConfig {
    fn default() -> Self {
        Self {
            journal: JournalMode::Park,
            lease: Duration::from_secs(30),
            handoff_after: Duration::ZERO,
            evict_after: Some(Duration::from_secs(60)),
            durability: codemode_store::runs::Durability::Process,
        }
    }
}

/// The opened backend: sessions, results and (when durable) run journals.
pub(crate) struct Opened {
    pub store: codemode_store::SessionStore,
    pub results: codemode_store::ResultsCache,
    pub runs: Option<std::sync::Arc<dyn codemode_store::runs::RunStore>>,
}

/// Opens `backend`'s session store, results cache and run store.
///
/// # Errors
/// The database cannot be opened or reached, as text for `CodeModeError::Start`.
pub(crate) async fn open(
    backend: StoreBackend,
    retention: Option<Option<Duration>>,
    limits: codemode_store::StoreLimits,
    results: codemode_store::ResultsLimits,
    instance: &str,
    durability: codemode_store::runs::Durability,
) -> Result<Opened, String> {
    let retain = |store: codemode_store::SessionStore| match retention {
        Some(retention) => store.with_retention(retention),
        None => Ok(store),
    };
    let store_name = format!("codemode-store-{instance}");
    let results_name = format!("codemode-results-{instance}");
    match backend {
        StoreBackend::Sled { path } => {
            let store = codemode_store::SessionStore::open(path.as_deref(), limits, store_name)
                .and_then(retain)
                .map_err(|e| e.to_string())?;
            let runs = sled_runs(&store, durability)?;
            Ok(Opened { store, results: codemode_store::ResultsCache::new(results_name, results), runs })
        }
        #[cfg(feature = "postgres")]
        StoreBackend::Postgres { url, pool_size } => {
            let pg = codemode_store::Pg::connect(&url, pool_size).await.map_err(|e| e.to_string())?;
            let store = retain(codemode_store::SessionStore::postgres(pg.clone(), limits, store_name))
                .map_err(|e| e.to_string())?;
            let results = codemode_store::ResultsCache::postgres(pg.clone(), results_name, results);
            let runs: std::sync::Arc<dyn codemode_store::runs::RunStore> = std::sync::Arc::new(
                codemode_store::runs::PgRuns::start(&store)
                    .await
                    .map_err(|e| e.to_string())?
                    .with_durability(durability),
            );
            Ok(Opened { store, results, runs: Some(runs) })
        }
    }
}

/// The sled run store beside the session store.
fn sled_runs(
    store: &codemode_store::SessionStore,
    durability: codemode_store::runs::Durability,
) -> Result<Option<std::sync::Arc<dyn codemode_store::runs::RunStore>>, String> {
    let runs = codemode_store::runs::SledRuns::open(store)
        .and_then(|r| r.with_durability(durability))
        .map_err(|e| e.to_string())?;
    // One process at a time uses a sled store: leases found now are a dead
    // process's, and its parked runs can be resumed at once.
    let released = runs.release_stale_leases().map_err(|e| e.to_string())?;
    if released > 0 {
        tracing::info!(released, "released the run leases of a previous process on this store");
    }
    Ok(Some(std::sync::Arc::new(runs)))
}

/// How long an ended run's record is kept (for `codemode runs show` and a
/// late `wait`'s "it completed" answer): a week.
pub(crate) const ENDED_RUNS_KEPT: Duration = Duration::from_secs(7 * 86_400);

/// How often ended run records past [`ENDED_RUNS_KEPT`] are deleted.
const PRUNE_EVERY: Duration = Duration::from_secs(3_600);

/// Housekeeping of the run store, now and every hour, until the returned
/// task is aborted (when the runtime is dropped): parked runs idle past
/// `parked_ttl` that nobody resumed end as `expired` (a process that parked
/// them may be long gone), and ended run records older than
/// [`ENDED_RUNS_KEPT`] are deleted.
pub(crate) fn start_pruning(
    store: std::sync::Arc<dyn codemode_store::runs::RunStore>,
    owner: std::sync::Arc<str>,
    parked_ttl: Duration,
    lease: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(PRUNE_EVERY);
        loop {
            every.tick().await;
            expire_idle(store.as_ref(), &owner, parked_ttl, lease).await;
            let kept = u64::try_from(ENDED_RUNS_KEPT.as_millis()).unwrap_or(u64::MAX);
            let before = codemode_store::runs::now_ms().saturating_sub(kept);
            match store.prune(before).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(pruned = n, "deleted ended run records older than a week"),
                Err(e) => tracing::warn!(error = %e, "could not delete old ended run records; retrying in an hour"),
            }
        }
    })
}

/// Ends as `expired` the parked runs (at most a listing's worth per round)
/// idle past `ttl` whose lease is free.
async fn expire_idle(store: &dyn codemode_store::runs::RunStore, owner: &str, ttl: Duration, lease: Duration) {
    use codemode_store::runs::{Claim, RunFilter, now_ms};
    let filter = RunFilter { status: Some("parked".into()), session: None, limit: None };
    let parked = match store.list(filter).await {
        Ok(parked) => parked,
        Err(e) => return tracing::warn!(error = %e, "could not list parked runs to expire; retrying in an hour"),
    };
    let ttl = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
    let now = now_ms();
    for run in parked.into_iter().filter(|r| now.saturating_sub(r.updated_ms) > ttl) {
        let id = &run.meta.run_id;
        if let Ok(Claim::Claimed(record)) = store.claim(id, owner, lease).await {
            // Claimed as it was listed: nobody resumed it in between.
            let still_idle = now_ms().saturating_sub(record.updated_ms) > ttl;
            let done = if still_idle {
                store.end(id, owner, "expired", Vec::new()).await
            } else {
                store.release(id, owner).await
            };
            if let Err(e) = done {
                tracing::warn!(run_id = %id, error = %e, "could not expire an idle parked run");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use codemode_store::runs::{RunMeta, RunStatus, RunStore, SledRuns, now_ms};
    use codemode_store::{SessionStore, StoreLimits};

    fn meta(id: &str) -> RunMeta {
        RunMeta {
            run_id: id.into(),
            session: "s".into(),
            reply: "r".into(),
            principal: None,
            title: None,
            created_ms: now_ms(),
        }
    }

    #[tokio::test]
    async fn idle_parked_runs_nobody_holds_expire_and_held_or_fresh_ones_do_not() {
        let store = SessionStore::open(None, StoreLimits::default(), "expire-idle".into()).unwrap();
        let runs = SledRuns::open(&store).unwrap();
        let lease = Duration::from_secs(30);
        for id in ["run_idle", "run_held"] {
            runs.create(&meta(id), "gone", lease).await.unwrap();
        }
        // Released at its park (as a quiescent park does); the other keeps its lease.
        runs.save("run_idle", "gone", RunStatus::Parked, b"j".to_vec(), None).await.unwrap();
        runs.save("run_held", "gone", RunStatus::Parked, b"j".to_vec(), Some(lease)).await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        // A long TTL expires nothing.
        super::expire_idle(&runs, "me", Duration::from_secs(3600), lease).await;
        assert_eq!(runs.get("run_idle").await.unwrap().unwrap().status, RunStatus::Parked);
        super::expire_idle(&runs, "me", Duration::ZERO, lease).await;
        assert_eq!(runs.get("run_idle").await.unwrap().unwrap().status, RunStatus::Ended("expired".into()));
        let held = runs.get("run_held").await.unwrap().unwrap();
        assert_eq!((held.status, held.owner.as_deref()), (RunStatus::Parked, Some("gone")));
    }
}
