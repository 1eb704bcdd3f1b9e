//! A cell's durable side: the narrow interface the cell calls when it
//! makes a request, steps, parks and ends, and what it does on its own
//! (lease renewals, hand-offs, eviction).
//!
//! - A journal is written when the cell parks (always), and after each
//!   step when `[runs] journal = "every_call"`. The park's write finishes
//!   before the observer hears `waiting`: a crash after that never loses
//!   the run.
//! - Once a run has a journal, a request that must never run twice is
//!   held until a write records it (write-ahead), and its answer is
//!   written when it settles.
//! - A parked cell whose host work is quiescent (no call in flight: only
//!   yields and timers, which are data) releases its lease after the
//!   hand-off delay; it stays in memory as a cache until `evict_after`,
//!   then leaves memory. A `wait` elsewhere claims the lease and replays.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use codemode_protocol::{PendingApproval, RunEnd};
use codemode_store::runs::RunStatus;

use super::announced::Announcements;
use super::msg::{DurableMsg, Mailbox, Scheduled, reschedule};
use super::replay::Replay;
use super::run_journal::{HostState, Mark, Meta, RunJournal, WriteError, Written};
use crate::cell::mode::CellMode;
use crate::durable::commit::{RecordCommit, RecordEnd};
use crate::durable::config::DurableArgs;
use crate::durable::config::JournalMode;
use crate::durable::journal::{self, Header, Journal, Recorder};
use crate::engine::determinism::{ReplayReads, Setup};
use crate::run_index::{HANDING_OFF, RunIndex};
use crate::telemetry::{Metrics, RunMetrics};

/// A held lease is renewed every third of its length, so two renewals in a
/// row may fail (a store briefly away) before it runs out.
const RENEWALS_PER_LEASE: u32 = 3;

/// What the cell must do after asking for a write-ahead.
pub(crate) enum WriteAhead {
    /// Nothing is held, or a write (or the memory-only mark) for it is on
    /// its way.
    Pending,
    /// The run lives in memory only and its record says so: every held
    /// request may start (no replay can repeat them).
    StartAll,
}

/// The most clock runs a journal of `bytes` keeps (each is a few bytes of
/// JSON; a run of reads at the same step is one).
fn max_clock_runs(bytes: usize) -> usize {
    bytes / 8
}

/// The cell's durable side.
pub(crate) struct Durability {
    /// `None`: not durable (a headless cell, `journal = "off"`, no store).
    journal: Option<RunJournal>,
    /// A replay to run before the cell goes on live.
    replay: Option<Replay>,
    mail: Mailbox,
    runs: Arc<RunIndex>,
    run_id: String,
    metrics: Arc<Metrics>,
    /// The hand-off or eviction of the current park.
    handoff: Option<Scheduled>,
    /// The next lease renewal.
    renewal: Option<Scheduled>,
    /// Nothing here may end the run's record: the cell left memory
    /// (evicted, or its lease was taken) and the run lives on as its
    /// record, or the record already ended with the cell's commit.
    record_closed: bool,
    /// The replay diverged: the record ends as `replay_diverged`.
    diverged: bool,
    /// The completing cell's commit ends the run's record too.
    record_through_commit: bool,
    /// The newest held request a write-ahead was asked for.
    write_ahead_sent: u64,
    /// Approvals asked here, announced once a stored write holds them.
    announcements: Announcements,
}

/// How a cell's durable side starts.
pub(crate) struct DurableStart<'a> {
    pub args: Option<DurableArgs>,
    pub run_id: &'a str,
    pub mode: &'a CellMode,
    pub wrapped: &'a str,
    pub meta: Meta,
    /// A stored run to resume by replaying its journal, at this version.
    pub resume: Option<(Journal, u64)>,
    pub mail: Mailbox,
    pub runs: Arc<RunIndex>,
    pub metrics: Arc<Metrics>,
    pub announcements: Announcements,
}

