//! The session-bound services' side of `store`/`load` (GA-7) and
//! `results` (GA-6.5): what each request asks the session store or the
//! results cache, and how their answers and errors reach the guest.
//!
//! Writes are buffered in the cell — its own later loads see them, also
//! after `wait` — and reach the session store only when the cell completes.
//! Failed, timed-out, aborted, expired and disposed cells drop the buffer
//! with the rest of their state.

use std::future::Future;

use codemode_store::preview::describe;
use codemode_store::{ResultsCache, ResultsError, Scope, SessionStore, StoreError, StoredValue};
use serde_json::{Value, json};

use super::done::Done;
use crate::cell::effects::WriteBuffer;
use crate::cell::mode::CellMode;
use crate::engine::settlement::{Answer, ErrorName, Fault, Settlement};

fn store_err(id: u64, e: &StoreError) -> Settlement {
    let name = match e.js_name() {
        "TypeError" => ErrorName::TypeError,
        "RangeError" => ErrorName::RangeError,
        _ => ErrorName::Error,
    };
    Settlement::fault(id, Fault::new(name, e.to_string(), e.code()))
}

fn results_err(id: u64, e: &ResultsError) -> Settlement {
    let name = if matches!(e, ResultsError::BadId) { ErrorName::TypeError } else { ErrorName::Error };
    Settlement::fault(id, Fault::new(name, e.to_string(), "results"))
}

/// `{found: true, value}` around a stored value's JSON text.
fn found(id: u64, json: &str) -> Settlement {
    Settlement { id, answer: Answer::Text(format!("{{\"found\":true,\"value\":{json}}}")) }
}

/// The session of a cell that may use `store`/`load`, or the refusal.
pub(crate) fn store_session(mode: &CellMode) -> Result<&str, &'static str> {
    match mode {
        CellMode::Headless => {
            Err("Code Mode store/load is unavailable in headless execution; use an interactive session-bound cell.")
        }
        CellMode::Interactive { restart_safe: true, .. } => Err(
            "Code Mode store/load is unavailable in restart-safe cells: a replay must not depend on or change session state. Run it in a cell without restartSafe.",
        ),
        CellMode::Interactive { session, .. } => Ok(session),
    }
}

/// The reply scope of a cell that may use `results`, or the refusal.
pub(crate) fn results_scope(mode: &CellMode) -> Result<Scope, &'static str> {
    match mode {
        CellMode::Headless => Err("Code Mode results are unavailable in headless execution; return the value instead."),
        CellMode::Interactive { restart_safe: true, .. } => {
            Err("Code Mode results are unavailable in restart-safe cells; return the value instead.")
        }
        CellMode::Interactive { session, reply, .. } => Ok(Scope { session: session.clone(), reply: reply.clone() }),
    }
}

/// A refusal as a settlement.
pub(crate) fn refused(id: u64, message: &str) -> Settlement {
    Settlement::fault(id, Fault::error(message, "unavailable"))
}

/// `load(key)` answered from the cell's own buffer, when it has the key.
pub(crate) fn load_buffered(buffer: &WriteBuffer, id: u64, key: &str) -> Option<(Settlement, bool)> {
    let entry = buffer.get(key)?;
    Some(match entry {
        Some(v) => (found(id, &v.json), v.network),
        None => (Settlement::value(id, json!({"found": false})), false),
    })
}

/// `op` on the session store, riding out a store briefly away (a call
/// still retrying when its window ends is pending like any other request):
/// a cell's fate does not hang on whether it touched the store during a
/// database restart. Both operations only read.
async fn riding_out<T, F>(op: impl FnMut() -> F) -> Result<T, StoreError>
where
    F: Future<Output = Result<T, StoreError>>,
{
    crate::durable::riding_out(|e| matches!(e, StoreError::Unavailable | StoreError::Database(_)), op).await
}

/// Checks a `store` against the committed session plus the cell's buffer.
pub(crate) async fn store(
    store: SessionStore,
    session: String,
    buffer: Vec<(String, Option<usize>)>,
    id: u64,
    key: String,
    value: Option<StoredValue>,
) -> Done {
    let mut changes = buffer;
    changes.push((key.clone(), value.as_ref().map(|v| v.json.len())));
    match riding_out(|| store.check(&session, changes.clone())).await {
        Ok(()) => Done::Stored { key, value, settlement: Settlement::value(id, Value::Null) },
        Err(e) => Done::Settle(store_err(id, &e)),
    }
}

/// `load(key)` from the committed session.
pub(crate) async fn load(store: SessionStore, session: String, id: u64, key: String) -> Done {
    match riding_out(|| store.load(&session, &key)).await {
        Ok(Some(v)) => Done::Loaded { settlement: found(id, &v.json), network: v.network },
        Ok(None) => Done::Settle(Settlement::value(id, json!({"found": false}))),
        Err(e) => Done::Settle(store_err(id, &e)),
    }
}

/// `results.save(value)`: the descriptor of the saved value.
pub(crate) async fn result_save(
    results: ResultsCache,
    scope: Scope,
    id: u64,
    value: Value,
    json: String,
    network: bool,
) -> Done {
    match results.save(scope, StoredValue { json: json.clone(), network }).await {
        Ok(result_id) => match serde_json::to_value(describe(&result_id, &value, &json)) {
            Ok(descriptor) => Done::Settle(Settlement::value(id, descriptor)),
            Err(e) => Done::Settle(Settlement::fault(
                id,
                Fault::error(format!("the saved result could not be described: {e}"), "results"),
            )),
        },
        Err(e) => Done::Settle(results_err(id, &e)),
    }
}

/// `results.load(id)`: a detached copy.
pub(crate) async fn result_load(results: ResultsCache, scope: Scope, id: u64, result_id: String) -> Done {
    match results.load(scope, result_id).await {
        Ok(v) => Done::Loaded { settlement: Settlement { id, answer: Answer::Text(v.json) }, network: v.network },
        Err(e) => Done::Settle(results_err(id, &e)),
    }
}

/// `results.delete(id)`.
pub(crate) async fn result_delete(results: ResultsCache, scope: Scope, id: u64, result_id: String) -> Done {
    match results.delete(scope, result_id).await {
        Ok(deleted) => Done::Settle(Settlement::value(id, json!(deleted))),
        Err(e) => Done::Settle(results_err(id, &e)),
    }
}
