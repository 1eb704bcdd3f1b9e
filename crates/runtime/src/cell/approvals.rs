//! A cell's approvals: the calls its policy asked a person about, and the
//! decisions taken on them.
//!
//! A decision is *staged* (checked, and written into the records the
//! journal keeps) before it takes effect; only once a journal write holds
//! it are the waiting calls answered, so a crash never loses a decision
//! and never runs an approved call twice. A cell without a journal answers
//! at once.

use std::collections::HashMap;
use std::time::Duration;

use codemode_protocol::{DeciderKind, Decisions, PendingApproval, Verdict};
use tokio::sync::oneshot;

use super::requests::RestoredInput;
use super::requests::asked::{Asked, Refusal, Ruling};
use crate::durable::journal::{ApprovalLog, ApprovalRecord, DecisionRecord, InboxEntry};

/// Decided records kept for `codemode runs show` (their calls settled).
const KEPT_DECIDED: usize = 64;

/// Who decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Decider {
    /// A `wait` of the run's session, as this principal (none when the
    /// session has none), decided by `kind` (the host, the client's user,
    /// or the model where the host let it).
    Session(Option<String>, DeciderKind),
    /// An operator (`codemode runs approve|deny`): trusted for every run.
    Operator,
}

impl Decider {
    /// What the journal records as `by`.
    pub(crate) fn label(&self) -> String {
        match self {
            Self::Session(Some(principal), _) => principal.clone(),
            Self::Session(None, _) => "session".to_owned(),
            Self::Operator => "operator".to_owned(),
        }
    }

    /// Which kind of decider it is.
    pub(crate) fn kind(&self) -> DeciderKind {
        match self {
            Self::Session(_, kind) => *kind,
            Self::Operator => DeciderKind::Operator,
        }
    }
}

/// Decisions a `wait` brings, and who took them.
#[derive(Clone, Debug)]
pub(crate) struct Decide {
    pub decisions: Decisions,
    pub by: Decider,
}

/// Why decisions were refused: nothing of them took effect.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum DecisionError {
    /// The decisions' shape (too many, an id twice, a long reason).
    #[error("{0}")]
    Malformed(String),
    /// The id names no pending approval of this run.
    #[error(
        "approval {0} is not pending in this run (unknown, already decided, or expired); nothing was decided. \
         Decide only ids listed in pendingApprovals."
    )]
    NotPending(String),
    /// The run belongs to another principal.
    #[error("the approvals of this run belong to another principal; nothing was decided.")]
    NotYours,
}

/// A pending approval whose call waits in this process.
struct Waiting {
    answer: oneshot::Sender<Ruling>,
}

/// A decision staged: recorded, not yet answered.
#[derive(Default)]
pub(crate) struct Staged {
    ids: Vec<String>,
    /// Operators' decisions it took from the inbox (put back if undone).
    inbox: Vec<InboxEntry>,
}

impl Staged {
    /// Nothing was decided.
    pub(crate) fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Adds `other`'s decisions.
    pub(crate) fn merge(&mut self, other: Staged) {
        self.ids.extend(other.ids);
        self.inbox.extend(other.inbox);
    }
}

/// What a decision tells the call that waits on it.
fn answer_of(decision: &DecisionRecord, ttl: Duration) -> Ruling {
    match decision.verdict {
        Verdict::Approved => Ruling::Run,
        Verdict::Denied => Ruling::Refuse(Refusal::Denied(decision.reason.clone())),
        Verdict::Expired => Ruling::Refuse(Refusal::Expired(ttl)),
    }
}

/// The cell's approvals.
pub(crate) struct Approvals {
    /// Pending and decided approvals, in the order they were asked, and
    /// operators' decisions not yet taken.
    log: ApprovalLog,
    /// The answer channels of pending approvals, by id.
    waiting: HashMap<String, Waiting>,
    ttl: Duration,
    /// The run's principal: a session decider must be it.
    owner: Option<String>,
}

impl Approvals {
    pub(crate) fn new(ttl: Duration, owner: Option<String>) -> Self {
        Self { log: ApprovalLog::default(), waiting: HashMap::new(), ttl, owner }
    }

    /// What a journal write keeps.
    pub(crate) fn records(&self) -> &ApprovalLog {
        &self.log
    }

