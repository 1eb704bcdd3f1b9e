//! The results cache: `results.save/load/delete`, scoped to one reply
//! (GA-6.5).
//!
//! A reply's results live until the reply ends. At most `max_entries`
//! results and `max_bytes` of JSON per reply; when full, saves fail and
//! nothing is evicted. Ids are random and never reused; a deleted or
//! expired id says so.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::{Actor, ActorCell, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::session::StoredValue;

const RESULTS_TIMEOUT: Duration = Duration::from_secs(30);
/// Ended ids remembered for precise errors.
const TOMBSTONES: usize = 4096;

/// The cache's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultsLimits {
    /// Results per reply.
    pub max_entries: usize,
    /// Bytes of JSON per reply.
    pub max_bytes: usize,
}

impl Default for ResultsLimits {
    fn default() -> Self {
        Self { max_entries: 64, max_bytes: 10 * 1024 * 1024 }
    }
}

/// Which reply results belong to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scope {
    /// The session.
    pub session: String,
    /// The reply within it.
    pub reply: String,
}

/// Why a results operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResultsError {
    /// The reply's cache is full.
    #[error(
        "Code Mode results capacity exceeded ({0}); delete saved references or save a smaller value. Existing references are unchanged."
    )]
    Full(String),
    /// The id was never saved in this reply, or its reply ended.
    #[error("Code Mode result is unavailable or expired; fetch fresh data if needed.")]
    Unavailable,
    /// The id was deleted.
    #[error("Code Mode result {0} was deleted; fetch fresh data if needed.")]
    Deleted(String),
    /// The id belongs to another reply or session.
    #[error("Code Mode results belong to a different run or session.")]
    OtherScope,
    /// The id is not a non-empty string.
    #[error("results reference id must be a non-empty string.")]
    BadId,
    /// The actor is not running.
    #[error("the results cache is unavailable; retry in a moment")]
    ActorUnavailable,
    /// A PostgreSQL statement failed, or no pooled connection came in time.
    #[error("the results cache's database failed: {0}; retry in a moment")]
    Database(String),
}

#[derive(Default)]
struct ReplyResults {
    entries: HashMap<String, StoredValue>,
    bytes: usize,
}

enum ResultsMsg {
    Save {
        scope: Scope,
        value: StoredValue,
        reply: RpcReplyPort<Result<String, ResultsError>>,
    },
    Load {
        scope: Scope,
        id: String,
        reply: RpcReplyPort<Result<StoredValue, ResultsError>>,
    },
    Delete {
        scope: Scope,
        id: String,
        reply: RpcReplyPort<Result<bool, ResultsError>>,
    },
    EndReply {
        scope: Scope,
    },
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

struct ResultsActor;

struct ResultsState {
    limits: ResultsLimits,
    scopes: HashMap<Scope, ReplyResults>,
    /// Where every live id lives, for "belongs to another reply".
    owners: HashMap<String, Scope>,
    tombstones: HashMap<String, bool>,
    tombstone_order: VecDeque<String>,
}

pub(crate) fn new_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        bytes.copy_from_slice(&t.to_le_bytes());
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("result_{hex}")
}

impl ResultsState {
    fn bury(&mut self, id: String, deleted: bool) {
        if self.tombstone_order.len() >= TOMBSTONES
            && let Some(old) = self.tombstone_order.pop_front()
        {
            self.tombstones.remove(&old);
        }
        self.tombstones.insert(id.clone(), deleted);
        self.tombstone_order.push_back(id);
    }

    fn save(&mut self, scope: Scope, value: StoredValue) -> Result<String, ResultsError> {
        let limits = self.limits;
        let results = self.scopes.entry(scope.clone()).or_default();
        if results.entries.len() >= limits.max_entries {
            return Err(ResultsError::Full(format!("{} references", limits.max_entries)));
        }
        if results.bytes + value.json.len() > limits.max_bytes {
            return Err(ResultsError::Full(format!(
                "{} of {} bytes used, {} more requested",
                results.bytes,
                limits.max_bytes,
                value.json.len()
            )));
        }
        let id = new_id();
        results.bytes += value.json.len();
        results.entries.insert(id.clone(), value);
        self.owners.insert(id.clone(), scope);
        Ok(id)
    }

    fn find(&self, scope: &Scope, id: &str) -> Result<(), ResultsError> {
        if id.trim().is_empty() {
            return Err(ResultsError::BadId);
        }
        match self.owners.get(id) {
            Some(owner) if owner == scope => Ok(()),
            Some(_) => Err(ResultsError::OtherScope),
            None if self.tombstones.get(id) == Some(&true) => Err(ResultsError::Deleted(id.to_owned())),
            None => Err(ResultsError::Unavailable),
        }
    }
}

