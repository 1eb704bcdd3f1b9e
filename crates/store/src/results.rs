//! The results cache: `results.save/load/delete`, scoped to one reply
//! (GA-6.5).
//!
//! A reply's results live until the reply ends. At most `max_entries`
//! results and `max_bytes` of JSON per reply; when full, saves fail and
//! nothing is evicted. Ids are random and never reused; a deleted or
//! expired id says so. A save into a reply that has ended (a cell of it
//! still running, or finishing, after the host ended it) is refused, so
//! nothing is kept that no end would ever free; a new cell of the reply
//! ([`ResultsCache::reopen_reply`]) opens it again.
//!
//! [`ResultsCache::stats`] counts what was saved and what is held now, for the
//! runtime's metrics.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::{Actor, ActorCell, ActorProcessingErr, ActorRef, RpcReplyPort};

use crate::session::StoredValue;

const RESULTS_TIMEOUT: Duration = Duration::from_secs(30);
/// Ended ids remembered for precise errors.
const TOMBSTONES: usize = 4096;
/// Ended replies remembered (as 64-bit keyed hashes: 8 bytes each plus the
/// set's overhead, under 1 MiB in all), so a late save into one is refused
/// rather than kept until the process ends. A cell parked while more than
/// this many other replies end could still save into its own ended reply
/// once resumed.
const ENDED_REPLIES: usize = 16_384;

/// What the results cache saved and holds: shared by every clone of a
/// [`ResultsCache`] and its actor (across restarts), read by the runtime's
/// metrics. Plain atomics, no lock.
#[derive(Debug, Default)]
pub(crate) struct ResultsStats {
    saves: AtomicU64,
    saved_bytes: AtomicU64,
    held_entries: AtomicU64,
    held_bytes: AtomicU64,
}

/// What a [`ResultsCache`] saved and holds, at one moment ([`ResultsCache::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultsStatsSnapshot {
    /// Results saved since start, explicit (`results.save`) and automatic
    /// (an oversized final value, GA-6.6) alike.
    pub saves: u64,
    /// Bytes of JSON of those saves.
    pub saved_bytes: u64,
    /// What this process holds in memory now; `None` on PostgreSQL, where
    /// results are rows of the shared database and the process holds none.
    pub held: Option<ResultsHeld>,
}

/// Results held in memory now: saved, and neither deleted nor expired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultsHeld {
    /// Saved results.
    pub entries: u64,
    /// Bytes of their JSON.
    pub bytes: u64,
}

impl ResultsStats {
    fn saved(&self, bytes: usize) {
        self.saves.fetch_add(1, Ordering::Relaxed);
        self.saved_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn hold(&self, entries: usize, bytes: usize) {
        self.held_entries.store(entries as u64, Ordering::Relaxed);
        self.held_bytes.store(bytes as u64, Ordering::Relaxed);
    }
}

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
    /// The reply ended: its results expired, and nothing more is saved in it.
    #[error(
        "Code Mode results of this reply have expired: the reply ended, so nothing more can be saved in it. Return the data instead, or a smaller part of it."
    )]
    ReplyEnded,
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
    ReopenReply {
        scope: Scope,
    },
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

struct ResultsActor;

struct ResultsState {
    limits: ResultsLimits,
    stats: Arc<ResultsStats>,
    scopes: HashMap<Scope, ReplyResults>,
    /// Where every live id lives, for "belongs to another reply".
    owners: HashMap<String, Scope>,
    tombstones: HashMap<String, bool>,
    tombstone_order: VecDeque<String>,
    /// Results held across all scopes, for [`ResultsStats`].
    entries: usize,
    bytes: usize,
    /// Hashes of the replies that ended (see [`ENDED_REPLIES`]), keyed per
    /// actor so a guest cannot aim for a collision.
    ended: HashSet<u64>,
    ended_order: VecDeque<u64>,
    hasher: RandomState,
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
    /// An empty cache; publishes that it holds nothing.
    fn new(limits: ResultsLimits, stats: Arc<ResultsStats>) -> Self {
        let state = Self {
            limits,
            stats,
            scopes: HashMap::new(),
            owners: HashMap::new(),
            tombstones: HashMap::new(),
            tombstone_order: VecDeque::new(),
            entries: 0,
            bytes: 0,
            ended: HashSet::new(),
            ended_order: VecDeque::new(),
            hasher: RandomState::new(),
        };
        state.publish();
        state
    }

    fn bury(&mut self, id: String, deleted: bool) {
        if self.tombstone_order.len() >= TOMBSTONES
            && let Some(old) = self.tombstone_order.pop_front()
        {
            self.tombstones.remove(&old);
        }
        self.tombstones.insert(id.clone(), deleted);
        self.tombstone_order.push_back(id);
    }

    fn scope_key(&self, scope: &Scope) -> u64 {
        self.hasher.hash_one(scope)
    }

    fn publish(&self) {
        self.stats.hold(self.entries, self.bytes);
    }

    fn save(&mut self, scope: Scope, value: StoredValue) -> Result<String, ResultsError> {
        if self.ended.contains(&self.scope_key(&scope)) {
            return Err(ResultsError::ReplyEnded);
        }
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
        let bytes = value.json.len();
        results.bytes += bytes;
        results.entries.insert(id.clone(), value);
        self.owners.insert(id.clone(), scope);
        self.entries += 1;
        self.bytes += bytes;
        self.stats.saved(bytes);
        self.publish();
        Ok(id)
    }

    fn delete(&mut self, scope: &Scope, id: String) {
        if let Some(results) = self.scopes.get_mut(scope)
            && let Some(v) = results.entries.remove(&id)
        {
            results.bytes -= v.json.len();
            self.entries -= 1;
            self.bytes -= v.json.len();
        }
        self.owners.remove(&id);
        self.bury(id, true);
        self.publish();
    }