    /// What a replayed run's journal kept.
    pub(crate) fn restore(&mut self, log: ApprovalLog) {
        self.log = log;
    }

    /// How long an approval waits.
    pub(crate) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Whether a call waits for a decision.
    pub(crate) fn has_pending(&self) -> bool {
        self.log.records.iter().any(|r| r.decision.is_none())
    }

    /// The pending approvals, as a `waiting` result lists them.
    pub(crate) fn shown(&self) -> Vec<PendingApproval> {
        self.log.records.iter().filter(|r| r.decision.is_none()).map(|r| r.approval.clone()).collect()
    }

    /// Request `request` asked for approval as `id` at `now_ms`; returns the
    /// pending approval as `waiting` lists it.
    pub(crate) fn ask(&mut self, id: String, request: u64, asked: Asked, now_ms: u64) -> PendingApproval {
        let Asked { call, reason, answer, task_input } = asked;
        let (arguments, arguments_truncated) = PendingApproval::preview(&call.arguments);
        let ttl_ms = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let approval = PendingApproval {
            id: id.clone(),
            source: call.source.to_owned(),
            server: call.server,
            tool: call.tool,
            arguments,
            arguments_truncated,
            reason,
            expires_at_ms: now_ms.saturating_add(ttl_ms),
        };
        self.log.records.push(ApprovalRecord {
            approval: approval.clone(),
            request,
            what: call.what,
            asked_at_ms: now_ms,
            decision: None,
            task_input,
        });
        self.waiting.insert(id, Waiting { answer });
        approval
    }

    /// The record of request `request`, if it asked.
    pub(crate) fn of_request(&self, request: u64) -> Option<&ApprovalRecord> {
        self.log.records.iter().rev().find(|r| r.request == request)
    }

    /// A restored pending approval of request `request` waits here again:
    /// the receiver its call awaits.
    pub(crate) fn rewait(&mut self, request: u64) -> Option<oneshot::Receiver<Ruling>> {
        let record = self.log.records.iter().find(|r| r.request == request && r.decision.is_none())?;
        let (answer, rx) = oneshot::channel();
        self.waiting.insert(record.approval.id.clone(), Waiting { answer });
        Some(rx)
    }

    /// The input requests request `request`'s MCP task asked since
    /// `since_ms` (when the task started), by key, as the journal left
    /// them: a pending one waits here again (same approval id), a decided
    /// one carries its answer, so a resumed call answers the task as it
    /// was decided instead of asking anew.
    pub(crate) fn task_inputs(&mut self, request: u64, since_ms: u64) -> HashMap<String, RestoredInput> {
        let mut restored = HashMap::new();
        for r in &self.log.records {
            let Some(key) = r.task_input.as_ref().filter(|_| r.request == request && r.asked_at_ms >= since_ms) else {
                continue;
            };
            let input = match &r.decision {
                None => {
                    let (answer, rx) = oneshot::channel();
                    self.waiting.insert(r.approval.id.clone(), Waiting { answer });
                    RestoredInput::Awaiting(rx)
                }
                Some(d) => RestoredInput::Decided(answer_of(d, self.ttl)),
            };
            restored.insert(key.clone(), input);
        }
        restored
    }

    /// Checks `decide` against the pending approvals at `now_ms` and
    /// records it (not yet answered: see [`apply`](Self::apply)). Nothing
    /// changes when it is refused.
    pub(crate) fn stage(&mut self, decide: &Decide, now_ms: u64) -> Result<Staged, DecisionError> {
        let Decide { decisions, by } = decide;
        decisions.check().map_err(DecisionError::Malformed)?;
        if let (Decider::Session(who, _), Some(owner)) = (by, &self.owner)
            && who.as_ref() != Some(owner)
        {
            return Err(DecisionError::NotYours);
        }
        let ids = decisions.approve.iter().chain(decisions.deny.iter().map(|d| &d.id));
        for id in ids {
            let pending = self.log.records.iter().any(|r| {
                &r.approval.id == id
                    && r.decision.is_none()
                    && r.approval.expires_at_ms > now_ms
                    && self.waiting.contains_key(id)
            });
            if !pending {
                return Err(DecisionError::NotPending(id.clone()));
            }
        }
        let (label, kind) = (by.label(), Some(by.kind()));
        let decided = |verdict, reason| DecisionRecord { verdict, by: label.clone(), kind, at_ms: now_ms, reason };
        let mut staged = Vec::new();
        for id in &decisions.approve {
            self.decide(id, decided(Verdict::Approved, None));
            staged.push(id.clone());
        }
        for denial in &decisions.deny {
            self.decide(&denial.id, decided(Verdict::Denied, denial.reason.clone()));
            staged.push(denial.id.clone());
        }
        Ok(Staged { ids: staged, inbox: Vec::new() })
    }

