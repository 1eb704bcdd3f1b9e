//! Run journals and leases on PostgreSQL ([`PgRuns`]): many codemode
//! processes share one database, and any of them can resume a run another
//! parked or lost.
//!
//! Every write commits synchronously, whatever `[runs] durability` says:
//! the database is a process of its own, and an acknowledged park must
//! survive it crashing (`synchronous_commit = off` loses the last fraction
//! of a second of acknowledged writes to a database crash, and with them
//! parks that were answered `waiting`).
//!
//! Every lease change is a compare-and-set `UPDATE` of the run's row: the
//! row lock orders concurrent claims, and the loser re-reads the winner's
//! row and matches nothing, so exactly one process holds a run. A run's end
//! and its store writes are one transaction (the session's commit runs
//! inside it: `sessions/postgres.rs`, `commit_in`).
//!
//! Every change a waiter cares about (all but a create and a renew) sends
//! `NOTIFY codemode_runs` with the run id as payload, in the same statement
//! or transaction as the change (so it is delivered exactly when the change
//! is visible). Each `PgRuns`
//! keeps one dedicated connection that `LISTEN`s and wakes the local
//! waiters of [`RunStore::changed`] — no polling. When that connection
//! drops it is re-established, and every waiter is woken (changes in the
//! gap were not seen); waiters re-read the run either way (`waiters.rs`).

mod rows;
#[cfg(test)]
mod tests;
mod waiters;

use std::sync::Arc;
use std::time::Duration;

use codemode_protocol::RunEnd;

use self::rows::{COLUMNS, RETURNED, WITHOUT_JOURNAL, backend, record, status, store_error, summary};
use self::waiters::Waiters;
use crate::postgres::listen::{Heard, Listener};
use crate::postgres::{Cache, Pg, big, pool_reason, unbig};
use crate::runs::store::{RunFuture, RunStore};
use crate::runs::types::{
    Claim, MAX_LIST_RUNS, RunFilter, RunMeta, RunRecord, RunStatus, RunStoreError, RunSummary, RunUsage, RunWrites,
    TakenHook, now_ms,
};
use crate::sessions::SessionStore;
use crate::sessions::backend::Settings;
use crate::sessions::postgres::{Touch, commit_in};

/// The notification channel (channels are per database, so every process
/// on the database shares it).
const CHANNEL: &str = "codemode_runs";

/// `prune` deletes in batches of this many rows, so no statement holds
/// locks long.
const PRUNE_BATCH: i64 = 1000;

/// The payload prefix of a notification that a run was taken:
/// `taken <run id> <owner>`, sent beside the run id's own notification.
/// Builds that do not know it read it as a run id no one waits on.
const TAKEN: &str = "taken ";

/// The `application_name` of the `LISTEN` connection.
pub(crate) const LISTENER_NAME: &str = "codemode-runs-listener";

/// Tells [`PgRuns`] the time in milliseconds since the Unix epoch.
pub type MsClock = Arc<dyn Fn() -> u64 + Send + Sync>;

/// Run journals and leases on PostgreSQL (see the module docs).
pub struct PgRuns {
    pg: Pg,
    /// The sessions a run's end commits to: their limits and retention.
    sessions: Settings,
    clock: MsClock,
    waiters: Arc<Waiters>,
    /// Who hears of runs taken ([`RunStore::on_taken`]).
    taken: Arc<std::sync::OnceLock<TakenHook>>,
    /// The `LISTEN` connection; closed on drop.
    _listener: Listener,
}

impl std::fmt::Debug for PgRuns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgRuns").field("pg", &self.pg).finish_non_exhaustive()
    }
}

