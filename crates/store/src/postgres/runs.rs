//! Run journals and leases on PostgreSQL ([`PgRuns`]): many codemode
//! processes share one database, and any of them can resume a run another
//! parked or lost.
//!
//! Every lease change is a compare-and-set `UPDATE` of the run's row: the
//! row lock orders concurrent claims, and the loser re-reads the winner's
//! row and matches nothing, so exactly one process holds a run. A run's end
//! and its store writes are one transaction (the session's commit runs
//! inside it, [`commit_in`](super::sessions::commit_in)).
//!
//! Every change a waiter cares about (all but a create and a renew) sends
//! `NOTIFY codemode_runs` with the run id as payload, in the same statement
//! or transaction as the change (so it is delivered exactly when the change
//! is visible). Each `PgRuns`
//! keeps one dedicated connection that `LISTEN`s and wakes the local
//! waiters of [`RunStore::changed`] — no polling. When that connection
//! drops it is re-established, and every waiter is woken (changes in the
//! gap were not seen); waiters re-read the run either way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

use super::listen::{Heard, Listener};
use super::{Cache, Pg, big, describe, unbig};
use crate::runs::{
    Claim, Durability, RunFilter, RunFuture, RunMeta, RunRecord, RunStatus, RunStore, RunStoreError, RunSummary,
    RunUsage, RunWrites,
};
use crate::session::{SessionStore, StoreError};

/// The notification channel (channels are per database, so every process
/// on the database shares it).
const CHANNEL: &str = "codemode_runs";

/// At most this many [`RunStore::changed`] calls wait at once per process;
/// more fail rather than grow the waiter map without bound.
const MAX_WAITERS: usize = 65_536;

/// The most runs [`RunStore::list`] returns.
const MAX_LIST: usize = 1000;

/// `prune` deletes in batches of this many rows, so no statement holds
/// locks long.
const PRUNE_BATCH: i64 = 1000;

/// The `application_name` of the `LISTEN` connection.
pub(crate) const LISTENER_NAME: &str = "codemode-runs-listener";

/// Tells [`PgRuns`] the time in milliseconds since the Unix epoch.
pub type MsClock = Arc<dyn Fn() -> u64 + Send + Sync>;

/// The columns of a [`RunRecord`], in [`record`]'s order, as a query of
/// `codemode_runs` computes them: the journal is the stored bytes followed
/// by the appended chunks.
const COLUMNS: &str = "run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms, \
     journal || coalesce((SELECT string_agg(c.bytes, ''::bytea ORDER BY c.seq) FROM codemode_run_chunks c \
     WHERE c.run_id = codemode_runs.run_id), ''::bytea) AS journal, version, abort_requested, updated_ms";

/// The same columns read from a CTE that returned [`COLUMNS`].
const RETURNED: &str = "run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms, journal, version, abort_requested, updated_ms";