impl Actor for ResultsActor {
    type Msg = ResultsMsg;
    type State = ResultsState;
    type Arguments = ResultsLimits;

    async fn pre_start(
        &self,
        _: ActorRef<ResultsMsg>,
        limits: ResultsLimits,
    ) -> Result<ResultsState, ActorProcessingErr> {
        Ok(ResultsState {
            limits,
            scopes: HashMap::new(),
            owners: HashMap::new(),
            tombstones: HashMap::new(),
            tombstone_order: VecDeque::new(),
        })
    }

    async fn handle(
        &self,
        _: ActorRef<ResultsMsg>,
        msg: ResultsMsg,
        state: &mut ResultsState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            ResultsMsg::Save { scope, value, reply } => {
                let _ = reply.send(state.save(scope, value));
            }
            ResultsMsg::Load { scope, id, reply } => {
                let result = state.find(&scope, &id).and_then(|()| {
                    state.scopes.get(&scope).and_then(|r| r.entries.get(&id)).cloned().ok_or(ResultsError::Unavailable)
                });
                let _ = reply.send(result);
            }
            ResultsMsg::Delete { scope, id, reply } => {
                let result = state.find(&scope, &id).map(|()| {
                    if let Some(results) = state.scopes.get_mut(&scope)
                        && let Some(v) = results.entries.remove(&id)
                    {
                        results.bytes -= v.json.len();
                    }
                    state.owners.remove(&id);
                    state.bury(id, true);
                    true
                });
                let _ = reply.send(result);
            }
            ResultsMsg::EndReply { scope } => {
                if let Some(results) = state.scopes.remove(&scope) {
                    for id in results.entries.into_keys() {
                        state.owners.remove(&id);
                        state.bury(id, false);
                    }
                }
            }
            #[cfg(feature = "test-hooks")]
            ResultsMsg::Crash => panic!("results cache: crash requested by a test hook"),
        }
        Ok(())
    }
}

/// A handle to the results cache.
#[derive(Clone, Debug)]
pub struct ResultsCache {
    name: String,
    limits: ResultsLimits,
    /// On PostgreSQL: results shared by every process, no actor.
    #[cfg(feature = "postgres")]
    pg: Option<crate::Pg>,
}

impl ResultsCache {
    /// A handle to the cache actor registered as `name`.
    #[must_use]
    pub fn new(name: String, limits: ResultsLimits) -> Self {
        Self {
            name,
            limits,
            #[cfg(feature = "postgres")]
            pg: None,
        }
    }

