//! Waiting on a run another process holds: the one wait every claimer
//! (a `wait` or `abort` anywhere, an operator's decision) goes through
//! while the run's lease is someone else's.

use std::time::{Duration, Instant};

use codemode_store::runs::{RunStore, RunStoreError, now_ms};

/// How long past a holder's lease expiry a waiter looks again. A crashed
/// holder writes nothing more, so its lease running out is the signal; the
/// slack keeps the waiter from waking just before it and finding the run
/// still held.
pub(crate) const PAST_LEASE_EXPIRY: Duration = Duration::from_millis(20);

/// Waits until the holder of run `run_id` (its lease running until
/// `until_ms`) writes — parks, ends, hands the lease off — or its lease
/// runs out, but not past `deadline`. `false` when the deadline has already
/// passed: there is nothing left to wait for.
///
/// # Errors
/// The store could not watch the run.
pub(crate) async fn wait_for_holder(
    store: &dyn RunStore,
    run_id: &str,
    until_ms: u64,
    deadline: Instant,
) -> Result<bool, RunStoreError> {
    let now = Instant::now();
    if now >= deadline {
        return Ok(false);
    }
    let expiry = Duration::from_millis(until_ms.saturating_sub(now_ms())) + PAST_LEASE_EXPIRY;
    store.changed(run_id, (deadline - now).min(expiry)).await?;
    Ok(true)
}
