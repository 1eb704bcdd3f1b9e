//! A cell's durable side (issue 17): its journal is recorded while it runs,
//! written to the backend before a `waiting` result is returned, its lease
//! handed off and its memory given back while it idles, and a run resumed
//! elsewhere is replayed from its journal here.
//!
//! See `journal.rs` for what is recorded. The rules:
//!
//! - A journal is written when the cell parks (always), and after each
//!   step when `[runs] journal = "every_call"`. The park's write finishes
//!   before the observer hears `waiting`: a crash after that never loses
//!   the run.
//! - A parked cell whose host work is quiescent (no call in flight: only
//!   yields and timers, which are data) releases its lease after the
//!   hand-off delay, writing the journal once more with what settled while
//!   it was parked; it stays in memory as a cache until `evict_after`, then
//!   leaves memory. A `wait` elsewhere claims the lease and replays.
//! - Replay answers every request from the journal, never executing it
//!   again. A call that was in flight when the journal was written is
//!   re-issued only when its tool is replay-safe; otherwise it rejects in
//!   the guest with `outcome_unknown`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use codemode_bridge::{ErrorCode, Phase};
use codemode_store::runs::{Claim, RunMeta, RunStatus, RunStore, RunStoreError, now_ms};
use ractor::ActorRef;

use super::journal::{self, Header, Identities, Journal, Reads, Recorder, Segments, Snapshot, ToolRefs};
use super::requests::HostRequest;
use super::requests::reply::{Fault, Settlement};
use super::{CellMode, CellMsg, CellState, Flow, vm_lock};
use crate::durable::{JournalMode, RunsConfig};
use crate::runs::EndState;

/// The largest journal a run keeps (16 MiB); past it the run is no longer
/// durable: it goes on in memory, and the reason is logged.
pub(crate) const MAX_JOURNAL_BYTES: usize = 16 * 1024 * 1024;

/// How long a journal write keeps retrying a backend that fails (a
/// database restarting): past it the write fails, is counted and logged,
/// and its bytes wait for the next write.
const WRITE_RETRY: Duration = Duration::from_secs(5);

/// What every durable cell of a runtime shares.
#[derive(Clone, Debug)]
pub(crate) struct DurableArgs {
    pub store: Arc<dyn RunStore>,
    /// This process's instance id: the lease owner.
    pub owner: Arc<str>,
    pub config: Arc<RunsConfig>,
    /// The registry's tool table, as fresh runs' journals name it.
    pub tools: ToolRefs,
}

/// A durable cell's journal and lease.
pub(crate) struct Durable {
    args: DurableArgs,
    header: Header,
    recorder: Recorder,
    /// The run's record exists in the backend.
    created: Arc<AtomicBool>,
    /// The version of the last journal written.
    version: Arc<AtomicU64>,
    /// This process holds the lease.
    lease_held: bool,
    /// Output of steps up to this one (and of the start) was delivered.
    delivered_through: Option<usize>,
    /// Serializes this run's writes, in the order they were made.
    writer: Arc<tokio::sync::Mutex<()>>,
    /// Why the run stopped being journaled, once.
    disabled: Option<String>,
    meta: RunMeta,
    /// Encoded, not yet stored: a write takes it all; one that failed puts
    /// its bytes back in front, so the next write sends them again and the
    /// stored journal never has a gap.
    unsent: Arc<std::sync::Mutex<Segments>>,
}

/// A replay in progress.
pub(crate) struct Replaying {
    journal: Journal,
    /// Requests the replay made that the journal has not settled yet.
    pending: BTreeMap<u64, HostRequest>,
    /// Steps replayed so far.
    replayed: usize,
    /// Requests the cell made after the journal's last step: new, made
    /// live once the replay is done (a journal ends at a step boundary).
    fresh: Vec<(u64, HostRequest)>,
    started: Instant,
}

impl Durable {
    /// A fresh run's journal.
    pub(crate) fn new(args: DurableArgs, run_id: &str, mode: &CellMode, wrapped: &str, meta: Meta) -> Option<Self> {
        let CellMode::Interactive { session, reply, restart_safe } = mode else { return None };
        if args.config.journal == JournalMode::Off {
            return None;
        }
        let mut seed = [0u8; 8];
        // Without OS randomness, a time-derived seed: `Math.random` is not
        // for secrets (GA-2), and the seed is journaled either way.
        if getrandom::fill(&mut seed).is_err() {
            seed = now_ms().to_le_bytes();
        }
        let header = Header {
            format: journal::FORMAT,
            wrapped: wrapped.to_owned(),
            title: meta.title.clone(),
            session: session.clone(),
            reply: reply.clone(),
            principal: meta.principal.clone(),
            restart_safe: *restart_safe,
            seed: u64::from_le_bytes(seed),
            tools: args.tools.clone(),
        };
        Some(Self::with(args, run_id, header, Recorder::default(), false, 0, None))
    }

