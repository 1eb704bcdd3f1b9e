//! Sessions in sled, the embedded backend: one database one process at a
//! time opens (the store's own files: this module opens them).
//!
//! Values live in the database's default tree keyed by session and key
//! (`keys.rs`). The store actor (`actor.rs`) owns the write path: it keeps
//! each session's total size, re-checks the 1 MiB session limit on every
//! commit, applies all of a cell's writes in one atomic batch in commit
//! order, and has them flushed to disk (`flush.rs`, grouped with
//! concurrent commits) before the commit is answered. Sessions are
//! isolated by key prefix; `fork` copies a session's committed values.
//! Retention (`sweep.rs`) deletes sessions not seen for longer than it.
//!
//! Other concepts keep their sled data in trees of the same database: the
//! node pairings, and the durable runs, whose end commits together with
//! its session writes through this actor ([`SledSessions::commit_attached`]).

mod actor;
mod flush;
mod keys;
mod state;
mod sweep;
#[cfg(test)]
mod tests;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::{Actor, ActorCell, ActorRef, RpcReplyPort};

use self::actor::{StoreActor, StoreMsg};
pub(crate) use self::flush::FlushGate;
use self::keys::{io, open_error};
pub(crate) use self::state::Attached;
use self::state::{SIZES_CACHE_SESSIONS, StoreArgs, StoreState};
use crate::error::StoreError;
use crate::sessions::backend::{Changes, SessionBackend, Settings, StoreFuture, Writes};
use crate::value::StoredValue;

/// How long a request to the store actor may take.
const STORE_TIMEOUT: Duration = Duration::from_secs(30);

/// State other concepts keep once per database, made on first use and
/// shared by every handle on it (the sled run store's waiters, run log and
/// quota index: one handle's save must wake another's waiter). Keyed by
/// type, so this backend names none of them.
#[derive(Debug, Default)]
struct PerDatabase(Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>);

/// The sled backend of a [`SessionStore`](crate::SessionStore): the open
/// database and the name its actor registers under. Cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct SledSessions {
    name: String,
    db: sled::Db,
    gate: FlushGate,
    /// The database directory (`None`: temporary).
    path: Option<PathBuf>,
    per_database: Arc<PerDatabase>,
}

impl SledSessions {
    /// The flush gate other trees of this database write behind.
    pub(crate) fn flush_gate(&self) -> FlushGate {
        self.gate.clone()
    }

    /// Opens (or creates) the database at `path`, or a temporary one that
    /// is deleted when the process ends when `path` is `None`. A database
    /// that cannot be opened is reported and left untouched.
    ///
    /// # Errors
    /// [`StoreError::Locked`] when another process uses the store,
    /// [`StoreError::Unwritable`] when its directory cannot be created or
    /// written, else [`StoreError::Open`].
    pub(crate) fn open(path: Option<&Path>, name: String) -> Result<Self, StoreError> {
        let config = match path {
            Some(p) => sled::Config::new().path(p).cache_capacity(16 * 1024 * 1024),
            None => sled::Config::new().temporary(true),
        };
        let shown = path.map_or_else(|| "(temporary)".to_owned(), |p| p.display().to_string());
        let db = config.open().map_err(|e| open_error(&shown, e))?;
        Ok(Self {
            name,
            db,
            gate: FlushGate::default(),
            path: path.map(Path::to_path_buf),
            per_database: Arc::default(),
        })
    }

    /// Another tree of the database, for state that must survive restarts
    /// alongside the sessions.
    ///
    /// # Errors
    /// [`StoreError::Io`].
    pub(crate) fn tree(&self, name: &str) -> Result<sled::Tree, StoreError> {
        self.db.open_tree(name).map_err(|e| io(&e))
    }

    /// The database's directory (`None`: temporary).
    pub(crate) fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The `T` kept for this database, made now if it is the first use.
    pub(crate) fn per_database<T: Any + Default + Send + Sync>(&self) -> Arc<T> {
        let mut map = self.per_database.0.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = map.entry(TypeId::of::<T>()).or_insert_with(|| Arc::new(T::default()));
        match Arc::clone(entry).downcast::<T>() {
            Ok(found) => found,
            // Keyed by its type, the entry is always a `T`; were it not,
            // a fresh one replaces it.
            Err(_) => {
                let fresh = Arc::new(T::default());
                *entry = Arc::clone(&fresh) as Arc<dyn Any + Send + Sync>;
                fresh
            }
        }
    }

    /// Waits until every write so far is on disk, blocking (for a caller
    /// that is not async: opening a run store).
    ///
    /// # Errors
    /// [`StoreError::Io`].
    pub(crate) fn flush_blocking(&self) -> Result<(), StoreError> {
        self.gate.flush(&self.db).map_err(|e| io(&e))
    }

