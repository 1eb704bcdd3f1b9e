//! The local waiters of [`RunStore::changed`](crate::runs::RunStore::changed)
//! on PostgreSQL, woken by what the `LISTEN` connection hears: bounded, and
//! each registration gone with its call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

use crate::runs::types::RunStoreError;

/// At most this many `changed` calls wait at once per process; more fail
/// rather than grow the waiter map without bound.
const MAX_WAITERS: usize = 65_536;

/// The local waiters of [`RunStore::changed`], by run id.
#[derive(Default)]
pub(super) struct Waiters {
    map: Mutex<WaitMap>,
}

#[derive(Default)]
struct WaitMap {
    /// Per run: its wake-up and how many calls wait on it.
    runs: HashMap<String, (Arc<Notify>, usize)>,
    /// All waiting calls, kept so the bound is checked in O(1).
    total: usize,
}

/// One `changed` call's registration; unregisters on drop (also when the
/// call is cancelled), so the map holds only live waiters.
pub(super) struct Waiting {
    waiters: Arc<Waiters>,
    run_id: String,
    pub(super) notified: std::pin::Pin<Box<tokio::sync::futures::OwnedNotified>>,
}

impl Waiters {
    fn lock(&self) -> MutexGuard<'_, WaitMap> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn register(self: &Arc<Self>, run_id: &str) -> Result<Waiting, RunStoreError> {
        let mut map = self.lock();
        if map.total >= MAX_WAITERS {
            return Err(RunStoreError::Backend(format!(
                "more than {MAX_WAITERS} waits for run changes at once in this process; retry later"
            )));
        }
        map.total += 1;
        let entry = map.runs.entry(run_id.to_owned()).or_insert_with(|| (Arc::new(Notify::new()), 0));
        entry.1 += 1;
        let mut notified = Box::pin(Arc::clone(&entry.0).notified_owned());
        // Counts as waiting from now: a `notify_waiters` before the first
        // poll still completes it.
        notified.as_mut().enable();
        Ok(Waiting { waiters: Arc::clone(self), run_id: run_id.to_owned(), notified })
    }

    pub(super) fn wake(&self, run_id: &str) {
        if let Some((notify, _)) = self.lock().runs.get(run_id) {
            notify.notify_waiters();
        }
    }

    pub(super) fn wake_all(&self) {
        for (notify, _) in self.lock().runs.values() {
            notify.notify_waiters();
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let mut map = self.waiters.lock();
        map.total = map.total.saturating_sub(1);
        if let Some(entry) = map.runs.get_mut(&self.run_id) {
            entry.1 -= 1;
            if entry.1 == 0 {
                map.runs.remove(&self.run_id);
            }
        }
    }
}

impl Waiters {
    /// How many calls wait (tests).
    #[cfg(test)]
    pub(super) fn total(&self) -> usize {
        self.lock().total
    }
}
