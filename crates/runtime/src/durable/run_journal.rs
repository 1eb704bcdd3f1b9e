//! One run's journal while its cell runs: what is recorded, and how each
//! write reaches the run store.
//!
//! Writes of one run happen in the order they were made, each appending
//! only what happened since the one before. A write that fails keeps its
//! bytes and sends them again, first, with the next write, so the stored
//! journal never has a gap; a backend that is briefly away is retried
//! within a bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use codemode_bridge::Telemetry;
use codemode_bridge::retry::Backoff;
use codemode_store::runs::{RunMeta, RunStatus, RunStore, RunStoreError, now_ms};

use super::config::{DurableArgs, JournalMode, RunsConfig};
use super::journal::{self, Header, JournalError, MAX_JOURNAL_BYTES, Reads, Recorder, Segments, Snapshot};
use crate::cell::effects::WriteBuffer;
use crate::cell::requests::Settlement;
use crate::engine::link::GuestLink;
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
    pub link: &'a GuestLink,
    /// Store writes not yet committed.
    pub writes: &'a WriteBuffer,
    /// The run's approvals, pending or decided and not yet settled.
    pub approvals: &'a journal::ApprovalLog,
    /// The run's MCP tasks whose calls have not settled.
    pub tasks: &'a journal::TaskLog,
}

/// The outcome of a write: the journal's new version.
pub(crate) type Written = Result<u64, RunStoreError>;

/// A durable cell's journal and lease.
pub(crate) struct RunJournal {
    pub(super) args: DurableArgs,
    pub(super) header: Header,
    pub(super) recorder: Recorder,
    /// The run's record exists in the backend.
    created: Arc<AtomicBool>,
    /// The version of the last journal written.
    pub(super) version: Arc<AtomicU64>,
    /// This process holds the lease.
    pub(super) lease_held: bool,
    /// Output of steps up to this one (and of the start) was delivered.
    pub(super) delivered_through: Option<usize>,
    /// Serializes this run's writes, in the order they were made.
    pub(super) writer: Arc<tokio::sync::Mutex<()>>,
    /// Why the run stopped being journaled, once.
    disabled: Option<String>,
    meta: RunMeta,
    /// Encoded, not yet stored: a write takes it all; one that failed puts
    /// its bytes back in front, so the next write sends them again and the
    /// stored journal never has a gap.
    unsent: Arc<std::sync::Mutex<Segments>>,
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
            version: Arc::new(AtomicU64::new(version)),
            lease_held: true,
            delivered_through,
            writer: Arc::default(),
            disabled: None,
            meta,
            unsent: Arc::default(),
            metrics,
        }
    }

    /// Whether the run is still journaled.
    pub(super) fn live(&self) -> bool {
        self.disabled.is_none()
    }

    /// The run's record exists in the backend.
    pub(super) fn created(&self) -> bool {
        self.created.load(Ordering::Acquire)
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
        if self.recorder.len() > MAX_JOURNAL_BYTES {
            self.disable(too_big());
        }
    }

    /// Output so far was delivered to an observer.
    pub(super) fn delivered(&mut self) {
        self.delivered_through = Some(self.recorder.step_count());
    }

    pub(super) fn disable(&mut self, why: String) {
        tracing::warn!(run_id = %self.meta.run_id, reason = %why, "run no longer journaled");
        self.disabled = Some(why);
        // Nothing will be written any more: give the memory back now.
        self.recorder = Recorder::default();
        *self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Segments::default();
    }

    /// The snapshot of host-side state for a write now (its store writes
    /// travel separately, as the keys written since the last write).
    fn snapshot(&self, state: &HostState<'_>) -> Result<Snapshot, JournalError> {
        let wall = now_ms();
        let now = Instant::now();
        let timers = state
            .timers
            .iter()
            .map(|(id, due)| (*id, wall.saturating_add(millis(due.saturating_duration_since(now)))))
            .collect();
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
                self.disable(format!("its state could not be journaled ({why})"));
                return false;
            }
        };
        let det = &state.link.determinism;
        if det.overflow {
            self.disable("it read the clock or the configuration more often than a journal keeps".into());
            return false;
        }
        let reads = Reads {
            clock: &det.reads,
            env: &det.env,
            writes: state.writes,
            approvals: state.approvals,
            tasks: state.tasks,
        };
        let segments = self.recorder.segments(&self.header, &reads, &snapshot);
        if self.recorder.len() > MAX_JOURNAL_BYTES {
            self.disable(too_big());
            return false;
        }
        {
            let mut unsent = self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if segments.replace {
                *unsent = segments;
            } else {
                unsent.bytes.extend_from_slice(&segments.bytes);
            }
        }
        self.lease_held = lease.is_some();
        let write = Write {
            store: Arc::clone(&self.args.store),
            owner: Arc::clone(&self.args.owner),
            meta: self.meta.clone(),
            created: Arc::clone(&self.created),
            version: Arc::clone(&self.version),
            unsent: Arc::clone(&self.unsent),
            full_lease: self.args.config.lease,
            metrics: Arc::clone(&self.metrics),
        };
        let (writer, upto) = (Arc::clone(&self.writer), self.recorder.request_count());
        tokio::spawn(async move {
            let _order = writer.lock().await;
            let result = write.run(status, lease).await;
            if result.is_ok() {
                journaled(upto);
            }
            then(result);
        });
        true
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

