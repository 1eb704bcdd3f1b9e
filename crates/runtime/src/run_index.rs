//! Live runs: the index `wait`, `abort` and `dispose` read without a
//! mailbox hop, how runs end, and run ids.
//!
//! The executor admits a cell and inserts it here; the cell's actor is
//! registered once it started on its JS thread; the cell removes itself
//! when it ends ([`RunIndex::ended`]), before it answers its observer, so a
//! `wait` sent after that answer always finds the run ended. The index
//! lives outside every actor, so an executor restart loses no run.
//!
//! Neither the executor nor the cells own this module: both use it, which
//! keeps the import graph a tree (executor → cell → run index).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use ractor::{ActorCell, ActorId};

use crate::telemetry::Metrics;

/// How many ended runs are remembered for precise `wait` errors.
const TOMBSTONES: usize = 4096;

use codemode_protocol::RunEnd;

/// A fresh, unguessable run id: `run_` and 128 random bits in hex.
///
/// # Errors
/// The OS gave no randomness: the exec is refused rather than given a
/// predictable id.
pub(crate) fn new_run_id() -> Result<String, codemode_protocol::ids::NoRandomness> {
    codemode_protocol::ids::unguessable::<16>("run_")
}

/// The result of a cell whose actor crashed (a panic in its actor).
pub(crate) fn crashed() -> codemode_protocol::CellResult {
    codemode_protocol::CellResult::failed(
        codemode_protocol::ErrorCode::InternalError,
        "the cell's host actor crashed; the cell is gone, other cells are unaffected. Retry it in a new exec.",
        codemode_protocol::Phase::Host,
    )
}

/// A started cell: its actor and how to interrupt its guest code.
#[derive(Clone)]
pub(crate) struct RunHandle {
    /// The cell's actor (an `ActorRef<CellMsg>` once typed by the caller).
    pub actor: ActorCell,
    /// Stops the guest's CPU loop at its next interrupt check.
    pub abort: Arc<dyn Fn() + Send + Sync>,
}

impl std::fmt::Debug for RunHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunHandle").field("actor", &self.actor.get_id()).finish_non_exhaustive()
    }
}

/// An admitted cell.
pub(crate) struct LiveRun {
    pub started: Instant,
    pub session: Option<String>,
    /// The reply that started the cell (interactive cells).
    pub reply: Option<String>,
    pub principal: Option<String>,
    /// Set once the cell's actor started.
    pub handle: Option<RunHandle>,
    /// Parked time of earlier parks, and when the current one began.
    pub parked: ParkedTime,
    /// Set when the parked cell released its lease: the journal
    /// version it wrote then. A `wait` re-claims the lease before using
    /// this in-memory copy. [`HANDING_OFF`] while the write releasing it
    /// is on its way.
    pub handed_off: Option<u64>,
}

/// `handed_off` while the write that releases a parked cell's lease is on
/// its way: a `wait` then waits for it to land (and re-claims the lease)
/// instead of using a copy whose lease is being given up. No journal
/// reaches this version.
pub(crate) const HANDING_OFF: u64 = u64::MAX;

/// A run's time parked so far.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ParkedTime {
    total: std::time::Duration,
    since: Option<Instant>,
}

impl ParkedTime {
    fn set(&mut self, parked: bool, now: Instant) {
        match (parked, self.since) {
            (true, None) => self.since = Some(now),
            (false, Some(since)) => {
                self.total += now.saturating_duration_since(since);
                self.since = None;
            }
            _ => {}
        }
    }

    fn until(&self, now: Instant) -> std::time::Duration {
        self.total + self.since.map_or(std::time::Duration::ZERO, |s| now.saturating_duration_since(s))
    }
}

/// Why a run cannot be reached: the message for the model.
pub(crate) type Unreachable = String;

/// The answer for a run this process never started and has no record of.
pub(crate) const NOT_HERE: &str = "code mode run is unavailable or expired: it is not running here and no \
     durable record of it exists (it never parked, it ended long ago, or it was started against another store). \
     Start a new exec.";