    fn with(
        args: DurableArgs,
        run_id: &str,
        header: Header,
        recorder: Recorder,
        created: bool,
        version: u64,
        delivered_through: Option<usize>,
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
        }
    }

    /// The seed of the cell's `Math.random`.
    pub(crate) fn seed(&self) -> u64 {
        self.header.seed
    }

    /// Request `id` was made, with format-2 fingerprint `fingerprint`.
    pub(crate) fn request(&mut self, id: u64, fingerprint: u64) {
        if self.disabled.is_none() {
            self.recorder.request(id, fingerprint);
        }
    }

    /// Store key `key` was buffered.
    pub(crate) fn wrote(&mut self, key: &str) {
        if self.disabled.is_none() {
            self.recorder.wrote(key);
        }
    }

    /// A live step is about to deliver `settlements`.
    pub(crate) fn step(&mut self, settlements: &[Settlement]) {
        if self.disabled.is_some() {
            return;
        }
        self.recorder.step(settlements);
        if self.recorder.len() > MAX_JOURNAL_BYTES {
            self.disable(format!(
                "its journal passed {} MiB; it can no longer be resumed after a restart or on another process",
                MAX_JOURNAL_BYTES >> 20
            ));
        }
    }

    fn disable(&mut self, why: String) {
        tracing::warn!(run_id = %self.meta.run_id, reason = %why, "run no longer journaled");
        self.disabled = Some(why);
        // Nothing will be written any more: give the memory back now.
        self.recorder = Recorder::default();
        *self.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Segments::default();
    }

    /// The journal mode.
    pub(crate) fn mode(&self) -> JournalMode {
        self.args.config.journal
    }

    /// The run's record exists in the backend.
    pub(crate) fn created(&self) -> bool {
        self.created.load(Ordering::Acquire)
    }
}

/// What a fresh run's record says besides its mode.
#[derive(Clone, Debug, Default)]
pub(crate) struct Meta {
    pub title: Option<String>,
    pub principal: Option<String>,
}

impl CellState {
    /// Whether the host work is quiescent: nothing runs for the cell, so
    /// its journal says everything.
    fn quiescent(&self) -> bool {
        !self.host.has_calls()
    }

    /// The snapshot of host-side state for a journal written now (its
    /// store writes travel separately, as the keys written since the last
    /// journal write).
    ///
    /// # Errors
    /// A settlement waiting for delivery did not encode (the run cannot be
    /// journaled without losing it).
    fn snapshot(&mut self, undelivered: &[Settlement]) -> Result<Snapshot, String> {
        self.network |= vm_lock(&self.bridge).network;
        let wall = now_ms();
        let now = Instant::now();
        let timers = self
            .host
            .timer_deadlines()
            .into_iter()
            .map(|(id, due)| (id, wall.saturating_add(millis(due.saturating_duration_since(now)))))
            .collect();
        Ok(Snapshot {
            delivered_steps: self.durable.as_ref().and_then(|d| d.delivered_through).map_or(0, |d| d + 1),
            output_used: self.output.used(),
            telemetry: self.telemetry,
            network: self.network,
            envelope_id: self.envelope_id.clone(),
            writes: Vec::new(),
            timers,
            undelivered: undelivered.iter().map(journal::settlement_value).collect::<Result<_, _>>()?,
        })
    }

    /// The format-2 fingerprint of `request`: tools by catalog id, MCP
    /// servers by configured name.
    pub(super) fn fingerprint(&self, request: &HostRequest) -> u64 {
        let bridge = vm_lock(&self.bridge);
        let ids = CellIds { tools: &self.tools, mcp: &self.mcp, routes: bridge.determinism.mcp_routes.as_ref() };
        journal::fingerprint(request, &ids)
    }

    /// Output so far was delivered to an observer.
    pub(super) fn delivered(&mut self) {
        if let Some(d) = self.durable.as_mut() {
            d.delivered_through = Some(d.recorder.step_count());
        }
    }