impl Durability {
    /// The durable side of a fresh cell, or of a run resumed by replay,
    /// and how the cell's clock, `Math.random` and configuration reads are
    /// recorded or replayed (`None`: read live, kept nowhere).
    pub(crate) fn start(start: DurableStart<'_>) -> (Self, Option<Setup>) {
        let DurableStart { args, run_id, mode, wrapped, meta, resume, mail, runs, metrics, announcements } = start;
        let mut this = Self {
            journal: None,
            replay: None,
            mail,
            runs,
            run_id: run_id.to_owned(),
            metrics: Arc::clone(&metrics),
            handoff: None,
            renewal: None,
            record_closed: false,
            diverged: false,
            record_through_commit: false,
            write_ahead_sent: 0,
            announcements,
        };
        match (resume, args) {
            (Some((journal, version)), Some(args)) => {
                let setup = this.begin_replay(journal, args, version);
                (this, Some(setup))
            }
            (None, Some(args)) => {
                let CellMode::Interactive { session, reply, restart_safe, unattended } = mode else {
                    return (this, None);
                };
                if args.config.journal == JournalMode::Off {
                    return (this, None);
                }
                let header = Header {
                    format: journal::FORMAT,
                    wrapped: wrapped.to_owned(),
                    title: meta.title,
                    session: session.clone(),
                    reply: reply.clone(),
                    principal: meta.principal,
                    restart_safe: *restart_safe,
                    unattended: *unattended,
                    seed: seed(),
                    tools: args.tools.clone(),
                    prelude: crate::engine::vm::PreludeGeneration::CURRENT.0,
                };
                let setup =
                    Setup { seed: header.seed, max_runs: max_clock_runs(args.config.max_journal_bytes), replay: None };
                this.journal = Some(RunJournal::fresh(args, run_id, header, metrics));
                (this, Some(setup))
            }
            (_, None) => (this, None),
        }
    }

    /// Sets up a replay of `journal` before the cell starts; returns how
    /// the cell's reads replay it.
    fn begin_replay(&mut self, mut journal: Journal, args: DurableArgs, version: u64) -> Setup {
        let max_runs = max_clock_runs(args.config.max_journal_bytes);
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
        let metrics = Arc::clone(&self.metrics);
        let lease = args.config.lease;
        let mut run_journal = RunJournal::with(args, &self.run_id, header, recorder, true, version, delivered, metrics);
        run_journal.resumed_from(&journal);
        self.journal = Some(run_journal);
        // The claim that resumed it holds the lease now: it is renewed from
        // here, also through a window longer than the lease that writes
        // nothing.
        reschedule(&mut self.renewal, Some(self.mail.after(lease / RENEWALS_PER_LEASE, || DurableMsg::Renew)));
        // The reads move to the engine (the recorder took their counts).
        let setup = Setup {
            seed: journal.header.seed,
            max_runs,
            replay: Some(ReplayReads {
                clock: std::mem::take(&mut journal.clock),
                env: std::mem::take(&mut journal.env),
                // Format 1 did not journal configuration reads: they are
                // read live (and recorded, for the journal it is rewritten
                // as).
                env_journaled: journal.format >= 2,
            }),
        };
        self.replay = Some(Replay::new(journal));
        setup
    }

    /// Whether the run's stored record can take it over from this copy:
    /// journaled, stored, and leased by this process. A run that can
    /// leaves memory when its engine is lost, and a `wait` resumes it by
    /// replay, as after a crash of the whole process.
    pub(crate) fn resumable(&self) -> bool {
        !self.record_closed && self.journal.as_ref().is_some_and(|j| j.live() && j.created() && j.lease_held)
    }

    /// Whether the run starts by replaying its journal.
    pub(crate) fn will_replay(&self) -> bool {
        self.replay.is_some() && self.journal.is_some()
    }

