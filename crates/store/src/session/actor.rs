//! The sled side of the session store: keys and encoding, the actor that
//! owns the write path (sizes, commits in order, group flushes) and `fork`.

use std::collections::HashMap;
use std::sync::Arc;

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};

use super::*;
use crate::lru::Lru;

pub(super) fn db_key(session: &str, key: &str) -> Vec<u8> {
    let mut k = session_prefix(session);
    k.extend_from_slice(key.as_bytes());
    k
}

pub(super) fn session_prefix(session: &str) -> Vec<u8> {
    raw_prefix(session.as_bytes())
}

/// The key prefix of a session's values: its length (big-endian `u32`),
/// then its bytes.
pub(super) fn raw_prefix(session: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(session.len() + 4 + 16);
    k.extend_from_slice(&u32::try_from(session.len()).unwrap_or(u32::MAX).to_be_bytes());
    k.extend_from_slice(session);
    k
}

pub(super) fn encode(v: &StoredValue) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.json.len() + 1);
    out.push(u8::from(v.network));
    out.extend_from_slice(v.json.as_bytes());
    out
}

pub(super) fn decode(bytes: &[u8]) -> Result<StoredValue, StoreError> {
    let (flag, json) = bytes.split_first().ok_or_else(|| StoreError::Io("an empty stored record".into()))?;
    let json = String::from_utf8(json.to_vec()).map_err(|_| StoreError::Io("a stored record is not UTF-8".into()))?;
    Ok(StoredValue { json, network: *flag == 1 })
}

/// Sorts a failure to open the database at `path` by what the user can do
/// about it: wait (locked), pick another place (unwritable), or repair it.
pub(super) fn open_error(path: &str, e: sled::Error) -> StoreError {
    use std::io::ErrorKind;
    match &e {
        // sled 0.34 reports a held lock only as this `Other` I/O error
        // ("could not acquire lock on …"), with no kind of its own.
        sled::Error::Io(io)
            if io.kind() == ErrorKind::Other && io.to_string().starts_with("could not acquire lock") =>
        {
            StoreError::Locked { path: path.to_owned() }
        }
        sled::Error::Io(io)
            if matches!(
                io.kind(),
                ErrorKind::PermissionDenied
                    | ErrorKind::NotADirectory
                    | ErrorKind::AlreadyExists
                    | ErrorKind::ReadOnlyFilesystem
                    | ErrorKind::NotFound
                    | ErrorKind::StorageFull
            ) =>
        {
            StoreError::Unwritable { path: path.to_owned(), reason: io.to_string() }
        }
        _ => StoreError::Open { path: path.to_owned(), reason: e.to_string() },
    }
}

pub(super) fn io(e: &sled::Error) -> StoreError {
    StoreError::Io(e.to_string())
}