/// One write on its way to the store.
struct Write {
    store: Arc<dyn RunStore>,
    owner: Arc<str>,
    meta: RunMeta,
    created: Arc<AtomicBool>,
    version: Arc<AtomicU64>,
    unsent: Arc<std::sync::Mutex<Segments>>,
    full_lease: Duration,
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
        // park hears `waiting` only once the run is durable.
        let mut backoff = Backoff::new(Duration::from_millis(25), Duration::from_millis(500));
        let result = loop {
            let attempt = async {
                if !self.created.load(Ordering::Acquire) {
                    // Durable with the write below (one flush on sled).
                    self.store.create_before_save(&self.meta, &self.owner, self.full_lease).await?;
                    self.created.store(true, Ordering::Release);
                }
                if replace {
                    self.store.save(&self.meta.run_id, &self.owner, status.clone(), bytes.clone(), lease).await
                } else {
                    self.store.append(&self.meta.run_id, &self.owner, status.clone(), bytes.clone(), lease).await
                }
            }
            .await;
            match attempt {
                Err(RunStoreError::Backend(e)) if began.elapsed() + backoff.peek() < WRITE_RETRY => {
                    tracing::debug!(run_id = %self.meta.run_id, error = %e, "run journal write failed; retrying");
                    tokio::time::sleep(backoff.next_delay()).await;
                }
                other => break other,
            }
        };
        match &result {
            Ok(v) => {
                self.version.store(*v, Ordering::Release);
                self.metrics.runs.journal_written(size);
                self.metrics.runs.journal_write_took(began.elapsed());
            }
            Err(e) => {
                // Not stored: sent again, first, by the next write.
                let mut left = self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let mut kept = bytes;
                kept.extend_from_slice(&left.bytes);
                *left = Segments { bytes: kept, replace: replace || left.replace };
                drop(left);
                self.metrics.runs.journal_write_took(began.elapsed());
                if !matches!(e, RunStoreError::LeaseLost { .. }) {
                    self.metrics.runs.journal_write_failed();
                }
                tracing::warn!(run_id = %self.meta.run_id, error = %e, "run journal not written");
            }
        }
        result
    }
}

fn too_big() -> String {
    format!(
        "its journal passed {} MiB; it can no longer be resumed after a restart or on another process",
        MAX_JOURNAL_BYTES >> 20
    )
}

pub(super) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