impl PgRuns {
    /// The runs of the PostgreSQL database `sessions` lives in; a run's
    /// end commits its writes to `sessions` with its limits and retention.
    /// Opens the dedicated `LISTEN` connection before returning, so a
    /// [`changed`](RunStore::changed) call made after this sees every
    /// later change.
    ///
    /// # Errors
    /// [`RunStoreError::Backend`] when `sessions` is not on PostgreSQL or
    /// the listening connection cannot be made.
    pub async fn start(sessions: &SessionStore) -> Result<Self, RunStoreError> {
        let (pg, settings) = sessions
            .postgres_parts()
            .ok_or_else(|| RunStoreError::Backend("PgRuns needs a session store on PostgreSQL".into()))?;
        let (pg, settings) = (pg.clone(), settings.clone());
        let waiters = Arc::new(Waiters::default());
        let heard = Arc::clone(&waiters);
        let taken: Arc<std::sync::OnceLock<TakenHook>> = Arc::default();
        let hook = Arc::clone(&taken);
        // A gap wakes every waiter: changes in it went unseen.
        let on = Arc::new(move |h: Heard<'_>| match h {
            Heard::Payload(payload) => match payload.strip_prefix(TAKEN).and_then(|t| t.split_once(' ')) {
                Some((run_id, owner)) => {
                    if let Some(hook) = hook.get() {
                        hook(run_id, owner);
                    }
                }
                None => heard.wake(payload),
            },
            Heard::Gap => heard.wake_all(),
        });
        let listener = Listener::start(&pg, CHANNEL, LISTENER_NAME, "run store", on)
            .await
            .map_err(|e| RunStoreError::Backend(format!("cannot listen for run changes on {}: {e}", pg.shown)))?;
        Ok(Self { pg, sessions: settings, clock: Arc::new(now_ms), waiters, taken, _listener: listener })
    }

    /// Measures leases and timestamps with `clock` (default the system
    /// clock); for tests that move time.
    #[must_use]
    pub fn with_clock(mut self, clock: MsClock) -> Self {
        self.clock = clock;
        self
    }

    /// How many `changed` calls of this process are waiting (tests).
    #[cfg(test)]
    pub(crate) fn waiter_count(&self) -> usize {
        self.waiters.total()
    }

    fn now(&self) -> u64 {
        (self.clock)()
    }

    fn until(&self, lease: Duration) -> i64 {
        big(self.now().saturating_add(u64::try_from(lease.as_millis()).unwrap_or(u64::MAX)))
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, RunStoreError> {
        self.pg.pool.get().await.map_err(|e| RunStoreError::Backend(pool_reason(&e)))
    }

    /// Why a write guarded by the lease (and, for an append, the version
    /// it continues) matched no row: no such run, the caller does not hold
    /// its lease, or the journal is at another version than it continues.
    async fn refused(&self, client: &deadpool_postgres::Object, run_id: &str, owner: &str) -> RunStoreError {
        let held = client
            .cached()
            .query_opt(
                "SELECT version, owner = $2 AND lease_until_ms > $3 AND status IN ('running', 'parked')
                 FROM codemode_runs WHERE run_id = $1",
                &[&run_id, &owner, &big(self.now())],
            )
            .await;
        match held {
            Ok(Some(row)) if row.get::<_, Option<bool>>(1) == Some(true) => {
                RunStoreError::Stale { run_id: run_id.to_owned(), stored: unbig(row.get(0)) }
            }
            Ok(Some(_)) => RunStoreError::LeaseLost { run_id: run_id.to_owned() },
            Ok(None) => RunStoreError::Missing { run_id: run_id.to_owned() },
            Err(e) => backend(&e),
        }
    }

    async fn do_create(&self, meta: RunMeta, owner: String, lease: Duration) -> Result<(), RunStoreError> {
        let client = self.client().await?;
        let now = big(self.now());
        // No NOTIFY: nobody waits on a run before it exists, and a late
        // notification of the create would wake the creator's first wait.
        let sql = "WITH i AS (INSERT INTO codemode_runs
                 (run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms, updated_ms)
             VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $9)
             ON CONFLICT (run_id) DO NOTHING RETURNING run_id)
             SELECT run_id FROM i";
        let rows = client
            .cached()
            .query(
                sql,
                &[
                    &meta.run_id,
                    &meta.session,
                    &meta.reply,
                    &meta.principal,
                    &meta.title,
                    &big(meta.created_ms),
                    &owner,
                    &self.until(lease),
                    &now,
                ],
            )
            .await
            .map_err(|e| backend(&e))?;
        if rows.is_empty() {
            return Err(RunStoreError::Exists { run_id: meta.run_id });
        }
        Ok(())
    }

    /// Writes run `run_id`'s journal: replaces it (`append_after` `None`)
    /// or adds `journal` as its next chunk to the journal at that version,
    /// with the status and lease, if `owner` holds the lease; one statement
    /// (its own transaction).
    async fn do_save(
        &self,
        run_id: String,
        owner: String,
        status: RunStatus,
        journal: Vec<u8>,
        lease: Option<Duration>,
        append_after: Option<u64>,
    ) -> Result<u64, RunStoreError> {
        if !status.is_live() {
            return Err(RunStoreError::Backend(format!(
                "save can only store a running or parked run; end run {run_id} with `end`"
            )));
        }
        let client = self.client().await?;
        let now = big(self.now());
        let (keep, until) = match lease {
            Some(lease) => (true, self.until(lease)),
            None => (false, 0),
        };
        // $9 is the version an append continues (-1, matching none, for a
        // replace, which does not read it).
        let guard = "WHERE run_id = $1 AND owner = $2 AND lease_until_ms > $7 AND status IN ('running', 'parked')";
        let continues = "AND version = $9";
        let common = "status = $4, version = version + 1, owner = CASE WHEN $5 THEN owner ELSE NULL END, \
                      lease_until_ms = $6, updated_ms = $7";
        let sql = match (append_after.is_some(), journal.is_empty()) {
            // Nothing to add: the status and lease change alone.
            (true, true) => format!(
                "WITH u AS (UPDATE codemode_runs SET {common} {guard} {continues} AND $3::bytea IS NOT NULL
                     RETURNING run_id, version)
                 SELECT version, pg_notify($8, run_id)::text FROM u"
            ),
            (true, false) => format!(
                "WITH u AS (UPDATE codemode_runs SET {common}, journal_chunks = journal_chunks + 1,
                     journal_chunk_bytes = journal_chunk_bytes + octet_length($3::bytea)
                     {guard} {continues} RETURNING run_id, version, journal_chunks),
                 c AS (INSERT INTO codemode_run_chunks (run_id, seq, bytes) SELECT run_id, journal_chunks - 1, $3 FROM u)
                 SELECT version, pg_notify($8, run_id)::text FROM u"
            ),
            (false, _) => format!(
                "WITH u AS (UPDATE codemode_runs SET {common}, journal = $3, journal_chunks = 0, journal_chunk_bytes = 0
                     {guard} AND $9::bigint IS NOT NULL RETURNING run_id, version),
                 d AS (DELETE FROM codemode_run_chunks WHERE run_id IN (SELECT run_id FROM u))
                 SELECT version, pg_notify($8, run_id)::text FROM u"
            ),
        };
        let after = append_after.map_or(-1, big);
        let row = client
            .cached()
            .query_opt(&sql, &[&run_id, &owner, &journal, &status.as_str(), &keep, &until, &now, &CHANNEL, &after])
            .await
            .map_err(|e| backend(&e))?;
        match row {
            Some(row) => Ok(unbig(row.get(0))),
            None => Err(self.refused(&client, &run_id, &owner).await),
        }
    }

    async fn do_claim(
        &self,
        run_id: String,
        owner: String,
        lease: Duration,
        journal: bool,
    ) -> Result<Claim, RunStoreError> {
        let columns = if journal { COLUMNS } else { WITHOUT_JOURNAL };
        let client = self.client().await?;
        // A lease released between the failed claim and the re-read is
        // claimed on the next round; three rounds lost that way is contention
        // worth reporting rather than spinning on.
        for _ in 0..3 {
            let now = big(self.now());
            let row = client
                .cached()
                .query_opt(
                    &format!(
                        "WITH u AS (
                             UPDATE codemode_runs SET owner = $2, lease_until_ms = $3
                             WHERE run_id = $1 AND status IN ('running', 'parked')
                               AND (owner IS NULL OR owner = $2 OR lease_until_ms <= $4)
                             RETURNING {columns})
                         SELECT {RETURNED}, pg_notify($5, run_id)::text,
                             pg_notify($5, '{TAKEN}' || run_id || ' ' || $2)::text FROM u"
                    ),
                    &[&run_id, &owner, &self.until(lease), &now, &CHANNEL],
                )
                .await
                .map_err(|e| backend(&e))?;
            if let Some(row) = row {
                return Ok(Claim::Claimed(record(&row)?));
            }
            let row = client
                .cached()
                .query_opt("SELECT status, owner, lease_until_ms FROM codemode_runs WHERE run_id = $1", &[&run_id])
                .await
                .map_err(|e| backend(&e))?;
            let Some(row) = row else { return Ok(Claim::Missing) };
            if let RunStatus::Ended(end) = status(&run_id, row.try_get(0).map_err(|e| backend(&e))?)? {
                return Ok(Claim::Ended(end));
            }
            let holder: Option<String> = row.get(1);
            let until: i64 = row.get(2);
            if let Some(holder) = holder
                && until > big(self.now())
            {
                return Ok(Claim::Held { owner: holder, until_ms: unbig(until) });
            }
        }
        Err(RunStoreError::Backend(format!("run {run_id}: the lease changed hands too often to claim; retry")))
    }

    async fn do_renew(&self, run_id: String, owner: String, lease: Duration) -> Result<(), RunStoreError> {
        let client = self.client().await?;
        // No NOTIFY: a longer lease changes nothing a waiter acts on, and
        // renewals are frequent.
        let changed = client
            .cached()
            .execute(
                "UPDATE codemode_runs SET lease_until_ms = $3
                 WHERE run_id = $1 AND owner = $2 AND lease_until_ms > $4 AND status IN ('running', 'parked')",
                &[&run_id, &owner, &self.until(lease), &big(self.now())],
            )
            .await
            .map_err(|e| backend(&e))?;
        if changed == 0 {
            return Err(self.refused(&client, &run_id, &owner).await);
        }
        Ok(())
    }

    async fn do_release(&self, run_id: String, owner: String) -> Result<(), RunStoreError> {
        let client = self.client().await?;
        client
            .cached()
            .query(
                "WITH u AS (
                     UPDATE codemode_runs SET owner = NULL, lease_until_ms = 0
                     WHERE run_id = $1 AND owner = $2 RETURNING run_id)
                 SELECT pg_notify($3, run_id)::text FROM u",
                &[&run_id, &owner, &CHANNEL],
            )
            .await
            .map_err(|e| backend(&e))?;
        Ok(())
    }

    async fn do_end(
        &self,
        run_id: String,
        owner: String,
        end: RunEnd,
        writes: RunWrites,
        kept: Vec<u8>,
    ) -> Result<(), RunStoreError> {
        if writes.is_empty() {
            return self.end_alone(run_id, owner, end, kept).await;
        }
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(|e| backend(&e))?;
        // Locks the run: a concurrent claim waits, then sees it ended.
        let row = tx
            .cached()
            .query_opt(
                "SELECT session, status, owner, lease_until_ms FROM codemode_runs WHERE run_id = $1 FOR UPDATE",
                &[&run_id],
            )
            .await
            .map_err(|e| backend(&e))?;
        let Some(row) = row else { return Err(RunStoreError::Missing { run_id }) };
        let now = big(self.now());
        let live = matches!(row.get::<_, &str>(1), "running" | "parked");
        let held = row.get::<_, Option<&str>>(2) == Some(owner.as_str()) && row.get::<_, i64>(3) > now;
        if !(live && held) {
            return Err(RunStoreError::LeaseLost { run_id });
        }
        let session: String = row.get(0);
        commit_in(&tx, &session, &writes, &self.sessions.limits, Touch::now(&self.sessions))
            .await
            .map_err(store_error)?;
        tx.cached()
            .execute(
                "UPDATE codemode_runs SET status = $2, owner = NULL, lease_until_ms = 0, journal = $4,
                 journal_chunks = 0, journal_chunk_bytes = 0, version = version + 1, updated_ms = $3
             WHERE run_id = $1",
                &[&run_id, &end.label(), &now, &kept],
            )
            .await
            .map_err(|e| backend(&e))?;
        tx.cached()
            .execute("DELETE FROM codemode_run_chunks WHERE run_id = $1", &[&run_id])
            .await
            .map_err(|e| backend(&e))?;
        tx.cached().execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &run_id]).await.map_err(|e| backend(&e))?;
        tx.commit().await.map_err(|e| backend(&e))
    }

    /// [`do_end`](Self::do_end) of a run with no store writes: one
    /// statement, one round trip (a completion waits for it before it is
    /// reported). The guarded update locks the row as the transaction's
    /// `FOR UPDATE` does, so a racing claim sees the run ended. With no
    /// store writes to lose, it is as durable as a journal write.
    async fn end_alone(&self, run_id: String, owner: String, end: RunEnd, kept: Vec<u8>) -> Result<(), RunStoreError> {
        let client = self.client().await?;
        let sql = "WITH u AS (UPDATE codemode_runs SET status = $3, owner = NULL, lease_until_ms = 0, journal = $4,
                 journal_chunks = 0, journal_chunk_bytes = 0, version = version + 1, updated_ms = $5
                 WHERE run_id = $1 AND owner = $2 AND lease_until_ms > $5 AND status IN ('running', 'parked')
                 RETURNING run_id),
             d AS (DELETE FROM codemode_run_chunks WHERE run_id IN (SELECT run_id FROM u))
             SELECT pg_notify($6, run_id)::text FROM u";
        let row = client
            .cached()
            .query_opt(sql, &[&run_id, &owner, &end.label(), &kept, &big(self.now()), &CHANNEL])
            .await
            .map_err(|e| backend(&e))?;
        match row {
            Some(_) => Ok(()),
            None => Err(self.refused(&client, &run_id, &owner).await),
        }
    }

    async fn do_get(&self, run_id: String) -> Result<Option<RunRecord>, RunStoreError> {
        let client = self.client().await?;
        let row = client
            .cached()
            .query_opt(&format!("SELECT {COLUMNS} FROM codemode_runs WHERE run_id = $1"), &[&run_id])
            .await
            .map_err(|e| backend(&e))?;
        row.map(|r| record(&r)).transpose()
    }

    async fn do_get_many(&self, run_ids: Vec<String>) -> Result<Vec<RunRecord>, RunStoreError> {
        if run_ids.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.client().await?;
        let rows = client
            .cached()
            .query(&format!("SELECT {COLUMNS} FROM codemode_runs WHERE run_id = ANY($1)"), &[&run_ids])
            .await
            .map_err(|e| backend(&e))?;
        rows.iter().map(record).collect()
    }

    async fn do_list(&self, filter: RunFilter) -> Result<Vec<RunSummary>, RunStoreError> {
        let client = self.client().await?;
        let limit = big(filter.limit.unwrap_or(MAX_LIST_RUNS).min(MAX_LIST_RUNS) as u64);
        let rows = client
            .cached()
            .query(
                "SELECT run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms,
                        octet_length(journal)::bigint + journal_chunk_bytes, updated_ms, abort_requested
                 FROM codemode_runs
                 WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR session = $2)
                   AND ($4::text IS NULL OR principal = $4)
                   AND ($5::bigint IS NULL OR (created_ms, run_id) < ($5, $6::text))
                 ORDER BY created_ms DESC, run_id DESC LIMIT $3",
                &[
                    &filter.status.as_ref().map(RunStatus::as_str),
                    &filter.session,
                    &limit,
                    &filter.principal,
                    &filter.before.as_ref().map(|(ms, _)| big(*ms)),
                    &filter.before.as_ref().map(|(_, id)| id.as_str()),
                ],
            )
            .await
            .map_err(|e| backend(&e))?;
        rows.iter().map(summary).collect()
    }

    async fn do_request_abort(&self, run_id: String) -> Result<Claim, RunStoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(|e| backend(&e))?;
        let row = tx
            .cached()
            .query_opt(
                "SELECT status, owner, lease_until_ms FROM codemode_runs WHERE run_id = $1 FOR UPDATE",
                &[&run_id],
            )
            .await
            .map_err(|e| backend(&e))?;
        let Some(row) = row else { return Ok(Claim::Missing) };
        if let RunStatus::Ended(end) = status(&run_id, row.try_get(0).map_err(|e| backend(&e))?)? {
            return Ok(Claim::Ended(end));
        }
        let now = big(self.now());
        let holder: Option<String> = row.get(1);
        let until: i64 = row.get(2);
        let answer = match holder {
            // Its owner sees the mark and ends the run itself.
            Some(owner) if until > now => {
                tx.cached()
                    .execute(
                        "UPDATE codemode_runs SET abort_requested = true, updated_ms = $2 WHERE run_id = $1",
                        &[&run_id, &now],
                    )
                    .await
                    .map_err(|e| backend(&e))?;
                Claim::Held { owner, until_ms: unbig(until) }
            }
            // Nobody would end it: parked and handed off, or its owner
            // died. Ended here, without store writes (an abort commits none).
            _ => {
                tx.cached()
                    .execute(
                        "UPDATE codemode_runs SET status = 'aborted', abort_requested = true, owner = NULL,
                         lease_until_ms = 0, journal = '\\x', journal_chunks = 0, journal_chunk_bytes = 0,
                         version = version + 1, updated_ms = $2
                     WHERE run_id = $1",
                        &[&run_id, &now],
                    )
                    .await
                    .map_err(|e| backend(&e))?;
                Claim::Ended(RunEnd::Aborted)
            }
        };
        tx.cached().execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &run_id]).await.map_err(|e| backend(&e))?;
        if let Claim::Ended(_) = answer {
            let taken = format!("{TAKEN}{run_id} ");
            tx.cached().execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &taken]).await.map_err(|e| backend(&e))?;
        }
        tx.commit().await.map_err(|e| backend(&e))?;
        Ok(answer)
    }

    async fn do_usage(
        &self,
        session: String,
        principal: Option<String>,
        limit: usize,
    ) -> Result<RunUsage, RunStoreError> {
        let client = self.client().await?;
        let limit = big(limit.min(MAX_LIST_RUNS * 100) as u64);
        let rows = |r: Vec<tokio_postgres::Row>| -> Result<Vec<(String, u64)>, RunStoreError> {
            r.iter()
                .map(|row| {
                    Ok((row.try_get(0).map_err(|e| backend(&e))?, unbig(row.try_get(1).map_err(|e| backend(&e))?)))
                })
                .collect()
        };
        let size = "octet_length(journal)::bigint + journal_chunk_bytes";
        let by_session = client
            .cached()
            .query(
                &format!(
                    "SELECT run_id, {size} FROM codemode_runs
                     WHERE session = $1 AND status IN ('running', 'parked') LIMIT $2"
                ),
                &[&session, &limit],
            )
            .await
            .map_err(|e| backend(&e))?;
        let by_principal = match &principal {
            None => Vec::new(),
            Some(p) => client
                .cached()
                .query(
                    &format!(
                        "SELECT run_id, {size} FROM codemode_runs
                         WHERE principal = $1 AND status IN ('running', 'parked') LIMIT $2"
                    ),
                    &[p, &limit],
                )
                .await
                .map_err(|e| backend(&e))?,
        };
        Ok(RunUsage { session: rows(by_session)?, principal: rows(by_principal)? })
    }

    async fn do_prune(&self, before_ms: u64, keep: usize) -> Result<u64, RunStoreError> {
        let client = self.client().await?;
        let keep = big(keep as u64);
        let mut total = 0;
        // Old ones first, then those past the newest `keep` (by last change).
        let (before, old, past): (i64, &str, &str) = (
            big(before_ms),
            "DELETE FROM codemode_runs WHERE run_id IN (
                 SELECT run_id FROM codemode_runs
                 WHERE status NOT IN ('running', 'parked') AND updated_ms < $1
                 LIMIT $2 FOR UPDATE SKIP LOCKED)",
            "DELETE FROM codemode_runs WHERE run_id IN (
                 SELECT run_id FROM codemode_runs WHERE status NOT IN ('running', 'parked')
                 ORDER BY updated_ms DESC OFFSET $1 LIMIT $2 FOR UPDATE SKIP LOCKED)",
        );
        for (sql, first) in [(old, &before), (past, &keep)] {
            loop {
                let deleted = client.cached().execute(sql, &[first, &PRUNE_BATCH]).await.map_err(|e| backend(&e))?;
                total += deleted;
                if deleted < unbig(PRUNE_BATCH) {
                    break;
                }
            }
        }
        Ok(total)
    }
}

