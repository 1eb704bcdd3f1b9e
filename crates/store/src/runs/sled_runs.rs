//! [`SledRuns`]: the run store in the session store's sled database.
//!
//! One process at a time opens a sled database, so leases here guard
//! against tasks of that process (and a process started after a crash),
//! not against other live processes. Every change of a record is a
//! compare-and-swap of the whole record, retried on a race, so two
//! handles claiming together cannot both win. A run's end with store
//! writes goes through the session store's actor, which applies the
//! writes and the end record in one sled transaction.
//!
//! Record layout (tree [`RUNS_TREE`], key: the run id): a format byte, the
//! header's length (big-endian `u32`), the header as compact JSON, then the
//! journal's raw bytes — so the journal is never re-encoded and `list` can
//! size it without decoding it. [`RUNS_BY_TIME_TREE`] indexes runs by
//! creation time (`created_ms` big-endian, then the run id) for newest-first
//! listing.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use super::{
    Claim, MAX_LIST_RUNS, RunFilter, RunFuture, RunMeta, RunRecord, RunStatus, RunStore, RunStoreError, RunSummary,
    RunWrites, Watchers, now_ms,
};
use crate::SessionStore;

/// The sled tree holding run records.
pub const RUNS_TREE: &str = "runs";

/// The sled tree indexing runs by creation time.
pub const RUNS_BY_TIME_TREE: &str = "runs_by_time";

/// The record format written by this version.
const FORMAT: u8 = 1;

/// A run's record without its journal, as stored (short names: it is
/// written on every save).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Header {
    #[serde(rename = "s")]
    session: String,
    #[serde(rename = "r")]
    reply: String,
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    principal: Option<String>,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(rename = "c")]
    created_ms: u64,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "o", default, skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
    #[serde(rename = "l")]
    lease_until_ms: u64,
    #[serde(rename = "v")]
    version: u64,
    #[serde(rename = "a", default)]
    abort_requested: bool,
    #[serde(rename = "u")]
    updated_ms: u64,
}

impl Header {
    /// Whether `owner` holds a live lease at `now`. An expired lease is
    /// nobody's: another process may claim it at any moment.
    fn held_by(&self, owner: &str, now: u64) -> bool {
        self.owner.as_deref() == Some(owner) && self.lease_until_ms > now
    }

    /// The live lease's holder and end, if any.
    fn live_lease(&self, now: u64) -> Option<(&str, u64)> {
        self.owner.as_deref().filter(|_| self.lease_until_ms > now).map(|o| (o, self.lease_until_ms))
    }

    fn ended(&self) -> Option<&str> {
        match self.status.as_str() {
            "running" | "parked" => None,
            label => Some(label),
        }
    }

    /// Ends the run as `label`: no owner, no lease; the journal is dropped
    /// by the caller.
    fn end(&mut self, label: &str, now: u64) {
        self.status = label.to_owned();
        self.owner = None;
        self.lease_until_ms = 0;
        self.version += 1;
        self.updated_ms = now;
    }

    fn meta(&self, run_id: &str) -> RunMeta {
        RunMeta {
            run_id: run_id.to_owned(),
            session: self.session.clone(),
            reply: self.reply.clone(),
            principal: self.principal.clone(),
            title: self.title.clone(),
            created_ms: self.created_ms,
        }
    }
}

fn encode(header: &Header, journal: &[u8]) -> Result<Vec<u8>, RunStoreError> {
    let json = serde_json::to_vec(header).map_err(|e| RunStoreError::Backend(format!("encoding a run record: {e}")))?;
    let len =
        u32::try_from(json.len()).map_err(|_| RunStoreError::Backend("a run record's header is too large".into()))?;
    let mut out = Vec::with_capacity(1 + 4 + json.len() + journal.len());
    out.push(FORMAT);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(journal);
    Ok(out)
}

/// The header and the journal's bytes of a stored record.
fn decode(bytes: &[u8]) -> Result<(Header, &[u8]), RunStoreError> {
    let malformed = |why: &str| RunStoreError::Backend(format!("a stored run record is malformed: {why}"));
    let (&format, rest) = bytes.split_first().ok_or_else(|| malformed("empty"))?;
    if format != FORMAT {
        return Err(malformed(&format!("unknown format {format} (written by a newer codemode?)")));
    }
    let (len, rest) = rest.split_at_checked(4).ok_or_else(|| malformed("truncated"))?;
    let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]) as usize;
    let (json, journal) = rest.split_at_checked(len).ok_or_else(|| malformed("truncated header"))?;
    let header = serde_json::from_slice(json).map_err(|e| malformed(&e.to_string()))?;
    Ok((header, journal))
}