    /// Stages the operators' decisions left in the inbox. They were checked
    /// when they were left: a decision made before its approval expired
    /// counts, however late the run resumes; one no longer pending is
    /// skipped and logged.
    pub(crate) fn stage_inbox(&mut self) -> Staged {
        let inbox = std::mem::take(&mut self.log.inbox);
        let mut staged = Staged::default();
        for entry in &inbox {
            let pending = |id: &String| {
                let ok =
                    self.log.records.iter().any(|r| {
                        &r.approval.id == id && r.decision.is_none() && entry.at_ms < r.approval.expires_at_ms
                    }) && self.waiting.contains_key(id);
                if !ok {
                    tracing::warn!(approval = %id, "an operator's decision names an approval no longer pending");
                }
                ok
            };
            let decisions = Decisions {
                approve: entry.decisions.approve.iter().filter(|id| pending(id)).cloned().collect(),
                deny: entry.decisions.deny.iter().filter(|d| pending(&d.id)).cloned().collect(),
            };
            let label = entry.by.clone().unwrap_or_else(|| Decider::Operator.label());
            let kind = Some(DeciderKind::Operator);
            let decided =
                |verdict, reason| DecisionRecord { verdict, by: label.clone(), kind, at_ms: entry.at_ms, reason };
            for id in &decisions.approve {
                self.decide(id, decided(Verdict::Approved, None));
                staged.ids.push(id.clone());
            }
            for denial in &decisions.deny {
                self.decide(&denial.id, decided(Verdict::Denied, denial.reason.clone()));
                staged.ids.push(denial.id.clone());
            }
        }
        staged.inbox = inbox;
        staged
    }

    fn decide(&mut self, id: &str, decision: DecisionRecord) {
        if let Some(r) = self.log.records.iter_mut().find(|r| r.approval.id == id) {
            r.decision = Some(decision);
        }
    }

    /// Approvals pending past their expiry at `now_ms`: recorded as
    /// expired (an expiry is not a person's decision, so it needs no write
    /// first: a replay finds the approval pending and expires it again).
    /// An approval an operator decided in time (in the inbox, not yet
    /// taken) is not expired.
    pub(crate) fn expire_due(&mut self, now_ms: u64) -> Staged {
        let decided_in_time = |r: &ApprovalRecord| {
            self.log.inbox.iter().any(|e| {
                e.at_ms < r.approval.expires_at_ms
                    && (e.decisions.approve.contains(&r.approval.id)
                        || e.decisions.deny.iter().any(|d| d.id == r.approval.id))
            })
        };
        let due: Vec<String> = self
            .log
            .records
            .iter()
            .filter(|r| {
                r.decision.is_none()
                    && r.approval.expires_at_ms <= now_ms
                    && self.waiting.contains_key(&r.approval.id)
                    && !decided_in_time(r)
            })
            .map(|r| r.approval.id.clone())
            .collect();
        let mut ids = Vec::new();
        for r in &mut self.log.records {
            if due.contains(&r.approval.id) {
                r.decision = Some(DecisionRecord {
                    verdict: Verdict::Expired,
                    by: "ttl".into(),
                    kind: Some(DeciderKind::Ttl),
                    at_ms: now_ms,
                    reason: None,
                });
                ids.push(r.approval.id.clone());
            }
        }
        Staged { ids, inbox: Vec::new() }
    }