    /// Waits until every write so far is on disk, sharing a flush with
    /// concurrent commits when the actor runs (group commit), else
    /// flushing directly (no actor: the `codemode runs` command).
    ///
    /// # Errors
    /// [`StoreError::Io`].
    pub(crate) async fn flush_grouped(&self) -> Result<(), StoreError> {
        if ActorRef::<StoreMsg>::where_is(self.name.clone()).is_none() {
            return self.flush_now().await;
        }
        match self.ask(|reply| StoreMsg::Flush { reply }).await {
            // Stopped between the look-up and the call: flush directly.
            Err(StoreError::Unavailable) => self.flush_now().await,
            other => other,
        }
    }

    /// Flushes the whole database on a blocking thread.
    async fn flush_now(&self) -> Result<(), StoreError> {
        let (db, gate) = (self.db.clone(), self.gate.clone());
        tokio::task::spawn_blocking(move || gate.flush(&db))
            .await
            .map_err(|e| StoreError::Io(format!("the flush task failed: {e}")))?
            .map_err(|e| io(&e))
    }

    /// Commits a cell's writes to `session` and `attached`'s write to
    /// `tree` in one transaction, with the session limit re-checked, and
    /// waits until both are on disk. Goes through the actor so its
    /// per-session sizes stay right.
    ///
    /// # Errors
    /// What `attached` refused with, [`StoreError::SessionFull`] (nothing
    /// written), or a write or flush failure.
    pub(crate) async fn commit_attached<E>(
        &self,
        session: &str,
        writes: Writes,
        tree: sled::Tree,
        attached: Attached<E>,
    ) -> Result<(), E>
    where
        E: From<StoreError> + Send + std::fmt::Debug + 'static,
    {
        let session = session.to_owned();
        self.ask(move |reply: RpcReplyPort<Result<(), E>>| {
            StoreMsg::CommitAttached(Box::new(move |state: &mut StoreState| {
                match state.commit_attached(&session, &writes, &tree, &attached) {
                    Ok(()) => state.flusher().reply_after_flush(reply),
                    Err(e) => {
                        let _ = reply.send(Err(e));
                    }
                }
            }))
        })
        .await
    }

    async fn ask<T: Send + 'static, E: From<StoreError> + Send + 'static>(
        &self,
        build: impl FnOnce(RpcReplyPort<Result<T, E>>) -> StoreMsg,
    ) -> Result<T, E> {
        let actor: ActorRef<StoreMsg> = ActorRef::where_is(self.name.clone()).ok_or(StoreError::Unavailable)?;
        match actor.call(build, Some(STORE_TIMEOUT)).await {
            Ok(CallResult::Success(result)) => result,
            _ => Err(StoreError::Unavailable.into()),
        }
    }
}

impl SessionBackend for SledSessions {
    fn load<'a>(&'a self, _: &Settings, session: &'a str, key: &'a str) -> StoreFuture<'a, Option<StoredValue>> {
        let (session, key) = (session.to_owned(), key.to_owned());
        Box::pin(self.ask(|reply| StoreMsg::Load { session, key, reply }))
    }

    fn check<'a>(&'a self, _: &Settings, session: &'a str, changes: Changes) -> StoreFuture<'a, ()> {
        let session = session.to_owned();
        Box::pin(self.ask(|reply| StoreMsg::Check { session, changes, reply }))
    }

    fn commit<'a>(&'a self, _: &Settings, session: &'a str, writes: Writes) -> StoreFuture<'a, ()> {
        let session = session.to_owned();
        Box::pin(self.ask(|reply| StoreMsg::Commit { session, writes, reply }))
    }

    fn fork<'a>(&'a self, _: &Settings, from: &'a str, to: &'a str) -> StoreFuture<'a, ()> {
        let (from, to) = (from.to_owned(), to.to_owned());
        Box::pin(self.ask(|reply| StoreMsg::Fork { from, to, reply }))
    }

    fn flush(&self) -> StoreFuture<'_, ()> {
        Box::pin(self.flush_now())
    }

    fn start(&self, settings: &Settings, supervisor: Option<ActorCell>) -> StoreFuture<'_, ()> {
        let args = StoreArgs {
            db: self.db.clone(),
            gate: self.gate.clone(),
            limits: settings.limits,
            retention: settings.retention,
            clock: Arc::clone(&settings.clock),
            cache_sessions: SIZES_CACHE_SESSIONS,
        };
        let name = Some(self.name.clone());
        Box::pin(async move {
            let spawned = match supervisor {
                Some(s) => Actor::spawn_linked(name, StoreActor, args, s).await,
                None => Actor::spawn(name, StoreActor, args).await,
            };
            spawned.map(|_| ()).map_err(|e| StoreError::Io(e.to_string()))
        })
    }

    fn has_actor(&self) -> bool {
        true
    }

    fn shared(&self) -> bool {
        false
    }

    fn persists(&self) -> bool {
        self.path.is_some()
    }

    fn flushes(&self) -> u64 {
        self.gate.flushes()
    }

    #[cfg(feature = "test-hooks")]
    fn crash_for_test(&self) -> bool {
        ActorRef::<StoreMsg>::where_is(self.name.clone()).is_some_and(|a| a.send_message(StoreMsg::Crash).is_ok())
    }
}