fn record(run_id: &str, header: Header, journal: &[u8]) -> RunRecord {
    RunRecord {
        meta: header.meta(run_id),
        status: RunStatus::parse(&header.status),
        owner: header.owner,
        lease_until_ms: header.lease_until_ms,
        journal: journal.to_vec(),
        version: header.version,
        abort_requested: header.abort_requested,
        updated_ms: header.updated_ms,
    }
}

fn summary(run_id: &str, header: Header, journal_bytes: usize) -> RunSummary {
    RunSummary {
        meta: header.meta(run_id),
        status: RunStatus::parse(&header.status),
        owner: header.owner,
        lease_until_ms: header.lease_until_ms,
        journal_bytes: journal_bytes as u64,
        updated_ms: header.updated_ms,
        abort_requested: header.abort_requested,
    }
}

fn backend(e: &sled::Error) -> RunStoreError {
    RunStoreError::Backend(e.to_string())
}

fn time_key(created_ms: u64, run_id: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(8 + run_id.len());
    k.extend_from_slice(&created_ms.to_be_bytes());
    k.extend_from_slice(run_id.as_bytes());
    k
}

fn lease_end(now: u64, lease: Duration) -> u64 {
    now.saturating_add(u64::try_from(lease.as_millis()).unwrap_or(u64::MAX))
}

/// What one step of a read-modify-write decided.
#[allow(clippy::large_enum_variant, reason = "one lives on the stack per update; boxing would allocate for nothing")]
enum Step<T> {
    /// Write this record (header and journal) and answer `T`.
    Write(Header, Vec<u8>, T),
    /// Change nothing and answer `T`.
    Keep(T),
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
    store: SessionStore,
    runs: sled::Tree,
    by_time: sled::Tree,
    watchers: Arc<Watchers>,
}

impl SledRuns {
    /// The run store in `store`'s database (trees [`RUNS_TREE`] and
    /// [`RUNS_BY_TIME_TREE`]). An `end` with store writes needs `store`'s
    /// actor running ([`SessionStore::start_actor`]); everything else works
    /// on the database alone, as `codemode runs` does.
    ///
    /// # Errors
    /// [`StoreError::Io`](crate::StoreError::Io) when a tree cannot be opened.
    pub fn open(store: &SessionStore) -> Result<Self, crate::StoreError> {
        Ok(Self {
            runs: store.tree(RUNS_TREE)?,
            by_time: store.tree(RUNS_BY_TIME_TREE)?,
            watchers: Arc::clone(store.run_watchers()),
            store: store.clone(),
        })
    }

    /// Releases every lease in the database. sled admits one process at a
    /// time, so a lease found at open belongs to a process that is gone (a
    /// crash or `kill -9`): its runs can be resumed at once instead of after
    /// the lease runs out. Returns how many were released.
    ///
    /// # Errors
    /// [`StoreError::Io`](crate::StoreError::Io) when the database fails.
    pub fn release_stale_leases(&self) -> Result<usize, crate::StoreError> {
        let io = |e: &dyn std::fmt::Display| crate::StoreError::Io(e.to_string());
        let mut released = 0;
        for entry in self.runs.iter() {
            let (key, _) = entry.map_err(|e| io(&e))?;
            let run_id = String::from_utf8_lossy(&key).into_owned();
            let freed = self
                .update(&run_id, |current, _| match current {
                    Some((mut header, journal)) if header.owner.is_some() => {
                        header.owner = None;
                        header.lease_until_ms = 0;
                        Ok(Step::Write(header, journal.to_vec(), true))
                    }
                    _ => Ok(Step::Keep(false)),
                })
                .map_err(|e| io(&e))?;
            released += usize::from(freed);
        }
        Ok(released)
    }

    /// Reads, decides and compare-and-swaps `run_id`'s record until no
    /// other writer raced it; `decide` sees the header and journal (`None`:
    /// no such run) and the time.
    fn update<T>(
        &self,
        run_id: &str,
        decide: impl Fn(Option<(Header, &[u8])>, u64) -> Result<Step<T>, RunStoreError>,
    ) -> Result<T, RunStoreError> {
        loop {
            let current = self.runs.get(run_id).map_err(|e| backend(&e))?;
            let decoded = current.as_deref().map(decode).transpose()?;
            let new = match decide(decoded, now_ms())? {
                Step::Keep(answer) => return Ok(answer),
                Step::Write(header, journal, answer) => (encode(&header, &journal)?, answer),
            };
            match self.runs.compare_and_swap(run_id, current, Some(new.0)).map_err(|e| backend(&e))? {
                Ok(()) => return Ok(new.1),
                // Another writer changed the record since the read: decide again.
                Err(_) => continue,
            }
        }
    }