    /// Staged decisions take effect: each waiting call is answered. Returns
    /// the records decided, for metrics and spans.
    pub(crate) fn apply(&mut self, staged: Staged) -> Vec<ApprovalRecord> {
        let mut applied = Vec::new();
        for id in staged.ids {
            let Some(record) = self.log.records.iter().find(|r| r.approval.id == id) else { continue };
            let Some(decision) = &record.decision else { continue };
            let answer = answer_of(decision, self.ttl);
            if let Some(waiting) = self.waiting.remove(&id) {
                // The call may have been cancelled meanwhile (the cell is
                // ending); then nobody needs the answer.
                let _ = waiting.answer.send(answer);
            }
            applied.push(record.clone());
        }
        applied
    }

    /// A staged decision could not be journaled: it is taken back, and the
    /// approvals are pending as before.
    pub(crate) fn undo(&mut self, staged: Staged) {
        let mut inbox = staged.inbox;
        inbox.append(&mut self.log.inbox);
        self.log.inbox = inbox;
        for id in staged.ids {
            if let Some(r) = self.log.records.iter_mut().find(|r| r.approval.id == id) {
                r.decision = None;
            }
        }
    }

    /// Forgets decided records past the kept number whose calls are no
    /// longer in flight (`in_flight`), oldest first.
    pub(crate) fn prune(&mut self, in_flight: impl Fn(u64) -> bool) {
        let decided = self.log.records.iter().filter(|r| r.decision.is_some()).count();
        let mut excess = decided.saturating_sub(KEPT_DECIDED);
        self.log.records.retain(|r| {
            let drop = excess > 0 && r.decision.is_some() && !in_flight(r.request);
            if drop {
                excess -= 1;
            }
            !drop
        });
    }
}

#[cfg(test)]
mod tests {
    use codemode_protocol::Denial;
    use serde_json::json;

    use super::super::requests::asked::AskedCall;
    use super::*;

    fn asked(tool: &str) -> (Asked, oneshot::Receiver<Ruling>) {
        let (answer, rx) = oneshot::channel();
        let call = AskedCall {
            source: "native",
            server: None,
            tool: tool.into(),
            arguments: json!({"env": "prod"}),
            what: tool.into(),
        };
        (Asked { call, reason: "a person decides".into(), answer, task_input: None }, rx)
    }

    fn session(principal: Option<&str>, approve: &[&str], deny: &[&str]) -> Decide {
        Decide {
            decisions: Decisions {
                approve: approve.iter().map(|s| (*s).to_owned()).collect(),
                deny: deny.iter().map(|s| Denial { id: (*s).to_owned(), reason: Some("no".into()) }).collect(),
            },
            by: Decider::Session(principal.map(str::to_owned), DeciderKind::Host),
        }
    }

    #[test]
    fn a_decision_is_recorded_when_staged_and_answers_only_when_applied_ga_9() {
        let mut a = Approvals::new(Duration::from_secs(60), Some("alice".into()));
        let (call, mut rx) = asked("deploy");
        a.ask("appr_1".into(), 3, call, 1_000);
        assert!(a.has_pending());
        assert_eq!(a.shown()[0].expires_at_ms, 61_000);
        let staged = a.stage(&session(Some("alice"), &["appr_1"], &[]), 2_000).unwrap();
        assert!(!a.has_pending());
        assert_eq!(a.log.records[0].decision.as_ref().unwrap().by, "alice");
        assert!(rx.try_recv().is_err(), "nothing is answered before the decision is journaled");
        let applied = a.apply(staged);
        assert_eq!(applied.len(), 1);
        assert!(matches!(rx.try_recv(), Ok(Ruling::Run)));
    }

    #[test]
    fn refused_decisions_change_nothing_ga_9() {
        let mut a = Approvals::new(Duration::from_secs(60), Some("alice".into()));
        let (call, _rx) = asked("deploy");
        a.ask("appr_1".into(), 3, call, 1_000);
        let before = a.records().clone();
        assert_eq!(a.stage(&session(Some("mallory"), &["appr_1"], &[]), 2_000).err(), Some(DecisionError::NotYours));
        assert_eq!(
            a.stage(&session(Some("alice"), &["appr_1", "appr_2"], &[]), 2_000).err(),
            Some(DecisionError::NotPending("appr_2".into())),
            "one unknown id refuses the whole wait's decisions"
        );
        assert!(matches!(
            a.stage(&session(Some("alice"), &["appr_1"], &["appr_1"]), 2_000),
            Err(DecisionError::Malformed(_))
        ));
        assert_eq!(a.records(), &before);
        let staged = a.stage(&session(Some("alice"), &[], &["appr_1"]), 2_000).unwrap();
        a.apply(staged);
        assert_eq!(
            a.stage(&session(Some("alice"), &["appr_1"], &[]), 3_000).err(),
            Some(DecisionError::NotPending("appr_1".into())),
            "deciding twice is an error"
        );
    }