impl RunStore for PgRuns {
    fn create(&self, meta: &RunMeta, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        Box::pin(self.do_create(meta.clone(), owner.to_owned(), lease))
    }

    fn save(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        journal: Vec<u8>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64> {
        Box::pin(self.do_save(run_id.to_owned(), owner.to_owned(), status, journal, lease, None))
    }

    fn append(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        chunk: Vec<u8>,
        lease: Option<Duration>,
        after: u64,
    ) -> RunFuture<'_, u64> {
        Box::pin(self.do_save(run_id.to_owned(), owner.to_owned(), status, chunk, lease, Some(after)))
    }

    fn claim(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim> {
        Box::pin(self.do_claim(run_id.to_owned(), owner.to_owned(), lease, true))
    }

    fn claim_lease(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim> {
        Box::pin(self.do_claim(run_id.to_owned(), owner.to_owned(), lease, false))
    }

    fn renew(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        Box::pin(self.do_renew(run_id.to_owned(), owner.to_owned(), lease))
    }

    fn release(&self, run_id: &str, owner: &str) -> RunFuture<'_, ()> {
        Box::pin(self.do_release(run_id.to_owned(), owner.to_owned()))
    }

    fn end(&self, run_id: &str, owner: &str, end: RunEnd, writes: RunWrites) -> RunFuture<'_, ()> {
        Box::pin(self.do_end(run_id.to_owned(), owner.to_owned(), end, writes, Vec::new()))
    }