/// The answer for another session's run (no more than that it is one).
pub(crate) const DIFFERENT_SESSION: &str = "code mode run belongs to a different session.";

/// The answer for a run of the session whose cell has not started yet.
pub(crate) const STARTING: &str = "code mode run is still starting; retry the wait.";

/// Where a run is, for this process.
pub(crate) enum Located {
    /// A cell here; `Some(version)` when it released its lease at that
    /// journal version.
    Live(RunHandle, Option<u64>),
    /// Here and the session's, but its cell has not started yet.
    Starting,
    /// Here but not reachable (another session's, ended).
    Unreachable(Unreachable),
    /// Not known here.
    NotHere,
}

/// Every live run of a runtime, the recently ended ones, and live counts
/// per session and principal (the fair-share quotas).
///
/// Only the executor inserts (admission is serial there); removals come
/// from any thread and only lower counts, so a quota check never admits
/// past a bound.
pub(crate) struct RunIndex {
    live: DashMap<String, LiveRun>,
    by_actor: DashMap<ActorId, String>,
    ended: DashMap<String, RunEnd>,
    /// Oldest tombstone first; bounded by [`TOMBSTONES`].
    ended_order: Mutex<VecDeque<String>>,
    per_session: DashMap<String, usize>,
    per_principal: DashMap<String, usize>,
    /// Runs this process evicted to their journal and has not resumed,
    /// with when: the `codemode_runs_evicted` gauge. Entries older than
    /// the parked TTL are dropped (the run expired, or another process
    /// resumed it), so the map stays bounded by what can still be resumed.
    evicted: DashMap<String, Instant>,
    /// Cell actors whose state is not dropped yet (see [`Alive`]).
    alive: std::sync::atomic::AtomicUsize,
    /// Woken when `alive` drops to 0.
    all_gone: tokio::sync::Notify,
    /// Woken when a live run's hand-off mark changes.
    handed_off_changed: tokio::sync::Notify,
    metrics: Arc<Metrics>,
}

/// Counts one cell actor's state as alive; dropped last with it. Shutdown
/// waits for every cell's state to be gone, so the spans it closes on drop
/// are ended before telemetry is flushed.
pub(crate) struct Alive(Arc<RunIndex>);

impl Alive {
    pub(crate) fn new(runs: &Arc<RunIndex>) -> Self {
        runs.alive.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        Self(Arc::clone(runs))
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        if self.0.alive.fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1 {
            self.0.all_gone.notify_waiters();
        }
    }
}

fn add(counts: &DashMap<String, usize>, key: Option<&String>) {
    if let Some(k) = key {
        *counts.entry(k.clone()).or_insert(0) += 1;
    }
}

fn remove(counts: &DashMap<String, usize>, key: Option<&String>) {
    if let Some(k) = key
        && let Entry::Occupied(mut n) = counts.entry(k.clone())
    {
        *n.get_mut() -= 1;
        if *n.get() == 0 {
            n.remove();
        }
    }
}

impl RunIndex {
    pub(crate) fn new(metrics: Arc<Metrics>) -> Self {
        Self {
            live: DashMap::new(),
            by_actor: DashMap::new(),
            ended: DashMap::new(),
            ended_order: Mutex::new(VecDeque::new()),
            per_session: DashMap::new(),
            per_principal: DashMap::new(),
            evicted: DashMap::new(),
            alive: std::sync::atomic::AtomicUsize::new(0),
            all_gone: tokio::sync::Notify::new(),
            handed_off_changed: tokio::sync::Notify::new(),
            metrics,
        }
    }

    /// How many cells are alive (running or parked).
    pub(crate) fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether run `run_id` is live in this process, or ended here lately
    /// (its record's end may still be on its way to the store).
    pub(crate) fn counted_here(&self, run_id: &str) -> bool {
        self.live.contains_key(run_id) || self.ended.contains_key(run_id)
    }

    /// Live cells of `session`.
    pub(crate) fn in_session(&self, session: Option<&String>) -> usize {
        session.and_then(|s| self.per_session.get(s).map(|n| *n)).unwrap_or(0)
    }

