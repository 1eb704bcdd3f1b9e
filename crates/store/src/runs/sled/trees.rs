//! The sled run store's three trees and every read and write of them:
//! records ([`RUNS_TREE`]), journal chunks ([`RUN_CHUNKS_TREE`]) and the
//! index by creation time ([`RUNS_BY_TIME_TREE`]).
//!
//! Every change of a record is a compare-and-swap of the whole record,
//! retried on a race, so two handles claiming together cannot both win.
//! Not transactions: sled runs a transaction exclusively, also against a
//! flush in progress, so on the park's path a transaction would wait out
//! every background flush's `fsync`. What a change means for the run store
//! (wake-ups, durability, the quota index) is the caller's (`mod.rs`).

use std::time::Duration;

use codemode_protocol::RunEnd;
use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use super::record::{
    Header, RUN_CHUNKS_TREE, RUNS_BY_TIME_TREE, RUNS_TREE, backend, chunk_key, decode, encode, lease_end, record,
    summary, time_key,
};
use super::wal::Entry;
use crate::error::StoreError;
use crate::runs::types::{MAX_LIST_RUNS, RunFilter, RunMeta, RunRecord, RunStatus, RunStoreError, RunSummary, now_ms};
use crate::sessions::sled::{Attached, SledSessions};

/// What one step of a read-modify-write decided.
#[expect(clippy::large_enum_variant, reason = "one lives on the stack per update; boxing would allocate for nothing")]
pub(super) enum Step<T> {
    /// Write this record (header and journal) and answer `T`.
    Write(Header, Vec<u8>, T),
    /// Change nothing and answer `T`.
    Keep(T),
}

/// What a journal write wrote: the new version, the entry for the run log,
/// and the run's size for the quota index.
pub(super) struct Journaled {
    pub(super) version: u64,
    pub(super) entry: Entry,
    pub(super) session: String,
    pub(super) principal: Option<String>,
    pub(super) size: u64,
}

/// The three trees (cheap to clone: sled trees are handles).
#[derive(Clone, Debug)]
pub(super) struct Trees {
    runs: sled::Tree,
    by_time: sled::Tree,
    chunks: sled::Tree,
}

/// The lease check every journal write and end makes.
fn guard(header: &Header, run_id: &str, owner: &str, now: u64) -> Result<(), RunStoreError> {
    if !header.live() || !header.held_by(owner, now) {
        return Err(RunStoreError::LeaseLost { run_id: run_id.to_owned() });
    }
    Ok(())
}

fn chunk_len(bytes: &[u8]) -> Result<u32, RunStoreError> {
    u32::try_from(bytes.len())
        .map_err(|_| RunStoreError::Backend(format!("a journal chunk of {} bytes is too large", bytes.len())))
}

impl Trees {
    /// The trees of `sled`'s database.
    ///
    /// # Errors
    /// [`StoreError::Io`] when a tree cannot be opened.
    pub(super) fn open(sled: &SledSessions) -> Result<Self, StoreError> {
        Ok(Self {
            runs: sled.tree(RUNS_TREE)?,
            by_time: sled.tree(RUNS_BY_TIME_TREE)?,
            chunks: sled.tree(RUN_CHUNKS_TREE)?,
        })
    }

    /// The records' tree (a run's end with store writes is a transaction on
    /// it and the sessions' tree).
    pub(super) fn runs(&self) -> &sled::Tree {
        &self.runs
    }

    /// Reads, decides and compare-and-swaps `run_id`'s record until no
    /// other writer raced it; `decide` sees the header and journal (`None`:
    /// no such run) and the time.
    pub(super) fn update<T>(
        &self,
        run_id: &str,
        decide: impl Fn(Option<(Header, &[u8])>, u64) -> Result<Step<T>, RunStoreError>,
    ) -> Result<T, RunStoreError> {
        loop {
            let current = self.runs.get(run_id).map_err(|e| backend(&e))?;
            let decoded = current.as_deref().map(decode).transpose()?;
            let (new, answer) = match decide(decoded, now_ms())? {
                Step::Keep(answer) => return Ok(answer),
                Step::Write(header, journal, answer) => (encode(&header, &journal)?, answer),
            };
            match self.runs.compare_and_swap(run_id, current, Some(new)).map_err(|e| backend(&e))? {
                Ok(()) => return Ok(answer),
                // Another writer changed the record since the read: decide again.
                Err(_) => continue,
            }
        }
    }

