//! The session store: small JSON values that outlive cells and processes
//! (GA-7).
//!
//! [`SessionStore`] is the handle; where the values live is its backend,
//! behind one seam ([`backend::SessionBackend`]): sled (`sled/`, one
//! process at a time, an actor owning the write path) or PostgreSQL
//! (`postgres.rs`, feature `postgres`, shared by many processes). Both
//! keep one meaning, checked by one contract suite (`suite.rs`):
//!
//! - a commit re-checks the 1 MiB session limit and applies all of a
//!   cell's writes atomically, in commit order, and is durable before it is
//!   answered (so before the cell may report `completed`);
//! - sessions are isolated; `fork` copies a session's committed values;
//! - sessions not seen for longer than the retention are deleted
//!   ([`retention`]).

pub(crate) mod backend;
#[cfg(feature = "postgres")]
pub(crate) mod postgres;
mod retention;
pub(crate) mod sled;
#[cfg(test)]
mod suite;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ractor::ActorCell;

use self::backend::{SessionBackend, Settings};
pub use self::retention::{Clock, DEFAULT_SESSION_RETENTION, SystemClock};
use self::sled::SledSessions;
use crate::error::StoreError;
pub use crate::value::{StoreLimits, StoredValue, validate_key, validate_value};

/// A handle to the session store. Cheap to clone; clones share the
/// backend (on sled, its actor is found by [`name`](Self::name), so a
/// supervisor can restart it under the handles).
#[derive(Clone, Debug)]
pub struct SessionStore {
    name: String,
    settings: Settings,
    backend: Backend,
}

/// Which backend a [`SessionStore`] has. The one place they are told apart:
/// everything else goes through [`SessionBackend`].
#[derive(Clone, Debug)]
enum Backend {
    Sled(SledSessions),
    #[cfg(feature = "postgres")]
    Postgres(postgres::PgSessions),
}

impl Backend {
    fn get(&self) -> &dyn SessionBackend {
        match self {
            Self::Sled(sled) => sled,
            #[cfg(feature = "postgres")]
            Self::Postgres(pg) => pg,
        }
    }

    fn sled(&self) -> Option<&SledSessions> {
        match self {
            Self::Sled(sled) => Some(sled),
            #[cfg(feature = "postgres")]
            Self::Postgres(_) => None,
        }
    }

    #[cfg(feature = "postgres")]
    fn postgres(&self) -> Option<&postgres::PgSessions> {
        match self {
            Self::Postgres(pg) => Some(pg),
            Self::Sled(_) => None,
        }
    }
}

impl SessionStore {
    fn with_backend(backend: Backend, limits: StoreLimits, name: String) -> Self {
        let settings = Settings { limits, retention: Some(DEFAULT_SESSION_RETENTION), clock: Arc::new(SystemClock) };
        Self { name, settings, backend }
    }

    /// Opens (or creates) the sled store at `path`, or a temporary one that
    /// is deleted when the process ends when `path` is `None`. A database
    /// that cannot be opened is reported and left untouched. `name` is the
    /// name its actor registers under.
    ///
    /// # Errors
    /// [`StoreError::Locked`] when another process uses the store,
    /// [`StoreError::Unwritable`] when its directory cannot be created or
    /// written, else [`StoreError::Open`].
    pub fn open(path: Option<&Path>, limits: StoreLimits, name: String) -> Result<Self, StoreError> {
        let sled = SledSessions::open(path, name.clone())?;
        Ok(Self::with_backend(Backend::Sled(sled), limits, name))
    }

    /// The store on PostgreSQL (`pg`, already migrated): the same API and
    /// meaning as the sled store, with sessions shared by every process on
    /// the database. Commits to one session are serialised across
    /// processes by a lock on its row; a committed transaction is durable,
    /// so [`flush`](Self::flush) has nothing to wait for. `name` only
    /// labels the handle (there is no actor).
    #[cfg(feature = "postgres")]
    #[must_use]
    pub fn postgres(pg: crate::Pg, limits: StoreLimits, name: String) -> Self {
        Self::with_backend(Backend::Postgres(postgres::PgSessions::new(pg)), limits, name)
    }

    /// Sets how long a session is kept after it was last used (a `load`, a
    /// `store` check or a commit): past that, all its values are deleted.
    /// Default [`DEFAULT_SESSION_RETENTION`] (30 days); `None` keeps every
    /// session forever. Counted in whole seconds; takes effect when the
    /// store (re)starts.
    ///
    /// # Errors
    /// [`StoreError::Retention`] for less than one second.
    pub fn with_retention(mut self, retention: Option<Duration>) -> Result<Self, StoreError> {
        if let Some(r) = retention
            && r < Duration::from_secs(1)
        {
            return Err(StoreError::Retention(r));
        }
        self.settings.retention = retention;
        Ok(self)
    }

