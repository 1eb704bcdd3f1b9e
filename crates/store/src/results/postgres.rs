//! Saved results on PostgreSQL: the same meaning as the results actor
//! (GA-6.5), shared by every process on the database.
//!
//! A save locks its (session, reply) with a transaction-scoped advisory
//! lock, so the count and byte bounds hold across processes. A deleted
//! result keeps a tombstone row (`json` NULL) so loading it says "deleted";
//! tombstones are bounded per reply and go with the reply.

use std::sync::Arc;

use ractor::ActorCell;

use super::backend::{ResultsBackend, ResultsFuture};
use super::types::{ResultsError, ResultsLimits, ResultsStats, Scope, new_id};
use crate::postgres::{Cache, Pg, big, describe, pool_reason};
use crate::value::StoredValue;

/// Deleted ids remembered per reply for precise errors (as the actor's
/// tombstones); older ones then read as unavailable.
const TOMBSTONES: i64 = 4096;

fn db(e: &tokio_postgres::Error) -> ResultsError {
    ResultsError::Database(describe(e))
}

async fn client(pg: &Pg) -> Result<deadpool_postgres::Object, ResultsError> {
    pg.pool.get().await.map_err(|e| ResultsError::Database(pool_reason(&e)))
}

/// Saves `value` in the reply; returns its new id.
async fn save(pg: &Pg, limits: &ResultsLimits, scope: &Scope, value: &StoredValue) -> Result<String, ResultsError> {
    let mut client = client(pg).await?;
    let tx = client.transaction().await.map_err(|e| db(&e))?;
    // Two processes saving into one reply must not both pass the bounds.
    tx.cached()
        .execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1 || chr(10) || $2, 17))",
            &[&scope.session, &scope.reply],
        )
        .await
        .map_err(|e| db(&e))?;
    let row = tx
        .cached()
        .query_one(
            "SELECT count(*), coalesce(sum(octet_length(json)), 0)::bigint FROM codemode_results
             WHERE session = $1 AND reply = $2 AND json IS NOT NULL",
            &[&scope.session, &scope.reply],
        )
        .await
        .map_err(|e| db(&e))?;
    let entries = usize::try_from(row.get::<_, i64>(0)).unwrap_or(usize::MAX);
    let bytes = usize::try_from(row.get::<_, i64>(1)).unwrap_or(usize::MAX);
    if entries >= limits.max_entries {
        return Err(ResultsError::Full(format!("{} references", limits.max_entries)));
    }
    if bytes.saturating_add(value.json.len()) > limits.max_bytes {
        return Err(ResultsError::Full(format!(
            "{} of {} bytes used, {} more requested",
            bytes,
            limits.max_bytes,
            value.json.len()
        )));
    }
    let id = new_id()?;
    tx.cached()
        .execute(
            "INSERT INTO codemode_results (id, session, reply, json, network) VALUES ($1, $2, $3, $4, $5)",
            &[&id, &scope.session, &scope.reply, &value.json, &value.network],
        )
        .await
        .map_err(|e| db(&e))?;
    tx.commit().await.map_err(|e| db(&e))?;
    Ok(id)
}

/// Where `id` is: live in `scope` (with its value), or why not.
async fn find(client: &deadpool_postgres::Object, scope: &Scope, id: &str) -> Result<StoredValue, ResultsError> {
    if id.trim().is_empty() {
        return Err(ResultsError::BadId);
    }
    let row = client
        .cached()
        .query_opt("SELECT session, reply, json, network FROM codemode_results WHERE id = $1", &[&id])
        .await
        .map_err(|e| db(&e))?;
    let Some(row) = row else { return Err(ResultsError::Unavailable) };
    let json: Option<String> = row.get(2);
    let Some(json) = json else { return Err(ResultsError::Deleted(id.to_owned())) };
    if row.get::<_, &str>(0) != scope.session || row.get::<_, &str>(1) != scope.reply {
        return Err(ResultsError::OtherScope);
    }
    Ok(StoredValue { json, network: row.get(3) })
}

/// A saved value of the reply.
async fn load(pg: &Pg, scope: &Scope, id: &str) -> Result<StoredValue, ResultsError> {
    find(&client(pg).await?, scope, id).await
}

