//! One run's journal while its cell runs: what is recorded, and how each
//! write reaches the run store.
//!
//! Writes of one run happen in the order they were made, each appending
//! only what happened since the one before; a write with nothing new (a
//! `wait` on a run that only waits for a person) stores no bytes. A write
//! that fails keeps its bytes and sends them again, first, with the next
//! write, so the stored journal never has a gap; a backend that is briefly
//! away is retried within a bound. A write that would take the session or
//! its principal past its journal quota is refused, and the run ends.
//!
//! A journal has an explicit life ([`Life`]): a run is journaled, or —
//! once it outgrew what a journal keeps — it lives in this process's
//! memory only, and its stored record is *marked* so before anything that
//! relied on the journal goes on: no process resumes a stale journal of it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode_protocol::Telemetry;
use codemode_protocol::retry::Backoff;
use codemode_store::runs::{RunMeta, RunStatus, RunStore, RunStoreError, now_ms};

use crate::cell::effects::WriteBuffer;
use crate::durable::config::{DurableArgs, JournalMode, RunsConfig};
use crate::durable::journal::{self, Header, JournalError, Reads, Recorder, Segments, Snapshot};
use crate::engine::settlement::Settlement;
use crate::telemetry::Metrics;

/// How long a journal write keeps retrying a backend that fails (a
/// database restarting): past it the write fails, is counted and logged,
/// and its bytes wait for the next write.
const WRITE_RETRY: Duration = Duration::from_secs(5);

/// What a fresh run's record says besides its mode.
#[derive(Clone, Debug, Default)]
pub(crate) struct Meta {
    pub title: Option<String>,
    pub principal: Option<String>,
}

/// The host-side state of the cell a journal write snapshots, read from
/// the cell's parts at the moment of the write.
pub(crate) struct HostState<'a> {
    /// Live timers and when they are due.
    pub timers: Vec<(u64, Instant)>,
    pub output_used: usize,
    pub telemetry: Telemetry,
    pub network: bool,
    pub envelope_id: Option<String>,
    /// Settled, not yet delivered.
    pub undelivered: &'a [Settlement],
    /// The clock and configuration reads.
    pub reads: &'a crate::engine::determinism::Determinism,
    /// Store writes not yet committed.
    pub writes: &'a WriteBuffer,
    /// The run's approvals, pending or decided and not yet settled.
    pub approvals: &'a journal::ApprovalLog,
    /// The run's MCP tasks whose calls have not settled.
    pub tasks: &'a journal::TaskLog,
}

/// Why a journal write was not stored.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WriteError {
    /// The run store failed, or another process holds the lease.
    #[error(transparent)]
    Store(#[from] RunStoreError),
    /// The write would take the session or its principal past its journal
    /// quota: nothing was written, and the run must end.
    #[error("{0}")]
    OverQuota(String),
}

impl WriteError {
    /// Another process holds the run's lease, or the stored journal moved
    /// past this copy's: this copy must stop (the record is the run).
    pub(crate) fn lease_lost(&self) -> bool {
        matches!(self, Self::Store(RunStoreError::LeaseLost { .. } | RunStoreError::Stale { .. }))
    }
}

/// The outcome of a write: the journal's new version.
pub(crate) type Written = Result<u64, WriteError>;

/// Where a run's journal is in its life.
#[derive(Debug)]
pub(crate) enum Life {
    /// Every write is stored; a crash resumes the run from its journal.
    Journaled,
    /// The run outgrew what a journal keeps (`why`): it lives in this
    /// process's memory only, and nothing more is written.
    MemoryOnly { why: String, mark: Mark },
}