pub(super) enum StoreMsg {
    Load {
        session: String,
        key: String,
        reply: RpcReplyPort<Result<Option<StoredValue>, StoreError>>,
    },
    Check {
        session: String,
        changes: Vec<(String, Option<usize>)>,
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    Commit {
        session: String,
        writes: Vec<(String, Option<StoredValue>)>,
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    Fork {
        from: String,
        to: String,
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    /// A commit made in one transaction with a write to another tree (a
    /// run's end record), which may refuse the whole commit.
    CommitAttached {
        session: String,
        writes: Vec<(String, Option<StoredValue>)>,
        tree: sled::Tree,
        attached: Attached,
        reply: RpcReplyPort<Result<(), RunStoreError>>,
    },
    /// Answers once everything applied so far is on disk, through the
    /// flusher (so concurrent run saves share flushes).
    Flush {
        reply: RpcReplyPort<Result<(), StoreError>>,
    },
    /// Starts a retention sweep unless one is under way.
    Sweep,
    /// Continues the sweep under way by one step.
    SweepStep,
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

pub(super) struct StoreActor;

/// What the actor starts with.
pub(super) struct StoreArgs {
    pub(super) db: sled::Db,
    pub(super) gate: FlushGate,
    pub(super) limits: StoreLimits,
    pub(super) retention: Option<Duration>,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) cache_sessions: usize,
}

pub(super) struct StoreState {
    pub(super) db: sled::Db,
    pub(super) gate: FlushGate,
    /// Session → when it was last seen (big-endian unix seconds).
    pub(super) seen_tree: sled::Tree,
    pub(super) limits: StoreLimits,
    /// In whole seconds; `None` keeps sessions forever.
    pub(super) retention: Option<u64>,
    pub(super) clock: Arc<dyn Clock>,
    /// Per session: bytes of each key's value, loaded on first use.
    pub(super) sizes: Lru<HashMap<String, usize>>,
    /// Per recently seen session: when, and when that was written.
    pub(super) seen: Lru<retention::Seen>,
    pub(super) sweep: Option<retention::Sweep>,
    /// Sends `Sweep` periodically; stopped with the actor.
    pub(super) timer: Option<tokio::task::JoinHandle<()>>,
    /// Made on the first commit (the actor runs on a tokio runtime then).
    pub(super) flusher: Option<Flusher>,
}

/// Serialises every flush of one database: sled 0.34 can deadlock when
/// several flushes run at once (spacejam/sled#1308), and besides the
/// store's flusher the node pairings and the shutdown flush write to the
/// same database. A blocking mutex, held only on blocking threads.
/// It also counts the flushes (each is an `fsync` of the database), for
/// the group-commit measurements.
#[derive(Clone, Debug, Default)]
pub(crate) struct FlushGate(Arc<(std::sync::Mutex<()>, std::sync::atomic::AtomicU64)>);

impl FlushGate {
    /// Flushes `tree` (or the whole database, a `Db` derefs to its default
    /// tree and flushes all) while no other flush of it runs. Blocking.
    pub(crate) fn flush(&self, tree: &sled::Tree) -> sled::Result<()> {
        let _only = self.0.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.0.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tree.flush().map(|_| ())
    }

    /// Flushes so far.
    pub(crate) fn flushes(&self) -> u64 {
        self.0.1.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// A commit (or fork) waiting for its writes to be durable: answers its
/// caller with the flush's outcome (boxed, so commits with different reply
/// types share the one flusher).
pub(super) type FlushWaiter = Box<dyn FnOnce(Result<(), StoreError>) + Send>;

/// The part of a [`StoreMsg::CommitAttached`] done on the other tree, in
/// the same transaction as the session's writes. `Fn`, not `FnOnce`: sled
/// may run a transaction's closure again. An error aborts the commit:
/// nothing of it is written.
pub(crate) type Attached =
    Box<dyn Fn(&sled::transaction::TransactionalTree) -> Result<(), RunStoreError> + Send + Sync>;

/// The store's only flusher. sled 0.34 can deadlock when several flushes
/// run at once (spacejam/sled#1308; seen here under a soak of concurrent
/// commits), so commits never flush themselves: each hands its reply to
/// this task, which runs one blocking flush at a time and answers every
/// commit that was applied before that flush began (group commit).
#[derive(Clone)]
pub(super) struct Flusher(tokio::sync::mpsc::UnboundedSender<FlushWaiter>);

impl Flusher {
    pub(super) fn start(db: sled::Db, gate: FlushGate) -> Self {
        // Unbounded: each waiter is a cell blocked on its commit, so live
        // cells bound the queue.
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<FlushWaiter>();
        tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                let mut waiting = vec![first];
                while let Ok(next) = rx.try_recv() {
                    waiting.push(next);
                }
                let (db, gate) = (db.clone(), gate.clone());
                let flushed = tokio::task::spawn_blocking(move || gate.flush(&db).map_err(|e| e.to_string()))
                    .await
                    .unwrap_or_else(|e| Err(format!("the flush task failed: {e}")));
                for reply in waiting {
                    reply(flushed.clone().map_err(StoreError::Io));
                }
            }
        });
        Self(tx)
    }

    /// Answers `reply` once everything applied so far is on disk.
    pub(super) fn after_flush(&self, reply: FlushWaiter) {
        if let Err(tokio::sync::mpsc::error::SendError(reply)) = self.0.send(reply) {
            reply(Err(StoreError::Io("the store's flusher has stopped".into())));
        }
    }

    /// [`after_flush`](Self::after_flush) for a reply port.
    pub(super) fn reply_after_flush<E: From<StoreError> + Send + std::fmt::Debug + 'static>(
        &self,
        reply: RpcReplyPort<Result<(), E>>,
    ) {
        self.after_flush(Box::new(move |flushed| {
            let _ = reply.send(flushed.map_err(E::from));
        }));
    }
}

impl StoreState {
    pub(super) fn new(args: StoreArgs) -> Result<Self, StoreError> {
        let seen_tree = args.db.open_tree(retention::SEEN_TREE).map_err(|e| io(&e))?;
        Ok(Self {
            db: args.db,
            gate: args.gate,
            seen_tree,
            limits: args.limits,
            retention: args.retention.map(|r| r.as_secs()),
            clock: args.clock,
            sizes: Lru::new(args.cache_sessions),
            seen: Lru::new(retention::SEEN_CACHE_SESSIONS),
            sweep: None,
            timer: None,
            flusher: None,
        })
    }

