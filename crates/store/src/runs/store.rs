//! [`RunStore`]: the contract every run backend keeps
//! (`tests/run_store.rs` checks it on each).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use codemode_protocol::RunEnd;

use super::types::{
    Claim, RunFilter, RunMeta, RunRecord, RunStatus, RunStoreError, RunSummary, RunUsage, RunWrites, TakenHook,
};

/// A boxed future a [`RunStore`] returns (the trait is used as `dyn`).
pub type RunFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, RunStoreError>> + Send + 'a>>;

/// The run journals and leases of one backend.
///
/// Every method is safe to call from many processes at once (PostgreSQL)
/// or many tasks of one process (sled). Timestamps come from the caller's
/// clock (`now_ms`) so tests can move time; leases compare against the
/// stored `lease_until_ms`.
pub trait RunStore: Send + Sync + std::fmt::Debug + 'static {
    /// Creates the run with `owner` holding a lease until `now + lease`,
    /// status `running`, empty journal. A run id that exists is
    /// [`RunStoreError::Exists`].
    fn create(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()>;

    /// [`create`](Self::create), for a caller that [`save`](Self::save)s
    /// the run's first journal right after: the record need only be durable
    /// once that save returns, so a backend that makes every write durable
    /// with one flush of everything before it (sled) skips its own flush
    /// here. The default is `create`.
    fn create_before_save(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        self.create(meta, owner, lease)
    }

    /// Replaces the journal and status (`running` or `parked`) if `owner`
    /// holds the lease, renewing it to `now + lease`, or releasing it
    /// (`lease = None`: `owner` cleared, `lease_until_ms = 0`) — a parked
    /// run hand-off. Returns the new version.
    fn save(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        journal: Vec<u8>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64>;

    /// [`save`](Self::save), except that `chunk` is added after the stored
    /// journal instead of replacing it: a write costs its own size, not the
    /// journal's. [`get`](Self::get) returns the stored journal followed by
    /// every appended chunk, in order.
    ///
    /// The chunk continues the journal at version `after` and is added
    /// only while the stored journal is at that version: a retry of an
    /// append whose answer was lost (the connection cut after the commit)
    /// gets [`RunStoreError::Stale`] instead of adding the chunk twice.
    fn append(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        chunk: Vec<u8>,
        lease: Option<Duration>,
        after: u64,
    ) -> RunFuture<'_, u64>;

    /// Atomically takes the lease for `owner` until `now + lease` when it
    /// is free, expired, or already `owner`'s.
    fn claim(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim>;

    /// [`claim`](Self::claim), without reading the journal: a claimed
    /// record's `journal` is empty. For a caller that keeps the run in
    /// memory and only needs its version, so a claim costs the same however
    /// long the journal grew. The default reads it anyway.
    fn claim_lease(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim> {
        self.claim(run_id, owner, lease)
    }

    /// Extends `owner`'s lease to `now + lease`; `LeaseLost` if not held.
    fn renew(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, ()>;

    /// Clears `owner`'s lease (no-op if not held) without touching the journal.
    fn release(&self, run_id: &str, owner: &str) -> RunFuture<'_, ()>;

    /// Ends the run as `end` if `owner` holds the lease,
    /// and in the same transaction commits `writes` to the run's session
    /// (a completed cell; empty otherwise) with the session limits
    /// re-checked: either both happen or neither. The journal is dropped
    /// (an ended run cannot be resumed); the record stays for `show`.
    fn end(&self, run_id: &str, owner: &str, end: RunEnd, writes: RunWrites) -> RunFuture<'_, ()>;

    /// [`end`](Self::end) as `completed`, keeping `result` — the run's
    /// final result, as its observer was to get it (opaque here) — in the
    /// record in place of the journal: a `wait` whose answer a crash cut
    /// off reads it back. [`get`](Self::get) then returns it as the
    /// record's `journal`.
    fn complete(&self, run_id: &str, owner: &str, writes: RunWrites, result: Vec<u8>) -> RunFuture<'_, ()>;

    /// The stored run, journal included.
    fn get(&self, run_id: &str) -> RunFuture<'_, Option<RunRecord>>;

    /// The stored runs of `run_ids` that exist, journals included, in no
    /// particular order, in one round trip where the backend can. Every
    /// journal asked for is in memory at once: callers ask in small
    /// batches.
    fn get_many(&self, run_ids: &[String]) -> RunFuture<'_, Vec<RunRecord>> {
        let run_ids = run_ids.to_vec();
        Box::pin(async move {
            let mut out = Vec::with_capacity(run_ids.len());
            for run_id in &run_ids {
                out.extend(self.get(run_id).await?);
            }
            Ok(out)
        })
    }

    /// Runs matching `filter`, newest first, without journals.
    fn list(&self, filter: RunFilter) -> RunFuture<'_, Vec<RunSummary>>;

    /// Marks the run for abort. A parked run with no live lease is ended
    /// as `aborted` at once (returns `Ended(RunEnd::Aborted)`); a run whose lease
    /// is held is marked, and its owner ends it (returns `Held`).
    fn request_abort(&self, run_id: &str) -> RunFuture<'_, Claim>;

    /// Resolves at the next change of `run_id` (save, release, end, abort
    /// request) after this call, or after `timeout`, whichever is first.
    /// On PostgreSQL a `NOTIFY` wakes it, never polling.
    fn changed(&self, run_id: &str, timeout: Duration) -> RunFuture<'_, ()>;

    /// Calls `hook` with `(run id, owner)` whenever any process takes a
    /// run: claims its lease (`owner` the claimer), or ends it by an abort
    /// nobody held it for (`owner` empty). A process that evicted a run
    /// hears that another one resumed it. The default hears nothing: a
    /// backend one process uses at a time (sled) has no other taker.
    fn on_taken(&self, hook: TakenHook) {
        let _ = hook;
    }

    /// Deletes ended runs last changed before `before_ms`, and the ended
    /// runs past the `keep` last changed; returns how many. What an ended
    /// run leaves (its record, for `codemode runs show` and a late `wait`)
    /// is bounded by count as well as by age.
    fn prune(&self, before_ms: u64, keep: usize) -> RunFuture<'_, u64>;

    /// The stored runs not yet ended of `session` and of `principal` (any
    /// order, at most `limit` of each), with their journals' sizes: what
    /// the per-session and per-principal quotas count.
    fn usage(&self, session: &str, principal: Option<&str>, limit: usize) -> RunFuture<'_, RunUsage>;
}
