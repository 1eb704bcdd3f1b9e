//! Approvals in the cell's life: a call the policy asked about becomes a
//! pending approval and the cell parks (`reason: "approval"`); a `wait`'s
//! decisions are journaled, then answered; expired approvals are refused.

use codemode_protocol::{ErrorCode, Verdict};
use codemode_store::runs::now_ms;

use super::approvals::Decide;
use super::requests::asked::{Asked, Refusal, Ruling};
use super::state::{CellState, Flow};
use crate::durable::journal::ApprovalRecord;
use crate::events::RunEvent;
use crate::telemetry::RunMetrics;

impl CellState {
    /// Request `id`'s call asked for approval.
    pub(super) fn asked(&mut self, id: u64, asked: Asked) -> Flow {
        if !self.host.in_flight(id) {
            // Cancelled meanwhile: dropping `asked` refuses the call.
            return Flow::Live;
        }
        if !self.run.mode.has_approver() {
            let _ = asked.answer.send(Ruling::Refuse(Refusal::NoApprover(asked.reason)));
            return Flow::Live;
        }
        let approval = match codemode_protocol::ids::unguessable::<16>("appr_") {
            Ok(approval) => approval,
            Err(e) => {
                let refusal = Refusal::Denied(Some(format!("no approval id could be made ({e})")));
                let _ = asked.answer.send(Ruling::Refuse(refusal));
                return Flow::Live;
            }
        };
        tracing::info!(
            parent: &self.run.span, approval = %approval, tool = %asked.call.tool, source = asked.call.source,
            "approval requested"
        );
        self.host.set_deciding(id, true);
        crate::crash_points::point("approval.asked");
        let shown = self.approvals.ask(approval, id, asked, now_ms());
        self.durability.approval_asked(shown);
        RunMetrics::bump(&self.services.metrics.runs.approvals_requested);
        if !self.windows.is_open() {
            // Asked while parked: journal it now, so a crash keeps the
            // pending approval instead of an in-flight call.
            self.with_host_state(|d, state| d.write_now(state));
        }
        self.advance_if_observed()
    }

    /// A window opened: approvals past their TTL are refused, then the
    /// window's decisions (if any) are checked and staged — journaled
    /// before they take effect. A refused decision is returned: nothing of
    /// it happened.
    pub(super) fn take_decisions(&mut self, decide: Option<Decide>) -> Result<(), (ErrorCode, String)> {
        // Operators' decisions first: one made before its approval expired
        // counts, however late this window opens; only the rest expire.
        let mut staged = if self.staged.is_none() { self.approvals.stage_inbox() } else { Default::default() };
        let expired = self.approvals.expire_due(now_ms());
        let expired = self.approvals.apply(expired);
        self.decided(&expired);
        if self.staged.is_some() {
            if decide.is_none() {
                return Ok(());
            }
            return Err((
                ErrorCode::InvalidInput,
                "the decisions of a previous wait are still being journaled; nothing was decided. Call wait again."
                    .to_owned(),
            ));
        }
        if let Some(decide) = decide {
            match self.approvals.stage(&decide, now_ms()) {
                Ok(more) => staged.merge(more),
                Err(e) => {
                    self.approvals.undo(staged);
                    return Err((ErrorCode::InvalidInput, e.to_string()));
                }
            }
        }
        if staged.is_empty() {
            // An inbox whose decisions were all moot is emptied all the same.
            return Ok(());
        }
        if self.with_host_state(|d, state| d.write_decisions(state)) {
            self.staged = Some(staged);
        } else {
            // Not journaled: nothing to wait for.
            let applied = self.approvals.apply(staged);
            self.decided(&applied);
        }
        Ok(())
    }

    /// The staged decisions were journaled (or could not be).
    pub(super) fn decisions_written(&mut self, written: Result<(), String>) -> Flow {
        let Some(staged) = self.staged.take() else { return Flow::Live };
        match written {
            Ok(()) => {
                let applied = self.approvals.apply(staged);
                self.decided(&applied);
                self.advance_if_observed()
            }
            Err(why) => {
                tracing::warn!(parent: &self.run.span, error = %why, "decisions could not be journaled");
                self.approvals.undo(staged);
                if self.windows.is_open() {
                    let message = format!(
                        "the decisions could not be journaled ({why}); nothing was decided and the approvals are \
                         still pending. Call wait with them again."
                    );
                    return self.park_refusing((ErrorCode::RuntimeUnavailable, message));
                }
                Flow::Live
            }
        }
    }

    /// Decisions took effect: approved calls run now (their slot is work
    /// again), every one is counted and recorded on the cell's span.
    fn decided(&mut self, applied: &[ApprovalRecord]) {
        if applied.is_empty() {
            return;
        }
        crate::crash_points::point("approval.decided");
        let ids: Vec<String> = applied.iter().map(|r| r.approval.id.clone()).collect();
        // Never announced (expired before any record held it): the host
        // hears nothing of how it ended either.
        let unannounced = self.durability.approvals_decided(&ids);
        for record in applied {
            let Some(decision) = &record.decision else { continue };
            // An approved call runs; a task's input request is answered
            // either way, and its call goes on.
            if decision.verdict == Verdict::Approved || record.task_input.is_some() {
                self.host.set_deciding(record.request, false);
            }
            self.services.metrics.runs.approval_decided(decision.verdict);
            let (run_id, session) = (&self.run.run_id, self.run.mode.session());
            if !unannounced.contains(&record.approval.id) {
                self.services.events.emit(|| RunEvent::ApprovalDecided {
                    run_id: run_id.clone(),
                    session: session.map(str::to_owned),
                    approval: record.approval.id.clone(),
                    verdict: decision.verdict,
                    by: decision.by.clone(),
                    kind: decision.kind,
                });
            }
            tracing::info!(
                parent: &self.run.span, approval = %record.approval.id, verdict = decision.verdict.as_str(),
                by = %decision.by, kind = decision.kind.map_or("", codemode_protocol::DeciderKind::as_str),
                tool = %record.approval.tool, "approval decided"
            );
        }
        let host = &self.host;
        self.approvals.prune(|request| host.in_flight(request));
    }
}
