//! A completing run's commit through its record: the run's end and its
//! cell's store writes in one transaction (GA-7.6).
//!
//! A backend that is briefly away (a database restarting) is retried
//! within a bound, as journal writes are. A retry that finds the run no
//! longer held asks the record whether an earlier attempt committed
//! before its connection dropped: a commit is reported done only when the
//! record says the run completed, and failed otherwise — never
//! `completed` for writes that were not kept.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_bridge::RunEnd;
use codemode_bridge::retry::Backoff;
use codemode_store::runs::{RunStatus, RunStore, RunStoreError};
use codemode_store::{StoreError, StoredValue};

/// How long a commit keeps retrying a backend that fails.
const COMMIT_RETRY: Duration = Duration::from_secs(5);

/// A completing run's commit through its record.
pub(crate) struct RecordCommit {
    store: Arc<dyn RunStore>,
    owner: Arc<str>,
    /// The run's journal writer: the end goes after every write before it.
    writer: Arc<tokio::sync::Mutex<()>>,
    run_id: String,
}

impl RecordCommit {
    pub(super) fn new(
        store: Arc<dyn RunStore>,
        owner: Arc<str>,
        writer: Arc<tokio::sync::Mutex<()>>,
        run_id: String,
    ) -> Self {
        Self { store, owner, writer, run_id }
    }

    /// Ends the record as completed with `writes`, atomically, keeping
    /// `result` (see [`keep`]) in it for a `wait` whose answer a crash cut
    /// off.
    ///
    /// # Errors
    /// The session store's own error (a session past its bound), or the
    /// run store's failure as an I/O error of the commit: the writes were
    /// not kept.
    pub(crate) async fn commit(
        self,
        writes: Vec<(String, Option<StoredValue>)>,
        result: Vec<u8>,
    ) -> Result<(), StoreError> {
        let _order = self.writer.lock().await;
        let began = Instant::now();
        let mut backoff = Backoff::new(Duration::from_millis(25), Duration::from_millis(500));
        // An attempt failed in the backend: it may have committed anyway
        // (the connection dropped after the commit was sent).
        let mut uncertain = false;
        crate::crash_points::point("run.commit");
        loop {
            let end = self.store.complete(&self.run_id, &self.owner, writes.clone(), result.clone()).await;
            match end {
                Ok(()) => {
                    crate::crash_points::point("run.committed");
                    return Ok(());
                }
                Err(RunStoreError::Backend(e)) if began.elapsed() + backoff.peek() < COMMIT_RETRY => {
                    tracing::debug!(run_id = %self.run_id, error = %e, "run commit failed; retrying");
                    uncertain = true;
                    tokio::time::sleep(backoff.next_delay()).await;
                }
                Err(e @ RunStoreError::LeaseLost { .. }) if uncertain => return self.landed(e).await,
                Err(RunStoreError::Store(e)) => return Err(e),
                Err(e) => return Err(StoreError::Io(e.to_string())),
            }
        }
    }

    /// After an uncertain attempt, the run is no longer this process's:
    /// done if the record says the run completed (that attempt landed).
    async fn landed(&self, lost: RunStoreError) -> Result<(), StoreError> {
        match self.store.get(&self.run_id).await {
            Ok(Some(record)) if record.status == RunStatus::Ended(RunEnd::Completed) => Ok(()),
            Ok(_) => Err(StoreError::Io(lost.to_string())),
            Err(e) => Err(StoreError::Io(e.to_string())),
        }
    }
}

/// What a completed run's record keeps: the magic `CMR1`, then its final
/// result as JSON, with the envelope id its model text is wrapped with.
const KEPT: &[u8; 4] = b"CMR1";

/// A completed run's final result, as its record keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    result: codemode_bridge::CellResult,
    untrusted: Option<String>,
}

/// The bytes a completed run's record keeps for `result`.
pub(crate) fn keep(result: &codemode_bridge::CellResult) -> Vec<u8> {
    let kept = Kept { result: result.clone(), untrusted: result.untrusted().map(str::to_owned) };
    let mut out = KEPT.to_vec();
    // A result is plain data with string keys: it always encodes.
    out.extend(serde_json::to_vec(&kept).unwrap_or_default());
    out
}

/// The final result a completed run's record kept, if it kept one this
/// build reads (records of earlier builds keep none).
pub(crate) fn kept(bytes: &[u8]) -> Option<codemode_bridge::CellResult> {
    let Kept { mut result, untrusted } = serde_json::from_slice(bytes.strip_prefix(KEPT)?).ok()?;
    result.set_untrusted(untrusted);
    Some(result)
}
