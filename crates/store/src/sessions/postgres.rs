//! Sessions on PostgreSQL: the same semantics as the sled store (GA-7),
//! shared by every process on the database.
//!
//! Each session has a row in `codemode_sessions`; a commit locks it
//! (`INSERT … ON CONFLICT DO UPDATE` takes the row lock) so commits of one
//! session — from any process — are applied one at a time, each re-checking
//! the 1 MiB limit against what the previous one left. Commits of different
//! sessions never wait for each other. A committed transaction is durable
//! (the server's `fsync`), so there is no separate flush.
//!
//! Retention: `last_seen_s` is written by commits, and by loads and checks
//! at most every [`write_every`] seconds; an expired session is emptied when
//! it comes back, and a sweeper task deletes expired sessions in bounded
//! batches ([`sweep`]), and saved results older than the retention (a
//! reply whose process died is never ended).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use ractor::ActorCell;

use super::backend::{Changes, SessionBackend, Settings, StoreFuture, Writes};
use super::retention::sweep_interval;
use crate::error::StoreError;
use crate::postgres::{Cache, Pg, big, db};
use crate::value::{StoreLimits, StoredValue};

/// One sweep statement deletes at most this many sessions (and their
/// values, by cascade), so no statement holds locks for long.
const SWEEP_BATCH: i64 = 64;

/// When a session is used, and how long unused sessions are kept.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touch {
    /// Now, in Unix seconds (the store's clock).
    now_s: u64,
    /// `None` keeps sessions forever.
    retention_s: Option<u64>,
}

impl Touch {
    /// Now, by `settings`' clock and retention.
    pub(crate) fn now(settings: &Settings) -> Self {
        Self { now_s: settings.clock.now_secs(), retention_s: settings.retention.map(|r| r.as_secs()) }
    }

    fn expired(self, last_seen: i64) -> bool {
        self.retention_s.is_some_and(|r| big(self.now_s).saturating_sub(last_seen) > big(r))
    }
}

/// How stale a session's recorded last use may get before a load or check
/// rewrites it: a busy session must not cost a write per read. At most a
/// minute, and small against the retention so a short retention (tests,
/// aggressive operators) is still honoured.
fn write_every(retention_s: u64) -> i64 {
    big((retention_s / 24).min(60))
}

/// The last write of each key wins, as in the sled batch; keeps first-seen
/// order so statements are deterministic.
fn last_wins(writes: &[(String, Option<StoredValue>)]) -> Vec<(&str, Option<&StoredValue>)> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<(&str, Option<&StoredValue>)> = Vec::new();
    for (k, v) in writes {
        match index.get(k.as_str()) {
            Some(&i) => out[i].1 = v.as_ref(),
            None => {
                index.insert(k, out.len());
                out.push((k, v.as_ref()));
            }
        }
    }
    out
}

/// Locks `session`'s row until the transaction ends (creating it), empties
/// the session first when it was not seen for longer than the retention,
/// and records it as seen now.
async fn lock_session(tx: &deadpool_postgres::Transaction<'_>, session: &str, touch: Touch) -> Result<(), StoreError> {
    let now = big(touch.now_s);
    // `DO UPDATE` (not `DO NOTHING`) so an existing row is locked too;
    // setting the column to itself returns the previous last use.
    let row = tx
        .cached()
        .query_one(
            "INSERT INTO codemode_sessions (session, last_seen_s) VALUES ($1, $2)
             ON CONFLICT (session) DO UPDATE SET last_seen_s = codemode_sessions.last_seen_s
             RETURNING last_seen_s",
            &[&session, &now],
        )
        .await
        .map_err(|e| db(&e))?;
    let last: i64 = row.get(0);
    if touch.expired(last) {
        let keys = tx
            .cached()
            .execute("DELETE FROM codemode_session_values WHERE session = $1", &[&session])
            .await
            .map_err(|e| db(&e))?;
        tracing::info!(keys, "session store: removed an expired session as it came back");
    }
    if last < now {
        tx.cached()
            .execute("UPDATE codemode_sessions SET last_seen_s = $2 WHERE session = $1", &[&session, &now])
            .await
            .map_err(|e| db(&e))?;
    }
    Ok(())
}