/// Whether a memory-only run's stored record says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// Not yet (or the last try failed): what relies on the journal waits.
    Unmarked,
    /// The mark is on its way to the store.
    Marking,
    /// Stored (or the run never had a record): nothing can resume it.
    Marked,
}
/// A durable cell's journal and lease.
pub(crate) struct RunJournal {
    pub(super) args: DurableArgs,
    pub(super) header: Header,
    pub(super) recorder: Recorder,
    /// The run's record exists in the backend.
    created: Arc<AtomicBool>,
    /// A write of the record was issued (it may still be on its way): a
    /// request that must never run twice waits for the next one.
    issued: bool,
    /// The version of the last journal written.
    pub(super) version: Arc<AtomicU64>,
    /// This process holds the lease.
    pub(super) lease_held: bool,
    /// Output of steps up to this one (and of the start) was delivered.
    pub(super) delivered_through: Option<usize>,
    /// Serializes this run's writes, in the order they were made.
    pub(super) writer: Arc<tokio::sync::Mutex<()>>,
    /// Journaled, or memory only.
    life: Life,
    /// Reported once in the next result: the run is memory only now.
    warning: Option<String>,
    /// What the last write stored besides its bytes: its status and the
    /// host side's state (telemetry aside). A write with nothing new that
    /// would store the same is skipped.
    last_state: Option<Vec<u8>>,
    meta: RunMeta,
    /// Encoded, not yet stored: a write takes it all; one that failed puts
    /// its bytes back in front, so the next write sends them again and the
    /// stored journal never has a gap.
    unsent: Arc<std::sync::Mutex<Segments>>,
    /// Writes (and skipped writes) issued and not yet over.
    in_flight: Arc<AtomicUsize>,
    metrics: Arc<Metrics>,
}

impl RunJournal {
    /// A fresh run's journal, with the seed of its `Math.random`.
    pub(super) fn fresh(args: DurableArgs, run_id: &str, header: Header, metrics: Arc<Metrics>) -> Self {
        Self::with(args, run_id, header, Recorder::default(), false, 0, None, metrics)
    }

    /// The journal of a run resumed by replay, continuing where it ended.
    #[expect(clippy::too_many_arguments, reason = "a constructor of the journal's state, called twice")]
    pub(super) fn with(
        args: DurableArgs,
        run_id: &str,
        header: Header,
        recorder: Recorder,
        created: bool,
        version: u64,
        delivered_through: Option<usize>,
        metrics: Arc<Metrics>,
    ) -> Self {
        let meta = RunMeta {
            run_id: run_id.to_owned(),
            session: header.session.clone(),
            reply: header.reply.clone(),
            principal: header.principal.clone(),
            title: header.title.clone(),
            created_ms: now_ms(),
        };
        Self {
            args,
            header,
            recorder,
            created: Arc::new(AtomicBool::new(created)),
            issued: created,
            version: Arc::new(AtomicU64::new(version)),
            lease_held: true,
            delivered_through,
            writer: Arc::default(),
            life: Life::Journaled,
            warning: None,
            last_state: None,
            meta,
            unsent: Arc::default(),
            in_flight: Arc::default(),
            metrics,
        }
    }

    /// Whether the run is still journaled.
    pub(super) fn live(&self) -> bool {
        matches!(self.life, Life::Journaled)
    }

    /// A replayed run starts where its journal ended: a park with nothing
    /// new stores nothing, as if it had never left memory.
    pub(super) fn resumed_from(&mut self, journal: &journal::Journal) {
        if journal.format >= 2 && journal.parked {
            self.last_state = stored_state(&RunStatus::Parked, &journal.snapshot, &journal.approvals, &journal.tasks);
        }
    }

    /// The warning the next result carries, once.
    pub(super) fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    /// The run's record exists in the backend.
    pub(super) fn created(&self) -> bool {
        self.created.load(Ordering::Acquire)
    }

    /// A write of the run's record was issued (stored, or on its way).
    pub(super) fn issued(&self) -> bool {
        self.issued
    }