/// Deletes a saved value, freeing its capacity; leaves a tombstone.
async fn delete(pg: &Pg, scope: &Scope, id: &str) -> Result<bool, ResultsError> {
    let client = client(pg).await?;
    find(&client, scope, id).await?;
    let changed = client
        .cached()
        .execute("UPDATE codemode_results SET json = NULL WHERE id = $1 AND json IS NOT NULL", &[&id])
        .await
        .map_err(|e| db(&e))?;
    if changed == 0 {
        // Deleted by another process between the two statements.
        return Err(ResultsError::Deleted(id.to_owned()));
    }
    client
        .cached()
        .execute(
            "DELETE FROM codemode_results WHERE id IN (
                 SELECT id FROM codemode_results WHERE session = $1 AND reply = $2 AND json IS NULL
                 ORDER BY seq DESC OFFSET $3)",
            &[&scope.session, &scope.reply, &TOMBSTONES],
        )
        .await
        .map_err(|e| db(&e))?;
    Ok(true)
}

/// Deletes every result of the reply, tombstones included.
async fn end_reply(pg: &Pg, scope: &Scope) -> Result<(), ResultsError> {
    client(pg)
        .await?
        .execute("DELETE FROM codemode_results WHERE session = $1 AND reply = $2", &[&scope.session, &scope.reply])
        .await
        .map_err(|e| db(&e))?;
    Ok(())
}

/// How many stale results one statement of [`delete_older_than`] deletes,
/// so none holds locks for long.
const STALE_BATCH: i64 = 1024;

/// Deletes the saved results older than `retention_s` seconds, by the
/// server's clock (which stamped them): those of replies that never ended
/// because their process died. The session store's retention sweep calls
/// it, so no reply outlives its session's retention.
///
/// # Errors
/// A statement failed.
pub(crate) async fn delete_older_than(
    client: &deadpool_postgres::Object,
    retention_s: u64,
) -> Result<(), tokio_postgres::Error> {
    loop {
        let deleted = client
            .cached()
            .execute(
                "DELETE FROM codemode_results WHERE id IN (
                     SELECT id FROM codemode_results WHERE saved_s < extract(epoch FROM now())::bigint - $1
                     LIMIT $2)",
                &[&big(retention_s), &STALE_BATCH],
            )
            .await?;
        if deleted < u64::try_from(STALE_BATCH).unwrap_or(0) {
            return Ok(());
        }
        tokio::task::yield_now().await;
    }
}

/// The PostgreSQL backend of a [`ResultsCache`](super::ResultsCache):
/// results are rows of the shared database, so a reply's results are
/// visible to every process on it (a run resumed elsewhere still finds
/// them); no actor.
#[derive(Clone, Debug)]
pub(super) struct PgResults {
    pg: Pg,
    limits: ResultsLimits,
    stats: Arc<ResultsStats>,
}

impl PgResults {
    pub(super) fn new(pg: Pg, limits: ResultsLimits, stats: Arc<ResultsStats>) -> Self {
        Self { pg, limits, stats }
    }
}

impl ResultsBackend for PgResults {
    fn save(&self, scope: Scope, value: StoredValue) -> ResultsFuture<'_, String> {
        Box::pin(async move {
            let id = save(&self.pg, &self.limits, &scope, &value).await?;
            self.stats.saved(value.json.len());
            Ok(id)
        })
    }

    fn load(&self, scope: Scope, id: String) -> ResultsFuture<'_, StoredValue> {
        Box::pin(async move { load(&self.pg, &scope, &id).await })
    }

    fn delete(&self, scope: Scope, id: String) -> ResultsFuture<'_, bool> {
        Box::pin(async move { delete(&self.pg, &scope, &id).await })
    }

    fn end_reply(&self, scope: Scope) {
        let pg = self.pg.clone();
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if let Err(e) = end_reply(&pg, &scope).await {
                        tracing::warn!(error = %e, "results cache: a reply's results could not be deleted");
                    }
                });
            }
            Err(_) => tracing::warn!("results cache: a reply ended outside a tokio runtime; its results were kept"),
        }
    }

    fn end_reply_wait(&self, scope: Scope) -> ResultsFuture<'_, ()> {
        Box::pin(async move { end_reply(&self.pg, &scope).await })
    }

    fn reopen_reply(&self, _: Scope) {
        // No memory of ended replies to forget: a late save's row is
        // deleted by the retention sweep.
    }

    fn start(&self, _: Option<ActorCell>) -> ResultsFuture<'_, ()> {
        // Nothing to run: every request is a statement.
        Box::pin(async { Ok(()) })
    }

    fn has_actor(&self) -> bool {
        false
    }

    #[cfg(feature = "test-hooks")]
    fn crash_for_test(&self) -> bool {
        false
    }
}
