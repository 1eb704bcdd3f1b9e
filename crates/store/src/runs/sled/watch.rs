//! In-process wake-ups for [`RunStore::changed`](crate::runs::RunStore::changed)
//! on sled: one process owns the database, so a change and its waiters
//! always meet here, and nothing polls.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

/// Runs watched at once with a slot of their own. Past it, further runs
/// share one overflow slot, woken by a change of *any* run: a waiter may
/// then wake early (callers re-read the run anyway), but memory stays
/// bounded however many runs are waited on.
const MAX_WATCHED_RUNS: usize = 16_384;

/// The key of the shared overflow slot (never a run id: those start `run_`).
const OVERFLOW: &str = "";

/// One watched run: a counter bumped by every change, so a change between
/// [`Watchers::watch`] and the first poll is not missed. How many wait is
/// the `Arc`'s count (one for the map, one per waiter), only ever changed
/// under the map's lock.
#[derive(Debug, Default)]
struct Slot {
    notify: Notify,
    changes: AtomicU64,
}

/// Who waits for a change of which run. Slots exist only while someone
/// waits: the last waiter to leave removes its slot.
#[derive(Debug, Default)]
pub(crate) struct Watchers {
    slots: Mutex<HashMap<String, Arc<Slot>>>,
}

impl Watchers {
    /// Wakes everyone waiting on `run_id` (and the overflow waiters).
    pub(crate) fn changed(&self, run_id: &str) {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        for key in [run_id, OVERFLOW] {
            if let Some(slot) = slots.get(key) {
                slot.changes.fetch_add(1, Ordering::SeqCst);
                slot.notify.notify_waiters();
            }
        }
    }

    /// Starts watching `run_id` now; the returned future resolves at the
    /// first change after this call, or after `timeout`.
    pub(crate) fn watch(self: &Arc<Self>, run_id: &str, timeout: Duration) -> impl Future<Output = ()> + Send + use<> {
        let guard = {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            let key = if slots.contains_key(run_id) || slots.len() < MAX_WATCHED_RUNS { run_id } else { OVERFLOW };
            let slot = Arc::clone(slots.entry(key.to_owned()).or_default());
            let seen = slot.changes.load(Ordering::SeqCst);
            Guard { watchers: Arc::clone(self), key: key.to_owned(), seen, slot: Some(slot) }
        };
        async move {
            if let Some(slot) = guard.slot.as_deref() {
                let wait = async {
                    loop {
                        let notified = slot.notify.notified();
                        tokio::pin!(notified);
                        // Registered before the counter is read: a change
                        // after the read wakes this `notified`.
                        notified.as_mut().enable();
                        if slot.changes.load(Ordering::SeqCst) != guard.seen {
                            return;
                        }
                        notified.await;
                    }
                };
                let _ = tokio::time::timeout(timeout, wait).await;
            }
            drop(guard);
        }
    }

    /// How many runs have a slot (tests: slots go when their waiters do).
    #[cfg(test)]
    pub(crate) fn watched(&self) -> usize {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

/// One waiter's registration; dropping it (resolved, timed out or
/// cancelled) removes the slot when it was the last.
struct Guard {
    watchers: Arc<Watchers>,
    key: String,
    seen: u64,
    slot: Option<Arc<Slot>>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut slots = self.watchers.slots.lock().unwrap_or_else(PoisonError::into_inner);
        // This waiter's count goes under the lock, so the check below sees
        // every other waiter's.
        drop(self.slot.take());
        if slots.get(&self.key).is_some_and(|s| Arc::strong_count(s) == 1) {
            slots.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_change_after_watch_but_before_the_first_poll_still_wakes_the_waiter_and_the_slot_goes_with_it() {
        let watchers = Arc::new(Watchers::default());
        let wait = watchers.watch("run_a", Duration::from_secs(30));
        assert_eq!(watchers.watched(), 1);
        watchers.changed("run_a");
        tokio::time::timeout(Duration::from_secs(5), wait).await.expect("woken, not timed out");
        assert_eq!(watchers.watched(), 0, "the last waiter removes its slot");
    }

    #[tokio::test]
    async fn past_the_bound_further_runs_share_one_slot_that_any_change_wakes() {
        let watchers = Arc::new(Watchers::default());
        let held: Vec<_> =
            (0..MAX_WATCHED_RUNS).map(|i| watchers.watch(&format!("run_{i}"), Duration::from_secs(30))).collect();
        assert_eq!(watchers.watched(), MAX_WATCHED_RUNS);
        let overflow = watchers.watch("run_late", Duration::from_secs(30));
        let another = watchers.watch("run_later", Duration::from_secs(30));
        assert_eq!(watchers.watched(), MAX_WATCHED_RUNS + 1, "one shared slot, however many more runs");
        watchers.changed("run_0");
        tokio::time::timeout(Duration::from_secs(5), overflow).await.expect("any change wakes the overflow slot");
        drop(another);
        assert_eq!(watchers.watched(), MAX_WATCHED_RUNS, "the overflow slot goes with its last waiter");
        drop(held);
        assert_eq!(watchers.watched(), 0);
    }

    #[tokio::test]
    async fn a_cancelled_waiter_removes_its_slot_and_another_runs_change_does_not_wake_it() {
        let watchers = Arc::new(Watchers::default());
        let first = watchers.watch("run_a", Duration::from_secs(30));
        let second = watchers.watch("run_a", Duration::from_millis(50));
        watchers.changed("run_b");
        let started = std::time::Instant::now();
        second.await;
        assert!(started.elapsed() >= Duration::from_millis(50), "timed out, not woken by run_b");
        assert_eq!(watchers.watched(), 1, "the first waiter still waits");
        drop(first);
        assert_eq!(watchers.watched(), 0);
    }
}
