//! `ApprovalRequested` events, emitted once the run's record holds the
//! approval.
//!
//! A client decides on an approval by its id, and a decision is taken
//! only on an id the run's record holds (a copy that resumes the run from
//! its record asks again under a new id). So an event-driven host must not
//! hear of an approval before a journal write holding it was stored: an
//! approval asked in this process is held here until a stored write's
//! state had it pending, and announced then — before the park's own
//! answer and its `Parked` event, which that write also decides. A run
//! with no journal (or one gone memory only) announces at once: nothing
//! resumes it from a record.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use codemode_protocol::PendingApproval;

use crate::durable::journal::ApprovalLog;
use crate::events::{EventFeed, RunEvent};

/// The run's approvals not yet announced; clones share them.
#[derive(Clone)]
pub(crate) struct Announcements {
    events: EventFeed,
    run_id: Arc<str>,
    session: Option<Arc<str>>,
    held: Arc<Mutex<Held>>,
}

#[derive(Default)]
struct Held {
    /// Asked here, not yet announced, in the order asked.
    waiting: Vec<PendingApproval>,
    /// Which of them the newest write sent holds pending: a hand-over
    /// stores that write's bytes again when it failed.
    last_written: Vec<String>,
}

/// The approvals a journal write holds pending, announced when it is
/// stored.
pub(crate) struct StoredApprovals {
    announcements: Announcements,
    ids: Vec<String>,
}

impl StoredApprovals {
    /// The write was stored: its pending approvals are in the record.
    pub(crate) fn stored(self) {
        self.announcements.announce(|id| self.ids.iter().any(|stored| stored == id));
    }
}

impl Announcements {
    /// No approval held yet.
    pub(crate) fn new(events: EventFeed, run_id: &str, session: Option<&str>) -> Self {
        Self { events, run_id: Arc::from(run_id), session: session.map(Arc::from), held: Arc::default() }
    }

    fn held(&self) -> MutexGuard<'_, Held> {
        // Plain data: a panic while it was held leaves it consistent.
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `approval` was asked: announced once stored.
    pub(crate) fn hold(&self, approval: PendingApproval) {
        self.held().waiting.push(approval);
    }

    /// These approvals were decided or expired: nobody needs to hear of
    /// them any more. Returns those never announced (the host never heard
    /// of them, so it need not hear how they ended either).
    pub(crate) fn forget(&self, ids: &[String]) -> Vec<String> {
        let mut held = self.held();
        let mut unannounced = Vec::new();
        held.waiting.retain(|a| {
            let decided = ids.contains(&a.id);
            if decided {
                unannounced.push(a.id.clone());
            }
            !decided
        });
        unannounced
    }

    /// What a write of `log` announces when stored; `None` when nothing
    /// held is pending in it.
    pub(crate) fn in_write(&self, log: &ApprovalLog) -> Option<StoredApprovals> {
        let mut held = self.held();
        if held.waiting.is_empty() {
            return None;
        }
        let ids: Vec<String> = log
            .records
            .iter()
            .filter(|r| r.decision.is_none() && held.waiting.iter().any(|a| a.id == r.approval.id))
            .map(|r| r.approval.id.clone())
            .collect();
        held.last_written.clone_from(&ids);
        drop(held);
        (!ids.is_empty()).then(|| StoredApprovals { announcements: self.clone(), ids })
    }

    /// What the newest write sent announces when its bytes are stored
    /// again (a hand-over sends what is unsent, writing nothing new).
    pub(crate) fn in_last_write(&self) -> Option<StoredApprovals> {
        let held = self.held();
        let ids: Vec<String> =
            held.last_written.iter().filter(|id| held.waiting.iter().any(|a| &a.id == *id)).cloned().collect();
        drop(held);
        (!ids.is_empty()).then(|| StoredApprovals { announcements: self.clone(), ids })
    }

    /// No record will hold them: announces every held approval now.
    pub(crate) fn announce_all(&self) {
        self.announce(|_| true);
    }

    /// Emits (in the order asked) and forgets the held approvals `which`
    /// picks. Each is announced once, whichever write is stored first;
    /// emitted under the lock, so that a write that finds them announced
    /// answers (and emits its `Parked` event) only after they were.
    fn announce(&self, which: impl Fn(&str) -> bool) {
        let mut held = self.held();
        let mut announced = Vec::new();
        held.waiting.retain(|a| {
            let pick = which(&a.id);
            if pick {
                announced.push(a.clone());
            }
            !pick
        });
        for approval in announced {
            self.events.emit(|| RunEvent::ApprovalRequested {
                run_id: self.run_id.to_string(),
                session: self.session.as_deref().map(str::to_owned),
                approval,
            });
        }
        drop(held);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::durable::journal::ApprovalRecord;
    use crate::events::RunEvents;

    fn approval(id: &str) -> PendingApproval {
        PendingApproval {
            id: id.to_owned(),
            source: "native".to_owned(),
            server: None,
            tool: "deploy".to_owned(),
            arguments: "{}".to_owned(),
            arguments_truncated: false,
            reason: "asked".to_owned(),
            expires_at_ms: 0,
        }
    }

    fn log(ids: &[&str]) -> ApprovalLog {
        let records = ids.iter().map(|id| ApprovalRecord {
            approval: approval(id),
            request: 1,
            what: "deploy".to_owned(),
            asked_at_ms: 0,
            decision: None,
            task_input: None,
        });
        ApprovalLog { records: records.collect(), inbox: Vec::new() }
    }

    async fn heard(events: &mut RunEvents) -> Vec<String> {
        let mut ids = Vec::new();
        while let Ok(Ok(event)) = tokio::time::timeout(Duration::from_millis(20), events.recv()).await {
            if let RunEvent::ApprovalRequested { approval, .. } = event {
                ids.push(approval.id);
            }
        }
        ids
    }

    #[tokio::test]
    async fn an_approval_is_announced_once_when_a_write_holding_it_is_stored_or_sent_again_ga_10_3() {
        let feed = EventFeed::default();
        let mut events = feed.subscribe();
        let announcements = Announcements::new(feed, "run", Some("s"));
        announcements.hold(approval("a"));
        announcements.hold(approval("b"));
        // A write holding `a` only: nothing is heard until it is stored.
        let first = announcements.in_write(&log(&["a"])).expect("holds a");
        assert_eq!(heard(&mut events).await, Vec::<String>::new());
        first.stored();
        assert_eq!(heard(&mut events).await, vec!["a"]);
        // A write holding both fails (never stored); a hand-over sends its
        // bytes again and announces what it held that was not yet heard.
        drop(announcements.in_write(&log(&["a", "b"])));
        assert_eq!(heard(&mut events).await, Vec::<String>::new());
        announcements.in_last_write().expect("holds b").stored();
        assert_eq!(heard(&mut events).await, vec!["b"]);
        assert!(announcements.in_last_write().is_none(), "each is announced once");
        // Decided before any record held it: never announced, and said so.
        announcements.hold(approval("c"));
        assert_eq!(announcements.forget(&["c".to_owned()]), vec!["c"]);
        announcements.announce_all();
        assert_eq!(heard(&mut events).await, Vec::<String>::new());
        // No record will hold it: announced at once.
        announcements.hold(approval("d"));
        announcements.announce_all();
        assert_eq!(heard(&mut events).await, vec!["d"]);
    }
}
