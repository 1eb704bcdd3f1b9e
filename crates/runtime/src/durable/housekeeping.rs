//! Run housekeeping: live runs nobody holds end once nothing can advance
//! them (orphans at once, idle ones past their time-to-live), and ended
//! run records are deleted after a week, or past the newest 10,000.

use std::sync::Arc;
use std::time::Duration;

use codemode_protocol::RunEnd;
use codemode_store::runs::{Claim, RunFilter, RunStatus, RunStore, RunSummary, now_ms};

/// How long an ended run's record is kept (for `codemode runs show` and a
/// late `wait`'s "it completed" answer): a week.
const ENDED_RUNS_KEPT: Duration = Duration::from_secs(7 * 86_400);

/// At most this many ended run records are kept (the newest by last
/// change), whatever their age: what ended runs leave in the store is
/// bounded by count too.
pub(crate) const ENDED_RUNS_KEPT_MAX: usize = 10_000;

/// How often live runs nobody holds are looked at, and ended run records
/// past [`ENDED_RUNS_KEPT`] or [`ENDED_RUNS_KEPT_MAX`] deleted: an orphan is
/// ended within about this long of its owner's lease running out.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Housekeeping of the run store, now and every [`SWEEP_EVERY`], until the
/// returned task is aborted (when the runtime is dropped): live runs nobody
/// holds end when nothing can advance them ([`sweep`]), and ended run
/// records older than [`ENDED_RUNS_KEPT`] or past the newest
/// [`ENDED_RUNS_KEPT_MAX`] are deleted.
pub(crate) fn start_pruning(
    store: Arc<dyn RunStore>,
    owner: Arc<str>,
    parked_ttl: Duration,
    lease: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        loop {
            every.tick().await;
            sweep(store.as_ref(), &owner, parked_ttl, lease).await;
            let kept = u64::try_from(ENDED_RUNS_KEPT.as_millis()).unwrap_or(u64::MAX);
            let before = now_ms().saturating_sub(kept);
            match store.prune(before, ENDED_RUNS_KEPT_MAX).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(pruned = n, "deleted ended run records past a week or the newest 10,000"),
                Err(e) => tracing::warn!(error = %e, "could not delete old ended run records; retrying in a minute"),
            }
        }
    })
}

/// What housekeeping does with a live run nobody holds.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// Idle past its time-to-live: it ends `expired`.
    Expire,
    /// `running`, its owner's lease run out before its first journal write
    /// landed (its exec's answer was lost with its process): nothing can
    /// resume it, so it ends `unrecoverable` now rather than at its TTL.
    Orphan,
    /// Left for a `wait` to resume.
    Keep,
}

fn verdict(run: &RunSummary, ttl_ms: u64, now: u64) -> Verdict {
    let free = run.owner.is_none() || run.lease_until_ms <= now;
    if !free {
        Verdict::Keep
    } else if now.saturating_sub(run.updated_ms) > ttl_ms {
        Verdict::Expire
    } else if run.status == RunStatus::Running && run.journal_bytes == 0 {
        Verdict::Orphan
    } else {
        Verdict::Keep
    }
}

/// The owner id housekeeping claims runs under: its own, not the
/// process's. A claim by a run's current owner succeeds (that is how a
/// holder renews), so under the process's id a sweep that listed a run
/// just before a `wait` of this process claimed it would claim it too,
/// and the two would each act on a run they both believed they held.
fn sweeper(owner: &str) -> String {
    format!("{owner}/housekeeping")
}

/// Ends the live runs (at most a listing's worth of each status per round)
/// whose lease is free and that nothing can advance: idle past `ttl`
/// (`expired`), or orphans (`unrecoverable`). Each is claimed first and
/// judged again as claimed, so a run resumed in between is left alone.
async fn sweep(store: &dyn RunStore, owner: &str, ttl: Duration, lease: Duration) {
    let ttl = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
    let sweeper = sweeper(owner);
    for status in [RunStatus::Running, RunStatus::Parked] {
        let filter = RunFilter { status: Some(status), ..RunFilter::default() };
        let live = match store.list(filter).await {
            Ok(live) => live,
            Err(e) => return tracing::warn!(error = %e, "could not list live runs to sweep; retrying in a minute"),
        };
        let now = now_ms();
        for run in live.into_iter().filter(|r| verdict(r, ttl, now) != Verdict::Keep) {
            sweep_one(store, &run, &sweeper, ttl, lease).await;
        }
    }
}

