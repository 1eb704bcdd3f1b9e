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
//! journal's first bytes (format-1 records keep their whole journal there;
//! format 2 keeps it empty). The rest of the journal is in chunks, tree
//! [`RUN_CHUNKS_TREE`], key: the run id, a NUL, the chunk's number
//! (big-endian `u32`): an [`append`](RunStore::append) writes one chunk and
//! the small record, never what is already stored. The header counts the
//! chunks and their bytes, so `list` sizes a journal without reading it.
//! [`RUNS_BY_TIME_TREE`] indexes runs by creation time (`created_ms`
//! big-endian, then the run id) for newest-first listing.
//!
//! Durability ([`Durability`]): `Machine` flushes sled before a journal
//! write returns (grouped with concurrent ones); `Process` logs the write to
//! the run log (`wal.rs`) instead and flushes in the background.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use super::usage::UsageIndex;
use super::wal::{Entry, RunLog};
use super::{
    Claim, Durability, MAX_LIST_RUNS, RunFilter, RunFuture, RunMeta, RunRecord, RunStatus, RunStore, RunStoreError,
    RunSummary, RunWrites, Watchers, now_ms,
};
use crate::SessionStore;

/// The sled tree holding run records.
pub const RUNS_TREE: &str = "runs";

/// The sled tree indexing runs by creation time.
pub const RUNS_BY_TIME_TREE: &str = "runs_by_time";

/// The sled tree holding journal chunks.
pub const RUN_CHUNKS_TREE: &str = "run_chunks";

/// The record format written by this version: 2 counts journal chunks;
/// format-1 records (no chunks) are still read.
const FORMAT: u8 = 2;

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
    /// Journal chunks (format 2; absent in format 1).
    #[serde(rename = "n", default)]
    chunks: u32,
    /// Their bytes.
    #[serde(rename = "b", default)]
    chunk_bytes: u64,
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

    /// A journal write: the new status, the lease renewed (or released,
    /// `None`), a new version.
    fn advance(&mut self, status: &RunStatus, lease: Option<Duration>, now: u64) {
        self.status = status.as_str().to_owned();
        match lease {
            Some(lease) => self.lease_until_ms = lease_end(now, lease),
            None => {
                self.owner = None;
                self.lease_until_ms = 0;
            }
        }
        self.version += 1;
        self.updated_ms = now;
    }

    /// Ends the run as `label`: no owner, no lease; the journal is dropped
    /// by the caller.
    fn end(&mut self, label: &str, now: u64) {
        self.status = label.to_owned();
        self.owner = None;
        self.lease_until_ms = 0;
        self.version += 1;
        self.updated_ms = now;
        self.chunks = 0;
        self.chunk_bytes = 0;
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
    if format != FORMAT && format != 1 {
        return Err(malformed(&format!("unknown format {format} (written by a newer codemode?)")));
    }
    let (len, rest) = rest.split_at_checked(4).ok_or_else(|| malformed("truncated"))?;
    let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]) as usize;
    let (json, journal) = rest.split_at_checked(len).ok_or_else(|| malformed("truncated header"))?;
    let header = serde_json::from_slice(json).map_err(|e| malformed(&e.to_string()))?;
    Ok((header, journal))
}

fn record(run_id: &str, header: Header, journal: Vec<u8>) -> RunRecord {
    RunRecord {
        meta: header.meta(run_id),
        status: RunStatus::parse(&header.status),
        owner: header.owner,
        lease_until_ms: header.lease_until_ms,
        journal,
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
        journal_bytes: journal_bytes as u64 + header.chunk_bytes,
        updated_ms: header.updated_ms,
        abort_requested: header.abort_requested,
    }
}

fn backend(e: &sled::Error) -> RunStoreError {
    RunStoreError::Backend(e.to_string())
}