    /// Sets the clock retention is measured with (default the system
    /// clock); for tests that move time.
    #[must_use]
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.settings.clock = clock;
        self
    }

    /// How long an unused session is kept; `None`: forever.
    #[must_use]
    pub fn retention(&self) -> Option<Duration> {
        self.settings.retention
    }

    /// The actor's registered name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The limits.
    #[must_use]
    pub fn limits(&self) -> &StoreLimits {
        &self.settings.limits
    }

    /// Whether this store runs an actor ([`start_actor`](Self::start_actor)
    /// registers one under [`name`](Self::name)): sled does; PostgreSQL
    /// answers every request with statements and has none to supervise.
    #[must_use]
    pub fn has_actor(&self) -> bool {
        self.backend.get().has_actor()
    }

    /// Starts the store actor under this handle's name, linked to
    /// `supervisor`. Call again to restart it after a crash. On PostgreSQL
    /// there is no actor: this starts (or restarts) the retention sweeper
    /// task instead, which stops when the last handle is dropped.
    ///
    /// # Errors
    /// The actor could not be spawned.
    pub async fn start_actor(&self, supervisor: Option<ActorCell>) -> Result<(), StoreError> {
        self.backend.get().start(&self.settings, supervisor).await
    }

    /// Another tree of the same database, for host state that must survive
    /// restarts alongside the sessions.
    ///
    /// # Errors
    /// [`StoreError::Io`]; [`StoreError::SledOnly`] on PostgreSQL.
    pub fn tree(&self, name: &str) -> Result<::sled::Tree, StoreError> {
        self.sled()?.tree(name)
    }

    /// The sled backend, for what only sled has (another tree of the
    /// database, a commit with a write to one).
    ///
    /// # Errors
    /// [`StoreError::SledOnly`] on PostgreSQL.
    pub(crate) fn sled(&self) -> Result<&SledSessions, StoreError> {
        self.backend.sled().ok_or(StoreError::SledOnly("a sled tree"))
    }

    /// The PostgreSQL pool, when the store is on PostgreSQL.
    #[cfg(feature = "postgres")]
    #[must_use]
    pub fn pg(&self) -> Option<&crate::Pg> {
        self.backend.postgres().map(postgres::PgSessions::pg)
    }

    /// The PostgreSQL pool and this handle's settings, for a run store on
    /// the same database whose run ends commit to these sessions.
    #[cfg(feature = "postgres")]
    pub(crate) fn postgres_parts(&self) -> Option<(&crate::Pg, &Settings)> {
        self.backend.postgres().map(|pg| (pg.pg(), &self.settings))
    }

    /// Waits until every write so far is on disk (the runtime calls it
    /// last when it stops).
    ///
    /// # Errors
    /// [`StoreError::Io`].
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.backend.get().flush().await
    }

    /// Makes the actor panic, so its supervisor restarts it (supervision
    /// tests only); returns whether the request was sent.
    #[doc(hidden)]
    #[cfg(feature = "test-hooks")]
    #[must_use]
    pub fn crash_for_test(&self) -> bool {
        self.backend.get().crash_for_test()
    }

    /// Whether many processes share this store (PostgreSQL).
    #[must_use]
    pub fn shared(&self) -> bool {
        self.backend.get().shared()
    }

    /// Whether what is stored outlives this process (a sled store on disk,
    /// or PostgreSQL; not a temporary sled store).
    #[must_use]
    pub fn persists(&self) -> bool {
        self.backend.get().persists()
    }

    /// How many times the sled database was flushed to disk (`fsync`) since
    /// it was opened; 0 on PostgreSQL.
    #[must_use]
    pub fn flushes(&self) -> u64 {
        self.backend.get().flushes()
    }

    /// The committed value of `key` in `session`.
    ///
    /// # Errors
    /// A read failure, or the actor is unavailable.
    pub async fn load(&self, session: &str, key: &str) -> Result<Option<StoredValue>, StoreError> {
        self.backend.get().load(&self.settings, session, key).await
    }

    /// Whether `changes` (new value sizes; `None` deletes) on top of the
    /// committed session would fit its limit.
    ///
    /// # Errors
    /// [`StoreError::SessionFull`], or a read failure.
    pub async fn check(&self, session: &str, changes: Vec<(String, Option<usize>)>) -> Result<(), StoreError> {
        self.backend.get().check(&self.settings, session, changes).await
    }

    /// Commits a cell's writes atomically (re-checking the session limit in
    /// commit order) and waits until they are durable.
    ///
    /// Cancel safety: once sent, a commit is applied even if this future is
    /// dropped; only the confirmation is lost.
    ///
    /// # Errors
    /// [`StoreError::SessionFull`] (nothing written), or a write or flush
    /// failure.
    pub async fn commit(&self, session: &str, writes: Vec<(String, Option<StoredValue>)>) -> Result<(), StoreError> {
        self.backend.get().commit(&self.settings, session, writes).await
    }

    /// Starts session `to` with a copy of `from`'s committed values (GA-7.7).
    ///
    /// Cancel safety: as [`commit`](Self::commit).
    ///
    /// # Errors
    /// `to` already has values, or a read or write failure.
    pub async fn fork(&self, from: &str, to: &str) -> Result<(), StoreError> {
        self.backend.get().fork(&self.settings, from, to).await
    }
}
