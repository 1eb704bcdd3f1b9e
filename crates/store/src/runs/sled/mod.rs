//! [`SledRuns`]: the run store in the session store's sled database.
//!
//! One process at a time opens a sled database, so leases here guard
//! against tasks of that process (and a process started after a crash),
//! not against other live processes. A run's end with store writes goes
//! through the session store's actor, which applies the writes and the end
//! record in one sled transaction.
//!
//! - `record.rs`: how a run is stored. The record (tree [`RUNS_TREE`], key:
//!   the run id) holds a compact header; the journal is in chunks (tree
//!   [`RUN_CHUNKS_TREE`], key: the run id, a NUL, the chunk's number): an
//!   [`append`](RunStore::append) writes one chunk and the small record,
//!   never what is already stored. The header counts the chunks and their
//!   bytes, so `list` sizes a journal without reading it.
//!   [`RUNS_BY_TIME_TREE`] indexes runs by creation time for newest-first
//!   listing.
//! - `trees.rs`: every read and compare-and-swap of those trees.
//! - `wal.rs`: the run log. Durability ([`Durability`]): `Machine` flushes
//!   sled before a journal write returns (grouped with concurrent ones);
//!   `Process` logs the write to the run log instead and flushes in the
//!   background.
//! - `watch.rs`: in-process wake-ups for [`RunStore::changed`].
//! - `usage.rs`: the index of runs not ended, for the quotas.

mod record;
mod trees;
mod usage;
mod wal;
mod watch;

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use codemode_protocol::RunEnd;

pub use self::record::{RUN_CHUNKS_TREE, RUNS_BY_TIME_TREE, RUNS_TREE};
use self::record::{lease_end, record};
use self::trees::{Journaled, Step, Trees};
use self::usage::UsageIndex;
use self::wal::{Entry, RunLog};
use self::watch::Watchers;
use crate::error::StoreError;
use crate::runs::store::{RunFuture, RunStore};
use crate::runs::types::{
    Claim, Durability, RunFilter, RunMeta, RunRecord, RunStatus, RunStoreError, RunSummary, RunUsage, RunWrites,
};
use crate::sessions::SessionStore;
use crate::sessions::sled::SledSessions;

/// The run log of a database and whether a left one was re-applied.
#[derive(Debug, Default)]
struct LogSlot {
    recovered: bool,
    log: Option<Arc<RunLog>>,
}

/// What every [`SledRuns`] on one database shares, kept once per database
/// by its session store: one handle's save wakes another's waiter, they
/// write one run log, and they count one quota index.
#[derive(Debug, Default)]
struct OnDatabase {
    watchers: Arc<Watchers>,
    log: Mutex<LogSlot>,
    /// The stored runs not ended, for the quotas.
    usage: Mutex<UsageIndex>,
}

/// One checkpoint: rotate the log, flush sled once for everything before
/// the rotation, delete the rotated log.
async fn checkpoint(log: &RunLog, sled: &SledSessions) -> Result<(), RunStoreError> {
    match log.rotate() {
        Ok(false) => return Ok(()),
        Ok(true) => {}
        Err(e) => return Err(RunStoreError::Backend(format!("rotating the run log: {e}"))),
    }
    let flushed = sled.flush_grouped().await;
    log.finish_checkpoint(flushed.is_ok());
    flushed.map_err(RunStoreError::Store)
}