    /// Waits until everything written so far is on disk (a saved journal
    /// must survive a crash once `save` returned).
    async fn durable(&self) -> Result<(), RunStoreError> {
        self.store.flush_grouped().await.map_err(RunStoreError::Store)
    }

    fn create_now(&self, meta: &RunMeta, owner: &str, lease: Duration) -> Result<(), RunStoreError> {
        use sled::Transactional;
        let now = now_ms();
        let header = Header {
            session: meta.session.clone(),
            reply: meta.reply.clone(),
            principal: meta.principal.clone(),
            title: meta.title.clone(),
            created_ms: meta.created_ms,
            status: RunStatus::Running.as_str().to_owned(),
            owner: Some(owner.to_owned()),
            lease_until_ms: lease_end(now, lease),
            version: 0,
            abort_requested: false,
            updated_ms: now,
        };
        let bytes = encode(&header, &[])?;
        let run_id = meta.run_id.as_str();
        let index = time_key(meta.created_ms, run_id);
        let outcome = (&self.runs, &self.by_time).transaction(|(runs, by_time)| {
            if runs.get(run_id)?.is_some() {
                return Err(ConflictableTransactionError::Abort(RunStoreError::Backend(format!(
                    "run {run_id} already exists"
                ))));
            }
            runs.insert(run_id, bytes.as_slice())?;
            by_time.insert(index.as_slice(), &[][..])?;
            Ok(())
        });
        transaction_result(outcome)
    }

    fn end_without_writes(&self, run_id: &str, owner: &str, label: &str) -> Result<(), RunStoreError> {
        self.update(run_id, |current, now| {
            let Some((mut header, _)) = current else {
                return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
            };
            if header.ended().is_some() || !header.held_by(owner, now) {
                return Err(RunStoreError::LeaseLost { run_id: run_id.to_owned() });
            }
            header.end(label, now);
            Ok(Step::Write(header, Vec::new(), ()))
        })
    }

    async fn end_with_writes(
        &self,
        run_id: &str,
        owner: &str,
        label: &str,
        writes: RunWrites,
    ) -> Result<(), RunStoreError> {
        let Some(bytes) = self.runs.get(run_id).map_err(|e| backend(&e))? else {
            return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
        };
        let session = decode(&bytes)?.0.session;
        let (run, owner, label) = (run_id.to_owned(), owner.to_owned(), label.to_owned());
        // Re-checked inside the transaction: the lease may have moved since
        // the read above, and the commit must not happen if it did.
        let attached: crate::session::Attached = Box::new(move |runs: &TransactionalTree| {
            let lost = || RunStoreError::LeaseLost { run_id: run.clone() };
            let current = runs.get(&run).map_err(|e| RunStoreError::Backend(e.to_string()))?;
            let Some(current) = current else { return Err(RunStoreError::Missing { run_id: run.clone() }) };
            let (mut header, _) = decode(&current)?;
            let now = now_ms();
            if header.ended().is_some() || !header.held_by(&owner, now) {
                return Err(lost());
            }
            header.end(&label, now);
            let bytes = encode(&header, &[])?;
            runs.insert(run.as_str(), bytes).map_err(|e| RunStoreError::Backend(e.to_string()))?;
            Ok(())
        });
        self.store.commit_attached(&session, writes, self.runs.clone(), attached).await
    }

    fn list_now(&self, filter: &RunFilter) -> Result<Vec<RunSummary>, RunStoreError> {
        let limit = filter.limit.unwrap_or(MAX_LIST_RUNS).min(MAX_LIST_RUNS);
        let mut out = Vec::new();
        for item in self.by_time.iter().rev() {
            if out.len() >= limit {
                break;
            }
            let (key, _) = item.map_err(|e| backend(&e))?;
            let Some(run_id) = key.get(8..).and_then(|id| std::str::from_utf8(id).ok()) else { continue };
            // An index entry whose run was pruned between the two reads.
            let Some(bytes) = self.runs.get(run_id).map_err(|e| backend(&e))? else { continue };
            let (header, journal) = decode(&bytes)?;
            if filter.status.as_deref().is_some_and(|s| s != header.status)
                || filter.session.as_deref().is_some_and(|s| s != header.session)
            {
                continue;
            }
            out.push(summary(run_id, header, journal.len()));
        }
        Ok(out)
    }