    /// Creates the record; returns it as written.
    pub(super) fn create(&self, meta: &RunMeta, owner: &str, lease: Duration) -> Result<Entry, RunStoreError> {
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
            chunks: 0,
            chunk_bytes: 0,
        };
        let bytes = encode(&header, &[])?;
        let run_id = meta.run_id.as_str();
        let index = time_key(meta.created_ms, run_id);
        // The index goes in first: a crash between the two leaves an index
        // entry without a run, which listing skips.
        self.by_time.insert(index.as_slice(), &[][..]).map_err(|e| backend(&e))?;
        let created = self.runs.compare_and_swap(run_id, None as Option<&[u8]>, Some(bytes.as_slice()));
        if !matches!(created, Ok(Ok(()))) {
            let _ = self.by_time.remove(index.as_slice());
            return Err(match created {
                Err(e) => backend(&e),
                _ => RunStoreError::Exists { run_id: run_id.to_owned() },
            });
        }
        Ok(Entry { run_id: run_id.to_owned(), record: bytes, chunk: None })
    }

    /// Appends `bytes` as the journal's next chunk, with the status and
    /// lease, if `owner` holds the lease and the journal is at version
    /// `after`.
    ///
    /// The chunk is written under the next free number, then the record
    /// that counts it is compare-and-swapped; a record changed meanwhile (a
    /// renewal) is read again. A chunk whose record never counted it (the
    /// lease was lost) is past the count: never read, and pruned.
    pub(super) fn append(
        &self,
        run_id: &str,
        owner: &str,
        status: &RunStatus,
        bytes: &[u8],
        lease: Option<Duration>,
        after: u64,
    ) -> Result<Journaled, RunStoreError> {
        let chunk_len = chunk_len(bytes)?;
        loop {
            let Some(current) = self.runs.get(run_id).map_err(|e| backend(&e))? else {
                return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
            };
            let (mut header, inline) = decode(&current)?;
            let now = now_ms();
            guard(&header, run_id, owner, now)?;
            if header.version != after {
                return Err(RunStoreError::Stale { run_id: run_id.to_owned(), stored: header.version });
            }
            let chunk = (!bytes.is_empty()).then_some(header.chunks);
            if let Some(seq) = chunk {
                self.chunks.insert(chunk_key(run_id, seq), bytes).map_err(|e| backend(&e))?;
                header.chunks = seq + 1;
                header.chunk_bytes += u64::from(chunk_len);
            }
            header.advance(status, lease, now);
            let record = encode(&header, inline)?;
            let swapped =
                self.runs.compare_and_swap(run_id, Some(&current), Some(record.as_slice())).map_err(|e| backend(&e))?;
            if swapped.is_err() {
                continue;
            }
            let chunk = chunk.map(|seq| (seq, bytes.to_vec()));
            return Ok(Journaled {
                version: header.version,
                entry: Entry { run_id: run_id.to_owned(), record, chunk },
                size: inline.len() as u64 + header.chunk_bytes,
                session: header.session,
                principal: header.principal,
            });
        }
    }

    /// Replaces the journal with `bytes` (its one chunk), with the status
    /// and lease, if `owner` holds the lease: one transaction, since it
    /// rewrites chunks the record already counts (rare: an upgraded
    /// journal's first write).
    pub(super) fn replace(
        &self,
        run_id: &str,
        owner: &str,
        status: &RunStatus,
        bytes: &[u8],
        lease: Option<Duration>,
    ) -> Result<Journaled, RunStoreError> {
        if !status.is_live() {
            return Err(RunStoreError::Backend("save takes `running` or `parked`; a run is ended with `end`".into()));
        }
        let chunk_len = chunk_len(bytes)?;
        let outcome = (&self.runs, &self.chunks).transaction(|(runs, chunks)| {
            let abort = |e: RunStoreError| ConflictableTransactionError::Abort(e);
            let Some(current) = runs.get(run_id)? else {
                return Err(abort(RunStoreError::Missing { run_id: run_id.to_owned() }));
            };
            let (mut header, _) = decode(&current).map_err(abort)?;
            let now = now_ms();
            guard(&header, run_id, owner, now).map_err(abort)?;
            // The stored journal, inline and in chunks, becomes `bytes`.
            for old in 0..header.chunks {
                chunks.remove(chunk_key(run_id, old))?;
            }
            chunks.insert(chunk_key(run_id, 0), bytes)?;
            header.chunks = 1;
            header.chunk_bytes = u64::from(chunk_len);
            header.advance(status, lease, now);
            let record = encode(&header, &[]).map_err(abort)?;
            runs.insert(run_id, record.as_slice())?;
            Ok((header, record))
        });
        let (header, record) = match outcome {
            Ok(done) => done,
            Err(TransactionError::Abort(e)) => return Err(e),
            Err(TransactionError::Storage(e)) => return Err(backend(&e)),
        };
        Ok(Journaled {
            version: header.version,
            entry: Entry { run_id: run_id.to_owned(), record, chunk: Some((0, bytes.to_vec())) },
            size: header.chunk_bytes,
            session: header.session,
            principal: header.principal,
        })
    }

    /// The run's record with its journal: inline bytes, then the chunks
    /// the record counts. Read without a transaction (see the module docs):
    /// the record is read again after its chunks, and a read that raced a
    /// write (the record changed) is made again, so a journal is seen whole
    /// or not at all.
    pub(super) fn read(&self, run_id: &str) -> Result<Option<RunRecord>, RunStoreError> {
        for _ in 0..64 {
            let Some(bytes) = self.runs.get(run_id).map_err(|e| backend(&e))? else { return Ok(None) };
            let (header, inline) = decode(&bytes)?;
            let mut journal = Vec::with_capacity(inline.len() + usize::try_from(header.chunk_bytes).unwrap_or(0));
            journal.extend_from_slice(inline);
            let mut missing = None;
            for seq in 0..header.chunks {
                match self.chunks.get(chunk_key(run_id, seq)).map_err(|e| backend(&e))? {
                    Some(chunk) => journal.extend_from_slice(&chunk),
                    None => {
                        missing = Some(seq);
                        break;
                    }
                }
            }
            let again = self.runs.get(run_id).map_err(|e| backend(&e))?;
            if again.as_deref() != Some(&bytes[..]) {
                continue;
            }
            if let Some(seq) = missing {
                return Err(RunStoreError::Backend(format!(
                    "chunk {seq} of run {run_id}'s journal is missing ({} expected)",
                    header.chunks
                )));
            }
            return record(run_id, header, journal).map(Some);
        }
        Err(RunStoreError::Backend(format!("run {run_id} kept changing while it was read; retry")))
    }

    /// Ends the run as `end` if `owner` holds the lease; returns what was
    /// written and the chunks to delete.
    /// `kept` stays in the record in place of the journal.
    pub(super) fn end(
        &self,
        run_id: &str,
        owner: &str,
        end: RunEnd,
        kept: &[u8],
    ) -> Result<(Entry, u32), RunStoreError> {
        let (record, chunks) = self.update(run_id, |current, now| {
            let Some((mut header, _)) = current else {
                return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
            };
            guard(&header, run_id, owner, now)?;
            let chunks = header.chunks;
            header.end(end, now);
            let record = encode(&header, kept)?;
            Ok(Step::Write(header, kept.to_vec(), (record, chunks)))
        })?;
        Ok((Entry { run_id: run_id.to_owned(), record, chunk: None }, chunks))
    }

    /// How to end the run as `end` in the transaction that commits its
    /// store writes: the run's session, the chunks to delete after, and the
    /// write to the records' tree, which re-checks the lease inside the
    /// transaction (it may have moved since this read, and the commit must
    /// not happen if it did).
    pub(super) fn end_attached(
        &self,
        run_id: &str,
        owner: &str,
        end: RunEnd,
        kept: Vec<u8>,
    ) -> Result<(String, u32, Attached<RunStoreError>), RunStoreError> {
        let Some(bytes) = self.runs.get(run_id).map_err(|e| backend(&e))? else {
            return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
        };
        let (header, _) = decode(&bytes)?;
        let (run, owner) = (run_id.to_owned(), owner.to_owned());
        let attached: Attached<RunStoreError> = Box::new(move |runs: &TransactionalTree| {
            let current = runs.get(&run).map_err(|e| RunStoreError::Backend(e.to_string()))?;
            let Some(current) = current else { return Err(RunStoreError::Missing { run_id: run.clone() }) };
            let (mut header, _) = decode(&current)?;
            let now = now_ms();
            guard(&header, &run, &owner, now)?;
            header.end(end, now);
            let bytes = encode(&header, &kept)?;
            runs.insert(run.as_str(), bytes).map_err(|e| RunStoreError::Backend(e.to_string()))?;
            Ok(())
        });
        Ok((header.session, header.chunks, attached))
    }

    /// Deletes chunks `0..n` of `run_id` (after its end; best effort, the
    /// pruning sweep catches what is left).
    pub(super) fn drop_chunks(&self, run_id: &str, n: u32) {
        for seq in 0..n {
            if let Err(e) = self.chunks.remove(chunk_key(run_id, seq)) {
                tracing::warn!(run_id, error = %e, "an ended run's journal chunk was not deleted; pruning will");
                return;
            }
        }
    }

    /// Runs matching `filter`, newest first, without journals.
    pub(super) fn list(&self, filter: &RunFilter) -> Result<Vec<RunSummary>, RunStoreError> {
        let limit = filter.limit.unwrap_or(MAX_LIST_RUNS).min(MAX_LIST_RUNS);
        let mut out = Vec::new();
        let end = match &filter.before {
            Some((created_ms, run_id)) => [created_ms.to_be_bytes().as_slice(), run_id.as_bytes()].concat(),
            None => vec![0xff; 9],
        };
        for item in self.by_time.range(..end).rev() {
            if out.len() >= limit {
                break;
            }
            let (key, _) = item.map_err(|e| backend(&e))?;
            let Some(run_id) = key.get(8..).and_then(|id| std::str::from_utf8(id).ok()) else { continue };
            // An index entry whose run was pruned between the two reads.
            let Some(bytes) = self.runs.get(run_id).map_err(|e| backend(&e))? else { continue };
            let (header, journal) = decode(&bytes)?;
            if filter.status.as_ref().is_some_and(|s| s.as_str() != header.status)
                || filter.session.as_deref().is_some_and(|s| s != header.session)
                || filter.principal.as_ref().is_some_and(|p| Some(p) != header.principal.as_ref())
            {
                continue;
            }
            out.push(summary(run_id, header, journal.len())?);
        }
        Ok(out)
    }

    /// Deletes ended runs last changed before `before_ms`, then the chunks
    /// nothing counts; returns how many runs went.
    pub(super) fn prune(&self, before_ms: u64, keep: usize) -> Result<u64, RunStoreError> {
        let mut pruned = 0;
        // Ended runs young enough to keep, by last change: past the newest
        // `keep` of them they go too.
        let mut young: Vec<(u64, sled::IVec)> = Vec::new();
        for item in self.runs.iter() {
            let (key, bytes) = item.map_err(|e| backend(&e))?;
            let (header, _) = decode(&bytes)?;
            if header.live() {
                continue;
            }
            if header.updated_ms >= before_ms {
                young.push((header.updated_ms, key));
                continue;
            }
            pruned += u64::from(self.delete_ended(&key, &bytes, header.created_ms)?);
        }
        if young.len() > keep {
            young.sort_unstable_by_key(|(updated_ms, _)| std::cmp::Reverse(*updated_ms));
            for (_, key) in young.drain(keep..) {
                let Some(bytes) = self.runs.get(&key).map_err(|e| backend(&e))? else { continue };
                let (header, _) = decode(&bytes)?;
                if !header.live() {
                    pruned += u64::from(self.delete_ended(&key, &bytes, header.created_ms)?);
                }
            }
        }
        self.prune_chunks()?;
        Ok(pruned)
    }

    /// Deletes the ended run `key` as read (`bytes`; one changed since is
    /// left alone) and its time index entry; whether it did.
    fn delete_ended(&self, key: &[u8], bytes: &[u8], created_ms: u64) -> Result<bool, RunStoreError> {
        if self.runs.compare_and_swap(key, Some(bytes), None as Option<&[u8]>).map_err(|e| backend(&e))?.is_err() {
            return Ok(false);
        }
        let run_id = String::from_utf8_lossy(key);
        self.by_time.remove(time_key(created_ms, &run_id)).map_err(|e| backend(&e))?;
        Ok(true)
    }

    /// Deletes the chunks of runs that ended or no longer exist (left by a
    /// run's end, whose record drops its journal before the chunks go).
    /// A live run's chunks are all kept, also past its record's count: an
    /// append writes its chunk before the record that counts it, so a
    /// chunk past the count may be one on its way; a leftover of a lost
    /// lease there is overwritten by the run's next append, or goes with
    /// its end.
    fn prune_chunks(&self) -> Result<u64, RunStoreError> {
        let mut removed = 0;
        let mut current: Option<(Vec<u8>, u32)> = None;
        for item in self.chunks.iter() {
            let (key, _) = item.map_err(|e| backend(&e))?;
            let Some(nul) = key.iter().position(|b| *b == 0) else { continue };
            let (run, seq) = (&key[..nul], key.get(nul + 1..).and_then(|s| <[u8; 4]>::try_from(s).ok()));
            if current.as_ref().is_none_or(|(r, _)| r.as_slice() != run) {
                let kept = match self.runs.get(run).map_err(|e| backend(&e))? {
                    Some(bytes) => {
                        let (header, _) = decode(&bytes)?;
                        if header.live() { u32::MAX } else { 0 }
                    }
                    None => 0,
                };
                current = Some((run.to_vec(), kept));
            }
            let kept = current.as_ref().map_or(0, |(_, n)| *n);
            if seq.is_none_or(|s| u32::from_be_bytes(s) >= kept) {
                self.chunks.remove(&key).map_err(|e| backend(&e))?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Every stored run not ended: its id, session, principal and journal
    /// size (what the quota index counts).
    pub(super) fn live_runs(&self) -> Result<Vec<(String, Header, u64)>, RunStoreError> {
        let mut out = Vec::new();
        for item in self.runs.iter() {
            let (key, bytes) = item.map_err(|e| backend(&e))?;
            let (header, inline) = decode(&bytes)?;
            if header.live() {
                let size = inline.len() as u64 + header.chunk_bytes;
                out.push((String::from_utf8_lossy(&key).into_owned(), header, size));
            }
        }
        Ok(out)
    }

    /// Clears every lease in the database; returns how many were held.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the database fails.
    pub(super) fn release_all_leases(&self) -> Result<usize, StoreError> {
        let io = |e: &dyn std::fmt::Display| StoreError::Io(e.to_string());
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

    /// Re-applies `entries` (a run log a previous process left): each
    /// record newer than what sled holds (by version), with its chunk.
    /// Returns how many were applied.
    ///
    /// # Errors
    /// [`StoreError::Io`] when a record is malformed or a write fails.
    pub(super) fn reapply(&self, entries: impl Iterator<Item = Entry>) -> Result<usize, StoreError> {
        let io = |what: &str, e: &dyn std::fmt::Display| StoreError::Io(format!("{what}: {e}"));
        let mut applied = 0usize;
        for entry in entries {
            let (new, _) = decode(&entry.record).map_err(|e| io("a logged run record", &e))?;
            let newer = match self.runs.get(&entry.run_id).map_err(|e| io("reading a run", &e))? {
                None => true,
                Some(stored) => decode(&stored).map_err(|e| io("a stored run record", &e))?.0.version < new.version,
            };
            if !newer {
                continue;
            }
            self.runs.insert(entry.run_id.as_bytes(), entry.record.as_slice()).map_err(|e| io("a run", &e))?;
            self.by_time
                .insert(time_key(new.created_ms, &entry.run_id), &[][..])
                .map_err(|e| io("the run index", &e))?;
            if let Some((seq, chunk)) = &entry.chunk {
                self.chunks
                    .insert(chunk_key(&entry.run_id, *seq), chunk.as_slice())
                    .map_err(|e| io("a journal chunk", &e))?;
            }
            applied += 1;
        }
        Ok(applied)
    }
}
