//! The seam between the [`SessionStore`](super::SessionStore) handle and
//! where sessions live: every backend implements [`SessionBackend`], and
//! the handle calls it without knowing which one it has. `suite.rs` checks
//! that each keeps the same meaning.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use ractor::ActorCell;

use super::retention::Clock;
use crate::error::StoreError;
use crate::value::{StoreLimits, StoredValue};

/// A boxed future a [`SessionBackend`] returns (the trait is used as `dyn`).
pub(crate) type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A cell's writes to one session: key and value (`None` deletes).
pub(crate) type Writes = Vec<(String, Option<StoredValue>)>;

/// Changes to check against a session's limit: key and new value size
/// (`None` deletes).
pub(crate) type Changes = Vec<(String, Option<usize>)>;

/// What a handle was configured with. The handle owns it (its builder
/// methods change it before the store starts) and hands it to every
/// request, so a backend keeps no copy that could go stale.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// Key, value and session bounds.
    pub limits: StoreLimits,
    /// How long an unused session is kept; `None`: forever.
    pub retention: Option<Duration>,
    /// What retention is measured with.
    pub clock: Arc<dyn Clock>,
}

/// One place sessions live. Every method has the meaning the
/// [`SessionStore`](super::SessionStore) method of the same name documents.
pub(crate) trait SessionBackend: Send + Sync + std::fmt::Debug {
    /// The committed value of `key` in `session`.
    fn load<'a>(&'a self, settings: &Settings, session: &'a str, key: &'a str) -> StoreFuture<'a, Option<StoredValue>>;

    /// Whether `changes` on top of the committed session fit its limit.
    fn check<'a>(&'a self, settings: &Settings, session: &'a str, changes: Changes) -> StoreFuture<'a, ()>;

    /// Applies a cell's writes atomically, durable when it resolves; applied
    /// even if the future is dropped once sent.
    fn commit<'a>(&'a self, settings: &Settings, session: &'a str, writes: Writes) -> StoreFuture<'a, ()>;

    /// Starts `to` with a copy of `from`'s committed values.
    fn fork<'a>(&'a self, settings: &Settings, from: &'a str, to: &'a str) -> StoreFuture<'a, ()>;

    /// Resolves once every write so far is durable.
    fn flush(&self) -> StoreFuture<'_, ()>;

    /// Starts (or restarts) what serves requests: an actor linked to
    /// `supervisor`, or a retention sweeper task.
    fn start(&self, settings: &Settings, supervisor: Option<ActorCell>) -> StoreFuture<'_, ()>;

    /// Whether [`start`](Self::start) registers an actor to supervise.
    fn has_actor(&self) -> bool;

    /// Whether many processes share what is stored.
    fn shared(&self) -> bool;

    /// Whether what is stored outlives this process.
    fn persists(&self) -> bool;

    /// Flushes to disk (`fsync`) since the store opened.
    fn flushes(&self) -> u64;

    /// Makes the actor panic, if there is one; returns whether it was told.
    #[cfg(feature = "test-hooks")]
    fn crash_for_test(&self) -> bool;
}