    /// The replay to run before the cell goes live, once.
    pub(crate) fn take_replay(&mut self) -> Option<(Replay, &mut RunJournal)> {
        let replay = self.replay.take()?;
        self.journal.as_mut().map(|j| (replay, j))
    }

    /// Whether the run is being recorded: its requests are fingerprinted.
    pub(crate) fn records(&self) -> bool {
        self.journal.as_ref().is_some_and(RunJournal::live)
    }

    /// The run has a stored journal (or one is being written): a request
    /// that must never run twice waits for a write that records it — or,
    /// once the run lives in memory only, for its record to say so.
    pub(crate) fn journaled(&self) -> bool {
        self.journal.as_ref().is_some_and(|j| j.issued() && j.mark_state() != Some(Mark::Marked))
    }

    /// The warning the next result carries (the run went memory only).
    pub(crate) fn take_warning(&mut self) -> Option<String> {
        self.journal.as_mut().and_then(RunJournal::take_warning)
    }

    /// A run that just went memory only has its record marked so, now:
    /// the cell hears [`DurableMsg::Marked`].
    fn mark_if_needed(&mut self) {
        let Some(j) = self.journal.as_mut() else { return };
        if j.mark_state() != Some(Mark::Unmarked) {
            return;
        }
        let mail = self.mail.clone();
        j.mark(move |r| mail.send(DurableMsg::Marked(r.map_err(WriteError::from))));
        // Memory only, the lease is kept while the cell lives.
        let lease = j.config().lease;
        reschedule(&mut self.renewal, Some(self.mail.after(lease / RENEWALS_PER_LEASE, || DurableMsg::Renew)));
    }

    /// How marking the record went: `true` when held requests may start.
    pub(crate) fn marked(&mut self, ok: bool) -> bool {
        if let Some(j) = self.journal.as_mut() {
            j.marked(ok);
        }
        ok
    }

    /// Request `id` was made, with format-2 fingerprint `fingerprint`.
    pub(crate) fn on_request(&mut self, id: u64, fingerprint: u64) {
        if let Some(j) = self.journal.as_mut() {
            j.request(id, fingerprint);
        }
    }

    /// Store key `key` was buffered.
    pub(crate) fn on_store(&mut self, key: &str) {
        if let Some(j) = self.journal.as_mut() {
            j.wrote(key);
        }
    }

    /// A live step is about to deliver `ready`.
    pub(crate) fn on_step(&mut self, ready: &[crate::engine::settlement::Settlement]) {
        if let Some(j) = self.journal.as_mut() {
            j.step(ready);
        }
        self.mark_if_needed();
    }

    /// Output so far was delivered to an observer.
    pub(crate) fn on_delivered(&mut self) {
        if let Some(j) = self.journal.as_mut() {
            j.delivered();
        }
    }

    /// Writes what is new, keeping the lease for `lease` or releasing it,
    /// then runs `then`. A write keeping the lease schedules its renewal.
    fn write(
        &mut self,
        status: RunStatus,
        lease: Option<std::time::Duration>,
        state: &HostState<'_>,
        then: impl FnOnce(Written) + Send + 'static,
    ) -> bool {
        let written = self.write_journal(status, lease, state, then);
        if !written {
            // No record will hold them.
            self.announcements.announce_all();
        }
        written
    }

    fn write_journal(
        &mut self,
        status: RunStatus,
        lease: Option<std::time::Duration>,
        state: &HostState<'_>,
        then: impl FnOnce(Written) + Send + 'static,
    ) -> bool {
        let Some(j) = self.journal.as_mut() else { return false };
        if !j.live() {
            return false;
        }
        if lease.is_some() {
            let renew = self.mail.after(j.config().lease / RENEWALS_PER_LEASE, || DurableMsg::Renew);
            reschedule(&mut self.renewal, Some(renew));
        }
        let mail = self.mail.clone();
        let approvals = self.announcements.in_write(state.approvals);
        let journaled = move |upto| {
            // Before the write's own answer (a park's `Parked` event).
            if let Some(approvals) = approvals {
                approvals.stored();
            }
            mail.send(DurableMsg::Journaled(upto));
        };
        let written = j.write(status, lease, state, journaled, then);
        self.mark_if_needed();
        written
    }