    fn end(&mut self, scope: &Scope) {
        let key = self.scope_key(scope);
        if self.ended.insert(key) {
            if self.ended_order.len() >= ENDED_REPLIES
                && let Some(old) = self.ended_order.pop_front()
            {
                self.ended.remove(&old);
            }
            self.ended_order.push_back(key);
        }
        if let Some(results) = self.scopes.remove(scope) {
            self.entries -= results.entries.len();
            self.bytes -= results.bytes;
            for id in results.entries.into_keys() {
                self.owners.remove(&id);
                self.bury(id, false);
            }
        }
        self.publish();
    }

    /// A new cell of `scope` starts: the reply is in use again. Its
    /// hash stays in the order queue until it ages out, harmlessly.
    fn reopen(&mut self, scope: &Scope) {
        let key = self.scope_key(scope);
        self.ended.remove(&key);
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
    type Arguments = (ResultsLimits, Arc<ResultsStats>);

    async fn pre_start(
        &self,
        _: ActorRef<ResultsMsg>,
        (limits, stats): Self::Arguments,
    ) -> Result<ResultsState, ActorProcessingErr> {
        // A restarted actor starts empty: what the crashed one held is gone.
        Ok(ResultsState::new(limits, stats))
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
                    state.delete(&scope, id);
                    true
                });
                let _ = reply.send(result);
            }
            ResultsMsg::EndReply { scope } => state.end(&scope),
            ResultsMsg::ReopenReply { scope } => state.reopen(&scope),
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
    stats: Arc<ResultsStats>,
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
            stats: Arc::default(),
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
        Self { name, limits, stats: Arc::default(), pg: Some(pg) }
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
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let held = ResultsHeld { entries: load(&self.stats.held_entries), bytes: load(&self.stats.held_bytes) };
        ResultsStatsSnapshot {
            saves: load(&self.stats.saves),
            saved_bytes: load(&self.stats.saved_bytes),
            held: self.has_actor().then_some(held),
        }
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
        let args = (self.limits, Arc::clone(&self.stats));
        Actor::spawn_linked(Some(self.name.clone()), ResultsActor, args, supervisor)
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
            let saved = crate::postgres::results::save(pg, &self.limits, &scope, &value).await;
            if saved.is_ok() {
                self.stats.saved(value.json.len());
            }
            return saved;
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

    /// A new cell of the reply is about to start: if the reply had ended,
    /// saves into it are accepted again (a host may reuse a reply id after
    /// ending it). Cells of the reply admitted before its end are refused
    /// only until then. Does nothing on PostgreSQL, which keeps no memory
    /// of ended replies: there a late save's row is deleted by the
    /// retention sweep.
    pub fn reopen_reply(&self, scope: Scope) {
        if !self.has_actor() {
            return;
        }
        if let Some(actor) = ActorRef::<ResultsMsg>::where_is(self.name.clone()) {
            let _ = actor.send_message(ResultsMsg::ReopenReply { scope });
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(reply: usize) -> Scope {
        Scope { session: "s".into(), reply: format!("r{reply}") }
    }

    fn value(json: &str) -> StoredValue {
        StoredValue { json: json.into(), network: false }
    }

    fn held(stats: &ResultsStats) -> (u64, u64) {
        (stats.held_entries.load(Ordering::Relaxed), stats.held_bytes.load(Ordering::Relaxed))
    }

    #[test]
    fn the_gauges_follow_saves_deletes_and_ends_and_a_refused_save_counts_nowhere() {
        let stats = Arc::new(ResultsStats::default());
        stats.hold(7, 7); // what a crashed actor had published
        let mut state = ResultsState::new(ResultsLimits { max_entries: 2, max_bytes: 10 }, Arc::clone(&stats));
        assert_eq!(held(&stats), (0, 0), "a fresh actor holds nothing");
        let a = state.save(scope(1), value("1234")).unwrap();
        state.save(scope(1), value("12")).unwrap();
        assert!(matches!(state.save(scope(1), value("1")), Err(ResultsError::Full(_))));
        state.save(scope(2), value("123")).unwrap();
        assert_eq!(held(&stats), (3, 9));
        state.delete(&scope(1), a);
        assert_eq!(held(&stats), (2, 5));
        state.end(&scope(1));
        assert_eq!(held(&stats), (1, 3));
        assert!(matches!(state.save(scope(1), value("1")), Err(ResultsError::ReplyEnded)));
        assert_eq!(held(&stats), (1, 3));
        assert_eq!((stats.saves.load(Ordering::Relaxed), stats.saved_bytes.load(Ordering::Relaxed)), (3, 9));
        state.reopen(&scope(1));
        state.save(scope(1), value("1")).unwrap();
        assert_eq!(held(&stats), (2, 4));
    }

    #[test]
    fn exactly_the_last_ended_replies_are_remembered() {
        let mut state = ResultsState::new(ResultsLimits::default(), Arc::default());
        for reply in 0..ENDED_REPLIES {
            state.end(&scope(reply));
        }
        assert!(matches!(state.save(scope(0), value("1")), Err(ResultsError::ReplyEnded)), "at the bound");
        state.end(&scope(ENDED_REPLIES));
        assert_eq!(state.ended.len(), ENDED_REPLIES);
        // One over: the oldest is forgotten, the next oldest still refused.
        assert!(state.save(scope(0), value("1")).is_ok());
        assert!(matches!(state.save(scope(1), value("1")), Err(ResultsError::ReplyEnded)));
        // Ending a reply twice takes one place.
        state.end(&scope(ENDED_REPLIES));
        assert_eq!(state.ended_order.len(), ENDED_REPLIES);
    }
}
