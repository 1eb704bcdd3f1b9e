//! How a run's record ends before the end is reported: a completing run's
//! commit (the run's end and its cell's store writes in one transaction,
//! GA-7.6), and every other end ([`RecordEnd`]).
//!
//! A backend that is briefly away (a database restarting) is retried
//! within a bound, as journal writes are. A retry that finds the run no
//! longer held asks the record whether an earlier attempt committed
//! before its connection dropped: a commit is reported done only when the
//! record says the run completed, and failed otherwise — never
//! `completed` for writes that were not kept.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_protocol::RunEnd;
use codemode_protocol::retry::Backoff;
use codemode_store::runs::{Claim, RunStatus, RunStore, RunStoreError};
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
    pub(crate) fn new(
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

/// A run's end other than `completed`, to be recorded before it is
/// reported (so every process reports the same end).
pub(crate) struct RecordEnd {
    pub(crate) store: Arc<dyn RunStore>,
    pub(crate) owner: Arc<str>,
    /// The run's journal writer: the end goes after every write before it.
    pub(crate) writer: Arc<tokio::sync::Mutex<()>>,
    pub(crate) run_id: String,
    pub(crate) end: RunEnd,
    /// Whether this copy holds the lease; if not (a parked run that handed
    /// it off), it takes it back first.
    pub(crate) held: bool,
    pub(crate) lease: Duration,
    /// The journal version this copy wrote last.
    pub(crate) version: Arc<std::sync::atomic::AtomicU64>,
}

/// Why a run's end was not recorded: the run lives on as its record.
#[derive(Debug)]
pub(crate) enum EndNotRecorded {
    /// Another process advanced the run (this copy was stale), or holds it.
    Moved,
    /// The store stayed away (it says why).
    Unavailable(String),
}

impl RecordEnd {
    /// The end this records (a diverged replay's, if it diverged).
    pub(crate) fn end(&self) -> RunEnd {
        self.end
    }

    /// Records the end. A backend that is briefly away is retried within a
    /// bound; a retry that finds the run no longer held asks the record
    /// whether an earlier attempt landed.
    ///
    /// # Errors
    /// [`EndNotRecorded`]: nothing of the run changed.
    pub(crate) async fn record(self) -> Result<(), EndNotRecorded> {
        let _order = self.writer.lock().await;
        let began = Instant::now();
        let mut backoff = Backoff::new(Duration::from_millis(25), Duration::from_millis(500));
        let mut uncertain = false;
        let mut held = self.held;
        loop {
            let attempt = async {
                // A parked run that handed its lease off takes it back
                // first, unless another process advanced the run meanwhile.
                if !held {
                    match self.store.claim(&self.run_id, &self.owner, self.lease).await? {
                        Claim::Claimed(r) if r.version == self.version.load(std::sync::atomic::Ordering::Acquire) => {}
                        Claim::Claimed(_) => {
                            let _ = self.store.release(&self.run_id, &self.owner).await;
                            return Ok(Err(EndNotRecorded::Moved));
                        }
                        // Ended so already (an abort from another process).
                        Claim::Ended(end) if end == self.end => return Ok(Ok(())),
                        _ => return Ok(Err(EndNotRecorded::Moved)),
                    }
                    held = true;
                }
                crate::crash_points::point("run.end");
                self.store.end(&self.run_id, &self.owner, self.end, Vec::new()).await.map(Ok)
            }
            .await;
            match attempt {
                Ok(outcome) => return outcome,
                Err(RunStoreError::Backend(e)) if began.elapsed() + backoff.peek() < COMMIT_RETRY => {
                    tracing::debug!(run_id = %self.run_id, error = %e, "run end not recorded; retrying");
                    uncertain = true;
                    tokio::time::sleep(backoff.next_delay()).await;
                }
                Err(RunStoreError::LeaseLost { .. }) if uncertain => {
                    return match self.store.get(&self.run_id).await {
                        Ok(Some(r)) if r.status == RunStatus::Ended(self.end) => Ok(()),
                        Ok(_) => Err(EndNotRecorded::Moved),
                        Err(e) => Err(EndNotRecorded::Unavailable(e.to_string())),
                    };
                }
                Err(RunStoreError::LeaseLost { .. } | RunStoreError::Missing { .. }) => {
                    return Err(EndNotRecorded::Moved);
                }
                Err(e) => return Err(EndNotRecorded::Unavailable(e.to_string())),
            }
        }
    }
}

/// What a completed run's record keeps: the magic `CMR1`, then its final
/// result as JSON, with the envelope id its model text is wrapped with.
const KEPT: &[u8; 4] = b"CMR1";

/// A completed run's final result, as its record keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    result: codemode_protocol::CellResult,
    untrusted: Option<String>,
}

/// The bytes a completed run's record keeps for `result`.
pub(crate) fn keep(result: &codemode_protocol::CellResult) -> Vec<u8> {
    let kept = Kept { result: result.clone(), untrusted: result.untrusted().map(str::to_owned) };
    let mut out = KEPT.to_vec();
    // A result is plain data with string keys: it always encodes.
    out.extend(serde_json::to_vec(&kept).unwrap_or_default());
    out
}

/// The final result a completed run's record kept, if it kept one this
/// build reads (records of earlier builds keep none).
pub(crate) fn kept(bytes: &[u8]) -> Option<codemode_protocol::CellResult> {
    let Kept { mut result, untrusted } = serde_json::from_slice(bytes.strip_prefix(KEPT)?).ok()?;
    result.set_untrusted(untrusted);
    Some(result)
}