/// Run journals and leases on PostgreSQL (see the module docs).
pub struct PgRuns {
    pg: Pg,
    /// How journal writes commit (see [`Durability`]).
    durability: Durability,
    /// The sessions a run's end commits to: their limits and retention.
    sessions: SessionStore,
    clock: MsClock,
    waiters: Arc<Waiters>,
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
        let pg = sessions
            .pg()
            .cloned()
            .ok_or_else(|| RunStoreError::Backend("PgRuns needs a session store on PostgreSQL".into()))?;
        let waiters = Arc::new(Waiters::default());
        let heard = Arc::clone(&waiters);
        // A gap wakes every waiter: changes in it went unseen.
        let on = Arc::new(move |h: Heard<'_>| match h {
            Heard::Payload(run_id) => heard.wake(run_id),
            Heard::Gap => heard.wake_all(),
        });
        let listener = Listener::start(&pg, CHANNEL, LISTENER_NAME, "run store", on)
            .await
            .map_err(|e| RunStoreError::Backend(format!("cannot listen for run changes on {}: {e}", pg.shown)))?;
        Ok(Self {
            pg,
            durability: Durability::Machine,
            sessions: sessions.clone_without_sweeper(),
            clock: Arc::new(crate::runs::now_ms),
            waiters,
            _listener: listener,
        })
    }

    /// Commits journal writes (and ends without store writes)
    /// `durability`-durably: `Process` commits them with
    /// `synchronous_commit = off`, so a write is acknowledged once the
    /// server has it, before its WAL reaches the disk (a server restart
    /// keeps it; a server crash or power loss may lose the last moments).
    #[must_use]
    pub fn with_durability(mut self, durability: Durability) -> Self {
        self.durability = durability;
        self
    }

    /// The statement part that makes this statement's commit asynchronous
    /// with `Durability::Process` (a one-row CTE joined into the final
    /// `SELECT`: `set_config(..., true)` lasts to the end of the statement's
    /// own transaction, whose commit reads it).
    fn async_commit(&self) -> &'static str {
        match self.durability {
            Durability::Process => ", s AS (SELECT set_config('synchronous_commit', 'off', true))",
            Durability::Machine => ", s AS (SELECT 1)",
        }
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
        self.waiters.lock().total
    }

    fn now(&self) -> u64 {
        (self.clock)()
    }

    fn until(&self, lease: Duration) -> i64 {
        big(self.now().saturating_add(u64::try_from(lease.as_millis()).unwrap_or(u64::MAX)))
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, RunStoreError> {
        self.pg.pool.get().await.map_err(|e| RunStoreError::Backend(super::pool_reason(&e)))
    }

    /// Why a write guarded by the lease matched no row: no such run, or
    /// the caller does not hold its lease.
    async fn refused(&self, client: &deadpool_postgres::Object, run_id: &str) -> RunStoreError {
        match client.cached().query_opt("SELECT 1 FROM codemode_runs WHERE run_id = $1", &[&run_id]).await {
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
        let sql = format!(
            "WITH i AS (INSERT INTO codemode_runs
                 (run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms, updated_ms)
             VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $9)
             ON CONFLICT (run_id) DO NOTHING RETURNING run_id){}
             SELECT run_id FROM i, s",
            self.async_commit()
        );
        let rows = client
            .cached()
            .query(
                &sql,
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
            return Err(RunStoreError::Backend(format!("run {} already exists", meta.run_id)));
        }
        Ok(())
    }

    /// Writes run `run_id`'s journal: replaces it (`append` false) or adds
    /// `journal` as its next chunk, with the status and lease, if `owner`
    /// holds the lease; one statement (its own transaction).
    async fn do_save(
        &self,
        run_id: String,
        owner: String,
        status: RunStatus,
        journal: Vec<u8>,
        lease: Option<Duration>,
        append: bool,
    ) -> Result<u64, RunStoreError> {
        if matches!(status, RunStatus::Ended(_)) {
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
        let guard = "WHERE run_id = $1 AND owner = $2 AND lease_until_ms > $7 AND status IN ('running', 'parked')";
        let common = "status = $4, version = version + 1, owner = CASE WHEN $5 THEN owner ELSE NULL END, \
                      lease_until_ms = $6, updated_ms = $7";
        let s = self.async_commit();
        let sql = match (append, journal.is_empty()) {
            // Nothing to add: the status and lease change alone.
            (true, true) => format!(
                "WITH u AS (UPDATE codemode_runs SET {common} {guard} AND $3::bytea IS NOT NULL RETURNING run_id, version){s}
                 SELECT version, pg_notify($8, run_id)::text FROM u, s"
            ),
            (true, false) => format!(
                "WITH u AS (UPDATE codemode_runs SET {common}, journal_chunks = journal_chunks + 1,
                     journal_chunk_bytes = journal_chunk_bytes + octet_length($3::bytea)
                     {guard} RETURNING run_id, version, journal_chunks),
                 c AS (INSERT INTO codemode_run_chunks (run_id, seq, bytes) SELECT run_id, journal_chunks - 1, $3 FROM u){s}
                 SELECT version, pg_notify($8, run_id)::text FROM u, s"
            ),
            (false, _) => format!(
                "WITH u AS (UPDATE codemode_runs SET {common}, journal = $3, journal_chunks = 0, journal_chunk_bytes = 0
                     {guard} RETURNING run_id, version),
                 d AS (DELETE FROM codemode_run_chunks WHERE run_id IN (SELECT run_id FROM u)){s}
                 SELECT version, pg_notify($8, run_id)::text FROM u, s"
            ),
        };
        let row = client
            .cached()
            .query_opt(&sql, &[&run_id, &owner, &journal, &status.as_str(), &keep, &until, &now, &CHANNEL])
            .await
            .map_err(|e| backend(&e))?;
        match row {
            Some(row) => Ok(unbig(row.get(0))),
            None => Err(self.refused(&client, &run_id).await),
        }
    }

    async fn do_claim(&self, run_id: String, owner: String, lease: Duration) -> Result<Claim, RunStoreError> {
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
                             UPDATE codemode_runs SET owner = $2, lease_until_ms = $3, updated_ms = $4
                             WHERE run_id = $1 AND status IN ('running', 'parked')
                               AND (owner IS NULL OR owner = $2 OR lease_until_ms <= $4)
                             RETURNING {COLUMNS})
                         SELECT {RETURNED}, pg_notify($5, run_id)::text FROM u"
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
            let status = RunStatus::parse(row.get(0));
            if let RunStatus::Ended(label) = status {
                return Ok(Claim::Ended(label));
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
            return Err(self.refused(&client, &run_id).await);
        }
        Ok(())
    }

    async fn do_release(&self, run_id: String, owner: String) -> Result<(), RunStoreError> {
        let client = self.client().await?;
        client
            .cached()
            .query(
                "WITH u AS (
                     UPDATE codemode_runs SET owner = NULL, lease_until_ms = 0, updated_ms = $3
                     WHERE run_id = $1 AND owner = $2 RETURNING run_id)
                 SELECT pg_notify($4, run_id)::text FROM u",
                &[&run_id, &owner, &big(self.now()), &CHANNEL],
            )
            .await
            .map_err(|e| backend(&e))?;
        Ok(())
    }

    async fn do_end(&self, run_id: String, owner: String, end: String, writes: RunWrites) -> Result<(), RunStoreError> {
        if end.is_empty() || end == "running" || end == "parked" {
            return Err(RunStoreError::Backend(format!("`{end}` is not an end state of run {run_id}")));
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
        super::sessions::commit_in(&tx, &session, &writes, self.sessions.limits(), self.sessions.touch())
            .await
            .map_err(store_error)?;
        tx.cached()
            .execute(
                "UPDATE codemode_runs SET status = $2, owner = NULL, lease_until_ms = 0, journal = '\\x',
                 journal_chunks = 0, journal_chunk_bytes = 0, version = version + 1, updated_ms = $3
             WHERE run_id = $1",
                &[&run_id, &end, &now],
            )
            .await
            .map_err(|e| backend(&e))?;
        tx.cached()
            .execute("DELETE FROM codemode_run_chunks WHERE run_id = $1", &[&run_id])
            .await
            .map_err(|e| backend(&e))?;
        tx.cached().execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &run_id]).await.map_err(|e| backend(&e))?;
        if writes.is_empty() && self.durability == Durability::Process {
            // No store writes to lose: as durable as a journal write.
            tx.cached()
                .execute("SELECT set_config('synchronous_commit', 'off', true)", &[])
                .await
                .map_err(|e| backend(&e))?;
        }
        tx.commit().await.map_err(|e| backend(&e))
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

    async fn do_list(&self, filter: RunFilter) -> Result<Vec<RunSummary>, RunStoreError> {
        let client = self.client().await?;
        let limit = big(filter.limit.unwrap_or(MAX_LIST).min(MAX_LIST) as u64);
        let rows = client
            .cached()
            .query(
                "SELECT run_id, session, reply, principal, title, created_ms, status, owner, lease_until_ms,
                        octet_length(journal)::bigint + journal_chunk_bytes, updated_ms, abort_requested
                 FROM codemode_runs
                 WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR session = $2)
                 ORDER BY created_ms DESC, run_id DESC LIMIT $3",
                &[&filter.status, &filter.session, &limit],
            )
            .await
            .map_err(|e| backend(&e))?;
        rows.iter()
            .map(|r| {
                Ok(RunSummary {
                    meta: meta(r)?,
                    status: RunStatus::parse(r.try_get(6).map_err(|e| backend(&e))?),
                    owner: r.try_get(7).map_err(|e| backend(&e))?,
                    lease_until_ms: unbig(r.try_get(8).map_err(|e| backend(&e))?),
                    journal_bytes: unbig(r.try_get(9).map_err(|e| backend(&e))?),
                    updated_ms: unbig(r.try_get(10).map_err(|e| backend(&e))?),
                    abort_requested: r.try_get(11).map_err(|e| backend(&e))?,
                })
            })
            .collect()
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
        if let RunStatus::Ended(label) = RunStatus::parse(row.get(0)) {
            return Ok(Claim::Ended(label));
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
                Claim::Ended("aborted".to_owned())
            }
        };
        tx.cached().execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &run_id]).await.map_err(|e| backend(&e))?;
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
        let limit = big(limit.min(MAX_LIST * 100) as u64);
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

    async fn do_prune(&self, before_ms: u64) -> Result<u64, RunStoreError> {
        let client = self.client().await?;
        let mut total = 0;
        loop {
            let deleted = client
                .cached()
                .execute(
                    "DELETE FROM codemode_runs WHERE run_id IN (
                         SELECT run_id FROM codemode_runs
                         WHERE status NOT IN ('running', 'parked') AND updated_ms < $1
                         LIMIT $2 FOR UPDATE SKIP LOCKED)",
                    &[&big(before_ms), &PRUNE_BATCH],
                )
                .await
                .map_err(|e| backend(&e))?;
            total += deleted;
            if deleted < unbig(PRUNE_BATCH) {
                return Ok(total);
            }
        }
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
        Box::pin(self.do_save(run_id.to_owned(), owner.to_owned(), status, journal, lease, false))
    }

    fn append(
        &self,
        run_id: &str,
        owner: &str,
        status: RunStatus,
        chunk: Vec<u8>,
        lease: Option<Duration>,
    ) -> RunFuture<'_, u64> {
        Box::pin(self.do_save(run_id.to_owned(), owner.to_owned(), status, chunk, lease, true))
    }

    fn claim(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, Claim> {
        Box::pin(self.do_claim(run_id.to_owned(), owner.to_owned(), lease))
    }

    fn renew(&self, run_id: &str, owner: &str, lease: Duration) -> RunFuture<'_, ()> {
        Box::pin(self.do_renew(run_id.to_owned(), owner.to_owned(), lease))
    }

    fn release(&self, run_id: &str, owner: &str) -> RunFuture<'_, ()> {
        Box::pin(self.do_release(run_id.to_owned(), owner.to_owned()))
    }

    fn end(&self, run_id: &str, owner: &str, end: &str, writes: RunWrites) -> RunFuture<'_, ()> {
        Box::pin(self.do_end(run_id.to_owned(), owner.to_owned(), end.to_owned(), writes))
    }

    fn get(&self, run_id: &str) -> RunFuture<'_, Option<RunRecord>> {
        Box::pin(self.do_get(run_id.to_owned()))
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

    fn prune(&self, before_ms: u64) -> RunFuture<'_, u64> {
        Box::pin(self.do_prune(before_ms))
    }

    fn usage(&self, session: &str, principal: Option<&str>, limit: usize) -> RunFuture<'_, RunUsage> {
        Box::pin(self.do_usage(session.to_owned(), principal.map(str::to_owned), limit))
    }
}