    pub(super) fn flusher(&mut self) -> &Flusher {
        let (db, gate) = (&self.db, &self.gate);
        self.flusher.get_or_insert_with(|| Flusher::start(db.clone(), gate.clone()))
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
    pub(super) fn total_after(
        &mut self,
        session: &str,
        changes: &[(String, Option<usize>)],
    ) -> Result<usize, StoreError> {
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

    pub(super) fn check(&mut self, session: &str, changes: &[(String, Option<usize>)]) -> Result<(), StoreError> {
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
        let changes: Vec<(String, Option<usize>)> =
            writes.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.json.len()))).collect();
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
    pub(super) fn applied(&mut self, session: &str, changes: Vec<(String, Option<usize>)>) -> Result<(), StoreError> {
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
    pub(super) fn commit_attached(
        &mut self,
        session: &str,
        writes: &[(String, Option<StoredValue>)],
        tree: &sled::Tree,
        attached: &Attached,
    ) -> Result<(), RunStoreError> {
        use sled::Transactional;
        use sled::transaction::{ConflictableTransactionError, TransactionError};
        self.touch(session)?;
        let changes: Vec<(String, Option<usize>)> =
            writes.iter().map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.json.len()))).collect();
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

    /// Runs one sweep step and, while unfinished, queues the next behind
    /// the requests already waiting.
    pub(super) fn sweep_and_continue(&mut self, myself: &ActorRef<StoreMsg>) {
        match self.sweep_step() {
            Ok(true) => {}
            Ok(false) => {
                if let Err(e) = myself.send_message(StoreMsg::SweepStep) {
                    tracing::warn!(error = %e, "session store: a retention sweep could not continue");
                    self.sweep = None;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "session store: a retention sweep failed; the next one starts over");
                self.sweep = None;
            }
        }
    }
}

impl Actor for StoreActor {
    type Msg = StoreMsg;
    type State = StoreState;
    type Arguments = StoreArgs;

    async fn pre_start(&self, myself: ActorRef<StoreMsg>, args: StoreArgs) -> Result<StoreState, ActorProcessingErr> {
        let mut state = StoreState::new(args)?;
        if let Some(retention) = state.retention {
            // The first sweep runs once the actor is up, then periodically.
            myself.send_message(StoreMsg::Sweep)?;
            state.timer = Some(myself.send_interval(retention::sweep_interval(retention), || StoreMsg::Sweep));
        }
        Ok(state)
    }

    async fn post_stop(&self, _: ActorRef<StoreMsg>, state: &mut StoreState) -> Result<(), ActorProcessingErr> {
        if let Some(timer) = state.timer.take() {
            timer.abort();
        }
        Ok(())
    }

    async fn handle(
        &self,
        myself: ActorRef<StoreMsg>,
        msg: StoreMsg,
        state: &mut StoreState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            StoreMsg::Load { session, key, reply } => {
                let _ = reply.send(state.load(&session, &key));
            }
            StoreMsg::Check { session, changes, reply } => {
                let _ = reply.send(state.check_changes(&session, &changes));
            }
            StoreMsg::Commit { session, writes, reply } => {
                if let Err(e) = state.commit(&session, &writes) {
                    let _ = reply.send(Err(e));
                    return Ok(());
                }
                // The batch is applied in commit order; durability is waited
                // for off the mailbox, so other sessions are not held up.
                state.flusher().reply_after_flush(reply);
            }
            StoreMsg::CommitAttached { session, writes, tree, attached, reply } => {
                match state.commit_attached(&session, &writes, &tree, &attached) {
                    Ok(()) => state.flusher().reply_after_flush(reply),
                    Err(e) => {
                        let _ = reply.send(Err(e));
                    }
                }
            }
            StoreMsg::Fork { from, to, reply } => match fork(state, &from, &to) {
                Ok(()) => state.flusher().reply_after_flush(reply),
                Err(e) => {
                    let _ = reply.send(Err(e));
                }
            },
            StoreMsg::Flush { reply } => state.flusher().reply_after_flush(reply),
            StoreMsg::Sweep => {
                if state.start_sweep() {
                    state.sweep_and_continue(&myself);
                }
            }
            StoreMsg::SweepStep => state.sweep_and_continue(&myself),
            #[cfg(feature = "test-hooks")]
            StoreMsg::Crash => panic!("session store: crash requested by a test hook"),
        }
        Ok(())
    }
}

pub(super) fn fork(state: &mut StoreState, from: &str, to: &str) -> Result<(), StoreError> {
    state.touch(from)?;
    state.touch(to)?;
    if !state.sizes(to)?.is_empty() {
        return Err(StoreError::SessionExists(to.to_owned()));
    }
    let prefix = session_prefix(from);
    let mut batch = sled::Batch::default();
    let mut copied = HashMap::new();
    for item in state.db.scan_prefix(&prefix) {
        let (k, v) = item.map_err(|e| io(&e))?;
        let key = String::from_utf8_lossy(&k[prefix.len()..]).into_owned();
        copied.insert(key.clone(), v.len().saturating_sub(1));
        batch.insert(db_key(to, &key), v.to_vec());
    }
    // Made durable by the flusher before the fork is answered.
    state.db.apply_batch(batch).map_err(|e| io(&e))?;
    let _ = state.sizes.insert(to.to_owned(), copied);
    Ok(())
}