    /// Writes of this run on their way to the store.
    pub(super) fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }

    /// Whether the stored record holds everything written so far: no write
    /// is on its way, and none failed leaving its bytes unsent.
    pub(super) fn current(&self) -> bool {
        self.created() && self.in_flight() == 0 && !has_unsent(&self.unsent)
    }

    /// The journal mode.
    pub(super) fn mode(&self) -> JournalMode {
        self.args.config.journal
    }

    pub(super) fn config(&self) -> &RunsConfig {
        &self.args.config
    }

    /// Request `id` was made, with format-2 fingerprint `fingerprint`.
    pub(super) fn request(&mut self, id: u64, fingerprint: u64) {
        if self.live() {
            self.recorder.request(id, fingerprint);
        }
    }

    /// Store key `key` was buffered.
    pub(super) fn wrote(&mut self, key: &str) {
        if self.live() {
            self.recorder.wrote(key);
        }
    }

    /// A live step is about to deliver `settlements`.
    pub(super) fn step(&mut self, settlements: &[Settlement]) {
        if !self.live() {
            return;
        }
        self.recorder.step(settlements);
        if self.recorder.len() > self.args.config.max_journal_bytes {
            self.outgrown(self.too_big());
        }
    }

    /// Output so far was delivered to an observer.
    pub(super) fn delivered(&mut self) {
        self.delivered_through = Some(self.recorder.step_count());
    }

    /// The run outgrew what a journal keeps (`why`): from now on it lives
    /// in memory only. Nothing more is recorded; the stored record must be
    /// marked ([`mark`](Self::mark)) before anything that relied on the
    /// journal goes on, and the next result says so.
    pub(super) fn outgrown(&mut self, why: String) {
        if !self.live() {
            return;
        }
        tracing::warn!(run_id = %self.meta.run_id, reason = %why, "run no longer journaled: it lives in memory only");
        self.metrics.runs.memory_only();
        self.warning = Some(format!(
            "this run is no longer journaled: {why}. It goes on in this process's memory only: it cannot be resumed \
             after a restart or on another process, and a wait there reports it lost."
        ));
        self.life = Life::MemoryOnly { why, mark: Mark::Unmarked };
        // Nothing will be written any more: give the memory back now.
        self.recorder = Recorder::default();
        *self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Segments::default();
    }

    /// Whether the memory-only run's record is marked (or needs no mark).
    pub(super) fn mark_state(&self) -> Option<Mark> {
        match &self.life {
            Life::Journaled => None,
            Life::MemoryOnly { mark, .. } => Some(*mark),
        }
    }

    /// Marks the memory-only run's stored record — its journal replaced by
    /// a marker no process resumes — after every write before it; `done`
    /// hears how it went. A record this process had released is claimed
    /// back first, unless another process advanced the run meanwhile (then
    /// `done` hears the lease was lost). Nothing to do without a record.
    pub(super) fn mark(&mut self, done: impl FnOnce(Result<(), RunStoreError>) + Send + 'static) {
        let Life::MemoryOnly { why, mark } = &mut self.life else { return };
        if *mark != Mark::Unmarked {
            return;
        }
        *mark = Mark::Marking;
        let marker = journal::codec::unresumable(why);
        let (store, owner, run_id) =
            (Arc::clone(&self.args.store), Arc::clone(&self.args.owner), self.meta.run_id.clone());
        let (created, version, writer) =
            (Arc::clone(&self.created), Arc::clone(&self.version), Arc::clone(&self.writer));
        let (held, lease) = (self.lease_held, self.args.config.lease);
        self.lease_held = true;
        tokio::spawn(async move {
            let _order = writer.lock().await;
            if !created.load(Ordering::Acquire) {
                return done(Ok(()));
            }
            crate::crash_points::point("journal.mark");
            let began = Instant::now();
            let mut backoff = Backoff::new(Duration::from_millis(25), Duration::from_millis(500));
            let result = loop {
                let attempt = async {
                    if !held {
                        match store.claim(&run_id, &owner, lease).await? {
                            codemode_store::runs::Claim::Claimed(r) if r.version == version.load(Ordering::Acquire) => {
                            }
                            _ => return Err(RunStoreError::LeaseLost { run_id: run_id.clone() }),
                        }
                    }
                    store.save(&run_id, &owner, RunStatus::Running, marker.clone(), Some(lease)).await
                }
                .await;
                match attempt {
                    Err(RunStoreError::Backend(e)) if began.elapsed() + backoff.peek() < WRITE_RETRY => {
                        tracing::debug!(run_id = %run_id, error = %e, "marking a run memory-only failed; retrying");
                        tokio::time::sleep(backoff.next_delay()).await;
                    }
                    other => break other,
                }
            };
            if let Ok(v) = &result {
                crate::crash_points::point("journal.marked");
                version.store(*v, Ordering::Release);
            }
            done(result.map(|_| ()));
        });
    }

    /// How marking the record went.
    pub(super) fn marked(&mut self, ok: bool) {
        if let Life::MemoryOnly { mark, .. } = &mut self.life {
            *mark = if ok { Mark::Marked } else { Mark::Unmarked };
        }
    }

    /// The snapshot of host-side state for a write now (its store writes
    /// travel separately, as the keys written since the last write).
    fn snapshot(&self, state: &HostState<'_>) -> Result<Snapshot, JournalError> {
        let wall_us = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
        let now = Instant::now();
        let timers =
            state.timers.iter().map(|(id, due)| (*id, due_ms(wall_us, due.saturating_duration_since(now)))).collect();
        Ok(Snapshot {
            delivered_steps: self.delivered_through.map_or(0, |d| d + 1),
            output_used: state.output_used,
            telemetry: state.telemetry,
            network: state.network,
            envelope_id: state.envelope_id.clone(),
            writes: Vec::new(),
            timers,
            undelivered: state.undelivered.iter().map(journal::settlement_value).collect::<Result<_, _>>()?,
        })
    }

    /// Writes what is new in the journal (`status`), keeping the lease for
    /// `lease` or releasing it (`None`), then runs `then` with the outcome
    /// (and `journaled` with the requests it covers, when stored). Returns
    /// false when nothing was written (the run is no longer journaled).
    pub(super) fn write(
        &mut self,
        status: RunStatus,
        lease: Option<Duration>,
        state: &HostState<'_>,
        journaled: impl FnOnce(u64) + Send + 'static,
        then: impl FnOnce(Written) + Send + 'static,
    ) -> bool {
        if !self.live() {
            return false;
        }
        let snapshot = match self.snapshot(state) {
            Ok(snapshot) => snapshot,
            Err(why) => {
                self.outgrown(format!("its state could not be journaled ({why})"));
                return false;
            }
        };
        let det = state.reads;
        if det.overflow {
            self.outgrown(format!(
                "it read the clock or the configuration more often than a journal of {} bytes keeps",
                self.args.config.max_journal_bytes
            ));
            return false;
        }
        let reads = Reads {
            clock: &det.reads,
            env: &det.env,
            writes: state.writes,
            approvals: state.approvals,
            tasks: state.tasks,
        };
        let state_now = stored_state(&status, &snapshot, state.approvals, state.tasks);
        if state_now.is_some() && self.recorder.is_idle(&reads) && self.last_state == state_now {
            self.skip(status, lease, journaled, then);
            return true;
        }
        let segments = self.recorder.segments(&self.header, &reads, &snapshot);
        if self.recorder.len() > self.args.config.max_journal_bytes {
            self.outgrown(self.too_big());
            return false;
        }
        self.last_state = state_now;
        self.issued = true;
        {
            let mut unsent = self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if segments.replace {
                *unsent = segments;
            } else {
                unsent.bytes.extend_from_slice(&segments.bytes);
            }
        }
        self.lease_held = lease.is_some();
        let (write, writer, upto) = (self.next_write(), Arc::clone(&self.writer), self.recorder.request_count());
        let in_flight = InFlight::start(&self.in_flight);
        tokio::spawn(async move {
            let _order = writer.lock().await;
            let result = write.run(status, lease).await;
            drop(in_flight);
            if result.is_ok() {
                journaled(upto);
            }
            then(result);
        });
        true
    }

    /// The write of what is unsent, as the record stands now.
    fn next_write(&self) -> Write {
        Write {
            store: Arc::clone(&self.args.store),
            owner: Arc::clone(&self.args.owner),
            meta: self.meta.clone(),
            created: Arc::clone(&self.created),
            version: Arc::clone(&self.version),
            unsent: Arc::clone(&self.unsent),
            full_lease: self.args.config.lease,
            quota: self.args.quota,
            metrics: Arc::clone(&self.metrics),
        }
    }

    /// A write with nothing new: no bytes are stored. Its lease still
    /// changes as a write's would (after every write before it): released
    /// by a park that hands the run off, else renewed. When a write before
    /// it failed, its bytes are still unsent (possibly the record itself):
    /// they are written now instead, or the run would leave memory with its
    /// record behind what it told its observer.
    fn skip(
        &mut self,
        status: RunStatus,
        lease: Option<Duration>,
        journaled: impl FnOnce(u64) + Send + 'static,
        then: impl FnOnce(Written) + Send + 'static,
    ) {
        let held = self.lease_held;
        self.lease_held = lease.is_some();
        let (write, writer, upto) = (self.next_write(), Arc::clone(&self.writer), self.recorder.request_count());
        let metrics = Arc::clone(&self.metrics);
        let in_flight = InFlight::start(&self.in_flight);
        tokio::spawn(async move {
            let _order = writer.lock().await;
            // Every write before this one is over: what it left is known.
            if has_unsent(&write.unsent) {
                let result = write.run(status, lease).await;
                drop(in_flight);
                if result.is_ok() {
                    journaled(upto);
                }
                return then(result);
            }
            metrics.runs.journal_write_skipped();
            crate::crash_points::point("journal.skipped");
            let (store, owner, run_id) = (&write.store, &write.owner, &write.meta.run_id);
            let result = match lease {
                _ if !(held && write.created.load(Ordering::Acquire)) => Ok(()),
                None => store.release(run_id, owner).await,
                Some(lease) => store.renew(run_id, owner, lease).await,
            };
            drop(in_flight);
            match result {
                Ok(()) => {
                    journaled(upto);
                    then(Ok(write.version.load(Ordering::Acquire)));
                }
                Err(e) => then(Err(e.into())),
            }
        });
    }

    /// Releases the lease once every write under way is over, sending
    /// again what a failed one left unsent, and writing nothing new;
    /// runs `stored` when that is stored, then `done`.
    pub(super) fn release_after_writes(
        &mut self,
        stored: impl FnOnce() + Send + 'static,
        done: impl FnOnce() + Send + 'static,
    ) {
        self.skip(RunStatus::Parked, None, move |_| stored(), move |_| done());
    }

    fn too_big(&self) -> String {
        format!(
            "its journal passed {} bytes, the most a journal keeps ([runs] max_journal_bytes)",
            self.args.config.max_journal_bytes
        )
    }

    /// Renews the held lease in the background; `lost` hears of a lease
    /// another process took.
    pub(super) fn renew(&self, lost: impl FnOnce() + Send + 'static) {
        if !(self.created() && self.lease_held) {
            return;
        }
        let (store, owner, run_id, lease) = (
            Arc::clone(&self.args.store),
            Arc::clone(&self.args.owner),
            self.meta.run_id.clone(),
            self.args.config.lease,
        );
        tokio::spawn(async move {
            if let Err(RunStoreError::LeaseLost { .. }) = store.renew(&run_id, &owner, lease).await {
                lost();
            }
        });
    }
}