fn backend(e: &tokio_postgres::Error) -> RunStoreError {
    RunStoreError::Backend(describe(e))
}

/// A session commit's failure inside a run's end: limits stay typed store
/// errors, a failed statement is the backend's.
fn store_error(e: StoreError) -> RunStoreError {
    match e {
        StoreError::Database(reason) => RunStoreError::Backend(reason),
        other => RunStoreError::Store(other),
    }
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
fn record(r: &tokio_postgres::Row) -> Result<RunRecord, RunStoreError> {
    Ok(RunRecord {
        meta: meta(r)?,
        status: RunStatus::parse(r.try_get(6).map_err(|e| backend(&e))?),
        owner: r.try_get(7).map_err(|e| backend(&e))?,
        lease_until_ms: unbig(r.try_get(8).map_err(|e| backend(&e))?),
        journal: r.try_get(9).map_err(|e| backend(&e))?,
        version: unbig(r.try_get(10).map_err(|e| backend(&e))?),
        abort_requested: r.try_get(11).map_err(|e| backend(&e))?,
        updated_ms: unbig(r.try_get(12).map_err(|e| backend(&e))?),
    })
}

/// The local waiters of [`RunStore::changed`], by run id.
#[derive(Default)]
struct Waiters {
    map: Mutex<WaitMap>,
}

#[derive(Default)]
struct WaitMap {
    /// Per run: its wake-up and how many calls wait on it.
    runs: HashMap<String, (Arc<Notify>, usize)>,
    /// All waiting calls, kept so the bound is checked in O(1).
    total: usize,
}

/// One `changed` call's registration; unregisters on drop (also when the
/// call is cancelled), so the map holds only live waiters.
struct Waiting {
    waiters: Arc<Waiters>,
    run_id: String,
    notified: std::pin::Pin<Box<tokio::sync::futures::OwnedNotified>>,
}

impl Waiters {
    fn lock(&self) -> std::sync::MutexGuard<'_, WaitMap> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn register(self: &Arc<Self>, run_id: &str) -> Result<Waiting, RunStoreError> {
        let mut map = self.lock();
        if map.total >= MAX_WAITERS {
            return Err(RunStoreError::Backend(format!(
                "more than {MAX_WAITERS} waits for run changes at once in this process; retry later"
            )));
        }
        map.total += 1;
        let entry = map.runs.entry(run_id.to_owned()).or_insert_with(|| (Arc::new(Notify::new()), 0));
        entry.1 += 1;
        let mut notified = Box::pin(Arc::clone(&entry.0).notified_owned());
        // Counts as waiting from now: a `notify_waiters` before the first
        // poll still completes it.
        notified.as_mut().enable();
        Ok(Waiting { waiters: Arc::clone(self), run_id: run_id.to_owned(), notified })
    }

    fn wake(&self, run_id: &str) {
        if let Some((notify, _)) = self.lock().runs.get(run_id) {
            notify.notify_waiters();
        }
    }

    fn wake_all(&self) {
        for (notify, _) in self.lock().runs.values() {
            notify.notify_waiters();
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let mut map = self.waiters.lock();
        map.total = map.total.saturating_sub(1);
        if let Some(entry) = map.runs.get_mut(&self.run_id) {
            entry.1 -= 1;
            if entry.1 == 0 {
                map.runs.remove(&self.run_id);
            }
        }
    }
}
