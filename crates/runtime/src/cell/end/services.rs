//! What a completing cell asks the services before it reports: keeping an
//! oversized final value by reference (GA-6.6), then committing its store
//! writes (GA-7.6) — and, for a run with a record, its end, with the final
//! result kept in the record — in that order.

use codemode_store::preview::describe;
use codemode_store::{ResultsCache, ResultsError, Scope, SessionStore, StoreError, StoredValue};
use serde_json::Value;

use crate::durable::RecordCommit;

/// Guidance of an automatic reference.
pub(crate) const REFERENCE_GUIDANCE: &str =
    "Full result saved for this run; use results.load(reference.id) in a later exec.";

/// A commit to make: the session and its writes.
pub(crate) type Commit = (String, Vec<(String, Option<StoredValue>)>);

/// A final value to keep by reference: its scope, value, JSON text and
/// whether it holds network-derived content.
pub(crate) type Reference = (Scope, Value, String, bool);

/// Why an oversized final value was not kept by reference: the guidance
/// its truncation marker carries.
#[derive(Debug)]
pub(crate) struct NotRetained(pub String);

/// What a completing cell learned from the services, one step at a time.
#[derive(Debug)]
pub(crate) enum Finalized {
    /// The oversized value's reference's descriptor, or why it could not
    /// be kept.
    Referenced(Result<Value, NotRetained>),
    /// The commit's outcome: the store writes and, for a run with a
    /// record, its end.
    Committed(Result<(), StoreError>),
}

/// Keeps an oversized final value by reference.
pub(crate) async fn keep_reference(results: ResultsCache, reference: Reference) -> Finalized {
    let (scope, value, json, network) = reference;
    let kept = match results.save(scope, StoredValue { json: json.clone(), network }).await {
        Ok(id) => serde_json::to_value(describe(&id, &value, &json)).map_err(|e| {
            NotRetained(format!("Not retained: the reference could not be described ({e}). Return less data."))
        }),
        Err(ResultsError::Full(_)) => Err(NotRetained(
            "Not retained: result-store capacity exceeded. Delete references or return less data.".to_owned(),
        )),
        Err(ResultsError::ReplyEnded) => Err(NotRetained(
            "Not retained: this cell's reply has ended, so its results expired. Return less data.".to_owned(),
        )),
        Err(_) => Err(NotRetained("Not retained: the results cache is unavailable. Return less data.".to_owned())),
    };
    Finalized::Referenced(kept)
}

/// Commits the cell's writes; a run with a record ends through it, in the
/// same transaction, keeping `result` (its final result, encoded).
pub(crate) async fn commit(
    store: SessionStore,
    commit: Option<Commit>,
    run: Option<RecordCommit>,
    result: Vec<u8>,
) -> Finalized {
    Finalized::Committed(match (commit, run) {
        (commit, Some(run)) => run.commit(commit.map(|(_, writes)| writes).unwrap_or_default(), result).await,
        (Some((session, writes)), None) => store.commit(&session, writes).await,
        (None, None) => Ok(()),
    })
}

/// The warning of a commit whose durability could not be confirmed (GA-7.6).
pub(crate) const PERSISTENCE_WARNING: &str = "Code Mode session store persistence could not be confirmed. The cell \
completed; verify the stored values before relying on them in a later cell or reply.";