    /// Writes what is new in the journal (`status`), keeping the lease for
    /// `lease` or releasing it (`None`), then runs `then` with the outcome.
    /// Writes of one run happen in the order they were made; each appends
    /// only what happened since the one before.
    pub(super) fn write_journal(
        &mut self,
        status: RunStatus,
        lease: Option<Duration>,
        then: impl FnOnce(Result<u64, RunStoreError>) + Send + 'static,
    ) -> bool {
        let ready = std::mem::take(&mut self.host.ready);
        let snapshot = self.snapshot(&ready);
        self.host.ready = ready;
        let Some(d) = self.durable.as_mut() else { return false };
        if d.disabled.is_some() {
            return false;
        }
        let snapshot = match snapshot {
            Ok(snapshot) => snapshot,
            Err(why) => {
                d.disable(format!("its state could not be journaled ({why})"));
                return false;
            }
        };
        let segments = {
            let bridge = vm_lock(&self.bridge);
            let det = &bridge.determinism;
            (!det.overflow).then(|| {
                let reads = Reads { clock: &det.reads, env: &det.env, writes: &self.writes };
                d.recorder.segments(&d.header, &reads, &snapshot)
            })
        };
        let Some(segments) = segments else {
            d.disable("it read the clock or the configuration more often than a journal keeps".into());
            return false;
        };
        if d.recorder.len() > MAX_JOURNAL_BYTES {
            d.disable(format!(
                "its journal passed {} MiB; it can no longer be resumed after a restart or on another process",
                MAX_JOURNAL_BYTES >> 20
            ));
            return false;
        }
        {
            let mut unsent = d.unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if segments.replace {
                *unsent = segments;
            } else {
                unsent.bytes.extend_from_slice(&segments.bytes);
            }
        }
        let (store, owner, meta) = (Arc::clone(&d.args.store), Arc::clone(&d.args.owner), d.meta.clone());
        let (created, version, writer) = (Arc::clone(&d.created), Arc::clone(&d.version), Arc::clone(&d.writer));
        let unsent = Arc::clone(&d.unsent);
        let upto = d.recorder.request_count();
        let me = self.myself.clone();
        let full_lease = d.args.config.lease;
        d.lease_held = lease.is_some();
        if lease.is_some() {
            let task = self.myself.send_after(full_lease / 3, || CellMsg::Renew);
            super::replace_timer(&mut self.renew_timer, Some(task));
        }
        let metrics = Arc::clone(&self.metrics);
        tokio::spawn(async move {
            let _order = writer.lock().await;
            let began = Instant::now();
            let Segments { bytes, replace } =
                std::mem::take(&mut *unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
            let size = bytes.len();
            let kept = bytes.clone();
            // A backend that is briefly away (a database restarting, a
            // connection lost) is retried, within a bound: the observer of
            // a park hears `waiting` only once the run is durable.
            let mut backoff = Duration::from_millis(25);
            let result = loop {
                let attempt = async {
                    if !created.load(Ordering::Acquire) {
                        // Durable with the write below (one flush on sled).
                        store.create_before_save(&meta, &owner, full_lease).await?;
                        created.store(true, Ordering::Release);
                    }
                    if replace {
                        store.save(&meta.run_id, &owner, status.clone(), kept.clone(), lease).await
                    } else {
                        store.append(&meta.run_id, &owner, status.clone(), kept.clone(), lease).await
                    }
                }
                .await;
                match attempt {
                    Err(RunStoreError::Backend(e)) if began.elapsed() + backoff < WRITE_RETRY => {
                        tracing::debug!(run_id = %meta.run_id, error = %e, "run journal write failed; retrying");
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(Duration::from_millis(500));
                    }
                    other => break other,
                }
            };
            drop(bytes);
            match &result {
                Ok(v) => {
                    version.store(*v, Ordering::Release);
                    metrics.runs.journal_written(size);
                    metrics.runs.journal_write_took(began.elapsed());
                    let _ = me.send_message(CellMsg::Journaled(upto));
                }
                Err(e) => {
                    // Not stored: sent again, first, by the next write.
                    let mut left = unsent.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let mut bytes = kept;
                    bytes.extend_from_slice(&left.bytes);
                    *left = Segments { bytes, replace: replace || left.replace };
                    drop(left);
                    metrics.runs.journal_write_took(began.elapsed());
                    if !matches!(e, RunStoreError::LeaseLost { .. }) {
                        metrics.runs.journal_write_failed();
                    }
                    tracing::warn!(run_id = %meta.run_id, error = %e, "run journal not written");
                }
            }
            then(result);
        });
        true
    }

    /// Whether a request that is (not) `replay_safe` must wait for a stored
    /// journal to record it before it starts: in a run that has a journal,
    /// a crash after the call started and before the next write would make
    /// the replay run it again.
    pub(super) fn write_ahead(&self, replay_safe: bool) -> bool {
        !replay_safe && self.durable.as_ref().is_some_and(|d| d.created() && d.disabled.is_none())
    }

    /// Writes the journal now if a held request waits for it; when the run
    /// can no longer be journaled, the held requests start at once (no
    /// replay could repeat them).
    pub(super) fn write_ahead_if_due(&mut self) {
        let Some(newest) = self.host.awaiting_journal() else { return };
        if self.write_ahead_sent >= newest {
            return;
        }
        self.write_ahead_sent = newest;
        let lease = self.durable.as_ref().map(|d| d.args.config.lease);
        let me = self.myself.clone();
        let written = self.write_journal(RunStatus::Running, lease, move |r| {
            if let Err(e) = &r
                && !matches!(e, RunStoreError::LeaseLost { .. })
            {
                let _ = me.send_message(CellMsg::WriteAheadFailed(newest, e.to_string()));
            }
            lease_check(&me, &r);
        });
        if !written {
            let inline = self.host.journaled_through(u64::MAX, &self.notify);
            self.release_call_slot(inline);
        }
    }

    /// A journal write stored every request up to `upto`: held ones start.
    pub(super) fn journaled(&mut self, upto: u64) {
        let inline = self.host.journaled_through(upto, &self.notify);
        self.release_call_slot(inline);
    }

    /// The write-ahead for requests up to `upto` failed: they are rejected,
    /// never started unrecorded.
    pub(super) fn write_ahead_failed(&mut self, upto: u64, why: &str) {
        let message = format!(
            "the call was not started: it is not replay-safe, and the run's journal could not record it first \
             ({why}), so a crash could make it run twice. Retry it when the run store is back."
        );
        let rejected = self.host.reject_held(upto, &message);
        self.release_call_slot(rejected);
        // A later write may record the rest; it is retried on demand.
        self.write_ahead_sent = self.write_ahead_sent.min(upto.saturating_sub(1));
    }

    /// A call that must not run twice finished and its answer was
    /// delivered: journal it, so a crash now replays the answer instead of
    /// reporting the call `outcome_unknown`.
    pub(super) fn journal_held_answers(&mut self) {
        let lease = self.durable.as_ref().map(|d| d.args.config.lease);
        let me = self.myself.clone();
        self.write_journal(RunStatus::Running, lease, move |r| lease_check(&me, &r));
    }

    /// After a live step in `every_call` mode: journal it.
    pub(super) fn journal_step(&mut self) {
        let every = self.durable.as_ref().is_some_and(|d| d.mode() == JournalMode::EveryCall && d.disabled.is_none());
        if every {
            let lease = self.durable.as_ref().map(|d| d.args.config.lease);
            let me = self.myself.clone();
            self.write_journal(RunStatus::Running, lease, move |r| lease_check(&me, &r));
        }
    }

    /// Parks durably: the journal is written, then `send` reports
    /// `waiting`; a cell that is not journaled reports at once.
    pub(super) fn park_durably(&mut self, myself: &ActorRef<CellMsg>, send: Box<dyn FnOnce() + Send>) {
        let slot = Arc::new(std::sync::Mutex::new(Some(send)));
        let fire = {
            let slot = Arc::clone(&slot);
            move || {
                if let Some(send) = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
                    send();
                }
            }
        };
        let Some(config) = self.durable.as_ref().filter(|d| d.disabled.is_none()).map(|d| Arc::clone(&d.args.config))
        else {
            return fire();
        };
        // With no hand-off delay, a quiescent cell releases its lease with
        // the park's own write: any process can resume it at once.
        let release = config.handoff_after.is_zero() && self.quiescent();
        let (me, runs, run_id) = (myself.clone(), Arc::clone(&self.runs), self.run_id.clone());
        let lease = (!release).then_some(config.lease);
        // The observer hears `waiting` after the write, written or not: a
        // failed write was logged and counted, and the run goes on in memory.
        let written = self.write_journal(RunStatus::Parked, lease, move |r| {
            if release && let Ok(version) = &r {
                runs.set_handed_off(&run_id, Some(*version));
            }
            lease_check(&me, &r);
            fire();
        });
        if !written {
            if let Some(send) = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
                send();
            }
            return;
        }
        let epoch = self.park_epoch;
        let task = match (release, config.evict_after) {
            (true, Some(evict)) => Some(myself.send_after(evict, move || CellMsg::Evict(epoch))),
            (true, None) => None,
            (false, _) => Some(myself.send_after(config.handoff_after, move || CellMsg::HandOff(epoch))),
        };
        super::replace_timer(&mut self.handoff_timer, task);
    }

    /// The hand-off delay passed while parked: release the lease (writing
    /// what settled meanwhile), and schedule the eviction.
    pub(super) fn hand_off(&mut self, myself: &ActorRef<CellMsg>, epoch: u64) -> Flow {
        if self.window.is_some() || epoch != self.park_epoch || self.durable.is_none() {
            return Flow::Live;
        }
        let (handoff, evict) = match self.durable.as_ref() {
            Some(d) => (d.args.config.handoff_after, d.args.config.evict_after),
            None => return Flow::Live,
        };
        if !self.quiescent() {
            // A call is still running here: keep the lease, look again later.
            let lease = self.durable.as_ref().map_or(handoff, |d| d.args.config.lease);
            let task = myself.send_after(handoff.max(lease / 3), move || CellMsg::HandOff(epoch));
            super::replace_timer(&mut self.handoff_timer, Some(task));
            self.renew_lease();
            return Flow::Live;
        }
        let run_id = self.run_id.clone();
        let runs = Arc::clone(&self.runs);
        let me = myself.clone();
        let written = self.write_journal(RunStatus::Parked, None, move |r| match r {
            Ok(version) => runs.set_handed_off(&run_id, Some(version)),
            Err(_) => {
                let _ = me.send_message(CellMsg::LeaseLost);
            }
        });
        if written && let Some(evict) = evict {
            let wait = evict.saturating_sub(handoff);
            let task = myself.send_after(wait, move || CellMsg::Evict(epoch));
            super::replace_timer(&mut self.handoff_timer, Some(task));
        }
        Flow::Live
    }

    /// Idle past `evict_after` with its lease released: leave memory. The
    /// run lives on as its journal; a `wait` replays it.
    pub(super) fn evict(&mut self, epoch: u64) -> Flow {
        let handed_off = self.durable.as_ref().is_some_and(|d| !d.lease_held && d.disabled.is_none());
        if self.window.is_some() || epoch != self.park_epoch || !handed_off || !self.quiescent() {
            return Flow::Live;
        }
        self.leave_memory();
        crate::telemetry::RunMetrics::bump(&self.metrics.runs.evicted);
        self.runs.evicted_to_journal(&self.run_id, self.limits.parked_ttl);
        Flow::Ended
    }

    /// The runtime is shutting down: a parked run whose lease this process
    /// holds (a call was still running) writes its journal once more and
    /// releases the lease, so another process resumes it at once instead of
    /// after the lease runs out; its calls in flight are then re-issued or
    /// `outcome_unknown` there. `done` is told when the write is over.
    pub(super) fn release_for_shutdown(&mut self, done: ractor::RpcReplyPort<()>) -> Flow {
        let holds = self.window.is_none()
            && !self.record_closed
            && self.durable.as_ref().is_some_and(|d| d.created() && d.lease_held && d.disabled.is_none());
        // Nothing to hand over (or nothing written): `done` is dropped, which
        // answers the caller at once.
        if holds {
            self.write_journal(RunStatus::Parked, None, move |_| drop(done.send(())));
        }
        Flow::Live
    }

    /// Another process holds the run now: this copy is stale. Leave memory
    /// without ending the run.
    pub(super) fn lease_lost(&mut self) -> Flow {
        if self.window.is_some() {
            // A window is open on this copy: it ends it as unavailable.
            let result = self.fail(
                ErrorCode::RuntimeUnavailable,
                "code mode run moved to another codemode process (its lease was taken over); call wait again.".into(),
                Phase::Host,
            );
            if let Some(window) = self.window.take() {
                let _ = window.reply.send(result);
            }
        }
        self.leave_memory();
        Flow::Ended
    }

    fn leave_memory(&mut self) {
        self.set_parked(false);
        super::replace_timer(&mut self.wake_timer, None);
        super::replace_timer(&mut self.ttl_timer, None);
        super::replace_timer(&mut self.handoff_timer, None);
        super::replace_timer(&mut self.renew_timer, None);
        if let Some(d) = self.durable.as_mut() {
            // The record is the run now: nothing here may end it.
            d.lease_held = false;
        }
        self.record_closed = true;
        self.runs.evicted(&self.run_id, self.myself.get_id());
    }

    /// Renews a held lease, and schedules the next renewal.
    pub(super) fn renew(&mut self) -> Flow {
        let Some(lease) = self.durable.as_ref().filter(|d| d.lease_held).map(|d| d.args.config.lease) else {
            return Flow::Live;
        };
        self.renew_lease();
        let task = self.myself.send_after(lease / 3, || CellMsg::Renew);
        super::replace_timer(&mut self.renew_timer, Some(task));
        Flow::Live
    }

    /// Keeps the lease while a call is still running in a parked cell.
    fn renew_lease(&self) {
        let Some(d) = self.durable.as_ref().filter(|d| d.created() && d.lease_held) else { return };
        let (store, owner, run_id, lease) =
            (Arc::clone(&d.args.store), Arc::clone(&d.args.owner), self.run_id.clone(), d.args.config.lease);
        let me = self.myself.clone();
        tokio::spawn(async move {
            let r = store.renew(&run_id, &owner, lease).await;
            lease_check(&me, &r);
        });
    }

    /// A window opens on this in-memory copy after a hand-off: the session
    /// re-claimed the lease for it first, so it holds it again.
    pub(super) fn lease_reclaimed(&mut self) {
        let Some(d) = self.durable.as_mut() else { return };
        if !d.lease_held && d.created() {
            d.lease_held = true;
            let task = self.myself.send_after(d.args.config.lease / 3, || CellMsg::Renew);
            super::replace_timer(&mut self.renew_timer, Some(task));
        }
        self.runs.set_handed_off(&self.run_id, None);
    }

    /// Ends the run's record (`end`) unless the run left memory; a completed
    /// cell's end goes with its commit instead (`complete.rs`).
    pub(super) fn end_record(&mut self, end: EndState) {
        if self.record_closed {
            return;
        }
        let Some(d) = self.durable.as_ref().filter(|d| d.created()) else { return };
        let (store, owner, run_id) = (Arc::clone(&d.args.store), Arc::clone(&d.args.owner), self.run_id.clone());
        let writer = Arc::clone(&d.writer);
        let end = if self.diverged { codemode_bridge::RunEnd::ReplayDiverged } else { end.into() };
        let (held, lease) = (d.lease_held, d.args.config.lease);
        let version = Arc::clone(&d.version);
        tokio::spawn(async move {
            let _order = writer.lock().await;
            // A parked run that handed its lease off (then expired, was
            // disposed or aborted here) takes it back first, unless another
            // process advanced the run meanwhile: then this copy was stale
            // and the run is not this process's to end.
            if !held {
                match store.claim(&run_id, &owner, lease).await {
                    Ok(Claim::Claimed(record)) if record.version == version.load(Ordering::Acquire) => {}
                    Ok(Claim::Claimed(_)) => {
                        let _ = store.release(&run_id, &owner).await;
                        return;
                    }
                    Ok(_) => return,
                    Err(e) => {
                        tracing::warn!(run_id = %run_id, error = %e, "run end not recorded");
                        return;
                    }
                }
            }
            if let Err(e) = store.end(&run_id, &owner, end, Vec::new()).await {
                tracing::warn!(run_id = %run_id, error = %e, "run end not recorded");
            }
        });
    }

    /// How a completing cell commits when its run has a record: with the
    /// record's end, in one transaction.
    pub(super) fn record_commit(&self) -> Option<RecordCommit> {
        let d = self.durable.as_ref().filter(|d| d.created() && !self.record_closed)?;
        Some(RecordCommit {
            store: Arc::clone(&d.args.store),
            owner: Arc::clone(&d.args.owner),
            writer: Arc::clone(&d.writer),
            run_id: self.run_id.clone(),
        })
    }

    /// The record ended with the cell's commit.
    pub(super) fn record_committed(&mut self) {
        self.record_closed = true;
    }

    // ---- replay -----------------------------------------------------------

    /// Sets up a replay of `journal` before the cell starts.
    pub(crate) fn begin_replay(&mut self, journal: Journal, args: DurableArgs, version: u64) {
        {
            let mut bridge = vm_lock(&self.bridge);
            let det = &mut bridge.determinism;
            det.start(journal.header.seed);
            det.replaying(journal.clock.clone());
            det.env_replay = journal.env.clone().into();
            // Format 1 did not journal configuration reads: they are read
            // live (and recorded, for the journal it is rewritten as).
            det.env_journaled = journal.format >= 2;
        }
        let (recorder, header) = if journal.format >= 2 {
            (Recorder::continuing(&journal), journal.header.clone())
        } else {
            // Rewritten in format 2 at its next write, with the tool table
            // this replay runs with (format 1 used the registry's).
            let mut header = journal.header.clone();
            header.format = journal::FORMAT;
            header.tools = args.tools.clone();
            (Recorder::upgrading(&journal), header)
        };
        let delivered =
            (journal.snapshot.delivered_steps > 0).then(|| journal.snapshot.delivered_steps.saturating_sub(1));
        self.durable = Some(Durable::with(args, &self.run_id, header, recorder, true, version, delivered));
        self.replay = Some(Replaying {
            journal,
            pending: BTreeMap::new(),
            replayed: 0,
            fresh: Vec::new(),
            started: Instant::now(),
        });
    }

    /// During a replay, timers the replayed cell cleared are no longer
    /// pending.
    pub(super) fn replay_cancelled(&mut self, id: u64) -> bool {
        match self.replay.as_mut() {
            Some(replay) => {
                replay.pending.remove(&id);
                true
            }
            None => false,
        }
    }

    /// During a replay, a request the replayed cell made: checked against
    /// the journal and held until a journaled step settles it. Returns
    /// false when the cell is not replaying (handle it live).
    pub(super) fn replay_request(&mut self, id: u64, request: HostRequest) -> Result<(), HostRequest> {
        let Some(format) = self.replay.as_ref().map(|r| r.journal.format) else { return Err(request) };
        let current = self.fingerprint(&request);
        let actual = if format >= 2 { current } else { journal::fingerprint_v1(&request) };
        let Some(replay) = self.replay.as_mut() else { return Err(request) };
        let expected = replay.journal.requests.get((id as usize).wrapping_sub(1)).copied();
        match expected {
            Some(hash) if hash == actual => {
                replay.pending.insert(id, request);
                if format < 2
                    && let Some(d) = self.durable.as_mut()
                {
                    // The format-2 journal this one becomes names it so.
                    d.request(id, current);
                }
            }
            Some(_) => self.diverge(format!(
                "request {id} ({}) differs from the one the journal recorded",
                journal::describe(&request)
            )),
            None if replay.journal.steps.is_empty() => replay.fresh.push((id, request)),
            None => self.diverge(format!(
                "the replayed cell made request {id} ({}), which the journal does not have",
                journal::describe(&request)
            )),
        }
        Ok(())
    }

    fn diverge(&mut self, why: String) {
        vm_lock(&self.bridge).determinism.diverged.get_or_insert(why);
    }

    /// Replays the journal's steps after the cell's start; then goes live.
    /// Returns the flow when the replay ended the cell.
    pub(super) fn replay_steps(&mut self) -> Option<Flow> {
        self.mute_replayed_output(0);
        loop {
            if let Some(flow) = self.replay_check() {
                return Some(flow);
            }
            let Some(step) = self.replay.as_mut().and_then(|r| r.journal.steps.pop_front()) else { break };
            let mut ordinary = 0;
            for s in &step {
                let Some(request) = self.replay.as_mut().and_then(|r| r.pending.remove(&s.id)) else {
                    self.diverge(format!(
                        "the journal settles request {} there, which the replayed cell had not made",
                        s.id
                    ));
                    return self.replay_check();
                };
                match request {
                    HostRequest::Timer { .. } => vm_lock(&self.bridge).timer_fired(s.id),
                    HostRequest::Yield { .. } => {}
                    _ => ordinary += 1,
                }
            }
            if ordinary > 0 {
                self.release_call_slot(ordinary);
            }
            if let Some(vm) = &self.vm {
                let _busy = self.lease.guest_step();
                vm.step(step);
            }
            let n = self.replay.as_ref().map_or(0, |r| r.replayed + 1);
            if let Some(r) = self.replay.as_mut() {
                r.replayed = n;
            }
            if let Some(flow) = self.take_submissions() {
                return Some(flow);
            }
            self.mute_replayed_output(n);
        }
        if let Some(flow) = self.replay_check() {
            return Some(flow);
        }
        self.go_live();
        None
    }

    /// Output the replay emitted up to step `n` that an observer already
    /// had is not delivered again.
    fn mute_replayed_output(&mut self, n: usize) {
        let delivered = self.durable.as_ref().and_then(|d| d.delivered_through);
        if delivered.is_some_and(|through| n <= through) {
            drop(vm_lock(&self.bridge).output.take());
        }
    }

    /// Ends a replay that diverged or settled: a replayed cell can only
    /// park where its journal ended, so an outcome during the replay is a
    /// divergence too.
    pub(super) fn replay_check(&mut self) -> Option<Flow> {
        if self.diverged {
            return None;
        }
        let (diverged, settled) = {
            let bridge = vm_lock(&self.bridge);
            (bridge.determinism.diverged.clone(), self.replay.is_some() && bridge.outcome.is_some())
        };
        let why =
            diverged.or_else(|| settled.then(|| "the replayed cell settled before its journal ended".to_owned()))?;
        if self.control.was_interrupted() {
            // Out of budget (or aborted) while replaying: the usual ending.
            return None;
        }
        crate::telemetry::RunMetrics::bump(&self.metrics.runs.replay_diverged);
        self.diverged = true;
        self.replay = None;
        let message = format!(
            "code mode run cannot be resumed: its replay diverged from its journal ({why}). The run was stopped \
             rather than resumed wrongly; start a new exec."
        );
        Some(self.fail_end(ErrorCode::ReplayDiverged, message, Phase::Host, EndState::Failed))
    }

    /// The journal is replayed: restore the host-side state and go on live.
    fn go_live(&mut self) {
        let Some(replay) = self.replay.take() else { return };
        {
            let mut bridge = vm_lock(&self.bridge);
            if !bridge.determinism.replay.is_empty() {
                bridge.determinism.diverged.get_or_insert_with(|| {
                    "the replayed cell read the clock fewer times than its journal recorded".to_owned()
                });
            }
            bridge.determinism.strict = false;
        }
        let snapshot = replay.journal.snapshot;
        self.writes = journal::buffer_of(snapshot.writes);
        self.network |= snapshot.network;
        self.envelope_id = snapshot.envelope_id;
        self.telemetry = snapshot.telemetry;
        self.output.restore_used(snapshot.output_used);
        let now = Instant::now();
        let wall = now_ms();
        let due: std::collections::HashMap<u64, u64> = snapshot.timers.into_iter().collect();
        let mut settled_inline = 0;
        let mut pending = replay.pending;
        // Settled while the run was parked, not yet delivered: delivered at
        // this window as in memory (never re-issued).
        for value in snapshot.undelivered {
            match journal::read_settlement(value) {
                Ok(s) => {
                    match pending.remove(&s.id) {
                        Some(HostRequest::Timer { .. } | HostRequest::Yield { .. }) => {}
                        Some(_) => settled_inline += 1,
                        None => self.diverge(format!("the journal delivers request {} the replay never made", s.id)),
                    }
                    self.host.ready.push(s);
                }
                Err(e) => self.diverge(format!("an undelivered settlement in the journal is unreadable: {e}")),
            }
        }
        for (id, request) in pending {
            match request {
                HostRequest::Yield { reason } => self.host.add_yield(id, reason),
                HostRequest::Timer { delay_ms } => {
                    let left = due.get(&id).map_or(delay_ms, |at| at.saturating_sub(wall));
                    self.host.add_timer(id, left, now);
                }
                request => settled_inline += self.reissue(id, request, now),
            }
        }
        for (id, request) in replay.fresh {
            if self.durable.is_some() {
                let fingerprint = self.fingerprint(&request);
                if let Some(d) = self.durable.as_mut() {
                    d.request(id, fingerprint);
                }
            }
            settled_inline += self.handle_request(id, request, now).unwrap_or(0);
        }
        if settled_inline > 0 {
            self.release_call_slot(settled_inline);
        }
        self.metrics.runs.replay_took(replay.started.elapsed());
        crate::telemetry::RunMetrics::bump(&self.metrics.runs.resumed_by_replay);
        self.runs.resumed(&self.run_id);
    }

    /// A request that was in flight when the journal was written: run it
    /// again if that is safe, else reject it with `outcome_unknown`.
    fn reissue(&mut self, id: u64, request: HostRequest, now: Instant) -> usize {
        // Every kind is named: a new request kind does not compile until it
        // is classified here, and the unsure answer is `outcome_unknown`.
        let unsafe_what = match &request {
            // Effects outside the cell, safe to repeat only if declared so.
            HostRequest::Call { tool, .. } => match self.tools.get(*tool) {
                Some(e) if e.replay_safe => None,
                Some(e) => Some(e.metadata.callable_name.clone()),
                None => Some(format!("tool #{tool} (no longer configured)")),
            },
            HostRequest::McpCall { server, tool, .. } => {
                (!self.mcp.replay_safe(*server, tool)).then(|| format!("MCP tool {tool}"))
            }
            // Effects that may have happened: a node command, a saved or
            // deleted result (a second delete would answer "not found" for
            // a delete that worked).
            HostRequest::NodesInvoke { node, command, .. } => Some(format!("node command {command} on {node}")),
            HostRequest::ResultSave { .. } => Some("results.save".to_owned()),
            HostRequest::ResultDelete { .. } => Some("results.delete".to_owned()),
            // Reads, and checks whose effect lives in the cell itself (a
            // `store` is buffered in the cell, and the buffer is in the
            // journal's snapshot): asking again gives a valid answer.
            HostRequest::Describe { .. }
            | HostRequest::Search { .. }
            | HostRequest::ApiList { .. }
            | HostRequest::ApiRead { .. }
            | HostRequest::Store { .. }
            | HostRequest::Load { .. }
            | HostRequest::ResultLoad { .. }
            | HostRequest::McpOp { .. }
            | HostRequest::McpApi { .. }
            | HostRequest::NodesList
            | HostRequest::NodesGet { .. } => None,
            // Re-armed by the caller from the journal, never re-issued; one
            // reaching here would be a bug, so it is not run again.
            HostRequest::Yield { .. } | HostRequest::Timer { .. } => Some(journal::describe(&request).to_owned()),
        };
        match unsafe_what {
            None => {
                crate::telemetry::RunMetrics::bump(&self.metrics.runs.reissued);
                self.handle_request(id, request, now).unwrap_or_default()
            }
            Some(what) => {
                crate::telemetry::RunMetrics::bump(&self.metrics.runs.outcome_unknown);
                let message = format!(
                    "{what} was in flight when this run's previous process stopped: whether it ran is unknown, and \
                     it is not replay-safe, so it was not run again. Check its effect before retrying it."
                );
                self.host.settle_now(Settlement::fault(id, Fault::error(message, "outcome_unknown")));
                1
            }
        }
    }
}

