//! Resuming a run by replay: a fresh context runs the same source, each
//! request it makes is checked against the journal's fingerprint and held
//! until the journal's step that settled it is delivered, and output an
//! observer already had is dropped. Past the journal's end the cell goes
//! on live (see [`Resumed`]).
//!
//! Replay answers every request from the journal, never executing it
//! again. A request, a settlement or a read the journal does not account
//! for, or a cell that settles before the journal ends, is a divergence:
//! the run is stopped rather than resumed wrongly.

use crate::engine::host::Admission;
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use super::run_journal::RunJournal;
use crate::cell::guest_host::{Engine, Requests};
use crate::cell::requests::HostRequest;
use crate::durable::journal::{self, Journal, Snapshot};
use crate::engine::settlement::Settlement;

/// A replay in progress.
pub(crate) struct Replay {
    journal: Journal,
    /// Requests the replay made that the journal has not settled yet.
    pending: BTreeMap<u64, HostRequest>,
    /// Requests the cell made after the journal's last step: new, made
    /// live once the replay is done (a journal ends at a step boundary).
    fresh: Vec<(u64, HostRequest)>,
    started: Instant,
}

/// How a replay ended.
pub(crate) enum Replayed {
    /// The journal is replayed: restore the host side and go on live.
    Live(Box<Resumed>),
    /// The replay diverged from its journal, for this reason.
    Diverged(String),
    /// Guest code was interrupted (out of budget, aborted): the cell ends
    /// the usual way.
    Interrupted,
}

/// What a replayed run goes on live with.
pub(crate) struct Resumed {
    /// The host side at the journal's last write (its `undelivered` taken
    /// out into [`Resumed::ready`]).
    pub snapshot: Snapshot,
    /// Settled while the run was parked, not yet delivered: delivered at
    /// this window, as in memory (never re-issued).
    pub ready: Vec<Settlement>,
    /// How many of `ready` are ordinary requests (their slots free up).
    pub ready_ordinary: usize,
    /// Requests made and not settled by the journal: yields and timers to
    /// re-arm, calls that were in flight when the journal was written.
    pub pending: BTreeMap<u64, HostRequest>,
    /// Timers' due times (ms since the epoch), by request id.
    pub timers_due: HashMap<u64, u64>,
    /// Requests the cell made past the journal's end: handled live.
    pub fresh: Vec<(u64, HostRequest)>,
    /// When the replay began.
    pub started: Instant,
}

impl Replay {
    /// A replay of `journal`.
    pub(crate) fn new(journal: Journal) -> Self {
        Self { journal, pending: BTreeMap::new(), fresh: Vec::new(), started: Instant::now() }
    }

    /// Replays the journal's steps into the started cell of `engine`.
    /// `fingerprint` is a request's format-2 fingerprint in this cell;
    /// `recorder` goes on recording the run (a format-1 journal is
    /// rewritten in format 2 with the fingerprints the replay computes).
    pub(crate) fn run(
        mut self,
        engine: &Engine,
        recorder: &mut RunJournal,
        fingerprint: &dyn Fn(&HostRequest) -> u64,
    ) -> Replayed {
        self.intake(engine, recorder, fingerprint);
        self.mute(engine, recorder, 0);
        let mut replayed = 0;
        loop {
            if let Some(end) = self.check(engine) {
                return end;
            }
            let Some(step) = self.journal.steps.pop_front() else { break };
            let mut ordinary = 0;
            for s in &step {
                let Some(request) = self.pending.remove(&s.id) else {
                    diverge(
                        engine,
                        format!("the journal settles request {} there, which the replayed cell had not made", s.id),
                    );
                    return self.check(engine).unwrap_or(Replayed::Interrupted);
                };
                // Settled, a request frees what admitted it.
                match request.form().admission {
                    Admission::Timer => engine.timers_fired([s.id]),
                    Admission::Yield => {}
                    Admission::Ordinary => ordinary += 1,
                }
            }
            engine.release_slots(ordinary);
            engine.step(step);
            replayed += 1;
            self.intake(engine, recorder, fingerprint);
            self.mute(engine, recorder, replayed);
        }
        if let Some(end) = self.check(engine) {
            return end;
        }
        Replayed::Live(Box::new(self.finish(engine)))
    }