/// The key of chunk `seq` of `run_id`'s journal.
fn chunk_key(run_id: &str, seq: u32) -> Vec<u8> {
    let mut k = Vec::with_capacity(run_id.len() + 5);
    k.extend_from_slice(run_id.as_bytes());
    k.push(0);
    k.extend_from_slice(&seq.to_be_bytes());
    k
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

/// The run log of a database and whether it was re-applied (shared by its
/// handles, see [`SessionStore`]).
#[derive(Debug, Default)]
pub(crate) struct RunLogSlot {
    recovered: bool,
    log: Option<Arc<RunLog>>,
    /// The stored runs not ended, for the quotas.
    usage: Arc<std::sync::Mutex<UsageIndex>>,
}

/// One checkpoint: rotate the log, flush sled once for everything before
/// the rotation, delete the rotated log.
async fn checkpoint(log: &RunLog, store: &SessionStore) -> Result<(), RunStoreError> {
    match log.rotate() {
        Ok(false) => return Ok(()),
        Ok(true) => {}
        Err(e) => return Err(RunStoreError::Backend(format!("rotating the run log: {e}"))),
    }
    let flushed = store.flush_grouped().await;
    log.finish_checkpoint(flushed.is_ok());
    flushed.map_err(RunStoreError::Store)
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
    chunks: sled::Tree,
    watchers: Arc<Watchers>,
    durability: Durability,
    /// The run log, with `Durability::Process` on a store on disk.
    log: Option<Arc<RunLog>>,
    /// Shared by every handle on the database.
    usage: Arc<std::sync::Mutex<UsageIndex>>,
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
    /// [`StoreError::Io`](crate::StoreError::Io) when a tree cannot be
    /// opened or the left run log cannot be re-applied.
    pub fn open(store: &SessionStore) -> Result<Self, crate::StoreError> {
        let runs = Self {
            runs: store.tree(RUNS_TREE)?,
            by_time: store.tree(RUNS_BY_TIME_TREE)?,
            chunks: store.tree(RUN_CHUNKS_TREE)?,
            watchers: Arc::clone(store.run_watchers()),
            store: store.clone(),
            durability: Durability::Machine,
            log: None,
            usage: Arc::clone(&store.run_log().lock().unwrap_or_else(std::sync::PoisonError::into_inner).usage),
        };
        let mut slot = store.run_log().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
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
    /// [`StoreError::Io`](crate::StoreError::Io) when the run log cannot be
    /// created in the store's directory.
    pub fn with_durability(mut self, durability: Durability) -> Result<Self, crate::StoreError> {
        self.durability = durability;
        self.log = match (durability, self.store.sled_path()) {
            (Durability::Process, Some(dir)) => {
                let mut slot = self.store.run_log().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                match &slot.log {
                    Some(log) => Some(Arc::clone(log)),
                    None => {
                        let log = Arc::new(
                            RunLog::create(dir)
                                .map_err(|e| crate::StoreError::Io(format!("creating the run log: {e}")))?,
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

    /// Re-applies the run log a previous process left: each record newer
    /// than what sled holds (by version), with its chunk. Then sled is
    /// flushed and the log deleted.
    fn recover(&self) -> Result<(), crate::StoreError> {
        let io = |what: &str, e: &dyn std::fmt::Display| crate::StoreError::Io(format!("{what}: {e}"));
        let Some(dir) = self.store.sled_path() else { return Ok(()) };
        let logs = RunLog::leftovers(dir).map_err(|e| io("reading the run log", &e))?;
        if logs.is_empty() {
            return Ok(());
        }
        let mut applied = 0usize;
        for (path, bytes) in &logs {
            for entry in super::wal::read_entries(bytes, path) {
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
        }
        self.store.flush_blocking().map_err(|e| io("flushing the recovered runs", &e))?;
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
        checkpoint(log, &self.store).await
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

    /// Makes what was just written (`logged`, the record and chunk as
    /// written) as durable as configured: flushed to disk (grouped with
    /// concurrent writes), or logged with one `write(2)` and flushed in the
    /// background (`Process`), or — a temporary store — left in memory.
    async fn durable(&self, logged: Option<Entry>) -> Result<(), RunStoreError> {
        match (&self.log, self.durability) {
            (Some(log), _) => {
                let Some(entry) = logged else { return Ok(()) };
                let due = log.append(&entry).map_err(|e| RunStoreError::Backend(format!("the run log: {e}")))?;
                if due {
                    let (log, store) = (Arc::clone(log), self.store.clone());
                    tokio::spawn(async move {
                        if let Err(e) = checkpoint(&log, &store).await {
                            tracing::warn!(error = %e, "run log checkpoint failed; it is kept and retried");
                        }
                    });
                }
                Ok(())
            }
            (None, Durability::Process) if self.store.sled_path().is_none() => Ok(()),
            (None, _) => self.store.flush_grouped().await.map_err(RunStoreError::Store),
        }
    }

    /// Waits until everything written so far is on disk, whatever the
    /// durability (an operator's abort, a stale lease released).
    async fn flushed(&self) -> Result<(), RunStoreError> {
        self.store.flush_grouped().await.map_err(RunStoreError::Store)
    }

    fn usage_index(&self) -> std::sync::MutexGuard<'_, UsageIndex> {
        self.usage.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Run `run_id` is stored, not ended, with `bytes` of journal.
    fn track(&self, run_id: &str, session: &str, principal: Option<&str>, bytes: u64) {
        let mut usage = self.usage_index();
        if usage.built() {
            usage.track(run_id, session, principal, bytes);
        }
    }

    /// Run `run_id` ended.
    fn forget(&self, run_id: &str) {
        let mut usage = self.usage_index();
        if usage.built() {
            usage.forget(run_id);
        }
    }

    /// The index, built from the runs tree if this is the first use.
    fn usage_now(
        &self,
        session: &str,
        principal: Option<&str>,
        limit: usize,
    ) -> Result<super::RunUsage, RunStoreError> {
        let mut usage = self.usage_index();
        if !usage.built() {
            for item in self.runs.iter() {
                let (key, bytes) = item.map_err(|e| backend(&e))?;
                let (header, inline) = decode(&bytes)?;
                if header.ended().is_none() {
                    let run_id = String::from_utf8_lossy(&key);
                    let size = inline.len() as u64 + header.chunk_bytes;
                    usage.track(&run_id, &header.session, header.principal.as_deref(), size);
                }
            }
            usage.set_built();
        }
        Ok(usage.usage(session, principal, limit))
    }

    /// Creates the record; returns it as written.
    fn create_now(&self, meta: &RunMeta, owner: &str, lease: Duration) -> Result<Entry, RunStoreError> {
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
        // Compare-and-swap, not a transaction: sled runs a transaction
        // exclusively, also against a flush in progress, so on the park's
        // path a transaction would wait out every background flush's fsync.
        // The index goes in first: a crash between the two leaves an index
        // entry without a run, which listing skips.
        self.by_time.insert(index.as_slice(), &[][..]).map_err(|e| backend(&e))?;
        let created = self.runs.compare_and_swap(run_id, None as Option<&[u8]>, Some(bytes.as_slice()));
        if !matches!(created, Ok(Ok(()))) {
            let _ = self.by_time.remove(index.as_slice());
            return Err(match created {
                Err(e) => backend(&e),
                _ => RunStoreError::Backend(format!("run {run_id} already exists")),
            });
        }
        self.track(run_id, &meta.session, meta.principal.as_deref(), 0);
        Ok(Entry { run_id: run_id.to_owned(), record: bytes, chunk: None })
    }

    /// Writes a journal: `replace`s it, or appends `bytes` as its next chunk;
    /// the status and lease change with it, with the lease checked. Returns
    /// the version and what was written.
    ///
    /// An append writes its chunk under the next free number, then
    /// compare-and-swaps the record that counts it (no transaction: see
    /// `create_now`); a record changed meanwhile (a renewal) is read again.
    /// A chunk whose record never counted it (the lease was lost) is past
    /// the count: never read, and pruned. A replace, which rewrites chunks
    /// the record already counts, is one transaction (rare: an upgraded
    /// journal's first write).
    fn write_journal(
        &self,
        run_id: &str,
        owner: &str,
        status: &RunStatus,
        bytes: &[u8],
        replace: bool,
        lease: Option<Duration>,
    ) -> Result<(u64, Entry), RunStoreError> {
        if replace || matches!(status, RunStatus::Ended(_)) {
            return self.replace_journal(run_id, owner, status, bytes, lease);
        }
        let chunk_len = u32::try_from(bytes.len())
            .map_err(|_| RunStoreError::Backend(format!("a journal chunk of {} bytes is too large", bytes.len())))?;
        loop {
            let Some(current) = self.runs.get(run_id).map_err(|e| backend(&e))? else {
                return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
            };
            let (mut header, inline) = decode(&current)?;
            let now = now_ms();
            if header.ended().is_some() || !header.held_by(owner, now) {
                return Err(RunStoreError::LeaseLost { run_id: run_id.to_owned() });
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
            let size = inline.len() as u64 + header.chunk_bytes;
            self.track(run_id, &header.session, header.principal.as_deref(), size);
            let chunk = chunk.map(|seq| (seq, bytes.to_vec()));
            return Ok((header.version, Entry { run_id: run_id.to_owned(), record, chunk }));
        }
    }

    /// [`write_journal`](Self::write_journal)'s replace, in one transaction.
    fn replace_journal(
        &self,
        run_id: &str,
        owner: &str,
        status: &RunStatus,
        bytes: &[u8],
        lease: Option<Duration>,
    ) -> Result<(u64, Entry), RunStoreError> {
        use sled::Transactional;
        if matches!(status, RunStatus::Ended(_)) {
            return Err(RunStoreError::Backend("save takes `running` or `parked`; a run is ended with `end`".into()));
        }
        let chunk_len = u32::try_from(bytes.len())
            .map_err(|_| RunStoreError::Backend(format!("a journal chunk of {} bytes is too large", bytes.len())))?;
        let outcome = (&self.runs, &self.chunks).transaction(|(runs, chunks)| {
            let abort = |e: RunStoreError| ConflictableTransactionError::Abort(e);
            let Some(current) = runs.get(run_id)? else {
                return Err(abort(RunStoreError::Missing { run_id: run_id.to_owned() }));
            };
            let (mut header, _) = decode(&current).map_err(abort)?;
            let now = now_ms();
            if header.ended().is_some() || !header.held_by(owner, now) {
                return Err(abort(RunStoreError::LeaseLost { run_id: run_id.to_owned() }));
            }
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
            Ok((header.version, record, (header.session, header.principal, header.chunk_bytes)))
        });
        let (version, record, (session, principal, size)) = match outcome {
            Ok(done) => done,
            Err(TransactionError::Abort(e)) => return Err(e),
            Err(TransactionError::Storage(e)) => return Err(backend(&e)),
        };
        let chunk = Some((0, bytes.to_vec()));
        self.track(run_id, &session, principal.as_deref(), size);
        Ok((version, Entry { run_id: run_id.to_owned(), record, chunk }))
    }

    /// The run's record with its journal: inline bytes, then the chunks
    /// the record counts. Read without a transaction (see `create_now`):
    /// the record is read again after its chunks, and a read that raced a
    /// write (the record changed) is made again, so a journal is seen whole
    /// or not at all.
    fn read(&self, run_id: &str) -> Result<Option<RunRecord>, RunStoreError> {
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
            return Ok(Some(record(run_id, header, journal)));
        }
        Err(RunStoreError::Backend(format!("run {run_id} kept changing while it was read; retry")))
    }

    /// Deletes the chunks of runs that ended or no longer exist, and
    /// chunks past a record's count (left by a run's end, whose record
    /// drops its journal before the chunks go, or by a replaced journal).
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
                        if header.ended().is_some() { 0 } else { header.chunks }
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

    /// Deletes chunks `0..n` of `run_id` (after its end; best effort, the
    /// pruning sweep catches what is left).
    fn drop_chunks(&self, run_id: &str, n: u32) {
        for seq in 0..n {
            if let Err(e) = self.chunks.remove(chunk_key(run_id, seq)) {
                tracing::warn!(run_id, error = %e, "an ended run's journal chunk was not deleted; pruning will");
                return;
            }
        }
    }

    /// Ends the run as `label`; returns what was written and the chunks to
    /// delete.
    fn end_without_writes(&self, run_id: &str, owner: &str, label: &str) -> Result<(Entry, u32), RunStoreError> {
        let (record, chunks) = self.update(run_id, |current, now| {
            let Some((mut header, _)) = current else {
                return Err(RunStoreError::Missing { run_id: run_id.to_owned() });
            };
            if header.ended().is_some() || !header.held_by(owner, now) {
                return Err(RunStoreError::LeaseLost { run_id: run_id.to_owned() });
            }
            let chunks = header.chunks;
            header.end(label, now);
            let record = encode(&header, &[])?;
            Ok(Step::Write(header, Vec::new(), (record, chunks)))
        })?;
        self.forget(run_id);
        Ok((Entry { run_id: run_id.to_owned(), record, chunk: None }, chunks))
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
        let (header, _) = decode(&bytes)?;
        let (session, chunks) = (header.session, header.chunks);
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
        self.store.commit_attached(&session, writes, self.runs.clone(), attached).await?;
        self.forget(run_id);
        // The record no longer counts them; a chunk added between the read
        // above and the commit is impossible (the lease holder is ending).
        self.drop_chunks(run_id, chunks);
        Ok(())
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
        self.prune_chunks()?;
        Ok(pruned)
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
            let logged = result?;
            self.durable(Some(logged)).await
        })
    }

    fn create_before_save(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        // The save that follows makes the whole database durable, this
        // record included (its flush, or its logged record, which holds
        // everything the record does): one flush per first park.
        let result = self.create_now(meta, owner, lease).map(drop);
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
        let result = self.write_journal(run_id, owner, &status, &journal, true, lease);
        let run_id = run_id.to_owned();
        Box::pin(async move {
            let (version, logged) = result?;
            self.watchers.changed(&run_id);
            self.durable(Some(logged)).await?;
            Ok(version)
        })
    }

    fn append(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        chunk: Vec<u8>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64> {
        let result = self.write_journal(run_id, owner, &status, &chunk, false, lease);
        let run_id = run_id.to_owned();
        Box::pin(async move {
            let (version, logged) = result?;
            self.watchers.changed(&run_id);
            self.durable(Some(logged)).await?;
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
            let claimed = record(run_id, header.clone(), Vec::new());
            Ok(Step::Write(header, journal.to_vec(), Claim::Claimed(claimed)))
        });
        // The journal is read after the claim: holding the lease now, this
        // process is the only one that could change it.
        let result = result.and_then(|claim| match claim {
            Claim::Claimed(claimed) => match self.read(run_id)? {
                Some(mut full) => {
                    full.owner = claimed.owner;
                    full.lease_until_ms = claimed.lease_until_ms;
                    Ok(Claim::Claimed(full))
                }
                None => Ok(Claim::Missing),
            },
            other => Ok(other),
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
                let (logged, chunks) = self.end_without_writes(&run_id, &owner, &end)?;
                self.watchers.changed(&run_id);
                self.drop_chunks(&run_id, chunks);
                self.durable(Some(logged)).await
            } else {
                // Durable when answered: the actor waits for its flusher.
                self.end_with_writes(&run_id, &owner, &end, writes).await?;
                self.watchers.changed(&run_id);
                Ok(())
            }
        })
    }

    fn get(&self, run_id: &str) -> RunFuture<'_, Option<RunRecord>> {
        let result = self.read(run_id);
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
                if matches!(claim, Claim::Ended(_)) {
                    self.forget(&run_id);
                }
                self.watchers.changed(&run_id);
                self.flushed().await?;
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

    fn usage(&self, session: &str, principal: Option<&str>, limit: usize) -> RunFuture<'_, super::RunUsage> {
        let result = self.usage_now(session, principal, limit);
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
            chunks: 0,
            chunk_bytes: 0,
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
        assert!(json_len < 100, "short field names, absent options skipped: {json_len} bytes");
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
