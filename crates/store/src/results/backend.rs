//! The seam between the [`ResultsCache`](super::ResultsCache) handle and
//! where results live: every backend implements [`ResultsBackend`], and
//! the handle calls it without knowing which one it has. `suite.rs` checks
//! that each keeps the same meaning.

use std::future::Future;
use std::pin::Pin;

use ractor::ActorCell;

use super::types::{ResultsError, Scope};
use crate::value::StoredValue;

/// A boxed future a [`ResultsBackend`] returns (the trait is used as `dyn`).
pub(crate) type ResultsFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, ResultsError>> + Send + 'a>>;

/// One place results live. Every method has the meaning the
/// [`ResultsCache`](super::ResultsCache) method of the same name documents.
pub(crate) trait ResultsBackend: Send + Sync + std::fmt::Debug {
    /// Saves a value; returns its new id.
    fn save(&self, scope: Scope, value: StoredValue) -> ResultsFuture<'_, String>;

    /// A saved value.
    fn load(&self, scope: Scope, id: String) -> ResultsFuture<'_, StoredValue>;

    /// Deletes a saved value, freeing its capacity.
    fn delete(&self, scope: Scope, id: String) -> ResultsFuture<'_, bool>;

    /// Ends a reply without waiting.
    fn end_reply(&self, scope: Scope);

    /// Ends a reply and waits until its results are gone.
    fn end_reply_wait(&self, scope: Scope) -> ResultsFuture<'_, ()>;

    /// A new cell of the reply is about to start.
    fn reopen_reply(&self, scope: Scope);

    /// Starts what serves requests (an actor, linked to `supervisor` when
    /// given), if there is one.
    fn start(&self, supervisor: Option<ActorCell>) -> ResultsFuture<'_, ()>;

    /// Whether [`start`](Self::start) registers an actor to supervise
    /// (then the results are held in this process).
    fn has_actor(&self) -> bool;

    /// Makes the actor panic, if there is one; returns whether it was told.
    #[cfg(feature = "test-hooks")]
    fn crash_for_test(&self) -> bool;
}