    /// Live cells of `principal`.
    pub(crate) fn of_principal(&self, principal: Option<&String>) -> usize {
        principal.and_then(|p| self.per_principal.get(p).map(|n| *n)).unwrap_or(0)
    }

    /// Counts an admitted cell.
    pub(crate) fn insert(&self, run_id: String, run: LiveRun) {
        self.metrics.add_live(1);
        add(&self.per_session, run.session.as_ref());
        add(&self.per_principal, run.principal.as_ref());
        self.live.insert(run_id, run);
    }

    /// Takes back an admitted cell that never started: no end is counted.
    pub(crate) fn withdraw(&self, run_id: &str) {
        if let Some((_, run)) = self.live.remove(run_id) {
            self.metrics.add_live(-1);
            remove(&self.per_session, run.session.as_ref());
            remove(&self.per_principal, run.principal.as_ref());
        }
    }

    /// Records the actor of a started cell; false when the run already
    /// ended (the caller stops the actor rather than leak it).
    pub(crate) fn register(&self, run_id: &str, handle: RunHandle) -> bool {
        let Some(mut run) = self.live.get_mut(run_id) else { return false };
        self.by_actor.insert(handle.actor.get_id(), run_id.to_owned());
        run.handle = Some(handle);
        self.metrics.cell_started(run.started.elapsed());
        true
    }

    /// The cell `run_id` parked or left its park: its parked time is
    /// measured here, so every end (also a dispose or crash while parked)
    /// splits active from parked time.
    pub(crate) fn set_parked(&self, run_id: &str, parked: bool) {
        if let Some(mut run) = self.live.get_mut(run_id) {
            run.parked.set(parked, Instant::now());
        }
    }

    /// The started cell `run_id` of `session`, or why it cannot be reached.
    #[cfg(test)]
    pub(crate) fn route(&self, run_id: &str, session: Option<&str>) -> Result<RunHandle, Unreachable> {
        match self.locate(run_id, session) {
            Located::Live(handle, _) => Ok(handle),
            Located::Starting => Err(STARTING.to_owned()),
            Located::Unreachable(why) => Err(why),
            Located::NotHere => Err(NOT_HERE.to_owned()),
        }
    }

    /// Where run `run_id` of `session` is: a live cell here (with the
    /// journal version it handed off at, if it released its lease), ended
    /// or unreachable here, or unknown to this process (its record may be
    /// in the run store).
    pub(crate) fn locate(&self, run_id: &str, session: Option<&str>) -> Located {
        if run_id.trim().is_empty() {
            return Located::Unreachable("runId must be a non-empty string.".to_owned());
        }
        if let Some(run) = self.live.get(run_id) {
            return match (&run.handle, run.session.as_deref() == session) {
                (_, false) => Located::Unreachable(DIFFERENT_SESSION.to_owned()),
                (Some(handle), true) => Located::Live(handle.clone(), run.handed_off),
                (None, true) => Located::Starting,
            };
        }
        if let Some(end) = self.ended.get(run_id) {
            return Located::Unreachable(format!(
                "code mode run is unavailable: {}. Start a new exec.",
                end.describe()
            ));
        }
        Located::NotHere
    }

    /// A parked cell released its lease at journal `version`, or (`None`)
    /// holds it again.
    pub(crate) fn set_handed_off(&self, run_id: &str, version: Option<u64>) {
        if let Some(mut run) = self.live.get_mut(run_id) {
            run.handed_off = version;
        }
        self.handed_off_changed.notify_waiters();
    }

    /// Waits (at most `limit`) until `still` is false, looking again each
    /// time a run's hand-off mark changes; whether it became false.
    pub(crate) async fn hand_off_changes_until(&self, limit: std::time::Duration, still: impl Fn() -> bool) -> bool {
        let wait = async {
            loop {
                // Registered before the check, so a change in between wakes it.
                let changed = self.handed_off_changed.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                if !still() {
                    return;
                }
                changed.await;
            }
        };
        tokio::time::timeout(limit, wait).await.is_ok()
    }