/// Records a read of `session` (a load or a check) without taking its lock
/// unless needed: an expired session is emptied (under the lock) before it
/// is served, and a stale last use is rewritten.
async fn touch_read(client: &mut deadpool_postgres::Object, session: &str, touch: Touch) -> Result<(), StoreError> {
    let Some(retention) = touch.retention_s else { return Ok(()) };
    let row = client
        .cached()
        .query_opt("SELECT last_seen_s FROM codemode_sessions WHERE session = $1", &[&session])
        .await
        .map_err(|e| db(&e))?;
    // No row: the session has no values, so there is nothing to keep alive.
    let Some(row) = row else { return Ok(()) };
    let last: i64 = row.get(0);
    if touch.expired(last) {
        let tx = client.transaction().await.map_err(|e| db(&e))?;
        lock_session(&tx, session, touch).await?;
        tx.commit().await.map_err(|e| db(&e))?;
    } else if big(touch.now_s).saturating_sub(last) >= write_every(retention) {
        client
            .cached()
            .execute(
                "UPDATE codemode_sessions SET last_seen_s = $2 WHERE session = $1 AND last_seen_s < $2",
                &[&session, &big(touch.now_s)],
            )
            .await
            .map_err(|e| db(&e))?;
    }
    Ok(())
}

/// The committed bytes of `session` except `keys`.
async fn bytes_except(client: &impl Cache, session: &str, keys: &[&[u8]]) -> Result<usize, StoreError> {
    let row = client
        .cached()
        .query_one(
            "SELECT coalesce(sum(octet_length(json)), 0)::bigint FROM codemode_session_values
             WHERE session = $1 AND NOT (key = ANY($2))",
            &[&session, &keys],
        )
        .await
        .map_err(|e| db(&e))?;
    Ok(usize::try_from(row.get::<_, i64>(0)).unwrap_or(usize::MAX))
}

fn full(limits: &StoreLimits) -> StoreError {
    StoreError::SessionFull(limits.max_session_bytes / (1024 * 1024))
}

/// The committed value of `key` in `session`.
async fn load(pg: &Pg, session: &str, key: &str, touch: Touch) -> Result<Option<StoredValue>, StoreError> {
    let mut client = pg.client().await?;
    touch_read(&mut client, session, touch).await?;
    let row = client
        .cached()
        .query_opt(
            "SELECT json, network FROM codemode_session_values WHERE session = $1 AND key = $2",
            &[&session, &key.as_bytes()],
        )
        .await
        .map_err(|e| db(&e))?;
    Ok(row.map(|r| StoredValue { json: r.get(0), network: r.get(1) }))
}

/// Whether `changes` (new sizes; `None` deletes) on top of the committed
/// session fit its limit. Advisory: the commit re-checks under the lock.
async fn check(
    pg: &Pg,
    session: &str,
    changes: &[(String, Option<usize>)],
    limits: &StoreLimits,
    touch: Touch,
) -> Result<(), StoreError> {
    let mut client = pg.client().await?;
    touch_read(&mut client, session, touch).await?;
    let mut last: HashMap<&str, usize> = HashMap::new();
    for (k, size) in changes {
        last.insert(k, size.unwrap_or(0));
    }
    let keys: Vec<&[u8]> = last.keys().map(|k| k.as_bytes()).collect();
    let total = bytes_except(&client, session, &keys).await?.saturating_add(last.values().sum());
    if total > limits.max_session_bytes {
        return Err(full(limits));
    }
    Ok(())
}

