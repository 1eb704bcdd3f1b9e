//! Flushing a sled database: the gate every flush of it passes, and the
//! store actor's flusher, which groups the flushes of concurrent commits.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use ractor::RpcReplyPort;

use super::keys::io;
use crate::error::StoreError;

/// Serialises every flush of one database: sled 0.34 can deadlock when
/// several flushes run at once (spacejam/sled#1308), and besides the
/// store's flusher the node pairings and the shutdown flush write to the
/// same database. A blocking mutex, held only on blocking threads.
/// It also counts the flushes (each is an `fsync` of the database), for
/// the group-commit measurements.
#[derive(Clone, Debug, Default)]
pub(crate) struct FlushGate(Arc<(Mutex<()>, AtomicU64)>);

impl FlushGate {
    /// Flushes `tree` (or the whole database, a `Db` derefs to its default
    /// tree and flushes all) while no other flush of it runs. Blocking.
    pub(crate) fn flush(&self, tree: &sled::Tree) -> sled::Result<()> {
        let _only = self.0.0.lock().unwrap_or_else(PoisonError::into_inner);
        self.0.1.fetch_add(1, Ordering::Relaxed);
        tree.flush().map(|_| ())
    }

    /// Flushes so far.
    pub(crate) fn flushes(&self) -> u64 {
        self.0.1.load(Ordering::Relaxed)
    }
}

/// A commit (or fork) waiting for its writes to be durable: answers its
/// caller with the flush's outcome (boxed, so commits with different reply
/// types share the one flusher).
pub(super) type FlushWaiter = Box<dyn FnOnce(Result<(), StoreError>) + Send>;

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
                let flushed = tokio::task::spawn_blocking(move || gate.flush(&db).map_err(|e| io(&e)))
                    .await
                    .unwrap_or_else(|e| Err(StoreError::Io(format!("the flush task failed: {e}"))));
                for reply in waiting {
                    reply(flushed.clone());
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