/// Run journals and leases in the session store's sled database (one
/// process at a time). Cheap to clone; clones and every other `SledRuns`
/// opened on the same [`SessionStore`] share their waiters.
///
/// sled's reads and compare-and-swaps take microseconds, so each method
/// does them when called; its future only waits for durability (a flush)
/// or, for an `end` with store writes, for the session store's actor.
#[derive(Clone, Debug)]
pub struct SledRuns {
    sled: SledSessions,
    trees: Trees,
    shared: Arc<OnDatabase>,
    durability: Durability,
    /// The run log, with `Durability::Process` on a store on disk.
    log: Option<Arc<RunLog>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl SledRuns {
    /// The run store in `store`'s database (trees [`RUNS_TREE`],
    /// [`RUN_CHUNKS_TREE`] and [`RUNS_BY_TIME_TREE`]). An `end` with store
    /// writes needs `store`'s actor running ([`SessionStore::start_actor`]);
    /// everything else works on the database alone, as `codemode runs` does.
    ///
    /// Journal writes are [`Durability::Machine`] until
    /// [`with_durability`](Self::with_durability) says otherwise. A run log
    /// a crashed process left (see [`Durability::Process`]) is re-applied
    /// by the first `open` on the database, before anything reads the runs,
    /// whatever the durability.
    ///
    /// # Errors
    /// [`StoreError::SledOnly`] when `store` is not on sled;
    /// [`StoreError::Io`] when a tree cannot be opened or the left run log
    /// cannot be re-applied.
    pub fn open(store: &SessionStore) -> Result<Self, StoreError> {
        let sled = store.sled()?.clone();
        let runs = Self {
            trees: Trees::open(&sled)?,
            shared: sled.per_database::<OnDatabase>(),
            sled,
            durability: Durability::Machine,
            log: None,
        };
        let mut slot = lock(&runs.shared.log);
        if !slot.recovered {
            runs.recover()?;
            slot.recovered = true;
        }
        drop(slot);
        Ok(runs)
    }

    /// Makes journal writes `durability`-durable (see [`Durability`]). On a
    /// temporary store `Process` keeps them in memory: the store ends with
    /// the process anyway. Every handle on the database shares one log.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the run log cannot be created in the store's
    /// directory (the run log is a file there, beside sled's).
    pub fn with_durability(mut self, durability: Durability) -> Result<Self, StoreError> {
        self.durability = durability;
        self.log = match (durability, self.sled.path()) {
            (Durability::Process, Some(dir)) => {
                let mut slot = lock(&self.shared.log);
                match &slot.log {
                    Some(log) => Some(Arc::clone(log)),
                    None => {
                        let log = Arc::new(
                            RunLog::create(dir).map_err(|e| StoreError::Io(format!("creating the run log: {e}")))?,
                        );
                        slot.log = Some(Arc::clone(&log));
                        Some(log)
                    }
                }
            }
            _ => None,
        };
        Ok(self)
    }

    /// Re-applies the run log a previous process left (the files in the
    /// store's directory), then flushes sled and deletes the log.
    fn recover(&self) -> Result<(), StoreError> {
        let io = |what: &str, e: &dyn std::fmt::Display| StoreError::Io(format!("{what}: {e}"));
        let Some(dir) = self.sled.path() else { return Ok(()) };
        let logs = RunLog::leftovers(dir).map_err(|e| io("reading the run log", &e))?;
        if logs.is_empty() {
            return Ok(());
        }
        let entries = logs.iter().flat_map(|(path, bytes)| wal::read_entries(bytes, path));
        let applied = self.trees.reapply(entries)?;
        self.sled.flush_blocking().map_err(|e| io("flushing the recovered runs", &e))?;
        RunLog::remove_leftovers(dir).map_err(|e| io("deleting the recovered run log", &e))?;
        tracing::info!(applied, "re-applied the run log a previous process left");
        Ok(())
    }

    /// Flushes what the run log holds into sled and empties it (a clean
    /// shutdown leaves no log to re-apply). A no-op without a log.
    ///
    /// # Errors
    /// The flush failed (the log is kept and re-applied at the next open).
    pub async fn checkpoint(&self) -> Result<(), RunStoreError> {
        let Some(log) = &self.log else { return Ok(()) };
        checkpoint(log, &self.sled).await
    }

    /// Releases every lease in the database. sled admits one process at a
    /// time, so a lease found at open belongs to a process that is gone (a
    /// crash or `kill -9`): its runs can be resumed at once instead of after
    /// the lease runs out. Returns how many were released.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the database fails.
    pub fn release_stale_leases(&self) -> Result<usize, StoreError> {
        self.trees.release_all_leases()
    }

    /// Makes what was just written (`logged`, the record and chunk as
    /// written) as durable as configured: flushed to disk (grouped with
    /// concurrent writes), or logged with one `write(2)` and flushed in the
    /// background (`Process`), or — a temporary store — left in memory.
    async fn durable(&self, logged: Entry) -> Result<(), RunStoreError> {
        match (&self.log, self.durability) {
            (Some(log), _) => {
                let due = log.append(&logged).map_err(|e| RunStoreError::Backend(format!("the run log: {e}")))?;
                if due {
                    let (log, sled) = (Arc::clone(log), self.sled.clone());
                    tokio::spawn(async move {
                        if let Err(e) = checkpoint(&log, &sled).await {
                            tracing::warn!(error = %e, "run log checkpoint failed; it is kept and retried");
                        }
                    });
                }
                Ok(())
            }
            (None, Durability::Process) if self.sled.path().is_none() => Ok(()),
            (None, _) => self.flushed().await,
        }
    }

    /// Waits until everything written so far is on disk, whatever the
    /// durability (an operator's abort, a stale lease released).
    async fn flushed(&self) -> Result<(), RunStoreError> {
        self.sled.flush_grouped().await.map_err(RunStoreError::Store)
    }

    /// Run `run_id` is stored, not ended, with `bytes` of journal.
    fn track(&self, run_id: &str, session: &str, principal: Option<&str>, bytes: u64) {
        let mut usage = lock(&self.shared.usage);
        if usage.built() {
            usage.track(run_id, session, principal, bytes);
        }
    }

    /// Run `run_id` ended.
    fn forget(&self, run_id: &str) {
        let mut usage = lock(&self.shared.usage);
        if usage.built() {
            usage.forget(run_id);
        }
    }

    /// The quota index, built from the runs tree if this is the first use.
    fn usage_now(&self, session: &str, principal: Option<&str>, limit: usize) -> Result<RunUsage, RunStoreError> {
        let mut usage = lock(&self.shared.usage);
        if !usage.built() {
            for (run_id, header, size) in self.trees.live_runs()? {
                usage.track(&run_id, &header.session, header.principal.as_deref(), size);
            }
            usage.set_built();
        }
        Ok(usage.usage(session, principal, limit))
    }

    /// Writes a journal: replaces it (`append_after` `None`), or appends
    /// `bytes` as its next chunk to the journal at that version, with the
    /// status and lease, the lease checked; tracks its size. Returns the
    /// version and what was written.
    fn write_journal(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        bytes: &[u8],
        append_after: Option<u64>,
        lease: Option<Duration>,
    ) -> Result<(u64, Entry), RunStoreError> {
        // An ended status goes the replace way, which refuses it.
        let written: Journaled = match append_after {
            Some(after) if status.is_live() => self.trees.append(run_id, owner, &status, bytes, lease, after)?,
            _ => self.trees.replace(run_id, owner, &status, bytes, lease)?,
        };
        self.track(run_id, &written.session, written.principal.as_deref(), written.size);
        Ok((written.version, written.entry))
    }

    /// A journal write, made durable; wakes the run's waiters.
    fn journal_future(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        bytes: &[u8],
        append_after: Option<u64>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64> {
        let result = self.write_journal(run_id, owner, status, bytes, append_after, lease);
        let run_id = run_id.to_owned();
        Box::pin(async move {
            let (version, logged) = result?;
            self.shared.watchers.changed(&run_id);
            self.durable(logged).await?;
            Ok(version)
        })
    }

    async fn end_with_writes(
        &self,
        run_id: &str,
        owner: &str,
        end: RunEnd,
        writes: RunWrites,
        kept: Vec<u8>,
    ) -> Result<(), RunStoreError> {
        let (session, chunks, attached) = self.trees.end_attached(run_id, owner, end, kept)?;
        self.sled.commit_attached(&session, writes, self.trees.runs().clone(), attached).await?;
        self.forget(run_id);
        // The record no longer counts them; a chunk added between the read
        // and the commit is impossible (the lease holder is ending).
        self.trees.drop_chunks(run_id, chunks);
        Ok(())
    }

    /// Ends the run (see [`RunStore::end`]), keeping `kept` in place of its
    /// journal.
    fn finish(&self, run_id: &str, owner: &str, end: RunEnd, writes: RunWrites, kept: Vec<u8>) -> RunFuture<'_, ()> {
        let (run_id, owner) = (run_id.to_owned(), owner.to_owned());
        Box::pin(async move {
            if writes.is_empty() {
                let (logged, chunks) = self.trees.end(&run_id, &owner, end, &kept)?;
                self.forget(&run_id);
                self.shared.watchers.changed(&run_id);
                self.trees.drop_chunks(&run_id, chunks);
                self.durable(logged).await
            } else {
                // Durable when answered: the actor waits for its flusher.
                self.end_with_writes(&run_id, &owner, end, writes, kept).await?;
                self.shared.watchers.changed(&run_id);
                Ok(())
            }
        })
    }

    /// Claims the lease (see [`RunStore::claim`]); the journal is read
    /// after the claim: holding the lease now, this process is the only one
    /// that could change it.
    fn claim_now(&self, run_id: &str, owner: &str, lease: Duration, journal: bool) -> Result<Claim, RunStoreError> {
        let claim = self.trees.update(run_id, |current, now| {
            let Some((mut header, journal)) = current else { return Ok(Step::Keep(Claim::Missing)) };
            if let Some(end) = header.ended(run_id)? {
                return Ok(Step::Keep(Claim::Ended(end)));
            }
            if let Some((holder, until_ms)) = header.live_lease(now)
                && holder != owner
            {
                return Ok(Step::Keep(Claim::Held { owner: holder.to_owned(), until_ms }));
            }
            header.owner = Some(owner.to_owned());
            header.lease_until_ms = lease_end(now, lease);
            let claimed = record(run_id, header.clone(), Vec::new())?;
            Ok(Step::Write(header, journal.to_vec(), Claim::Claimed(claimed)))
        })?;
        let Claim::Claimed(claimed) = claim else { return Ok(claim) };
        if !journal {
            return Ok(Claim::Claimed(claimed));
        }
        Ok(match self.trees.read(run_id)? {
            Some(mut full) => {
                full.owner = claimed.owner;
                full.lease_until_ms = claimed.lease_until_ms;
                Claim::Claimed(full)
            }
            None => Claim::Missing,
        })
    }

    /// Marks the run for abort, or ends it when nobody holds its lease;
    /// returns the answer and whether the record changed.
    fn request_abort_now(&self, run_id: &str) -> Result<(Claim, bool), RunStoreError> {
        self.trees.update(run_id, |current, now| {
            let Some((mut header, journal)) = current else { return Ok(Step::Keep((Claim::Missing, false))) };
            if let Some(end) = header.ended(run_id)? {
                return Ok(Step::Keep((Claim::Ended(end), false)));
            }
            if let Some((holder, until_ms)) = header.live_lease(now) {
                let held = Claim::Held { owner: holder.to_owned(), until_ms };
                if header.abort_requested {
                    return Ok(Step::Keep((held, false)));
                }
                header.abort_requested = true;
                header.updated_ms = now;
                return Ok(Step::Write(header, journal.to_vec(), (held, true)));
            }
            // No live lease: no process is advancing the run (parked and
            // handed off, or its owner died mid-window), so nobody would
            // act on a mark; it ends here.
            header.abort_requested = true;
            header.end(RunEnd::Aborted, now);
            Ok(Step::Write(header, Vec::new(), (Claim::Ended(RunEnd::Aborted), true)))
        })
    }
}

impl RunStore for SledRuns {
    fn create(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        let result = self.trees.create(meta, owner, lease);
        if result.is_ok() {
            self.track(&meta.run_id, &meta.session, meta.principal.as_deref(), 0);
        }
        Box::pin(async move { self.durable(result?).await })
    }