    /// Waits (at most `limit`) until no cell actor's state is left.
    pub(crate) async fn all_cells_gone(&self, limit: std::time::Duration) {
        let wait = async {
            loop {
                // Registered before the check, so a drop in between wakes it.
                let gone = self.all_gone.notified();
                tokio::pin!(gone);
                gone.as_mut().enable();
                if self.alive.load(std::sync::atomic::Ordering::Acquire) == 0 {
                    return;
                }
                gone.await;
            }
        };
        let _ = tokio::time::timeout(limit, wait).await;
    }

    /// The cell `run_id` was evicted to its journal.
    pub(crate) fn evicted_to_journal(&self, run_id: &str, ttl: std::time::Duration) {
        let now = Instant::now();
        if self.evicted.len() % 1024 == 1023 {
            self.evicted.retain(|_, at| now.saturating_duration_since(*at) < ttl);
        }
        self.evicted.insert(run_id.to_owned(), now);
        self.publish_evicted();
    }

    /// The run `run_id` was resumed here by replay.
    pub(crate) fn resumed(&self, run_id: &str) {
        if self.evicted.remove(run_id).is_some() {
            self.publish_evicted();
        }
    }

    /// Another process took run `run_id` (resumed or aborted it): if this
    /// process evicted it, it is no longer here to resume.
    pub(crate) fn taken_elsewhere(&self, run_id: &str) {
        self.resumed(run_id);
    }

