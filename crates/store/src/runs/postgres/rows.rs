//! Rows of `codemode_runs` as records: which columns a query reads, and
//! how each is converted (a malformed row is the backend's error, and a
//! status this codemode does not know is [`RunStoreError::UnknownStatus`]).

use crate::error::StoreError;
use crate::postgres::{describe, unbig};
use crate::runs::types::{RunMeta, RunRecord, RunStatus, RunStoreError, RunSummary};

/// The columns of a [`RunRecord`], in [`record`]'s order, as a query of
/// `codemode_runs` computes them: the journal is the stored bytes followed
/// by the appended chunks.
pub(super) const COLUMNS: &str = "run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms, \
     journal || coalesce((SELECT string_agg(c.bytes, ''::bytea ORDER BY c.seq) FROM codemode_run_chunks c \
     WHERE c.run_id = codemode_runs.run_id), ''::bytea) AS journal, version, abort_requested, updated_ms";

/// [`COLUMNS`] with an empty journal: for a claim that need not read it.
pub(super) const WITHOUT_JOURNAL: &str = "run_id, session, reply, principal, title, created_ms, status, owner, \
     lease_until_ms, ''::bytea AS journal, version, abort_requested, updated_ms";

/// The same columns read from a CTE that returned [`COLUMNS`].
pub(super) const RETURNED: &str = "run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms, journal, version, abort_requested, updated_ms";

/// A failed statement as the backend's error.
pub(super) fn backend(e: &tokio_postgres::Error) -> RunStoreError {
    RunStoreError::Backend(describe(e))
}

/// A session commit's failure inside a run's end: limits stay typed store
/// errors, a failed statement is the backend's.
pub(super) fn store_error(e: StoreError) -> RunStoreError {
    match e {
        StoreError::Database(reason) => RunStoreError::Backend(reason),
        other => RunStoreError::Store(other),
    }
}

/// The status of `run_id` stored as `text`.
pub(super) fn status(run_id: &str, text: &str) -> Result<RunStatus, RunStoreError> {
    RunStoreError::status(run_id, text)
}

fn meta(r: &tokio_postgres::Row) -> Result<RunMeta, RunStoreError> {
    Ok(RunMeta {
        run_id: r.try_get(0).map_err(|e| backend(&e))?,
        session: r.try_get(1).map_err(|e| backend(&e))?,
        reply: r.try_get(2).map_err(|e| backend(&e))?,
        principal: r.try_get(3).map_err(|e| backend(&e))?,
        title: r.try_get(4).map_err(|e| backend(&e))?,
        created_ms: unbig(r.try_get(5).map_err(|e| backend(&e))?),
    })
}

/// A row of [`COLUMNS`] as a record.
pub(super) fn record(r: &tokio_postgres::Row) -> Result<RunRecord, RunStoreError> {
    let meta = meta(r)?;
    Ok(RunRecord {
        status: status(&meta.run_id, r.try_get(6).map_err(|e| backend(&e))?)?,
        meta,
        owner: r.try_get(7).map_err(|e| backend(&e))?,
        lease_until_ms: unbig(r.try_get(8).map_err(|e| backend(&e))?),
        journal: r.try_get(9).map_err(|e| backend(&e))?,
        version: unbig(r.try_get(10).map_err(|e| backend(&e))?),
        abort_requested: r.try_get(11).map_err(|e| backend(&e))?,
        updated_ms: unbig(r.try_get(12).map_err(|e| backend(&e))?),
    })
}

/// A row of a listing (the record's columns up to the lease, then the
/// journal's size, the last change and the abort mark) as a summary.
pub(super) fn summary(r: &tokio_postgres::Row) -> Result<RunSummary, RunStoreError> {
    let meta = meta(r)?;
    Ok(RunSummary {
        status: status(&meta.run_id, r.try_get(6).map_err(|e| backend(&e))?)?,
        meta,
        owner: r.try_get(7).map_err(|e| backend(&e))?,
        lease_until_ms: unbig(r.try_get(8).map_err(|e| backend(&e))?),
        journal_bytes: unbig(r.try_get(9).map_err(|e| backend(&e))?),
        updated_ms: unbig(r.try_get(10).map_err(|e| backend(&e))?),
        abort_requested: r.try_get(11).map_err(|e| backend(&e))?,
    })
}