    fn create_before_save(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        // The save that follows makes the whole database durable, this
        // record included (its flush, or its logged record, which holds
        // everything the record does): one flush per first park.
        let result = self.trees.create(meta, owner, lease).map(drop);
        if result.is_ok() {
            self.track(&meta.run_id, &meta.session, meta.principal.as_deref(), 0);
        }
        Box::pin(async move { result })
    }

    fn save(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        journal: Vec<u8>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64> {
        self.journal_future(run_id, owner, status, &journal, None, lease)
    }

    fn append(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        chunk: Vec<u8>,
        lease: Option<Duration>,
        after: u64,
    ) -> RunFuture<'_, u64> {
        self.journal_future(run_id, owner, status, &chunk, Some(after), lease)
    }

    fn claim(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim> {
        let result = self.claim_now(run_id, owner, lease, true);
        Box::pin(async move { result })
    }

    fn claim_lease(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim> {
        let result = self.claim_now(run_id, owner, lease, false);
        Box::pin(async move { result })
    }

    fn renew(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        let result = self.trees.update(run_id, |current, now| {
            let Some((mut header, journal)) = current else {
                return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
            };
            if !header.live() || !header.held_by(owner, now) {
                return Err(RunStoreError::LeaseLost { run_id: run_id.to_owned() });
            }
            header.lease_until_ms = lease_end(now, lease);
            Ok(Step::Write(header, journal.to_vec(), ()))
        });
        Box::pin(async move { result })
    }

    fn release(&self, run_id: &str, owner: &str) -> RunFuture<'_, ()> {
        let result = self.trees.update(run_id, |current, _now| {
            // Not held (or no such run): nothing to release.
            let Some((mut header, journal)) = current else { return Ok(Step::Keep(false)) };
            if header.owner.as_deref() != Some(owner) {
                return Ok(Step::Keep(false));
            }
            header.owner = None;
            header.lease_until_ms = 0;
            Ok(Step::Write(header, journal.to_vec(), true))
        });
        let run_id = run_id.to_owned();
        Box::pin(async move {
            if result? {
                self.shared.watchers.changed(&run_id);
            }
            Ok(())
        })
    }

    fn end(&self, run_id: &str, owner: &str, end: RunEnd, writes: RunWrites) -> RunFuture<'_, ()> {
        self.finish(run_id, owner, end, writes, Vec::new())
    }

