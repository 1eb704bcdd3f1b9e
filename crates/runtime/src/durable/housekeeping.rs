//! Run housekeeping: parked runs nobody resumed expire, and ended run
//! records are deleted after a week.

use std::sync::Arc;
use std::time::Duration;

use codemode_store::runs::RunStore;

/// How long an ended run's record is kept (for `codemode runs show` and a
/// late `wait`'s "it completed" answer): a week.
const ENDED_RUNS_KEPT: Duration = Duration::from_secs(7 * 86_400);

/// How often ended run records past [`ENDED_RUNS_KEPT`] are deleted.
const PRUNE_EVERY: Duration = Duration::from_secs(3_600);

/// Housekeeping of the run store, now and every hour, until the returned
/// task is aborted (when the runtime is dropped): parked runs idle past
/// `parked_ttl` that nobody resumed end as `expired` (a process that parked
/// them may be long gone), and ended run records older than
/// [`ENDED_RUNS_KEPT`] are deleted.
pub(crate) fn start_pruning(
    store: Arc<dyn RunStore>,
    owner: Arc<str>,
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
async fn expire_idle(store: &dyn RunStore, owner: &str, ttl: Duration, lease: Duration) {
    use codemode_store::runs::{Claim, RunFilter, RunStatus, now_ms};
    let filter = RunFilter { status: Some(RunStatus::Parked), session: None, limit: None };
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
                store.end(id, owner, codemode_bridge::RunEnd::Expired, Vec::new()).await
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
        assert_eq!(
            runs.get("run_idle").await.unwrap().unwrap().status,
            RunStatus::Ended(codemode_bridge::RunEnd::Expired)
        );
        let held = runs.get("run_held").await.unwrap().unwrap();
        assert_eq!((held.status, held.owner.as_deref()), (RunStatus::Parked, Some("gone")));
    }
}