/// A completing run's commit through its record.
pub(crate) struct RecordCommit {
    store: Arc<dyn RunStore>,
    owner: Arc<str>,
    writer: Arc<tokio::sync::Mutex<()>>,
    run_id: String,
}

impl RecordCommit {
    /// Ends the record as completed with `writes`, atomically.
    pub(crate) async fn commit(
        self,
        writes: Vec<(String, Option<codemode_store::StoredValue>)>,
    ) -> Result<(), codemode_store::StoreError> {
        let _order = self.writer.lock().await;
        match self.store.end(&self.run_id, &self.owner, codemode_bridge::RunEnd::Completed, writes).await {
            Ok(()) => Ok(()),
            Err(RunStoreError::Store(e)) => Err(e),
            Err(e) => Err(codemode_store::StoreError::Io(e.to_string())),
        }
    }
}

/// A journal write or renewal that found the lease taken: this copy stops.
fn lease_check<T>(me: &ActorRef<CellMsg>, result: &Result<T, RunStoreError>) {
    if let Err(RunStoreError::LeaseLost { .. }) = result {
        let _ = me.send_message(CellMsg::LeaseLost);
    }
}

/// What a cell's fingerprints name its tools and MCP servers by.
struct CellIds<'a> {
    tools: &'a super::ToolTable,
    mcp: &'a crate::mcp::McpHub,
    routes: Option<&'a std::collections::HashMap<usize, super::McpRoute>>,
}

impl Identities for CellIds<'_> {
    fn tool(&self, tool: usize) -> Option<&str> {
        self.tools.id(tool)
    }

    fn server(&self, server: usize) -> Option<&str> {
        match self.routes {
            Some(routes) => routes.get(&server).map(|r| r.name.as_str()),
            None => self.mcp.server_name(server),
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