/// Claims `run` (as listed, perhaps a moment ago) under `sweeper` and, if
/// the claim is granted, ends it, or releases it when, as claimed, it is
/// one to keep. A run someone holds now is left alone.
async fn sweep_one(store: &dyn RunStore, run: &RunSummary, sweeper: &str, ttl_ms: u64, lease: Duration) {
    let id = &run.meta.run_id;
    let Ok(Claim::Claimed(record)) = store.claim(id, sweeper, lease).await else { return };
    let claimed = RunSummary {
        journal_bytes: record.journal.len() as u64,
        owner: None,
        updated_ms: record.updated_ms,
        status: record.status.clone(),
        ..run.clone()
    };
    let done = match verdict(&claimed, ttl_ms, now_ms()) {
        Verdict::Expire => store.end(id, sweeper, RunEnd::Expired, Vec::new()).await,
        Verdict::Orphan => {
            tracing::warn!(run_id = %id, "ending an orphaned run: its process stopped before its first journal write");
            store.end(id, sweeper, RunEnd::Unrecoverable, Vec::new()).await
        }
        Verdict::Keep => store.release(id, sweeper).await,
    };
    if let Err(e) = done {
        tracing::warn!(run_id = %id, error = %e, "could not end a live run nobody holds");
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

    /// GA-1.3: a run whose process stopped before its first journal write
    /// landed (its exec's answer lost with it) is ended `unrecoverable` as
    /// soon as its owner's lease runs out; one still held, or with a
    /// journal a wait can resume, is left alone.
    #[tokio::test]
    async fn an_orphaned_run_ends_unrecoverable_once_its_owners_lease_ran_out() {
        let store = SessionStore::open(None, StoreLimits::default(), "orphans".into()).unwrap();
        let runs = SledRuns::open(&store).unwrap();
        let (short, long) = (Duration::from_millis(1), Duration::from_secs(30));
        runs.create(&meta("run_orphan"), "gone", short).await.unwrap();
        runs.create(&meta("run_held"), "alive", long).await.unwrap();
        runs.create(&meta("run_resumable"), "gone", long).await.unwrap();
        runs.save("run_resumable", "gone", RunStatus::Running, b"j".to_vec(), Some(short)).await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        super::sweep(&runs, "me", Duration::from_secs(3600), long).await;
        let status = async |id: &str| runs.get(id).await.unwrap().unwrap().status;
        assert_eq!(status("run_orphan").await, RunStatus::Ended(codemode_protocol::RunEnd::Unrecoverable));
        assert_eq!(status("run_held").await, RunStatus::Running, "its owner still holds it");
        assert_eq!(status("run_resumable").await, RunStatus::Running, "a wait resumes it");
        let kept = runs.get("run_resumable").await.unwrap().unwrap();
        assert!(kept.owner.is_none() || kept.owner.as_deref() == Some("gone"), "not kept claimed: {kept:?}");
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
        super::sweep(&runs, "me", Duration::from_secs(3600), lease).await;
        assert_eq!(runs.get("run_idle").await.unwrap().unwrap().status, RunStatus::Parked);
        super::sweep(&runs, "me", Duration::ZERO, lease).await;
        assert_eq!(
            runs.get("run_idle").await.unwrap().unwrap().status,
            RunStatus::Ended(codemode_protocol::RunEnd::Expired)
        );
        let held = runs.get("run_held").await.unwrap().unwrap();
        assert_eq!((held.status, held.owner.as_deref()), (RunStatus::Parked, Some("gone")));
    }

    /// GA-1.3: a sweep that listed an orphan a moment before a `wait` of
    /// the same process claimed it leaves the wait's claim alone: it
    /// claims under an owner id of its own, which the wait's lease holds
    /// off, instead of the process's, which a claim would have renewed.
    #[tokio::test]
    async fn a_sweep_never_acts_on_a_run_its_own_process_claimed_after_the_listing() {
        let store = SessionStore::open(None, StoreLimits::default(), "sweep-race".into()).unwrap();
        let runs = SledRuns::open(&store).unwrap();
        let lease = Duration::from_secs(30);
        runs.create(&meta("run_stranded"), "gone", Duration::from_millis(1)).await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let filter = codemode_store::runs::RunFilter { status: Some(RunStatus::Running), ..Default::default() };
        let listed = runs.list(filter).await.unwrap();
        let stale = listed.iter().find(|r| r.meta.run_id == "run_stranded").expect("listed");
        // This process's wait claims it, between the listing and the claim.
        let claim = runs.claim("run_stranded", "me", lease).await.unwrap();
        assert!(matches!(claim, codemode_store::runs::Claim::Claimed(_)));
        super::sweep_one(&runs, stale, &super::sweeper("me"), 0, lease).await;
        let record = runs.get("run_stranded").await.unwrap().unwrap();
        assert_eq!(
            (record.status, record.owner.as_deref()),
            (RunStatus::Running, Some("me")),
            "the wait still holds it"
        );
        // Without the wait's lease, the sweep ends it.
        runs.release("run_stranded", "me").await.unwrap();
        super::sweep(&runs, "me", Duration::from_secs(3600), lease).await;
        let status = runs.get("run_stranded").await.unwrap().unwrap().status;
        assert_eq!(status, RunStatus::Ended(codemode_protocol::RunEnd::Unrecoverable));
    }
}