/// Commits a cell's writes to `session` inside `tx`: locks the session (so
/// commits of it apply in order), re-checks the session limit, and writes
/// all or nothing. Nothing is visible until the caller commits `tx`, so a
/// run's end and its writes can be one transaction.
///
/// # Errors
/// [`StoreError::SessionFull`] (the caller must roll back, which dropping
/// `tx` does), or a statement failure.
pub(crate) async fn commit_in(
    tx: &deadpool_postgres::Transaction<'_>,
    session: &str,
    writes: &[(String, Option<StoredValue>)],
    limits: &StoreLimits,
    touch: Touch,
) -> Result<(), StoreError> {
    lock_session(tx, session, touch).await?;
    if writes.is_empty() {
        return Ok(());
    }
    let writes = last_wins(writes);
    let keys: Vec<&[u8]> = writes.iter().map(|(k, _)| k.as_bytes()).collect();
    let added: usize = writes.iter().map(|(_, v)| v.map_or(0, |v| v.json.len())).sum();
    if bytes_except(tx, session, &keys).await?.saturating_add(added) > limits.max_session_bytes {
        return Err(full(limits));
    }
    let (mut put_keys, mut put_json, mut put_network, mut deleted) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (k, v) in &writes {
        match v {
            Some(v) => {
                put_keys.push(k.as_bytes());
                put_json.push(v.json.as_str());
                put_network.push(v.network);
            }
            None => deleted.push(k.as_bytes()),
        }
    }
    if !deleted.is_empty() {
        tx.cached()
            .execute("DELETE FROM codemode_session_values WHERE session = $1 AND key = ANY($2)", &[&session, &deleted])
            .await
            .map_err(|e| db(&e))?;
    }
    if !put_keys.is_empty() {
        tx.cached()
            .execute(
                "INSERT INTO codemode_session_values (session, key, json, network)
             SELECT $1, k, j, n FROM unnest($2::bytea[], $3::text[], $4::boolean[]) AS w(k, j, n)
             ON CONFLICT (session, key) DO UPDATE SET json = EXCLUDED.json, network = EXCLUDED.network",
                &[&session, &put_keys, &put_json, &put_network],
            )
            .await
            .map_err(|e| db(&e))?;
    }
    Ok(())
}

/// Commits a cell's writes in their own transaction.
async fn commit(
    pg: &Pg,
    session: &str,
    writes: &[(String, Option<StoredValue>)],
    limits: &StoreLimits,
    touch: Touch,
) -> Result<(), StoreError> {
    let mut client = pg.client().await?;
    let tx = client.transaction().await.map_err(|e| db(&e))?;
    commit_in(&tx, session, writes, limits, touch).await?;
    tx.commit().await.map_err(|e| db(&e))
}

/// Starts `to` with a copy of `from`'s committed values.
async fn fork(pg: &Pg, from: &str, to: &str, touch: Touch) -> Result<(), StoreError> {
    let mut client = pg.client().await?;
    let tx = client.transaction().await.map_err(|e| db(&e))?;
    // Always in name order, so two forks between the same sessions in
    // opposite directions cannot deadlock.
    let (first, second) = if from <= to { (from, to) } else { (to, from) };
    lock_session(&tx, first, touch).await?;
    if second != first {
        lock_session(&tx, second, touch).await?;
    }
    let taken = tx
        .cached()
        .query_one("SELECT EXISTS (SELECT 1 FROM codemode_session_values WHERE session = $1)", &[&to])
        .await
        .map_err(|e| db(&e))?;
    if taken.get::<_, bool>(0) {
        return Err(StoreError::SessionExists(to.to_owned()));
    }
    tx.cached()
        .execute(
            "INSERT INTO codemode_session_values (session, key, json, network)
         SELECT $2, key, json, network FROM codemode_session_values WHERE session = $1",
            &[&from, &to],
        )
        .await
        .map_err(|e| db(&e))?;
    tx.commit().await.map_err(|e| db(&e))
}

/// Deletes every session not seen for longer than the retention, in
/// batches of [`SWEEP_BATCH`] sessions; returns how many went. Sessions
/// another process is committing to right now are skipped (they are in
/// use), and so are rows locked by another sweeper.
async fn sweep(pg: &Pg, touch: Touch) -> Result<u64, StoreError> {
    let Some(retention) = touch.retention_s else { return Ok(0) };
    let cutoff = big(touch.now_s).saturating_sub(big(retention));
    let client = pg.client().await?;
    let mut total = 0;
    loop {
        let deleted = client
            .cached()
            .execute(
                "DELETE FROM codemode_sessions WHERE session IN (
                     SELECT session FROM codemode_sessions WHERE last_seen_s < $1
                     ORDER BY last_seen_s LIMIT $2 FOR UPDATE SKIP LOCKED)",
                &[&cutoff, &SWEEP_BATCH],
            )
            .await
            .map_err(|e| db(&e))?;
        total += deleted;
        if deleted < u64::try_from(SWEEP_BATCH).unwrap_or(0) {
            break;
        }
        // Let other work on this runtime in between batches.
        tokio::task::yield_now().await;
    }
    // Saved results of replies that never ended (their process died): no
    // reply outlives its session's retention.
    crate::results::postgres::delete_older_than(&client, retention).await.map_err(|e| db(&e))?;
    Ok(total)
}