/// Counts one write on its way, until dropped.
struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    fn start(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::AcqRel);
        Self(Arc::clone(count))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One write on its way to the store.
struct Write {
    store: Arc<dyn RunStore>,
    owner: Arc<str>,
    meta: RunMeta,
    created: Arc<AtomicBool>,
    version: Arc<AtomicU64>,
    unsent: Arc<std::sync::Mutex<Segments>>,
    full_lease: Duration,
    quota: crate::durable::config::JournalQuota,
    metrics: Arc<Metrics>,
}

impl Write {
    async fn run(self, status: RunStatus, lease: Option<Duration>) -> Written {
        let began = Instant::now();
        let Segments { bytes, replace } =
            std::mem::take(&mut *self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let size = bytes.len();
        // A backend that is briefly away (a database restarting, a
        // connection lost) is retried, within a bound: the observer of a
        // park hears `waiting` only once the run is durable. The quota is
        // read from the same backend, and retried with it.
        let mut backoff = Backoff::new(Duration::from_millis(25), Duration::from_millis(500));
        // The version the stored journal is at: what an append continues.
        let after = self.version.load(Ordering::Acquire);
        // An attempt failed in the backend: it may have landed anyway (the
        // connection cut after the commit). The store's guards tell: a
        // create finds the run exists, an append finds the version moved.
        let mut uncertain = false;
        crate::crash_points::point("journal.write");
        let result = loop {
            let attempt = async {
                self.check_quota(size, replace).await?;
                if !self.created.load(Ordering::Acquire) {
                    // Durable with the write below (one flush on sled).
                    match self.store.create_before_save(&self.meta, &self.owner, self.full_lease).await {
                        Err(RunStoreError::Exists { .. }) if uncertain => {}
                        created => created?,
                    }
                    self.created.store(true, Ordering::Release);
                }
                let (run_id, owner) = (&self.meta.run_id, &self.owner);
                let stored = if replace {
                    self.store.save(run_id, owner, status.clone(), bytes.clone(), lease).await
                } else {
                    match self.store.append(run_id, owner, status.clone(), bytes.clone(), lease, after).await {
                        Err(RunStoreError::Stale { stored, .. }) if uncertain && stored == after + 1 => Ok(stored),
                        appended => appended,
                    }
                };
                Ok::<_, WriteError>(stored?)
            }
            .await;
            match attempt {
                Err(WriteError::Store(RunStoreError::Backend(e))) if began.elapsed() + backoff.peek() < WRITE_RETRY => {
                    tracing::debug!(run_id = %self.meta.run_id, error = %e, "run journal write failed; retrying");
                    uncertain = true;
                    tokio::time::sleep(backoff.next_delay()).await;
                }
                other => break other,
            }
        };
        if let Err(WriteError::OverQuota(why)) = &result {
            // Refused, not failed: the run ends, and nothing of it is sent.
            self.metrics.runs.journal_quota_exceeded();
            tracing::warn!(run_id = %self.meta.run_id, reason = %why, "journal write refused: over quota");
            return result;
        }
        match &result {
            Ok(v) => {
                crate::crash_points::point("journal.written");
                self.version.store(*v, Ordering::Release);
                self.metrics.runs.journal_written(size);
                self.metrics.runs.journal_write_took(began.elapsed());
            }
            Err(e) => {
                // Not stored: sent again, first, by the next write.
                self.put_back(bytes, replace);
                self.metrics.runs.journal_write_took(began.elapsed());
                if !e.lease_lost() {
                    self.metrics.runs.journal_write_failed();
                }
                tracing::warn!(run_id = %self.meta.run_id, error = %e, "run journal not written");
            }
        }
        result
    }

    /// Bytes that were not stored go first in the next write.
    fn put_back(&self, bytes: Vec<u8>, replace: bool) {
        let mut left = self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut kept = bytes;
        kept.extend_from_slice(&left.bytes);
        *left = Segments { bytes: kept, replace: replace || left.replace };
    }

    /// Refuses a write of `size` bytes (replacing the stored journal, or
    /// added to it) that would take the session's or the principal's stored
    /// journals past their quota (exactly at it is allowed). Checked
    /// against the store's figures of the moment: writes of one session
    /// racing on several processes can each pass it once.
    async fn check_quota(&self, size: usize, replace: bool) -> Result<(), WriteError> {
        if size == 0 {
            return Ok(());
        }
        let meta = &self.meta;
        let usage = self.store.usage(&meta.session, meta.principal.as_deref(), self.quota.runs).await?;
        let mut checks = vec![(&usage.session, self.quota.session_bytes, "session", "session")];
        if meta.principal.is_some() {
            checks.push((&usage.principal, self.quota.principal_bytes, "client", "principal"));
        }
        for (list, quota, whose, limit) in checks {
            let after = journals_after(list, &meta.run_id, size, replace);
            if after > quota {
                return Err(WriteError::OverQuota(format!(
                    "this write would take the {whose}'s stored journals to {after} bytes, past its quota of \
                     {quota} ([limits] max_journal_bytes_per_{limit})"
                )));
            }
        }
        Ok(())
    }
}

/// Whether bytes of a failed write wait in `unsent` to be sent.
fn has_unsent(unsent: &std::sync::Mutex<Segments>) -> bool {
    !unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner).bytes.is_empty()
}