    /// A call asked for approval (`approval`, as `waiting` lists it): its
    /// event is emitted once a stored write holds it, or now when no
    /// record will.
    pub(crate) fn approval_asked(&self, approval: PendingApproval) {
        self.announcements.hold(approval);
        if !self.journal.as_ref().is_some_and(RunJournal::live) {
            self.announcements.announce_all();
        }
    }

    /// These approvals were decided or expired; returns those never
    /// announced.
    pub(crate) fn approvals_decided(&self, ids: &[String]) -> Vec<String> {
        self.announcements.forget(ids)
    }

    /// A write that keeps the lease, reporting a lease another process took.
    fn write_running(&mut self, state: &HostState<'_>) -> bool {
        let lease = self.journal.as_ref().map(|j| j.config().lease);
        let mail = self.mail.clone();
        self.write(RunStatus::Running, lease, state, move |r| lease_check(&mail, &r))
    }

    /// Writes what is new now, keeping the lease (a call asked for
    /// approval while the cell is parked).
    pub(crate) fn write_now(&mut self, state: &HostState<'_>) {
        self.write_running(state);
    }

    /// Decisions were staged: writes them, keeping the lease, and reports
    /// the outcome as [`DurableMsg::Decided`]. False when the run is not
    /// journaled (the decisions take effect at once).
    pub(crate) fn write_decisions(&mut self, state: &HostState<'_>) -> bool {
        let lease = self.journal.as_ref().map(|j| j.config().lease);
        let mail = self.mail.clone();
        self.write(RunStatus::Running, lease, state, move |r| {
            mail.send(DurableMsg::Decided(r.as_ref().map(|_| ()).map_err(ToString::to_string)));
            lease_check(&mail, &r);
        })
    }

    /// A held request waits for a write: writes the journal now unless a
    /// write for `newest` is on its way.
    pub(crate) fn write_ahead(&mut self, newest: u64, state: &HostState<'_>) -> WriteAhead {
        if self.write_ahead_sent >= newest {
            return WriteAhead::Pending;
        }
        self.write_ahead_sent = newest;
        let lease = self.journal.as_ref().map(|j| j.config().lease);
        let mail = self.mail.clone();
        let written = self.write(RunStatus::Running, lease, state, move |r| {
            match &r {
                Err(e @ WriteError::Store(_)) if !e.lease_lost() => {
                    mail.send(DurableMsg::WriteAheadFailed(newest, e.to_string()));
                }
                _ => {}
            }
            lease_check(&mail, &r);
        });
        if written {
            return WriteAhead::Pending;
        }
        // Not journaled (any more): what holds the requests is the mark.
        match self.journal.as_ref().and_then(RunJournal::mark_state) {
            Some(Mark::Marked) | None => WriteAhead::StartAll,
            Some(Mark::Unmarked) => {
                self.mark_if_needed();
                WriteAhead::Pending
            }
            Some(Mark::Marking) => WriteAhead::Pending,
        }
    }

    /// The write-ahead for requests up to `upto` failed: the message the
    /// held requests are rejected with. A later write may record the rest;
    /// it is retried on demand.
    pub(crate) fn write_ahead_failed(&mut self, upto: u64, why: &str) -> String {
        self.write_ahead_sent = self.write_ahead_sent.min(upto.saturating_sub(1));
        format!(
            "the call was not started: it is not replay-safe, and the run's journal could not record it first \
             ({why}), so a crash could make it run twice. Retry it when the run store is back."
        )
    }

