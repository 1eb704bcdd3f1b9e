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

    /// Ends the record as completed with `writes`, atomically.
    ///
    /// # Errors
    /// The session store's own error (a session past its bound), or the
    /// run store's failure as an I/O error of the commit: the writes were
    /// not kept.
    pub(crate) async fn commit(self, writes: Vec<(String, Option<StoredValue>)>) -> Result<(), StoreError> {
        let _order = self.writer.lock().await;
        let began = Instant::now();
        let mut backoff = Backoff::new(Duration::from_millis(25), Duration::from_millis(500));
        // An attempt failed in the backend: it may have committed anyway
        // (the connection dropped after the commit was sent).
        let mut uncertain = false;
        loop {
            let end = self.store.end(&self.run_id, &self.owner, RunEnd::Completed, writes.clone()).await;
            match end {
                Ok(()) => return Ok(()),
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
