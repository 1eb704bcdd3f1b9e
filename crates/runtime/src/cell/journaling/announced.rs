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
    held: Arc<Mutex<Vec<PendingApproval>>>,
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

    fn held(&self) -> MutexGuard<'_, Vec<PendingApproval>> {
        // Plain data: a panic while it was held leaves it consistent.
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `approval` was asked: announced once stored.
    pub(crate) fn hold(&self, approval: PendingApproval) {
        self.held().push(approval);
    }

    /// These approvals were decided or expired: nobody needs to hear of
    /// them any more.
    pub(crate) fn forget(&self, ids: &[String]) {
        self.held().retain(|a| !ids.contains(&a.id));
    }

    /// What a write of `log` announces when stored; `None` when nothing
    /// held is pending in it.
    pub(crate) fn in_write(&self, log: &ApprovalLog) -> Option<StoredApprovals> {
        let held = self.held();
        if held.is_empty() {
            return None;
        }
        let ids: Vec<String> = log
            .records
            .iter()
            .filter(|r| r.decision.is_none() && held.iter().any(|a| a.id == r.approval.id))
            .map(|r| r.approval.id.clone())
            .collect();
        drop(held);
        (!ids.is_empty()).then(|| StoredApprovals { announcements: self.clone(), ids })
    }

    /// No record will hold them: announces every held approval now.
    pub(crate) fn announce_all(&self) {
        self.announce(|_| true);
    }

    /// Emits (in the order asked) and forgets the held approvals `which`
    /// picks. Each is announced once, whichever write is stored first.
    fn announce(&self, which: impl Fn(&str) -> bool) {
        let mut held = self.held();
        let mut announced = Vec::new();
        held.retain(|a| {
            let pick = which(&a.id);
            if pick {
                announced.push(a.clone());
            }
            !pick
        });
        drop(held);
        for approval in announced {
            self.events.emit(|| RunEvent::ApprovalRequested {
                run_id: self.run_id.to_string(),
                session: self.session.as_deref().map(str::to_owned),
                approval,
            });
        }
    }
}