    /// A step ended: a call that must not run twice settled (its answer is
    /// journaled, so a crash replays it instead of reporting the call
    /// `outcome_unknown`), or every step is journaled (`every_call`).
    pub(crate) fn after_step(&mut self, held_settled: bool, state: &HostState<'_>) {
        let every = self.journal.as_ref().is_some_and(|j| j.mode() == JournalMode::EveryCall && j.live());
        if held_settled || every {
            self.write_running(state);
        }
    }

    /// Parks durably: the journal is written, then `send` reports
    /// `waiting` (`Ok`), or that the write was refused by a quota (`Err`:
    /// the run must end); a cell that is not journaled reports at once.
    /// `epoch` numbers the park; `quiescent`: no call is in flight.
    pub(crate) fn park(&mut self, state: &HostState<'_>, quiescent: bool, epoch: u64, send: ParkSend) {
        let slot = Arc::new(std::sync::Mutex::new(Some(send)));
        let fire = {
            let slot = Arc::clone(&slot);
            move |outcome: Result<Parked, ParkRefusal>| {
                if let Some(send) = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
                    send(outcome);
                }
            }
        };
        let Some(config) = self.journal.as_ref().filter(|j| j.live()).map(|j| Arc::clone(&j.args.config)) else {
            self.mark_if_needed();
            self.announcements.announce_all();
            return fire(Ok(Parked::Kept));
        };
        // With no hand-off delay, a quiescent cell releases its lease with
        // the park's own write: any process can resume it at once.
        let release = config.handoff_after.is_zero() && quiescent;
        let (runs, run_id) = (Arc::clone(&self.runs), self.run_id.clone());
        let lease = (!release).then_some(config.lease);
        // The observer hears `waiting` after the write. One that failed was
        // logged and counted, and the run goes on in memory from its last
        // stored journal (it leaves memory only once its record has caught
        // up) — unless nothing of it was ever stored: then no other process
        // could ever find it, and it ends rather than wait in one process's
        // memory. A quota refuses the park too, and a lease lost makes this
        // copy stale: it answers that the run moved.
        let version = self.journal.as_ref().map(|j| Arc::clone(&j.version));
        if release {
            // As for a hand-off: a `wait` meanwhile waits for the write.
            self.runs.set_handed_off(&self.run_id, Some(HANDING_OFF));
        }
        let written = self.write(RunStatus::Parked, lease, state, move |r| {
            if release {
                runs.set_handed_off(&run_id, r.as_ref().ok().copied());
            }
            let never_stored = version.is_some_and(|v| v.load(Ordering::Acquire) == 0);
            match r {
                Err(WriteError::OverQuota(why)) => fire(Err(ParkRefusal::OverQuota(why))),
                // Not ours to answer for: what this copy would report
                // (a pending approval's id above all) is in no record, and
                // the run's owner resumes it from the record it has.
                Err(e) if e.lease_lost() => fire(Err(ParkRefusal::LeaseLost)),
                Err(e @ WriteError::Store(_)) if never_stored => {
                    fire(Err(ParkRefusal::Unstored(e.to_string())));
                }
                Err(e) => fire(Ok(Parked::Behind(e.to_string()))),
                Ok(_) => fire(Ok(Parked::Kept)),
            }
        });
        if !written {
            if release {
                self.runs.set_handed_off(&self.run_id, None);
            }
            if let Some(send) = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
                // No record takes it: a crash ends the run (it is memory
                // only), so nothing resumes it from behind this park.
                send(Ok(Parked::Kept));
            }
            return;
        }
        let next = match (release, config.evict_after) {
            (true, Some(evict)) => Some(self.mail.after(evict, move || DurableMsg::Evict(epoch))),
            (true, None) => None,
            (false, _) => Some(self.mail.after(config.handoff_after, move || DurableMsg::HandOff(epoch))),
        };
        reschedule(&mut self.handoff, next);
    }

    /// The hand-off delay of park `epoch` passed: release the lease
    /// (writing what settled meanwhile) and schedule the eviction; with a
    /// call still running (`quiescent` false), keep the lease and look
    /// again later.
    pub(crate) fn hand_off(&mut self, epoch: u64, quiescent: bool, state: &HostState<'_>) {
        // A memory-only run keeps its lease while it lives: nobody else
        // could resume it.
        let Some(config) = self.journal.as_ref().filter(|j| j.live()).map(|j| Arc::clone(&j.args.config)) else {
            return;
        };
        if !quiescent {
            let later = self
                .mail
                .after(config.handoff_after.max(config.lease / RENEWALS_PER_LEASE), move || DurableMsg::HandOff(epoch));
            reschedule(&mut self.handoff, Some(later));
            self.renew_now();
            return;
        }
        let written = self.write_handing_off(state);
        if written && let Some(evict) = config.evict_after {
            let wait = evict.saturating_sub(config.handoff_after);
            reschedule(&mut self.handoff, Some(self.mail.after(wait, move || DurableMsg::Evict(epoch))));
        }
    }

    /// Whether the run may leave memory at the eviction of park `epoch`:
    /// its lease is released and its record holds everything it told its
    /// observer. A record behind (a write still on its way, or one that
    /// failed and left its bytes unsent) keeps the run here: what is unsent
    /// is written again, releasing the lease, and the eviction is looked
    /// at again after another `evict_after_ms`.
    pub(crate) fn ready_to_leave(&mut self, epoch: u64, state: &HostState<'_>) -> bool {
        let Some(j) = self.journal.as_ref().filter(|j| !j.lease_held && j.live()) else { return false };
        if j.current() {
            return true;
        }
        let Some(evict) = j.config().evict_after else { return false };
        if j.in_flight() == 0 {
            self.write_handing_off(state);
        }
        reschedule(&mut self.handoff, Some(self.mail.after(evict, move || DurableMsg::Evict(epoch))));
        false
    }

    /// Writes what is new and releases the lease: once stored, the run is
    /// handed off (a local `wait` re-claims it). A store that is away keeps
    /// the run here; its eviction writes what is unsent again first.
    fn write_handing_off(&mut self, state: &HostState<'_>) -> bool {
        let (runs, run_id, mail) = (Arc::clone(&self.runs), self.run_id.clone(), self.mail.clone());
        // Marked before the write: a `wait` meanwhile waits for it and
        // re-claims the lease, never using this copy as if it held it.
        self.runs.set_handed_off(&self.run_id, Some(HANDING_OFF));
        let written = self.write(RunStatus::Parked, None, state, move |r| match r {
            Ok(version) => runs.set_handed_off(&run_id, Some(version)),
            Err(e) => {
                // Not stored: the lease is where it was.
                runs.set_handed_off(&run_id, None);
                match e {
                    WriteError::OverQuota(why) => mail.send(DurableMsg::OverQuota(why)),
                    e if e.lease_lost() => mail.send(DurableMsg::LeaseLost),
                    _ => {}
                }
            }
        });
        if !written {
            self.runs.set_handed_off(&self.run_id, None);
        }
        written
    }

    /// The runtime is shutting down: a parked run whose lease this process
    /// holds (a call was still running) writes its journal once more and
    /// releases the lease, so another process resumes it at once instead
    /// of after the lease runs out; its calls in flight are then re-issued
    /// or `outcome_unknown` there. `done` is told when the write is over
    /// (dropped at once when there is nothing to hand over).
    pub(crate) fn release_for_shutdown(&mut self, state: &HostState<'_>, done: ractor::RpcReplyPort<()>) {
        let Some(j) = self.journal.as_ref().filter(|j| !self.record_closed && j.created() && j.lease_held) else {
            return;
        };
        if j.live() {
            self.write(RunStatus::Parked, None, state, move |_| drop(done.send(())));
            return;
        }
        // Memory only: nobody can resume it once this process is gone, so
        // it ends now, and every wait anywhere says so.
        let (store, owner, run_id, writer) =
            (Arc::clone(&j.args.store), Arc::clone(&j.args.owner), self.run_id.clone(), Arc::clone(&j.writer));
        self.record_closed = true;
        RunMetrics::bump(&self.metrics.runs.lost);
        tokio::spawn(async move {
            let _order = writer.lock().await;
            if let Err(e) = store.end(&run_id, &owner, RunEnd::Lost, Vec::new()).await {
                tracing::warn!(run_id = %run_id, error = %e, "the end of a memory-only run was not recorded");
            }
            let _ = done.send(());
        });
    }

    /// How this cell's durable side is sent messages.
    pub(crate) fn mailbox(&self) -> Mailbox {
        self.mail.clone()
    }

    /// The cell's engine process failed: the run's journal takes it over.
    /// Once every write under way is over (one that failed is sent again),
    /// the lease is released, so a `wait` here or on any process resumes
    /// the run at once, from a journal that ends at the last step its
    /// engine finished (the step it died in is not written: what that
    /// step did is unknown). `done` is told when that is over, released
    /// or not (a lease not released runs out); false when there is no
    /// journal to hand over to.
    pub(crate) fn hand_over(&mut self, done: impl FnOnce() + Send + 'static) -> bool {
        reschedule(&mut self.renewal, None);
        let Some(j) = self.journal.as_mut().filter(|j| j.live() && j.created()) else { return false };
        // A write that failed is sent again: its approvals, once stored,
        // are announced as its first sending would have.
        let approvals = self.announcements.in_last_write();
        j.release_after_writes(
            move || {
                if let Some(approvals) = approvals {
                    approvals.stored();
                }
            },
            done,
        );
        true
    }

    /// The cell leaves memory without ending the run: the record is the
    /// run now, and nothing here may end it.
    pub(crate) fn leave_memory(&mut self) {
        reschedule(&mut self.handoff, None);
        reschedule(&mut self.renewal, None);
        if let Some(j) = self.journal.as_mut() {
            j.lease_held = false;
        }
        self.record_closed = true;
    }

    /// Renews a held lease, and schedules the next renewal.
    pub(crate) fn renew(&mut self) {
        let Some(lease) = self.journal.as_ref().filter(|j| j.lease_held).map(|j| j.config().lease) else { return };
        self.renew_now();
        reschedule(&mut self.renewal, Some(self.mail.after(lease / RENEWALS_PER_LEASE, || DurableMsg::Renew)));
    }

    /// Keeps the lease while a call is still running in a parked cell.
    fn renew_now(&self) {
        if let Some(j) = self.journal.as_ref() {
            let mail = self.mail.clone();
            j.renew(move || mail.send(DurableMsg::LeaseLost));
        }
    }

    /// A window opens on this in-memory copy after a hand-off: the session
    /// re-claimed the lease for it first, so it holds it again.
    pub(crate) fn reclaimed(&mut self) {
        reschedule(&mut self.handoff, None);
        if let Some(j) = self.journal.as_mut()
            && !j.lease_held
            && j.created()
        {
            j.lease_held = true;
            let lease = j.config().lease;
            reschedule(&mut self.renewal, Some(self.mail.after(lease / RENEWALS_PER_LEASE, || DurableMsg::Renew)));
        }
        self.runs.set_handed_off(&self.run_id, None);
    }

    /// The replay diverged: the record ends as `replay_diverged`.
    pub(crate) fn set_diverged(&mut self) {
        self.diverged = true;
    }

    /// Whether the replay diverged (and the cell is failing for it).
    pub(crate) fn diverged(&self) -> bool {
        self.diverged
    }

    /// The commit that ends a completing run's record with its store
    /// writes, when it has a record; the record then ends with it.
    pub(crate) fn record_commit(&mut self) -> Option<RecordCommit> {
        if self.record_closed {
            return None;
        }
        let j = self.journal.as_ref().filter(|j| j.created())?;
        self.record_through_commit = true;
        Some(RecordCommit::new(
            Arc::clone(&j.args.store),
            Arc::clone(&j.args.owner),
            Arc::clone(&j.writer),
            self.run_id.clone(),
        ))
    }

    /// The completing cell's commit ended the record.
    pub(crate) fn record_committed(&mut self) {
        if self.record_through_commit {
            self.record_closed = true;
        }
    }

    /// The write that ends the run's record as `end`, when this copy has a
    /// record to end (not left memory, not ended by its commit); the
    /// record counts as ended from here on. The caller reports the end
    /// once it is recorded.
    pub(crate) fn end_record(&mut self, end: RunEnd) -> Option<RecordEnd> {
        reschedule(&mut self.handoff, None);
        reschedule(&mut self.renewal, None);
        if self.record_closed {
            return None;
        }
        let j = self.journal.as_ref().filter(|j| j.created())?;
        self.record_closed = true;
        Some(RecordEnd {
            store: Arc::clone(&j.args.store),
            owner: Arc::clone(&j.args.owner),
            writer: Arc::clone(&j.writer),
            run_id: self.run_id.clone(),
            end: if self.diverged { RunEnd::ReplayDiverged } else { end },
            held: j.lease_held,
            lease: j.config().lease,
            version: Arc::clone(&j.version),
        })
    }

    /// Ends the run's record as `end` in the background, unless the run
    /// left memory or its record is ended already: for an end nobody
    /// waits to hear (an expiry, a disposal).
    pub(crate) fn on_end(&mut self, end: RunEnd) {
        let Some(record) = self.end_record(end) else { return };
        let run_id = self.run_id.clone();
        tokio::spawn(async move {
            if let Err(e) = record.record().await {
                tracing::warn!(run_id = %run_id, error = ?e, "run end not recorded");
            }
        });
    }
}

