//! `wait` and `abort` wherever the run is: a live cell here, a cell here
//! that handed its lease off, or a stored run this process does not hold —
//! claimed from the run store and resumed by replaying its journal, or
//! waited for while another process holds it.

use std::future::Future;
use std::time::Instant;

use codemode_protocol::{CellResult, ErrorCode, Phase, RunEnd, WaitReason};
use codemode_store::runs::{Claim, RunRecord, RunStatus, RunStoreError, now_ms};
use ractor::ActorRef;

use crate::cell::CellMsg;
use crate::cell::approvals::Decide;
use crate::cell::journaling::DurableMsg;
use crate::cell::journaling::Restored;
use crate::durable::DurableArgs;
use crate::durable::journal::{Journal, JournalError};
use crate::executor::ExecRequest;
use crate::limits::Limits;
use crate::run_index::{DIFFERENT_SESSION, HANDING_OFF, Located, NOT_HERE, RunHandle, RunIndex, STARTING, crashed};
use crate::stream::OutputStream;
use crate::telemetry::Metrics;

/// What a caller asked of a run.
#[derive(Clone)]
pub(crate) enum Ask {
    /// A window, with decisions on pending approvals, streaming its output
    /// if asked.
    Wait(Option<Decide>, Option<OutputStream>),
    Abort,
}

impl Ask {
    fn is_abort(&self) -> bool {
        matches!(self, Self::Abort)
    }

    fn into_parts(self) -> (Option<Decide>, Option<OutputStream>) {
        match self {
            Self::Wait(decide, stream) => (decide, stream),
            Self::Abort => (None, None),
        }
    }
}

/// Where a `wait` or `abort` ended up.
pub(crate) enum Routed {
    /// The caller's answer.
    Answer(CellResult),
    /// Stored run `run_id`, whose lease this process now holds, to start
    /// (it resumes by replay) for the answer; then [`Router::started`].
    Start {
        /// The run.
        run_id: String,
        /// Its start.
        request: ExecRequest,
    },
}

impl From<CellResult> for Routed {
    fn from(result: CellResult) -> Self {
        Self::Answer(result)
    }
}

/// Routes `wait` and `abort` to a run, for one runtime.
pub(crate) struct Router<'a> {
    pub runs: &'a RunIndex,
    pub durable: Option<&'a DurableArgs>,
    pub limits: &'a Limits,
    pub metrics: &'a Metrics,
}

/// Why a `wait` is refused before it reaches the run: its code and message.
pub(crate) type Refused = (ErrorCode, String);

fn unavailable(message: impl Into<String>) -> CellResult {
    CellResult::input_error(ErrorCode::InvalidInput, message)
}

fn store_failed_why(e: &dyn std::fmt::Display) -> Refused {
    (
        ErrorCode::RuntimeUnavailable,
        format!("the run store is unavailable ({e}); the run is unchanged. Retry the wait."),
    )
}

/// `op` on the run store, riding out a store briefly away.
async fn riding_out<T, F>(op: impl FnMut() -> F) -> Result<T, RunStoreError>
where
    F: Future<Output = Result<T, RunStoreError>>,
{
    crate::durable::riding_out(|e| matches!(e, RunStoreError::Backend(_)), op).await
}

fn store_failed(e: &dyn std::fmt::Display) -> CellResult {
    let (code, message) = store_failed_why(e);
    CellResult::input_error(code, message)
}

/// Whether a stored journal is the marker of a run that lives in one
/// process's memory only.
fn memory_only(journal: &[u8]) -> bool {
    // The marker is small; a journal is not decoded just to tell.
    journal.len() <= 64 * 1024 && matches!(Journal::decode(journal), Err(JournalError::NotResumable(_)))
}

/// How a stored end label reads for the model.
fn ended_why(end: RunEnd) -> String {
    format!("code mode run is unavailable: {}. Start a new exec.", end.describe())
}

fn ended(end: RunEnd) -> CellResult {
    unavailable(ended_why(end))
}

