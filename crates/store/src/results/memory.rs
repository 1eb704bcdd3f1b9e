//! Results held in this process: one actor holds every reply's results
//! in memory (the default, beside a sled session store). Its state and the
//! plain functions it calls are here, unit-tested without the actor.
//!
//! A save into a reply that has ended (a cell of it still running, or
//! finishing, after the host ended it) is refused, so nothing is kept that
//! no end would ever free; a new cell of the reply reopens it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;
use std::time::Duration;

use ractor::rpc::CallResult;
use ractor::{Actor, ActorCell, ActorProcessingErr, ActorRef, RpcReplyPort};

use super::backend::{ResultsBackend, ResultsFuture};
use super::types::{ResultsError, ResultsLimits, ResultsStats, Scope, new_id};
use crate::value::StoredValue;

/// How long a request to the actor may take.
const RESULTS_TIMEOUT: Duration = Duration::from_secs(30);
/// Ended ids remembered for precise errors.
const TOMBSTONES: usize = 4096;
/// Ended replies remembered (as 64-bit keyed hashes: 8 bytes each plus the
/// set's overhead, under 1 MiB in all), so a late save into one is refused
/// rather than kept until the process ends. A cell parked while more than
/// this many other replies end could still save into its own ended reply
/// once resumed.
const ENDED_REPLIES: usize = 16_384;

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
        let id = new_id()?;
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

/// The in-memory backend of a [`ResultsCache`](super::ResultsCache): the
/// name its actor registers under (so a restarted actor is found), and
/// what the actor starts with.
#[derive(Clone, Debug)]
pub(super) struct MemoryResults {
    name: String,
    limits: ResultsLimits,
    stats: Arc<ResultsStats>,
}

impl MemoryResults {
    pub(super) fn new(name: String, limits: ResultsLimits, stats: Arc<ResultsStats>) -> Self {
        Self { name, limits, stats }
    }

    fn actor(&self) -> Option<ActorRef<ResultsMsg>> {
        ActorRef::where_is(self.name.clone())
    }

    async fn ask<T: Send + 'static>(
        &self,
        build: impl FnOnce(RpcReplyPort<Result<T, ResultsError>>) -> ResultsMsg,
    ) -> Result<T, ResultsError> {
        let actor = self.actor().ok_or(ResultsError::ActorUnavailable)?;
        match actor.call(build, Some(RESULTS_TIMEOUT)).await {
            Ok(CallResult::Success(result)) => result,
            _ => Err(ResultsError::ActorUnavailable),
        }
    }

    fn tell(&self, msg: ResultsMsg) {
        if let Some(actor) = self.actor() {
            let _ = actor.send_message(msg);
        }
    }
}

impl ResultsBackend for MemoryResults {
    fn save(&self, scope: Scope, value: StoredValue) -> ResultsFuture<'_, String> {
        Box::pin(self.ask(|reply| ResultsMsg::Save { scope, value, reply }))
    }

    fn load(&self, scope: Scope, id: String) -> ResultsFuture<'_, StoredValue> {
        Box::pin(self.ask(|reply| ResultsMsg::Load { scope, id, reply }))
    }

    fn delete(&self, scope: Scope, id: String) -> ResultsFuture<'_, bool> {
        Box::pin(self.ask(|reply| ResultsMsg::Delete { scope, id, reply }))
    }

    fn end_reply(&self, scope: Scope) {
        self.tell(ResultsMsg::EndReply { scope });
    }

    fn end_reply_wait(&self, scope: Scope) -> ResultsFuture<'_, ()> {
        // Queued ahead of any later request: that is all there is to wait for.
        self.tell(ResultsMsg::EndReply { scope });
        Box::pin(async { Ok(()) })
    }

    fn reopen_reply(&self, scope: Scope) {
        self.tell(ResultsMsg::ReopenReply { scope });
    }

    fn start(&self, supervisor: Option<ActorCell>) -> ResultsFuture<'_, ()> {
        let (name, args) = (Some(self.name.clone()), (self.limits, Arc::clone(&self.stats)));
        Box::pin(async move {
            let spawned = match supervisor {
                Some(s) => Actor::spawn_linked(name, ResultsActor, args, s).await,
                None => Actor::spawn(name, ResultsActor, args).await,
            };
            spawned.map(|_| ()).map_err(|e| ResultsError::Start(e.to_string()))
        })
    }

    fn has_actor(&self) -> bool {
        true
    }

    #[cfg(feature = "test-hooks")]
    fn crash_for_test(&self) -> bool {
        self.actor().is_some_and(|a| a.send_message(ResultsMsg::Crash).is_ok())
    }
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
        let now = stats.snapshot(true);
        now.held.map_or((0, 0), |h| (h.entries, h.bytes))
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
        let now = stats.snapshot(true);
        assert_eq!((now.saves, now.saved_bytes), (3, 9));
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
