//! What the sled store actor owns, and the plain functions it calls on a
//! request (so they are unit-tested without an actor): each session's value
//! sizes, the retention records, and the flusher. Nothing here waits for
//! the disk; a write's caller is answered through the flusher.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use super::flush::{FlushGate, Flusher};
use super::keys::{db_key, decode, encode, io, session_prefix};
use super::sweep::{Retention, Sizes};
use crate::error::StoreError;
use crate::lru::Lru;
use crate::sessions::retention::Clock;
use crate::value::{StoreLimits, StoredValue};

/// Sessions whose value sizes are kept in memory; the rest are re-measured
/// from disk when used, so memory follows the sessions in use, not all
/// sessions ever seen.
pub(super) const SIZES_CACHE_SESSIONS: usize = 4096;

/// The part of a commit with an attached write done on the other tree, in
/// the same transaction as the session's writes (a run's end record).
/// `Fn`, not `FnOnce`: sled may run a transaction's closure again. An error
/// aborts the commit: nothing of it is written.
pub(crate) type Attached<E> = Box<dyn Fn(&TransactionalTree) -> Result<(), E> + Send + Sync>;

/// What the actor starts with.
pub(super) struct StoreArgs {
    pub(super) db: sled::Db,
    pub(super) gate: FlushGate,
    pub(super) limits: StoreLimits,
    pub(super) retention: Option<Duration>,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) cache_sessions: usize,
}

/// The actor's state.
pub(crate) struct StoreState {
    db: sled::Db,
    gate: FlushGate,
    limits: StoreLimits,
    /// Per session: bytes of each key's value, loaded on first use.
    pub(super) sizes: Sizes,
    pub(super) retention: Retention,
    /// Sends `Sweep` periodically; stopped with the actor.
    pub(super) timer: Option<tokio::task::JoinHandle<()>>,
    /// Made on the first commit (the actor runs on a tokio runtime then).
    flusher: Option<Flusher>,
}

/// The sizes `writes` leave their keys with (`None`: deleted).
fn changes_of(writes: &[(String, Option<StoredValue>)]) -> Vec<(String, Option<usize>)> {
    writes.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.json.len()))).collect()
}

impl StoreState {
    pub(super) fn new(args: StoreArgs) -> Result<Self, StoreError> {
        Ok(Self {
            retention: Retention::new(&args.db, args.retention, args.clock)?,
            db: args.db,
            gate: args.gate,
            limits: args.limits,
            sizes: Lru::new(args.cache_sessions),
            timer: None,
            flusher: None,
        })
    }

    pub(super) fn flusher(&mut self) -> &Flusher {
        let (db, gate) = (&self.db, &self.gate);
        self.flusher.get_or_insert_with(|| Flusher::start(db.clone(), gate.clone()))
    }

    /// Records that `session` is in use (see [`Retention::touch`]).
    fn touch(&mut self, session: &str) -> Result<(), StoreError> {
        self.retention.touch(&mut self.sizes, session)
    }

    pub(super) fn sizes(&mut self, session: &str) -> Result<&mut HashMap<String, usize>, StoreError> {
        if !self.sizes.contains(session) {
            let prefix = session_prefix(session);
            let mut map = HashMap::new();
            for item in self.db.scan_prefix(&prefix) {
                let (k, v) = item.map_err(|e| io(&e))?;
                let key = String::from_utf8_lossy(&k[prefix.len()..]).into_owned();
                map.insert(key, v.len().saturating_sub(1));
            }
            // Evicted sessions are re-measured from disk when used again.
            let _ = self.sizes.insert(session.to_owned(), map);
        }
        self.sizes.get_mut(session).ok_or_else(|| StoreError::Io("the session sizes cache lost an entry".into()))
    }

    /// The session's total after `changes` (new sizes; `None` deletes).
    fn total_after(&mut self, session: &str, changes: &[(String, Option<usize>)]) -> Result<usize, StoreError> {
        let sizes = self.sizes(session)?;
        let mut total: usize = sizes.values().sum();
        let mut seen: HashMap<&str, Option<usize>> = HashMap::new();
        for (k, size) in changes {
            seen.insert(k, *size);
        }
        for (k, size) in seen {
            total -= sizes.get(k).copied().unwrap_or(0);
            total += size.unwrap_or(0);
        }
        Ok(total)
    }