    /// The requests the cell made in its last step: checked against the
    /// journal and held until a journaled step settles them.
    fn intake(&mut self, engine: &Engine, recorder: &mut RunJournal, fingerprint: &dyn Fn(&HostRequest) -> u64) {
        let Requests { made, cleared, .. } = engine.take_requests();
        // Timers the replayed cell cleared are no longer pending.
        for id in cleared {
            self.pending.remove(&id);
        }
        let format = self.journal.format;
        for (id, request) in made {
            let current = fingerprint(&request);
            let actual = if format >= 2 { current } else { super::fingerprint_v1(&request) };
            let expected = self.journal.requests.get((id as usize).wrapping_sub(1)).copied();
            match expected {
                Some(hash) if hash == actual => {
                    self.pending.insert(id, request);
                    if format < 2 {
                        // The format-2 journal this one becomes names it so.
                        recorder.request(id, current);
                    }
                }
                Some(_) => diverge(
                    engine,
                    format!("request {id} ({}) differs from the one the journal recorded", request.what()),
                ),
                None if self.journal.steps.is_empty() => self.fresh.push((id, request)),
                None => diverge(
                    engine,
                    format!(
                        "the replayed cell made request {id} ({}), which the journal does not have",
                        request.what()
                    ),
                ),
            }
        }
    }

    /// Output the replay emitted up to step `n` that an observer already
    /// had is not delivered again.
    fn mute(&self, engine: &Engine, recorder: &RunJournal, n: usize) {
        if recorder.delivered_through.is_some_and(|through| n <= through) {
            drop(engine.take_output());
        }
    }

    /// A divergence, or a cell that settled before its journal ended (a
    /// replayed cell can only park where its journal ended): the replay
    /// stops, unless guest code was interrupted meanwhile.
    fn check(&self, engine: &Engine) -> Option<Replayed> {
        // Guest code stopped (out of the replay's bound, aborted): nothing
        // it did after that point is the run's.
        if engine.interruption().is_some() {
            return Some(Replayed::Interrupted);
        }
        let (diverged, settled) = (engine.diverged(), engine.settled());
        let why =
            diverged.or_else(|| settled.then(|| "the replayed cell settled before its journal ended".to_owned()))?;
        if engine.interruption().is_some() {
            return Some(Replayed::Interrupted);
        }
        Some(Replayed::Diverged(why))
    }

    /// The journal is replayed: what the cell goes on live with.
    fn finish(self, engine: &Engine) -> Resumed {
        engine.end_replay();
        let mut snapshot = self.journal.snapshot;
        let timers_due = snapshot.timers.iter().copied().collect();
        let mut pending = self.pending;
        let (mut ready, mut ready_ordinary) = (Vec::new(), 0);
        for value in std::mem::take(&mut snapshot.undelivered) {
            match journal::read_settlement(value) {
                Ok(s) => {
                    match pending.remove(&s.id).map(|r| r.form().admission) {
                        Some(Admission::Timer | Admission::Yield) => {}
                        Some(Admission::Ordinary) => ready_ordinary += 1,
                        None => diverge(engine, format!("the journal delivers request {} the replay never made", s.id)),
                    }
                    ready.push(s);
                }
                Err(e) => diverge(engine, format!("an undelivered settlement in the journal is unreadable: {e}")),
            }
        }
        Resumed { snapshot, ready, ready_ordinary, pending, timers_due, fresh: self.fresh, started: self.started }
    }
}

/// Records why the replay diverged (the first reason wins).
fn diverge(engine: &Engine, why: String) {
    engine.diverge(why);
}