impl Drop for Durability {
    fn drop(&mut self) {
        reschedule(&mut self.handoff, None);
        reschedule(&mut self.renewal, None);
    }
}

/// A journal write that found the lease taken: this copy stops. One a
/// quota refused: the run ends.
fn lease_check<T>(mail: &Mailbox, result: &Result<T, WriteError>) {
    match result {
        Err(e) if e.lease_lost() => mail.send(DurableMsg::LeaseLost),
        Err(WriteError::OverQuota(why)) => mail.send(DurableMsg::OverQuota(why.clone())),
        _ => {}
    }
}

/// How a park reports to its observer once its write is done: `Ok` to
/// send `waiting` (as its write went), `Err` when the run cannot park here.
pub(crate) type ParkSend = Box<dyn FnOnce(Result<Parked, ParkRefusal>) + Send>;

/// How a park's write went, when the run parks.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Parked {
    /// Stored, or the run has no record a crash would resume it from:
    /// whatever the park shows, the run's next copy knows.
    Kept,
    /// Not stored (the store failed, saying this; the run was stored
    /// before): the run stays here until its record catches up, and what
    /// the park shows is not in the record yet.
    Behind(String),
}

/// Why a park's write could not make the run durable here: the run ends,
/// or (its lease lost) this copy leaves memory, answering the park's
/// observer either way.
#[derive(Debug)]
pub(crate) enum ParkRefusal {
    /// The write would have passed a journal quota.
    OverQuota(String),
    /// The store took no write of the run at all (it says why).
    Unstored(String),
    /// Another process took the run's lease (or it ran out): this copy is
    /// stale, and its park is answered as moved, never as `waiting`.
    LeaseLost,
}

/// The seed of a fresh run's `Math.random`. Without OS randomness, a
/// time-derived seed: `Math.random` is not for secrets (GA-2), and the
/// seed is journaled either way.
fn seed() -> u64 {
    codemode_protocol::ids::random_bytes::<8>().map_or_else(|_| codemode_store::runs::now_ms(), u64::from_le_bytes)
}