    fn check(&mut self, session: &str, changes: &[(String, Option<usize>)]) -> Result<(), StoreError> {
        if self.total_after(session, changes)? > self.limits.max_session_bytes {
            return Err(StoreError::SessionFull(self.limits.max_session_bytes / (1024 * 1024)));
        }
        Ok(())
    }

    pub(super) fn load(&mut self, session: &str, key: &str) -> Result<Option<StoredValue>, StoreError> {
        self.touch(session)?;
        self.db.get(db_key(session, key)).map_err(|e| io(&e))?.map(|b| decode(&b)).transpose()
    }

    pub(super) fn check_changes(
        &mut self,
        session: &str,
        changes: &[(String, Option<usize>)],
    ) -> Result<(), StoreError> {
        self.touch(session)?;
        self.check(session, changes)
    }

    /// Applies a cell's writes in one batch (not yet flushed).
    pub(super) fn commit(&mut self, session: &str, writes: &[(String, Option<StoredValue>)]) -> Result<(), StoreError> {
        self.touch(session)?;
        let changes = changes_of(writes);
        self.check(session, &changes)?;
        let mut batch = sled::Batch::default();
        for (k, v) in writes {
            match v {
                Some(v) => batch.insert(db_key(session, k), encode(v)),
                None => batch.remove(db_key(session, k)),
            }
        }
        self.db.apply_batch(batch).map_err(|e| io(&e))?;
        self.applied(session, changes)
    }

    /// Records the sizes of writes just applied to `session`.
    fn applied(&mut self, session: &str, changes: Vec<(String, Option<usize>)>) -> Result<(), StoreError> {
        let sizes = self.sizes(session)?;
        for (k, size) in changes {
            match size {
                Some(n) => sizes.insert(k, n),
                None => sizes.remove(&k),
            };
        }
        Ok(())
    }

    /// Applies a cell's writes and `attached` (a write to `tree`) in one
    /// transaction, after the same limit check as [`commit`](Self::commit)
    /// (not yet flushed). Either refusing writes nothing.
    pub(crate) fn commit_attached<E: From<StoreError>>(
        &mut self,
        session: &str,
        writes: &[(String, Option<StoredValue>)],
        tree: &sled::Tree,
        attached: &Attached<E>,
    ) -> Result<(), E> {
        self.touch(session)?;
        let changes = changes_of(writes);
        self.check(session, &changes)?;
        // Session values live in the default tree (`Db` derefs to it).
        let values: &sled::Tree = &self.db;
        let outcome = (values, tree).transaction(|(values, other)| {
            attached(other).map_err(ConflictableTransactionError::Abort)?;
            for (k, v) in writes {
                match v {
                    Some(v) => values.insert(db_key(session, k), encode(v))?,
                    None => values.remove(db_key(session, k))?,
                };
            }
            Ok(())
        });
        match outcome {
            Ok(()) => {}
            Err(TransactionError::Abort(e)) => return Err(e),
            Err(TransactionError::Storage(e)) => return Err(io(&e).into()),
        }
        Ok(self.applied(session, changes)?)
    }

    /// Starts session `to` with a copy of `from`'s values (not yet flushed).
    pub(super) fn fork(&mut self, from: &str, to: &str) -> Result<(), StoreError> {
        self.touch(from)?;
        self.touch(to)?;
        if !self.sizes(to)?.is_empty() {
            return Err(StoreError::SessionExists(to.to_owned()));
        }
        let prefix = session_prefix(from);
        let mut batch = sled::Batch::default();
        let mut copied = HashMap::new();
        for item in self.db.scan_prefix(&prefix) {
            let (k, v) = item.map_err(|e| io(&e))?;
            let key = String::from_utf8_lossy(&k[prefix.len()..]).into_owned();
            copied.insert(key.clone(), v.len().saturating_sub(1));
            batch.insert(db_key(to, &key), v.to_vec());
        }
        self.db.apply_batch(batch).map_err(|e| io(&e))?;
        let _ = self.sizes.insert(to.to_owned(), copied);
        Ok(())
    }

    /// Runs one bounded step of the retention sweep under way; returns
    /// whether it is finished (see [`Retention::sweep_step`]).
    ///
    /// # Errors
    /// Reading or writing the database failed.
    pub(super) fn sweep_step(&mut self) -> Result<bool, StoreError> {
        self.retention.sweep_step(&mut self.sizes)
    }
}