    /// The cache on PostgreSQL (`pg`, already migrated): the same API and
    /// meaning, with a reply's results visible to every process on the
    /// database (a run resumed elsewhere still finds them) and surviving
    /// restarts until the reply ends. `name` only labels the handle.
    #[cfg(feature = "postgres")]
    #[must_use]
    pub fn postgres(pg: crate::Pg, name: String, limits: ResultsLimits) -> Self {
        Self { name, limits, pg: Some(pg) }
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

    /// Whether this cache runs an actor (in memory does; PostgreSQL
    /// answers every request with statements and has none to supervise).
    pub fn has_actor(&self) -> bool {
        #[cfg(feature = "postgres")]
        if self.pg.is_some() {
            return false;
        }
        true
    }

    /// Starts the cache actor linked to `supervisor` (again after a crash:
    /// the results of the crashed actor are gone, and say so).
    ///
    /// # Errors
    /// The actor could not be spawned.
    pub async fn start_actor(&self, supervisor: ActorCell) -> Result<(), String> {
        #[cfg(feature = "postgres")]
        if self.pg.is_some() {
            // Nothing to run: every request is a statement.
            return Ok(());
        }
        Actor::spawn_linked(Some(self.name.clone()), ResultsActor, self.limits, supervisor)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Makes the actor panic, so its supervisor restarts it (supervision
    /// tests only); returns whether the request was sent.
    #[doc(hidden)]
    #[cfg(feature = "test-hooks")]
    pub fn crash_for_test(&self) -> bool {
        ActorRef::<ResultsMsg>::where_is(self.name.clone()).is_some_and(|a| a.send_message(ResultsMsg::Crash).is_ok())
    }

    async fn ask<T: Send + 'static>(
        &self,
        build: impl FnOnce(RpcReplyPort<Result<T, ResultsError>>) -> ResultsMsg,
    ) -> Result<T, ResultsError> {
        let actor: ActorRef<ResultsMsg> =
            ActorRef::where_is(self.name.clone()).ok_or(ResultsError::ActorUnavailable)?;
        match actor.call(build, Some(RESULTS_TIMEOUT)).await {
            Ok(CallResult::Success(result)) => result,
            _ => Err(ResultsError::ActorUnavailable),
        }
    }

    /// Saves a value; returns its new id.
    ///
    /// # Errors
    /// The reply's cache is full.
    pub async fn save(&self, scope: Scope, value: StoredValue) -> Result<String, ResultsError> {
        #[cfg(feature = "postgres")]
        if let Some(pg) = &self.pg {
            return crate::postgres::results::save(pg, &self.limits, &scope, &value).await;
        }
        self.ask(|reply| ResultsMsg::Save { scope, value, reply }).await
    }

    /// A saved value.
    ///
    /// # Errors
    /// Unknown, deleted, expired or foreign ids.
    pub async fn load(&self, scope: Scope, id: String) -> Result<StoredValue, ResultsError> {
        #[cfg(feature = "postgres")]
        if let Some(pg) = &self.pg {
            return crate::postgres::results::load(pg, &scope, &id).await;
        }
        self.ask(|reply| ResultsMsg::Load { scope, id, reply }).await
    }

    /// Deletes a saved value, freeing its capacity.
    ///
    /// # Errors
    /// Unknown, deleted, expired or foreign ids.
    pub async fn delete(&self, scope: Scope, id: String) -> Result<bool, ResultsError> {
        #[cfg(feature = "postgres")]
        if let Some(pg) = &self.pg {
            return crate::postgres::results::delete(pg, &scope, &id).await;
        }
        self.ask(|reply| ResultsMsg::Delete { scope, id, reply }).await
    }

    /// Ends a reply: its results expire. Does not wait: on PostgreSQL the
    /// deletion runs as a task of the current tokio runtime (see
    /// [`end_reply_wait`](Self::end_reply_wait) to wait for it).
    pub fn end_reply(&self, scope: Scope) {
        #[cfg(feature = "postgres")]
        if let Some(pg) = &self.pg {
            let pg = pg.clone();
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(async move {
                        if let Err(e) = crate::postgres::results::end_reply(&pg, &scope).await {
                            tracing::warn!(error = %e, "results cache: a reply's results could not be deleted");
                        }
                    });
                }
                Err(_) => tracing::warn!("results cache: a reply ended outside a tokio runtime; its results were kept"),
            }
            return;
        }
        self.send_end(scope);
    }

    /// Ends a reply and waits until its results are gone (on the actor:
    /// until the request is queued ahead of any later one).
    ///
    /// # Errors
    /// A database failure (the results stay until the reply is ended again).
    pub async fn end_reply_wait(&self, scope: Scope) -> Result<(), ResultsError> {
        #[cfg(feature = "postgres")]
        if let Some(pg) = &self.pg {
            return crate::postgres::results::end_reply(pg, &scope).await;
        }
        self.send_end(scope);
        Ok(())
    }

    fn send_end(&self, scope: Scope) {
        if let Some(actor) = ActorRef::<ResultsMsg>::where_is(self.name.clone()) {
            let _ = actor.send_message(ResultsMsg::EndReply { scope });
        }
    }
}

/// The `results.d.ts` virtual file: the results contract (GA-6.5).
#[must_use]
pub fn results_declaration(limits: &ResultsLimits) -> String {
    format!(
        r#"/** A saved result: pass `id` to results.load in a later cell of this reply. */
type CodeModeResultReference = {{
  id: string;
  /** UTF-8 bytes of the value's compact JSON. */
  bytes: number;
  /** Array length, object key count, or 1 for a scalar. */
  count: number;
  /** Observed, bounded sample shapes and nested array counts; not a schema. */
  shape: string;
  /** The whole value as JSON when it is at most 256 bytes, else a bounded sample. */
  preview: string;
  previewTruncated: boolean;
}};

/*
 * Limits and lifetime:
 * - at most {entries} references and {bytes} bytes of JSON per reply; no eviction: when full,
 *   save fails until you delete references;
 * - references expire when the reply ends (and on abort or restart); ids are never reused;
 * - unavailable in restartSafe and headless cells;
 * - an oversized final object or array of an interactive cell is saved automatically and
 *   returned as {{ truncated: true, reference, guidance }};
 * - previews walk at most 128 values, 5 levels and 16 keys per object, list the 8 largest
 *   arrays, sample 2 levels and 6 fields, and the whole descriptor stays within 768 bytes.
 */
declare const results: {{
  /** Save a value for later cells of this reply: `return await results.save(await tool({{}}));` */
  save(value: unknown): Promise<CodeModeResultReference>;
  /** A detached JSON copy of a saved value. */
  load(id: string): Promise<unknown>;
  /** Delete a saved value and free its capacity. */
  delete(id: string): Promise<boolean>;
}};
"#,
        entries = limits.max_entries,
        bytes = limits.max_bytes
    )
}