    fn prune_now(&self, before_ms: u64) -> Result<u64, RunStoreError> {
        let mut pruned = 0;
        for item in self.runs.iter() {
            let (key, bytes) = item.map_err(|e| backend(&e))?;
            let (header, _) = decode(&bytes)?;
            if header.ended().is_none() || header.updated_ms >= before_ms {
                continue;
            }
            // Only the record as read: one changed since is left alone.
            if self.runs.compare_and_swap(&key, Some(&bytes), None as Option<&[u8]>).map_err(|e| backend(&e))?.is_ok() {
                let run_id = String::from_utf8_lossy(&key);
                self.by_time.remove(time_key(header.created_ms, &run_id)).map_err(|e| backend(&e))?;
                pruned += 1;
            }
        }
        Ok(pruned)
    }
}

fn transaction_result(outcome: Result<(), TransactionError<RunStoreError>>) -> Result<(), RunStoreError> {
    match outcome {
        Ok(()) => Ok(()),
        Err(TransactionError::Abort(e)) => Err(e),
        Err(TransactionError::Storage(e)) => Err(backend(&e)),
    }
}

fn check_end_label(label: &str) -> Result<(), RunStoreError> {
    if label.is_empty() || matches!(label, "running" | "parked") {
        return Err(RunStoreError::Backend(format!("{label:?} is not an end state")));
    }
    Ok(())
}

impl RunStore for SledRuns {
    fn create(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        let result = self.create_now(meta, owner, lease);
        Box::pin(async move {
            result?;
            self.durable().await
        })
    }

    fn create_before_save(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        // The save that follows flushes the whole database, this record
        // included: one flush per first park instead of two.
        let result = self.create_now(meta, owner, lease);
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
        let result = if matches!(status, RunStatus::Ended(_)) {
            Err(RunStoreError::Backend("save takes `running` or `parked`; a run is ended with `end`".into()))
        } else {
            self.update(run_id, |current, now| {
                let Some((mut header, _)) = current else {
                    return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
                };
                if header.ended().is_some() || !header.held_by(owner, now) {
                    return Err(RunStoreError::LeaseLost { run_id: run_id.to_owned() });
                }
                header.status = status.as_str().to_owned();
                match lease {
                    Some(lease) => header.lease_until_ms = lease_end(now, lease),
                    None => {
                        header.owner = None;
                        header.lease_until_ms = 0;
                    }
                }
                header.version += 1;
                header.updated_ms = now;
                let version = header.version;
                Ok(Step::Write(header, journal.clone(), version))
            })
        };
        let run_id = run_id.to_owned();
        Box::pin(async move {
            let version = result?;
            self.watchers.changed(&run_id);
            self.durable().await?;
            Ok(version)
        })
    }

    fn claim(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim> {
        let result = self.update(run_id, |current, now| {
            let Some((mut header, journal)) = current else { return Ok(Step::Keep(Claim::Missing)) };
            if let Some(label) = header.ended() {
                return Ok(Step::Keep(Claim::Ended(label.to_owned())));
            }
            if let Some((holder, until_ms)) = header.live_lease(now)
                && holder != owner
            {
                return Ok(Step::Keep(Claim::Held { owner: holder.to_owned(), until_ms }));
            }
            header.owner = Some(owner.to_owned());
            header.lease_until_ms = lease_end(now, lease);
            let claimed = record(run_id, header.clone(), journal);
            Ok(Step::Write(header, journal.to_vec(), Claim::Claimed(claimed)))
        });
        Box::pin(async move { result })
    }

    fn renew(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        let result = self.update(run_id, |current, now| {
            let Some((mut header, journal)) = current else {
                return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
            };
            if header.ended().is_some() || !header.held_by(owner, now) {
                return Err(RunStoreError::LeaseLost { run_id: run_id.to_owned() });
            }
            header.lease_until_ms = lease_end(now, lease);
            Ok(Step::Write(header, journal.to_vec(), ()))
        });
        Box::pin(async move { result })
    }

    fn release(&self, run_id: &str, owner: &str) -> RunFuture<'_, ()> {
        let result = self.update(run_id, |current, now| {
            // Not held (or no such run): nothing to release.
            let Some((mut header, journal)) = current else { return Ok(Step::Keep(false)) };
            if header.owner.as_deref() != Some(owner) {
                return Ok(Step::Keep(false));
            }
            header.owner = None;
            header.lease_until_ms = 0;
            header.updated_ms = now;
            Ok(Step::Write(header, journal.to_vec(), true))
        });
        let run_id = run_id.to_owned();
        Box::pin(async move {
            if result? {
                self.watchers.changed(&run_id);
            }
            Ok(())
        })
    }