/// The bytes of every stored journal of `list` once run `run_id` writes
/// `size` bytes (replacing its journal, or added to it).
fn journals_after(list: &[(String, u64)], run_id: &str, size: usize, replace: bool) -> u64 {
    let stored: u64 = list
        .iter()
        .filter(|(run, _)| !(replace && run == run_id))
        .map(|(_, bytes)| *bytes)
        .fold(0, u64::saturating_add);
    stored.saturating_add(size as u64)
}

/// What a write stores besides its bytes, for telling a write with nothing
/// new: its status, the host side's snapshot without the receipt (which
/// moves with every window), the approvals and the tasks.
/// `None` when a part does not encode: such a write is never skipped.
fn stored_state(
    status: &RunStatus,
    snapshot: &Snapshot,
    approvals: &journal::ApprovalLog,
    tasks: &journal::TaskLog,
) -> Option<Vec<u8>> {
    let mut quiet = snapshot.clone();
    quiet.telemetry = Telemetry::default();
    // Store writes travel beside the snapshot (as dirty keys).
    quiet.writes = Vec::new();
    let mut out = status.as_str().as_bytes().to_vec();
    for part in [serde_json::to_vec(&quiet), serde_json::to_vec(approvals), serde_json::to_vec(tasks)] {
        out.push(0);
        out.extend(part.ok()?);
    }
    Some(out)
}

