//! The results cache: `results.save/load/delete`, scoped to one reply
//! (GA-6.5).
//!
//! A reply's results live until the reply ends. At most `max_entries`
//! results and `max_bytes` of JSON per reply; when full, saves fail and
//! nothing is evicted. Ids are unguessable and never reused; a deleted or
//! expired id says so.
//!
//! [`ResultsCache`] is the handle; where results live is its backend,
//! behind one seam ([`backend::ResultsBackend`]): in this process's memory
//! (`memory.rs`, an actor; the default) or in PostgreSQL (`postgres.rs`,
//! feature `postgres`, shared by every process on the database). Both keep
//! one meaning, checked by one contract suite (`suite.rs`).
//!
//! [`ResultsCache::stats`] counts what was saved and what is held now, for
//! the runtime's metrics.

mod backend;
mod declaration;
mod memory;
#[cfg(feature = "postgres")]
pub(crate) mod postgres;
#[cfg(test)]
mod suite;
mod types;

use std::sync::Arc;

use ractor::ActorCell;

use self::backend::ResultsBackend;
pub use self::declaration::results_declaration;
use self::memory::MemoryResults;
use self::types::ResultsStats;
pub use self::types::{ResultsError, ResultsHeld, ResultsLimits, ResultsStatsSnapshot, Scope};
use crate::value::StoredValue;

/// A handle to the results cache. Cheap to clone; clones share the
/// backend and the counters (in memory, the actor is found by
/// [`name`](Self::name), so a supervisor can restart it under the handles).
#[derive(Clone, Debug)]
pub struct ResultsCache {
    name: String,
    limits: ResultsLimits,
    stats: Arc<ResultsStats>,
    backend: Backend,
}

/// Which backend a [`ResultsCache`] has. The one place they are told apart:
/// everything else goes through [`ResultsBackend`].
#[derive(Clone, Debug)]
enum Backend {
    Memory(MemoryResults),
    #[cfg(feature = "postgres")]
    Postgres(postgres::PgResults),
}

impl Backend {
    fn get(&self) -> &dyn ResultsBackend {
        match self {
            Self::Memory(memory) => memory,
            #[cfg(feature = "postgres")]
            Self::Postgres(pg) => pg,
        }
    }
}

impl ResultsCache {
    /// A handle to the in-memory cache whose actor registers as `name`
    /// ([`start_actor`](Self::start_actor) starts it).
    #[must_use]
    pub fn new(name: String, limits: ResultsLimits) -> Self {
        let stats = Arc::<ResultsStats>::default();
        let backend = Backend::Memory(MemoryResults::new(name.clone(), limits, Arc::clone(&stats)));
        Self { name, limits, stats, backend }
    }

    /// The cache on PostgreSQL (`pg`, already migrated): the same API and
    /// meaning, with a reply's results visible to every process on the
    /// database (a run resumed elsewhere still finds them) and surviving
    /// restarts until the reply ends. `name` only labels the handle.
    #[cfg(feature = "postgres")]
    #[must_use]
    pub fn postgres(pg: crate::Pg, name: String, limits: ResultsLimits) -> Self {
        let stats = Arc::<ResultsStats>::default();
        let backend = Backend::Postgres(postgres::PgResults::new(pg, limits, Arc::clone(&stats)));
        Self { name, limits, stats, backend }
    }

    /// The limits.
    #[must_use]
    pub fn limits(&self) -> &ResultsLimits {
        &self.limits
    }

    /// The actor's registered name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What this cache saved since start and holds now (see
    /// [`ResultsStatsSnapshot::held`] for PostgreSQL).
    #[must_use]
    pub fn stats(&self) -> ResultsStatsSnapshot {
        self.stats.snapshot(self.has_actor())
    }

    /// Whether this cache runs an actor (in memory does; PostgreSQL
    /// answers every request with statements and has none to supervise).
    #[must_use]
    pub fn has_actor(&self) -> bool {
        self.backend.get().has_actor()
    }

    /// Starts the cache actor linked to `supervisor` (again after a crash:
    /// the results of the crashed actor are gone, and say so). On
    /// PostgreSQL there is nothing to start.
    ///
    /// # Errors
    /// [`ResultsError::Start`]: the actor could not be spawned.
    pub async fn start_actor(&self, supervisor: ActorCell) -> Result<(), ResultsError> {
        self.backend.get().start(Some(supervisor)).await
    }

    /// Makes the actor panic, so its supervisor restarts it (supervision
    /// tests only); returns whether the request was sent.
    #[doc(hidden)]
    #[cfg(feature = "test-hooks")]
    #[must_use]
    pub fn crash_for_test(&self) -> bool {
        self.backend.get().crash_for_test()
    }

    /// Saves a value; returns its new id.
    ///
    /// # Errors
    /// The reply's cache is full, or the reply ended (in memory).
    pub async fn save(&self, scope: Scope, value: StoredValue) -> Result<String, ResultsError> {
        self.backend.get().save(scope, value).await
    }

    /// A saved value.
    ///
    /// # Errors
    /// Unknown, deleted, expired or foreign ids.
    pub async fn load(&self, scope: Scope, id: String) -> Result<StoredValue, ResultsError> {
        self.backend.get().load(scope, id).await
    }

    /// Deletes a saved value, freeing its capacity.
    ///
    /// # Errors
    /// Unknown, deleted, expired or foreign ids.
    pub async fn delete(&self, scope: Scope, id: String) -> Result<bool, ResultsError> {
        self.backend.get().delete(scope, id).await
    }

    /// Ends a reply: its results expire. Does not wait: on PostgreSQL the
    /// deletion runs as a task of the current tokio runtime (see
    /// [`end_reply_wait`](Self::end_reply_wait) to wait for it).
    pub fn end_reply(&self, scope: Scope) {
        self.backend.get().end_reply(scope);
    }

    /// Ends a reply and waits until its results are gone (in memory: until
    /// the request is queued ahead of any later one).
    ///
    /// # Errors
    /// A database failure (the results stay until the reply is ended again).
    pub async fn end_reply_wait(&self, scope: Scope) -> Result<(), ResultsError> {
        self.backend.get().end_reply_wait(scope).await
    }

    /// A new cell of the reply is about to start: if the reply had ended,
    /// saves into it are accepted again (a host may reuse a reply id after
    /// ending it). Cells of the reply admitted before its end are refused
    /// only until then. Does nothing on PostgreSQL, which keeps no memory
    /// of ended replies: there a late save's row is deleted by the
    /// retention sweep.
    pub fn reopen_reply(&self, scope: Scope) {
        self.backend.get().reopen_reply(scope);
    }

    /// Starts the actor without a supervisor (the suite's caches).
    #[cfg(test)]
    async fn start_unsupervised(&self) -> Result<(), ResultsError> {
        self.backend.get().start(None).await
    }
}