/// The sweeper task: a sweep now, then every `interval`, until aborted.
fn start_sweeper(
    pg: Pg,
    interval: Duration,
    touch: impl Fn() -> Touch + Send + 'static,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match sweep(&pg, touch()).await {
                Ok(0) => {}
                Ok(sessions) => {
                    tracing::info!(sessions, "session store: removed sessions not seen for longer than the retention")
                }
                Err(e) => {
                    tracing::warn!(error = %e, "session store: a retention sweep failed; the next one starts over")
                }
            }
        }
    })
}

/// The PostgreSQL retention sweeper task, shared by a store's handles and
/// stopped when the last one is dropped (or replaced by a restart).
#[derive(Debug, Default)]
struct Sweeper(Mutex<Option<tokio::task::JoinHandle<()>>>);

impl Sweeper {
    fn replace(&self, task: Option<tokio::task::JoinHandle<()>>) {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = std::mem::replace(&mut *slot, task) {
            old.abort();
        }
    }
}

impl Drop for Sweeper {
    fn drop(&mut self) {
        self.replace(None);
    }
}

/// The PostgreSQL backend of a [`SessionStore`](crate::SessionStore): a
/// pool, and no actor — each request is a statement or a transaction on a
/// pooled connection.
#[derive(Clone, Debug)]
pub(crate) struct PgSessions {
    pg: Pg,
    sweeper: Arc<Sweeper>,
}

impl PgSessions {
    pub(crate) fn new(pg: Pg) -> Self {
        Self { pg, sweeper: Arc::default() }
    }

    /// The pool.
    pub(crate) fn pg(&self) -> &Pg {
        &self.pg
    }
}

impl SessionBackend for PgSessions {
    fn load<'a>(&'a self, settings: &Settings, session: &'a str, key: &'a str) -> StoreFuture<'a, Option<StoredValue>> {
        Box::pin(load(&self.pg, session, key, Touch::now(settings)))
    }

    fn check<'a>(&'a self, settings: &Settings, session: &'a str, changes: Changes) -> StoreFuture<'a, ()> {
        let (limits, touch) = (settings.limits, Touch::now(settings));
        Box::pin(async move { check(&self.pg, session, &changes, &limits, touch).await })
    }

    fn commit<'a>(&'a self, settings: &Settings, session: &'a str, writes: Writes) -> StoreFuture<'a, ()> {
        // A task of its own, so a dropped caller does not roll the
        // transaction back midway: as on sled, a sent commit is applied.
        let (pg, session, limits, touch) = (self.pg.clone(), session.to_owned(), settings.limits, Touch::now(settings));
        let task = tokio::spawn(async move { commit(&pg, &session, &writes, &limits, touch).await });
        Box::pin(async move { task.await.map_err(|e| StoreError::Database(format!("the commit task failed: {e}")))? })
    }

    fn fork<'a>(&'a self, settings: &Settings, from: &'a str, to: &'a str) -> StoreFuture<'a, ()> {
        let (pg, from, to, touch) = (self.pg.clone(), from.to_owned(), to.to_owned(), Touch::now(settings));
        let task = tokio::spawn(async move { fork(&pg, &from, &to, touch).await });
        Box::pin(async move { task.await.map_err(|e| StoreError::Database(format!("the fork task failed: {e}")))? })
    }

    fn flush(&self) -> StoreFuture<'_, ()> {
        // Every commit was durable when it returned.
        Box::pin(async { Ok(()) })
    }

    fn start(&self, settings: &Settings, _: Option<ActorCell>) -> StoreFuture<'_, ()> {
        let task = settings.retention.map(|retention| {
            let settings = settings.clone();
            start_sweeper(self.pg.clone(), sweep_interval(retention.as_secs()), move || Touch::now(&settings))
        });
        self.sweeper.replace(task);
        Box::pin(async { Ok(()) })
    }

    fn has_actor(&self) -> bool {
        false
    }

    fn shared(&self) -> bool {
        true
    }

    fn persists(&self) -> bool {
        true
    }

    fn flushes(&self) -> u64 {
        0
    }

    #[cfg(feature = "test-hooks")]
    fn crash_for_test(&self) -> bool {
        false
    }
}