/// When a timer `left` from wall-clock time `wall_us` (µs since the epoch)
/// is due, in whole milliseconds since the epoch, rounded up: a timer
/// re-armed from it never fires before its delay as the guest measures it
/// (`Date.now()` is whole milliseconds too). Truncating both parts could
/// put it up to 2 ms early.
fn due_ms(wall_us: u64, left: Duration) -> u64 {
    let left_us = u64::try_from(left.as_micros()).unwrap_or(u64::MAX);
    wall_us.saturating_add(left_us).div_ceil(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timers_due_time_is_rounded_up_to_the_millisecond_never_down_ga_1_3() {
        // 1000.999 ms + 0.002 ms is due at 1001.001 ms: stored as 1002.
        assert_eq!(due_ms(1_000_999, Duration::from_micros(2)), 1002);
        // Exactly on a millisecond stays there.
        assert_eq!(due_ms(1_000_000, Duration::from_millis(1500)), 2500);
        // One microsecond past it is the next one.
        assert_eq!(due_ms(1_000_001, Duration::from_millis(1500)), 2501);
        assert_eq!(due_ms(u64::MAX, Duration::from_secs(1)), u64::MAX.div_ceil(1000));
    }

    #[test]
    fn a_write_counts_every_stored_journal_and_its_own_growth_against_the_quota() {
        let list = vec![("run_a".to_owned(), 600), ("run_b".to_owned(), 300)];
        assert_eq!(journals_after(&list, "run_b", 100, false), 1000, "appended to its own 300");
        assert_eq!(journals_after(&list, "run_b", 100, true), 700, "replacing its own 300");
        assert_eq!(journals_after(&list, "run_new", 100, false), 1000, "a run not stored yet");
        assert_eq!(journals_after(&[], "run_a", 0, false), 0);
        // The quota check refuses only past the quota: exactly at it is allowed.
        let quota = 1000;
        assert!(journals_after(&list, "run_b", 100, false) <= quota);
        assert!(journals_after(&list, "run_b", 101, false) > quota);
    }
}
