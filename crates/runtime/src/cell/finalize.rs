//! What a completing cell asks the services before it reports: keeping an
//! oversized final value by reference (GA-6.6) and committing its store
//! writes (GA-7.6), in that order.

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

/// What a completing cell learned from the services.
#[derive(Debug)]
pub(crate) struct Finalized {
    /// The automatic reference's descriptor, or why it could not be kept.
    pub reference: Option<Result<Value, NotRetained>>,
    /// The store commit's outcome, when there were writes.
    pub commit: Option<Result<(), StoreError>>,
}

/// Keeps an oversized final value by reference and commits the cell's
/// writes, in that order.
pub(crate) async fn finalize(
    results: ResultsCache,
    store: SessionStore,
    reference: Option<Reference>,
    commit: Option<Commit>,
    run: Option<RecordCommit>,
) -> Finalized {
    let reference = match reference {
        Some((scope, value, json, network)) => Some({
            match results.save(scope, StoredValue { json: json.clone(), network }).await {
                Ok(id) => serde_json::to_value(describe(&id, &value, &json)).map_err(|e| {
                    NotRetained(format!("Not retained: the reference could not be described ({e}). Return less data."))
                }),
                Err(ResultsError::Full(_)) => Err(NotRetained(
                    "Not retained: result-store capacity exceeded. Delete references or return less data.".to_owned(),
                )),
                Err(ResultsError::ReplyEnded) => Err(NotRetained(
                    "Not retained: this cell's reply has ended, so its results expired. Return less data.".to_owned(),
                )),
                Err(_) => {
                    Err(NotRetained("Not retained: the results cache is unavailable. Return less data.".to_owned()))
                }
            }
        }),
        None => None,
    };
    let commit = match (commit, run) {
        // A run with a record: its end and its writes in one transaction.
        (Some((_, writes)), Some(run)) => Some(run.commit(writes).await),
        (Some((session, writes)), None) => Some(store.commit(&session, writes).await),
        (None, _) => None,
    };
    Finalized { reference, commit }
}

/// The warning of a commit whose durability could not be confirmed (GA-7.6).
pub(crate) const PERSISTENCE_WARNING: &str = "Code Mode session store persistence could not be confirmed. The cell \
completed; verify the stored values before relying on them in a later cell or reply.";