    #[test]
    fn an_operator_decides_any_run_and_an_undone_decision_is_pending_again() {
        let mut a = Approvals::new(Duration::from_secs(60), Some("alice".into()));
        let (call, _rx) = asked("deploy");
        a.ask("appr_1".into(), 3, call, 1_000);
        let operator = Decide { by: Decider::Operator, ..session(None, &["appr_1"], &[]) };
        let staged = a.stage(&operator, 2_000).unwrap();
        assert_eq!(a.log.records[0].decision.as_ref().unwrap().by, "operator");
        a.undo(staged);
        assert!(a.has_pending());
    }

    #[test]
    fn approvals_expire_at_their_ttl_exactly() {
        let mut a = Approvals::new(Duration::from_millis(500), None);
        let (call, mut rx) = asked("deploy");
        a.ask("appr_1".into(), 3, call, 1_000);
        assert!(a.expire_due(1_499).ids.is_empty(), "one before the edge");
        assert_eq!(
            a.stage(&session(None, &["appr_1"], &[]), 1_500).err(),
            Some(DecisionError::NotPending("appr_1".into())),
            "an expired approval cannot be approved"
        );
        let expired = a.expire_due(1_500);
        assert_eq!(expired.ids, ["appr_1"]);
        a.apply(expired);
        assert!(matches!(rx.try_recv(), Ok(Ruling::Refuse(Refusal::Expired(_)))));
    }

    #[test]
    fn an_operators_decision_made_before_the_expiry_counts_however_late_the_run_resumes_ga_10_3() {
        let mut a = Approvals::new(Duration::from_millis(6_000), None);
        let (call, mut rx) = asked("deploy");
        a.ask("appr_1".into(), 3, call, 1_000);
        let (late, _late_rx) = asked("deploy");
        a.ask("appr_2".into(), 4, late, 1_000);
        let decisions = |id: &str| Decisions { approve: vec![id.to_owned()], deny: vec![] };
        // In time: at 6,999 of an approval that expires at 7,000. Too late:
        // exactly at the expiry.
        a.log.inbox.push(InboxEntry { decisions: decisions("appr_1"), at_ms: 6_999, by: Some("ops-alice".into()) });
        a.log.inbox.push(InboxEntry { decisions: decisions("appr_2"), at_ms: 7_000, by: None });
        // The run resumes long after both expired.
        assert_eq!(a.expire_due(14_000).ids, ["appr_2"], "the one decided in time does not expire");
        let staged = a.stage_inbox();
        assert_eq!(staged.ids, ["appr_1"], "the one decided at its expiry is not taken");
        a.apply(staged);
        assert!(matches!(rx.try_recv(), Ok(Ruling::Run)));
        assert_eq!(a.log.records[0].decision.as_ref().map(|d| d.at_ms), Some(6_999));
        assert_eq!(a.log.records[0].decision.as_ref().map(|d| d.by.as_str()), Some("ops-alice"), "the operator named");
    }

    #[test]
    fn decided_records_are_bounded_but_in_flight_ones_are_kept() {
        let mut a = Approvals::new(Duration::from_secs(60), None);
        for i in 0..(KEPT_DECIDED as u64 + 5) {
            let (call, _rx) = asked("t");
            a.ask(format!("appr_{i}"), i + 1, call, 0);
            let staged = a.stage(&session(None, &[&format!("appr_{i}")], &[]), 1).unwrap();
            a.apply(staged);
        }
        a.prune(|request| request == 1);
        assert_eq!(a.log.records.len(), KEPT_DECIDED);
        assert_eq!(a.log.records[0].request, 1, "a decided call still in flight is kept");
        assert_eq!(a.log.records[1].request, 7, "the oldest settled ones go");
    }
}