    fn end(&self, run_id: &str, owner: &str, end: &str, writes: RunWrites) -> RunFuture<'_, ()> {
        let (run_id, owner, end) = (run_id.to_owned(), owner.to_owned(), end.to_owned());
        Box::pin(async move {
            check_end_label(&end)?;
            if writes.is_empty() {
                self.end_without_writes(&run_id, &owner, &end)?;
                self.watchers.changed(&run_id);
                self.durable().await
            } else {
                // Durable when answered: the actor waits for its flusher.
                self.end_with_writes(&run_id, &owner, &end, writes).await?;
                self.watchers.changed(&run_id);
                Ok(())
            }
        })
    }

    fn get(&self, run_id: &str) -> RunFuture<'_, Option<RunRecord>> {
        let result = (|| {
            let Some(bytes) = self.runs.get(run_id).map_err(|e| backend(&e))? else { return Ok(None) };
            let (header, journal) = decode(&bytes)?;
            Ok(Some(record(run_id, header, journal)))
        })();
        Box::pin(async move { result })
    }

    fn list(&self, filter: RunFilter) -> RunFuture<'_, Vec<RunSummary>> {
        let result = self.list_now(&filter);
        Box::pin(async move { result })
    }

    fn request_abort(&self, run_id: &str) -> RunFuture<'_, Claim> {
        // The answer, and whether the record changed.
        let result = self.update(run_id, |current, now| {
            let Some((mut header, journal)) = current else { return Ok(Step::Keep((Claim::Missing, false))) };
            if let Some(label) = header.ended() {
                return Ok(Step::Keep((Claim::Ended(label.to_owned()), false)));
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
            header.end("aborted", now);
            Ok(Step::Write(header, Vec::new(), (Claim::Ended("aborted".to_owned()), true)))
        });
        let run_id = run_id.to_owned();
        Box::pin(async move {
            let (claim, wrote) = result?;
            if wrote {
                self.watchers.changed(&run_id);
                self.durable().await?;
            }
            Ok(claim)
        })
    }

    fn changed(&self, run_id: &str, timeout: Duration) -> RunFuture<'_, ()> {
        // Registered now, not at the first poll: a change right after this
        // call still wakes the future.
        let wait = self.watchers.watch(run_id, timeout);
        Box::pin(async move {
            wait.await;
            Ok(())
        })
    }

    fn prune(&self, before_ms: u64) -> RunFuture<'_, u64> {
        let result = self.prune_now(before_ms);
        Box::pin(async move { result })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            session: "s".into(),
            reply: "r".into(),
            principal: None,
            title: Some("t".into()),
            created_ms: 1,
            status: "parked".into(),
            owner: None,
            lease_until_ms: 0,
            version: 3,
            abort_requested: false,
            updated_ms: 2,
        }
    }

    #[test]
    fn a_record_keeps_its_journal_bytes_verbatim_after_a_compact_header() {
        let journal = [0u8, 255, 1, 2];
        let bytes = encode(&header(), &journal).unwrap();
        let (back, stored) = decode(&bytes).unwrap();
        assert_eq!(stored, journal);
        assert_eq!((back.status.as_str(), back.version, back.title.as_deref()), ("parked", 3, Some("t")));
        let json_len = u32::from_be_bytes(bytes[1..5].try_into().unwrap()) as usize;
        assert!(json_len < 80, "short field names, absent options skipped: {json_len} bytes");
    }

    #[test]
    fn a_malformed_or_newer_record_is_a_backend_error_not_a_panic() {
        let bytes = encode(&header(), b"j").unwrap();
        for bad in [&[][..], &[FORMAT][..], &bytes[..7], &[9, 0, 0, 0, 0][..]] {
            assert!(matches!(decode(bad), Err(RunStoreError::Backend(_))), "{bad:?}");
        }
        assert!(decode(&[9, 0, 0, 0, 0]).unwrap_err().to_string().contains("unknown format 9"));
    }
}