fn aborted() -> CellResult {
    CellResult::failed(ErrorCode::Aborted, "code mode execution aborted", Phase::Guest)
}

/// Whether a `wait` from `session` would reach run `run_id` of a runtime
/// with these `runs` and `durable` runs, or why it would be refused.
/// Looked up without opening a window, taking a lease or changing the run.
pub(crate) async fn reach(
    runs: &RunIndex,
    durable: Option<&DurableArgs>,
    run_id: &str,
    session: &str,
) -> Result<(), Refused> {
    let refused = |why: &str| Err((ErrorCode::InvalidInput, why.to_owned()));
    match runs.locate(run_id, Some(session)) {
        Located::Live(..) | Located::Starting => Ok(()),
        Located::Unreachable(why) => refused(&why),
        Located::NotHere => {
            let Some(d) = durable else { return refused(NOT_HERE) };
            match riding_out(|| d.store.get(run_id)).await {
                Ok(None) => refused(NOT_HERE),
                Ok(Some(record)) if record.meta.session != session => refused(DIFFERENT_SESSION),
                Ok(Some(RunRecord { status: RunStatus::Ended(end), .. })) => refused(&ended_why(end)),
                Ok(Some(_)) => Ok(()),
                Err(e) => Err(store_failed_why(&e)),
            }
        }
    }
}