    fn complete(&self, run_id: &str, owner: &str, writes: RunWrites, result: Vec<u8>) -> RunFuture<'_, ()> {
        self.finish(run_id, owner, RunEnd::Completed, writes, result)
    }

    fn get(&self, run_id: &str) -> RunFuture<'_, Option<RunRecord>> {
        let result = self.trees.read(run_id);
        Box::pin(async move { result })
    }

    fn list(&self, filter: RunFilter) -> RunFuture<'_, Vec<RunSummary>> {
        let result = self.trees.list(&filter);
        Box::pin(async move { result })
    }

    fn request_abort(&self, run_id: &str) -> RunFuture<'_, Claim> {
        let result = self.request_abort_now(run_id);
        let run_id = run_id.to_owned();
        Box::pin(async move {
            let (claim, wrote) = result?;
            if wrote {
                if matches!(claim, Claim::Ended(_)) {
                    self.forget(&run_id);
                }
                self.shared.watchers.changed(&run_id);
                self.flushed().await?;
            }
            Ok(claim)
        })
    }

    fn changed(&self, run_id: &str, timeout: Duration) -> RunFuture<'_, ()> {
        // Registered now, not at the first poll: a change right after this
        // call still wakes the future.
        let wait = self.shared.watchers.watch(run_id, timeout);
        Box::pin(async move {
            wait.await;
            Ok(())
        })
    }

    fn prune(&self, before_ms: u64, keep: usize) -> RunFuture<'_, u64> {
        let result = self.trees.prune(before_ms, keep);
        Box::pin(async move { result })
    }

    fn usage(&self, session: &str, principal: Option<&str>, limit: usize) -> RunFuture<'_, RunUsage> {
        let result = self.usage_now(session, principal, limit);
        Box::pin(async move { result })
    }
}