    fn complete(&self, run_id: &str, owner: &str, writes: RunWrites, result: Vec<u8>) -> RunFuture<'_, ()> {
        Box::pin(self.do_end(run_id.to_owned(), owner.to_owned(), RunEnd::Completed, writes, result))
    }

    fn get(&self, run_id: &str) -> RunFuture<'_, Option<RunRecord>> {
        Box::pin(self.do_get(run_id.to_owned()))
    }

    fn get_many(&self, run_ids: &[String]) -> RunFuture<'_, Vec<RunRecord>> {
        Box::pin(self.do_get_many(run_ids.to_vec()))
    }

    fn list(&self, filter: RunFilter) -> RunFuture<'_, Vec<RunSummary>> {
        Box::pin(self.do_list(filter))
    }

    fn request_abort(&self, run_id: &str) -> RunFuture<'_, Claim> {
        Box::pin(self.do_request_abort(run_id.to_owned()))
    }

    /// Notifications arrive asynchronously, so a change committed just
    /// before this call can still wake it: callers re-read the run after
    /// waking, as they must after a timeout anyway.
    fn on_taken(&self, hook: TakenHook) {
        if self.taken.set(hook).is_err() {
            tracing::warn!("a second hook for taken runs was not installed: one runtime per run store");
        }
    }

    fn changed(&self, run_id: &str, timeout: Duration) -> RunFuture<'_, ()> {
        // Registered now, not at the first poll: a change between this call
        // and the caller awaiting still wakes it.
        let waiting = self.waiters.register(run_id);
        Box::pin(async move {
            let mut waiting = waiting?;
            let _ = tokio::time::timeout(timeout, waiting.notified.as_mut()).await;
            Ok(())
        })
    }

    fn prune(&self, before_ms: u64, keep: usize) -> RunFuture<'_, u64> {
        Box::pin(self.do_prune(before_ms, keep))
    }

    fn usage(&self, session: &str, principal: Option<&str>, limit: usize) -> RunFuture<'_, RunUsage> {
        Box::pin(self.do_usage(session.to_owned(), principal.map(str::to_owned), limit))
    }
}