impl Router<'_> {
    /// `wait`/`abort` on run `run_id` of `session`, wherever it is.
    pub(crate) async fn route(&self, run_id: &str, session: &str, principal: Option<&String>, ask: Ask) -> Routed {
        let mut ask = ask;
        // A cell found here may leave memory (evicted, its lease lost) or
        // end between the lookup and the message: the run is then looked
        // up again, where it is now (its record, or its end).
        for _ in 0..3 {
            match self.runs.locate(run_id, Some(session)) {
                Located::Starting => return Routed::from(unavailable(STARTING)),
                Located::Unreachable(why) => return Routed::from(unavailable(why)),
                Located::Live(handle, None) => match self.send_to_cell(run_id, handle, ask).await {
                    Ok(result) => return Routed::from(result),
                    Err(returned) => ask = returned,
                },
                Located::Live(_, Some(HANDING_OFF)) => {
                    if let Some(unavailable) = self.hand_off_landed(run_id, session).await {
                        return Routed::from(unavailable);
                    }
                }
                Located::Live(handle, Some(version)) => {
                    return self.reclaim(run_id, session, principal, ask, handle, version).await;
                }
                Located::NotHere if self.durable.is_none() => return Routed::from(unavailable(NOT_HERE)),
                Located::NotHere => return self.claim_stored(run_id, session, principal, ask, None).await,
            }
        }
        Routed::from(unavailable("code mode run is unavailable: it has just ended or moved. Call wait again."))
    }

    /// Waits for the write releasing a parked cell's lease to land (or
    /// fail), within one window's budget; the answer to give when it does
    /// not.
    async fn hand_off_landed(&self, run_id: &str, session: &str) -> Option<CellResult> {
        let handing_off = || matches!(self.runs.locate(run_id, Some(session)), Located::Live(_, Some(HANDING_OFF)));
        if self.runs.hand_off_changes_until(self.limits.timeout, handing_off).await {
            return None;
        }
        Some(unavailable("code mode run is unavailable: its journal is still being written. Call wait again."))
    }

    /// Opens a window on (or aborts) a live cell here; the ask back when
    /// the cell is gone (it left memory or ended just now).
    async fn send_to_cell(&self, run_id: &str, handle: RunHandle, ask: Ask) -> Result<CellResult, Ask> {
        let abort = ask.is_abort();
        if abort {
            (handle.abort)();
        }
        // Kept to ask again where the run is now, if the cell's actor took
        // the message but stopped before handling it.
        let again = ask.clone();
        let (decide, stream) = ask.into_parts();
        let actor = handle.actor.get_id();
        let cell: ActorRef<CellMsg> = handle.actor.into();
        let sent = cell
            .call(move |reply| if abort { CellMsg::Abort(reply) } else { CellMsg::Wait(reply, decide, stream) }, None);
        match sent.await {
            Ok(ractor::rpc::CallResult::Success(result)) => Ok(result),
            // Unanswered. A cell leaving memory or ending moves its run in
            // the index before its actor stops, and drops what is still in
            // its mailbox: the run is elsewhere now (its journal, its end).
            // One whose run is still indexed at this actor crashed.
            Ok(_) if !self.indexed_at(run_id, actor) => Err(again),
            Ok(_) => Ok(crashed()),
            Err(ractor::MessagingErr::SendErr(CellMsg::Wait(_, decide, stream))) => Err(Ask::Wait(decide, stream)),
            Err(_) if abort => Err(Ask::Abort),
            Err(_) => Ok(unavailable("code mode run is unavailable: it has just ended. Start a new exec.")),
        }
    }

    /// Whether the run index has run `run_id` live at `actor`.
    fn indexed_at(&self, run_id: &str, actor: ractor::ActorId) -> bool {
        self.runs.handle(run_id).is_some_and(|handle| handle.actor.get_id() == actor)
    }

    /// A parked cell here released its lease: take it back before using
    /// this copy, which is current only if nobody advanced the run since.
    async fn reclaim(
        &self,
        run_id: &str,
        session: &str,
        principal: Option<&String>,
        ask: Ask,
        handle: RunHandle,
        version: u64,
    ) -> Routed {
        let Some(d) = self.durable else {
            return Routed::from(
                self.send_to_cell(run_id, handle, ask).await.unwrap_or_else(|_| unavailable(NOT_HERE)),
            );
        };
        // The journal is not read: this copy is current if the version is
        // the one it wrote, so a wait costs the same however old the run.
        match riding_out(|| d.store.claim_lease(run_id, &d.owner, d.config.lease)).await {
            Ok(Claim::Claimed(record)) if record.version == version => {
                self.runs.set_handed_off(run_id, None);
                let ask = if record.abort_requested { Ask::Abort } else { ask };
                match self.send_to_cell(run_id, handle, ask).await {
                    Ok(result) => Routed::from(result),
                    // It left memory meanwhile: its record is the run, and
                    // this process holds its lease.
                    Err(ask) => self.claim_stored(run_id, session, principal, ask, None).await,
                }
            }
            Ok(claim) => {
                // Advanced elsewhere (or ended): this copy is stale.
                self.runs.evicted(run_id, handle.actor.get_id());
                let _ = ActorRef::<CellMsg>::from(handle.actor).send_message(CellMsg::Durable(DurableMsg::LeaseLost));
                match claim {
                    // Held now: read the journal to replay it.
                    Claim::Claimed(_) => match riding_out(|| d.store.get(run_id)).await {
                        Ok(Some(record)) => self.resume_record(record, session, principal, ask).await,
                        Ok(None) => Routed::from(unavailable(NOT_HERE)),
                        Err(e) => Routed::from(store_failed(&e)),
                    },
                    _ => self.claim_stored(run_id, session, principal, ask, Some(claim)).await,
                }
            }
            Err(e) => Routed::from(store_failed(&e)),
        }
    }

    /// A run this process does not hold: claim it and resume it by replay;
    /// while another process holds it, wait (notified) for it to park or
    /// end, within one window's budget.
    async fn claim_stored(
        &self,
        run_id: &str,
        session: &str,
        principal: Option<&String>,
        ask: Ask,
        first: Option<Claim>,
    ) -> Routed {
        let Some(d) = self.durable else { return Routed::from(unavailable(NOT_HERE)) };
        let deadline = Instant::now() + self.limits.timeout;
        let mut claim = first;
        let mut session_checked = false;
        loop {
            let current = match claim.take() {
                Some(c) => c,
                None => match riding_out(|| d.store.claim(run_id, &d.owner, d.config.lease)).await {
                    Ok(c) => c,
                    Err(e) => return Routed::from(store_failed(&e)),
                },
            };
            match current {
                Claim::Missing => return Routed::from(unavailable(NOT_HERE)),
                Claim::Ended(RunEnd::Completed) => return Routed::from(self.completed(d, run_id, session).await),
                Claim::Ended(end) => return Routed::from(ended(end)),
                Claim::Claimed(record) => return self.resume_record(record, session, principal, ask).await,
                Claim::Held { until_ms, .. } => {
                    // Only the run's own session may wait on it or abort
                    // it; another learns no more than from a run it holds.
                    if !session_checked {
                        match riding_out(|| d.store.get(run_id)).await {
                            Ok(Some(record)) if record.meta.session != session => {
                                return Routed::from(unavailable(DIFFERENT_SESSION));
                            }
                            Ok(Some(record)) if !ask.is_abort() && memory_only(&record.journal) => {
                                // Only the process holding it can advance it.
                                return Routed::from(CellResult::input_error(
                                    ErrorCode::RuntimeUnavailable,
                                    "code mode run lives in another codemode process's memory only (it outgrew \
                                     what a journal keeps): only a wait that reaches that process can go on with \
                                     it.",
                                ));
                            }
                            Ok(_) => session_checked = true,
                            Err(e) => return Routed::from(store_failed(&e)),
                        }
                    }
                    if ask.is_abort() {
                        // The holder ends it when it next looks at the run.
                        match d.store.request_abort(run_id).await {
                            Ok(Claim::Ended(RunEnd::Aborted)) => return Routed::from(aborted()),
                            Ok(Claim::Ended(end)) => return Routed::from(ended(end)),
                            Ok(_) => {}
                            Err(e) => return Routed::from(store_failed(&e)),
                        }
                    }
                    match crate::durable::wait_for_holder(&*d.store, run_id, until_ms, deadline).await {
                        Ok(true) => {}
                        Ok(false) => return Routed::from(self.held_elsewhere(run_id, &ask)),
                        Err(e) => return Routed::from(store_failed(&e)),
                    }
                }
            }
        }
    }

    /// A run that completed: the final result its record kept, for its own
    /// session (the answer a crash cut off comes again), else how it ended.
    async fn completed(&self, d: &DurableArgs, run_id: &str, session: &str) -> CellResult {
        match riding_out(|| d.store.get(run_id)).await {
            Ok(Some(record)) if record.meta.session == session => {
                crate::durable::kept(&record.journal).unwrap_or_else(|| ended(RunEnd::Completed))
            }
            Ok(_) => ended(RunEnd::Completed),
            Err(e) => store_failed(&e),
        }
    }

    /// The run stayed with another process for a whole window.
    fn held_elsewhere(&self, run_id: &str, ask: &Ask) -> CellResult {
        if ask.is_abort() {
            return unavailable(
                "code mode run is running on another codemode process: it was marked for abort, and that process \
                 ends it when it next parks or is resumed.",
            );
        }
        if matches!(ask, Ask::Wait(Some(_), _)) {
            // Decisions are never dropped quietly.
            return unavailable(
                "code mode run stayed with another codemode process for this whole wait; nothing was decided. Call \
                 wait with the decisions again.",
            );
        }
        CellResult::waiting(run_id, WaitReason::PendingTools)
    }

    /// This process holds the run's lease now: end it (abort, expiry) or
    /// replay it.
    async fn resume_record(&self, record: RunRecord, session: &str, principal: Option<&String>, ask: Ask) -> Routed {
        let Some(d) = self.durable else { return Routed::from(unavailable(NOT_HERE)) };
        let run_id = record.meta.run_id.clone();
        if record.meta.session != session {
            // Not this session's: give the lease back untouched.
            let _ = d.store.release(&run_id, &d.owner).await;
            return Routed::from(unavailable(DIFFERENT_SESSION));
        }
        if record.owner.as_deref().is_some_and(|o| o != &*d.owner) {
            crate::telemetry::RunMetrics::bump(&self.metrics.runs.lease_handoffs);
        }
        let idle = now_ms().saturating_sub(record.updated_ms);
        let expired = u128::from(idle) > self.limits.parked_ttl.as_millis();
        if ask.is_abort() || record.abort_requested || expired {
            let end =
                if expired && !ask.is_abort() && !record.abort_requested { RunEnd::Expired } else { RunEnd::Aborted };
            if let Err(e) = d.store.end(&run_id, &d.owner, end, Vec::new()).await {
                return Routed::from(store_failed(&e));
            }
            return Routed::from(if end == RunEnd::Aborted { aborted() } else { ended(end) });
        }
        let journal = match Journal::decode(&record.journal) {
            Ok(mut j) => {
                j.parked = record.status == codemode_store::runs::RunStatus::Parked;
                j
            }
            Err(JournalError::NotResumable(why)) => {
                // It lived in another process's memory only, and that
                // process let its lease go: nothing can resume it.
                crate::telemetry::RunMetrics::bump(&self.metrics.runs.lost);
                if let Err(e) = d.store.end(&run_id, &d.owner, RunEnd::Lost, Vec::new()).await {
                    return Routed::from(store_failed(&e));
                }
                let message = format!(
                    "code mode run is lost: it outgrew what a journal keeps ({why}), lived in one codemode process's \
                     memory only, and that process stopped. Start a new exec."
                );
                return Routed::from(CellResult::input_error(ErrorCode::RuntimeUnavailable, message));
            }
            Err(e @ JournalError::Newer(_)) => {
                // Nothing of the run changes: it stays parked for a process
                // running the newer build, and the reason is logged.
                tracing::warn!(run_id = %run_id, error = %e, "a stored run's journal is of a newer build");
                crate::telemetry::RunMetrics::bump(&self.metrics.runs.journal_unreadable);
                let _ = d.store.release(&run_id, &d.owner).await;
                let message = format!("code mode run {run_id} cannot be resumed by this process: {e}");
                return Routed::from(CellResult::input_error(ErrorCode::RuntimeUnavailable, message));
            }
            Err(e) => {
                // Never stored whole (its process, or the database, stopped
                // before its first journal write landed) or damaged: nothing
                // can resume it, and left as it is every `wait` would fail
                // forever. It ends, and every later `wait` says how.
                tracing::warn!(run_id = %run_id, error = %e, "a stored run's journal cannot be resumed; ending it");
                crate::telemetry::RunMetrics::bump(&self.metrics.runs.journal_unreadable);
                if let Err(e) = d.store.end(&run_id, &d.owner, RunEnd::Unrecoverable, Vec::new()).await {
                    return Routed::from(store_failed(&e));
                }
                let message = format!("code mode run {run_id} ended as unrecoverable: {e}. Start a new exec.");
                return Routed::from(CellResult::input_error(ErrorCode::RuntimeUnavailable, message));
            }
        };
        let (decide, stream) = ask.into_parts();
        let restored = Restored { run_id: run_id.clone(), journal, version: record.version, decide };
        let request = ExecRequest {
            code: String::new(),
            title: restored.journal.header.title.clone(),
            mode: restored.mode(),
            principal: principal.cloned().or_else(|| restored.owner()),
            parent: tracing::Span::current(),
            resume: Some(Box::new(restored)),
            stream,
        };
        Routed::Start { run_id, request }
    }

    /// How the start of a restored run went: a start refused admission (a
    /// live-cell limit) ran nothing and left the run unchanged; its lease
    /// is given back so a retry can take it.
    pub(crate) async fn started(&self, run_id: &str, result: &CellResult) {
        if let (Some(d), CellResult::Failed { code: ErrorCode::InvalidInput, phase: Phase::Input, .. }) =
            (self.durable, result)
        {
            let _ = d.store.release(run_id, &d.owner).await;
        }
    }
}