    fn publish_evicted(&self) {
        let n = i64::try_from(self.evicted.len()).unwrap_or(i64::MAX);
        self.metrics.runs.evicted_now.store(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// The cell left memory without ending (evicted to its journal, or its
    /// lease taken over): no longer live here, no tombstone — the run
    /// lives on as its record.
    ///
    /// Only the entry of `actor` is removed: a new cell of the same run
    /// (resumed by replay meanwhile) is not touched by the old one leaving.
    pub(crate) fn evicted(&self, run_id: &str, actor: ActorId) {
        let ours = |_: &String, run: &LiveRun| run.handle.as_ref().is_some_and(|h| h.actor.get_id() == actor);
        let Some((_, run)) = self.live.remove_if(run_id, ours) else { return };
        // A `wait` waiting for its hand-off looks again.
        self.handed_off_changed.notify_waiters();
        self.metrics.add_live(-1);
        remove(&self.per_session, run.session.as_ref());
        remove(&self.per_principal, run.principal.as_ref());
        if let Some(handle) = run.handle {
            self.by_actor.remove(&handle.actor.get_id());
        }
    }

    /// Forgets the started run `run_id` of `session` as disposed and
    /// returns it, so the caller can end it quietly.
    pub(crate) fn dispose(&self, run_id: &str, session: Option<&str>) -> Option<RunHandle> {
        let handle = self.live.get(run_id).filter(|r| r.session.as_deref() == session)?.handle.clone()?;
        self.ended(run_id, RunEnd::Disposed);
        Some(handle)
    }

    /// Runs started by one reply of `session`.
    pub(crate) fn of_reply(&self, session: &str, reply: &str) -> Vec<String> {
        self.live
            .iter()
            .filter(|r| r.session.as_deref() == Some(session) && r.reply.as_deref() == Some(reply))
            .map(|r| r.key().clone())
            .collect()
    }

    /// The handle of a live run, if it started.
    pub(crate) fn handle(&self, run_id: &str) -> Option<RunHandle> {
        self.live.get(run_id).and_then(|r| r.handle.clone())
    }

    /// Every started run's handle (for shutdown).
    pub(crate) fn handles(&self) -> Vec<RunHandle> {
        self.live.iter().filter_map(|r| r.handle.clone()).collect()
    }

    /// The run ended as `end`: forgotten, counted, remembered for late
    /// `wait`s. The first end reported wins; later ones are ignored.
    pub(crate) fn ended(&self, run_id: &str, end: RunEnd) {
        if !self.live.contains_key(run_id) {
            return;
        }
        // The tombstone goes in before the live entry goes out, so a
        // concurrent `route` finds one or the other.
        self.ended.entry(run_id.to_owned()).or_insert(end);
        let Some((_, run)) = self.live.remove(run_id) else { return };
        self.handed_off_changed.notify_waiters();
        self.metrics.add_live(-1);
        remove(&self.per_session, run.session.as_ref());
        remove(&self.per_principal, run.principal.as_ref());
        let end = self.ended.get(run_id).map_or(end, |e| *e);
        let now = Instant::now();
        self.metrics.cell_ended(end.label(), now.saturating_duration_since(run.started), run.parked.until(now));
        if let Some(handle) = run.handle {
            self.by_actor.remove(&handle.actor.get_id());
        }
        let mut order = self.ended_order.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        order.push_back(run_id.to_owned());
        while order.len() > TOMBSTONES {
            if let Some(old) = order.pop_front() {
                self.ended.remove(&old);
            }
        }
    }

    /// A cell actor failed (a panic in its actor): its run ends as crashed.
    /// Returns whether the actor was a cell.
    pub(crate) fn crashed(&self, actor: ActorId) -> bool {
        let Some(run_id) = self.by_actor.get(&actor).map(|r| r.value().clone()) else { return false };
        self.ended(&run_id, RunEnd::Crashed);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(session: &str) -> LiveRun {
        LiveRun {
            started: Instant::now(),
            session: Some(session.to_owned()),
            reply: Some("r".to_owned()),
            principal: None,
            handle: None,
            parked: ParkedTime::default(),
            handed_off: None,
        }
    }

    #[test]
    fn an_ended_run_is_forgotten_once_and_its_tombstone_says_how_it_ended() {
        let runs = RunIndex::new(Arc::new(Metrics::default()));
        runs.insert("run_a".into(), run("s"));
        assert_eq!(runs.in_session(Some(&"s".to_owned())), 1);
        assert!(runs.route("run_a", Some("s")).unwrap_err().contains("still starting"));
        runs.ended("run_a", RunEnd::Aborted);
        runs.ended("run_a", RunEnd::Completed);
        assert_eq!((runs.len(), runs.in_session(Some(&"s".to_owned()))), (0, 0));
        assert!(runs.route("run_a", Some("s")).unwrap_err().contains("aborted"));
        assert_eq!(runs.metrics.snapshot().cells_by_status.get("aborted"), Some(&1));
        assert_eq!(runs.metrics.snapshot().cells_by_status.get("completed"), Some(&0));
    }

    #[test]
    fn a_run_of_another_session_is_not_reachable() {
        let runs = RunIndex::new(Arc::new(Metrics::default()));
        runs.insert("run_b".into(), run("s"));
        assert!(runs.route("run_b", Some("t")).unwrap_err().contains("different session"));
        assert!(runs.dispose("run_b", Some("t")).is_none());
    }

    #[test]
    fn parked_time_adds_up_every_park_including_the_one_still_open() {
        let t0 = Instant::now();
        let at = |ms| t0 + std::time::Duration::from_millis(ms);
        let mut parked = ParkedTime::default();
        parked.set(true, at(10));
        parked.set(true, at(20));
        parked.set(false, at(110));
        parked.set(false, at(120));
        parked.set(true, at(200));
        assert_eq!(parked.until(at(250)), std::time::Duration::from_millis(150));
    }

    #[test]
    fn a_cell_that_parked_splits_its_lifetime_into_active_and_parked_time() {
        let runs = RunIndex::new(Arc::new(Metrics::default()));
        runs.insert("run_a".into(), run("s"));
        runs.insert("run_b".into(), run("s"));
        runs.set_parked("run_a", true);
        runs.ended("run_a", RunEnd::Expired);
        runs.ended("run_b", RunEnd::Completed);
        let s = runs.metrics.snapshot();
        assert_eq!(s.cell_active.count, 2, "every cell has active time");
        assert_eq!(s.cell_parked.count, 1, "only the cell that parked has parked time");
        assert_eq!(s.cell_parked.buckets.last().map(|(le, _)| *le), Some(f64::INFINITY));
        assert!(s.cell_parked.buckets.iter().any(|(le, _)| *le == 1800.0), "parked buckets reach 1800 s");
    }
}
