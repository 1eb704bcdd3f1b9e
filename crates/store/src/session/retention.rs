//! Session retention: forgetting sessions nobody has used for a while.
//!
//! A long-running server creates sessions that never come back (`codemode
//! serve` gives each connection a fresh one unless the client names it).
//! The store records when each session was last seen, in the `session_seen`
//! tree (session → big-endian unix seconds), and deletes every value of a
//! session not seen for longer than the retention:
//!
//! - when the session is touched again, before serving it, so an expired
//!   session never reappears half-deleted;
//! - in a sweep at actor start and then periodically, in bounded steps that
//!   go back through the mailbox, so requests are never held up for long.
//!
//! A session written before retention existed (or while it was off) has no
//! record: its age is unknown, so the sweep records it as seen now and never
//! deletes it on that sweep.

use std::time::{SystemTime, UNIX_EPOCH};

use super::{Duration, StoreError, StoreState, io, raw_prefix};

/// How long a session is kept after it was last seen, unless configured.
pub const DEFAULT_SESSION_RETENTION: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The sled tree of last-seen times.
pub(super) const SEEN_TREE: &str = "session_seen";

/// A session's record is rewritten at most this often: a busy session must
/// not cost a disk write per request. The in-memory time is exact, and the
/// sweep consults it, so the lag never shortens a session's life.
const WRITE_EVERY_SECS: u64 = 60;

/// Sessions whose last-seen time is kept in memory.
pub(super) const SEEN_CACHE_SESSIONS: usize = 4096;

/// One sweep step examines at most this many sessions…
const STEP_SESSIONS: usize = 256;
/// …and deletes at most this many keys, then yields the mailbox.
const STEP_KEYS: usize = 1024;

/// Tells the store the time, so tests can move it without sleeping.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Seconds since the Unix epoch.
    fn now_secs(&self) -> u64;
}

/// The system's wall clock.
///
/// A clock set far ahead deletes sessions early; one set back only delays
/// deletion (ages never go below zero).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_secs(&self) -> u64 {
        // Before 1970 reads as 0: ages then look like 0, which only keeps data.
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
    }
}

/// How often the sweep runs for `retention_secs`: min(retention / 24, 1 h),
/// at least once a second.
pub(super) fn sweep_interval(retention_secs: u64) -> Duration {
    Duration::from_secs((retention_secs / 24).clamp(1, 3600))
}

/// When a session was last seen, and when that was last written to disk.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seen {
    seen: u64,
    written: u64,
}

/// A sweep under way: where it is and what it removed so far.
#[derive(Debug)]
pub(super) struct Sweep {
    phase: Phase,
    sessions: u64,
    keys: u64,
}

impl Sweep {
    pub(super) fn new() -> Self {
        Self { phase: Phase::Adopt(Vec::new()), sessions: 0, keys: 0 }
    }
}

#[derive(Debug)]
enum Phase {
    /// Walking the values tree, one seek per session, from this key:
    /// sessions without a record are recorded as seen now.
    Adopt(Vec<u8>),
    /// Walking the records from this session: expired ones are deleted.
    Expire(Vec<u8>),
}

fn expired(now: u64, last: u64, retention: u64) -> bool {
    now.saturating_sub(last) > retention
}

/// The first key after every key starting with `prefix`, if any.
fn successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut next = prefix.to_vec();
    while let Some(last) = next.pop() {
        if last < u8::MAX {
            next.push(last + 1);
            return Some(next);
        }
    }
    None
}

/// The first key after `key`.
fn after(key: &[u8]) -> Vec<u8> {
    let mut next = key.to_vec();
    next.push(0);
    next
}

/// The session named by a values key (length-prefixed), if it is one.
fn session_of(key: &[u8]) -> Option<&[u8]> {
    let len = usize::try_from(u32::from_be_bytes(key.get(..4)?.try_into().ok()?)).ok()?;
    key.get(4..4usize.checked_add(len)?)
}

fn decode_seen(bytes: &[u8]) -> Option<u64> {
    <[u8; 8]>::try_from(bytes).ok().map(u64::from_be_bytes)
}

impl StoreState {
    /// The recorded last-seen time of `session`. A damaged record counts as
    /// none: its age is unknown, and unknown ages count from now.
    fn recorded_seen(&self, session: &[u8]) -> Result<Option<u64>, StoreError> {
        let Some(bytes) = self.seen_tree.get(session).map_err(|e| io(&e))? else { return Ok(None) };
        let seen = decode_seen(&bytes);
        if seen.is_none() {
            tracing::warn!(session = %String::from_utf8_lossy(session), "session store: a damaged last-seen record; the session counts as seen now");
        }
        Ok(seen)
    }

    /// Records that `session` is in use, first deleting it when it was not
    /// seen for longer than the retention. Does nothing without retention.
    ///
    /// # Errors
    /// Reading the record or deleting the expired session failed.
    pub(super) fn touch(&mut self, session: &str) -> Result<(), StoreError> {
        let Some(retention) = self.retention else { return Ok(()) };
        let now = self.clock.now_secs();
        let last = match self.seen.peek(session) {
            Some(s) => Some(s.seen),
            None => self.recorded_seen(session.as_bytes())?,
        };
        if let Some(last) = last
            && expired(now, last, retention)
        {
            let (keys, _) = self.delete_keys(session.as_bytes(), usize::MAX)?;
            tracing::info!(
                keys,
                retention_secs = retention,
                "session store: removed an expired session as it came back"
            );
        }
        let write = match self.seen.get_mut(session) {
            Some(s) => {
                s.seen = s.seen.max(now);
                now.saturating_sub(s.written) >= WRITE_EVERY_SECS
            }
            None => {
                let evicted = self.seen.insert(session.to_owned(), Seen { seen: now, written: 0 });
                for (name, s) in evicted {
                    // An evicted time not yet on disk would be lost.
                    if s.seen > s.written
                        && let Err(e) = self.seen_tree.insert(name.as_bytes(), &s.seen.to_be_bytes())
                    {
                        tracing::warn!(error = %e, session = %name, "session store: could not record when a session was last seen");
                    }
                }
                true
            }
        };
        if write {
            match self.seen_tree.insert(session.as_bytes(), &now.to_be_bytes()) {
                Ok(_) => {
                    if let Some(s) = self.seen.get_mut(session) {
                        s.written = now;
                    }
                }
                // Retried at the next touch; until then the in-memory time
                // keeps the session alive.
                Err(e) => {
                    tracing::warn!(error = %e, session, "session store: could not record when a session was last seen")
                }
            }
        }
        Ok(())
    }

    /// Deletes up to `budget` values of `session`; when none remain, also
    /// its record. Returns the keys deleted and whether the session is gone.
    fn delete_keys(&mut self, session: &[u8], budget: usize) -> Result<(usize, bool), StoreError> {
        let prefix = raw_prefix(session);
        let mut batch = sled::Batch::default();
        let mut deleted = 0;
        let mut done = true;
        for item in self.db.scan_prefix(&prefix) {
            let (key, _) = item.map_err(|e| io(&e))?;
            if deleted == budget {
                done = false;
                break;
            }
            batch.remove(key);
            deleted += 1;
        }
        self.db.apply_batch(batch).map_err(|e| io(&e))?;
        if let Ok(name) = std::str::from_utf8(session) {
            // Stale after any deletion; recomputed from disk on next use.
            self.sizes.remove(name);
        }
        if done {
            self.seen_tree.remove(session).map_err(|e| io(&e))?;
            if let Ok(name) = std::str::from_utf8(session) {
                self.seen.remove(name);
            }
        }
        Ok((deleted, done))
    }

    /// Starts a sweep unless one is under way; returns whether it started.
    pub(super) fn start_sweep(&mut self) -> bool {
        if self.retention.is_none() || self.sweep.is_some() {
            return false;
        }
        self.sweep = Some(Sweep::new());
        true
    }

    /// Runs one bounded step of the sweep under way; returns whether the
    /// sweep is finished (or none was under way). A failed step abandons
    /// the sweep: the next one starts over.
    ///
    /// # Errors
    /// Reading or writing the database failed.
    pub(super) fn sweep_step(&mut self) -> Result<bool, StoreError> {
        let (Some(retention), Some(mut sweep)) = (self.retention, self.sweep.take()) else { return Ok(true) };
        if !self.advance(&mut sweep, retention)? {
            self.sweep = Some(sweep);
            return Ok(false);
        }
        if sweep.sessions > 0 || sweep.keys > 0 {
            tracing::info!(
                sessions = sweep.sessions,
                keys = sweep.keys,
                retention_secs = retention,
                "session store: removed sessions not seen for longer than the retention"
            );
        }
        Ok(true)
    }

    /// Advances `sweep` by one step; returns whether it is finished.
    fn advance(&mut self, sweep: &mut Sweep, retention: u64) -> Result<bool, StoreError> {
        let now = self.clock.now_secs();
        let mut examined = 0;
        let mut key_budget = STEP_KEYS;
        while examined < STEP_SESSIONS && key_budget > 0 {
            examined += 1;
            match &mut sweep.phase {
                Phase::Adopt(cursor) => {
                    let Some(item) = self.db.range(cursor.as_slice()..).next() else {
                        sweep.phase = Phase::Expire(Vec::new());
                        continue;
                    };
                    let (key, _) = item.map_err(|e| io(&e))?;
                    let Some(session) = session_of(&key) else {
                        // Not a session value: not ours to judge, left alone.
                        *cursor = after(&key);
                        continue;
                    };
                    if self.recorded_seen(session)?.is_none() {
                        self.seen_tree.insert(session, &now.to_be_bytes()).map_err(|e| io(&e))?;
                    }
                    match successor(&key[..4 + session.len()]) {
                        Some(next) => *cursor = next,
                        None => sweep.phase = Phase::Expire(Vec::new()),
                    }
                }
                Phase::Expire(cursor) => {
                    let Some(item) = self.seen_tree.range(cursor.as_slice()..).next() else { return Ok(true) };
                    let (session, recorded) = item.map_err(|e| io(&e))?;
                    // The in-memory time may be newer than the record.
                    let memory = std::str::from_utf8(&session).ok().and_then(|s| self.seen.peek(s)).map(|s| s.seen);
                    let last = match (decode_seen(&recorded), memory) {
                        (Some(r), Some(m)) => r.max(m),
                        (Some(r), None) => r,
                        (None, Some(m)) => m,
                        (None, None) => {
                            tracing::warn!(session = %String::from_utf8_lossy(&session), "session store: a damaged last-seen record; the session counts as seen now");
                            self.seen_tree.insert(&session, &now.to_be_bytes()).map_err(|e| io(&e))?;
                            now
                        }
                    };
                    if !expired(now, last, retention) {
                        *cursor = after(&session);
                        continue;
                    }
                    let (deleted, done) = self.delete_keys(&session, key_budget)?;
                    key_budget -= deleted;
                    sweep.keys += deleted as u64;
                    if done {
                        sweep.sessions += 1;
                        *cursor = after(&session);
                    }
                }
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::super::{
        SIZES_CACHE_SESSIONS, SessionStore, StoreArgs, StoreLimits, StoredValue, db_key, encode, session_prefix,
    };
    use super::*;

    const DAY: u64 = 86_400;
    const START: u64 = 1_700_000_000;

    #[derive(Debug)]
    struct ManualClock(AtomicU64);

    impl ManualClock {
        fn set(&self, secs: u64) {
            self.0.store(secs, Ordering::SeqCst);
        }
    }

    impl Clock for ManualClock {
        fn now_secs(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
    }

    /// A real sled database in a temp dir, removed on drop.
    struct Fixture {
        dir: PathBuf,
        db: sled::Db,
        clock: Arc<ManualClock>,
    }

    impl Drop for Fixture {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn fixture(name: &str) -> Fixture {
        let dir = std::env::temp_dir().join(format!("codemode-retention-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let db = sled::Config::new().path(&dir).open().unwrap();
        Fixture { dir, db, clock: Arc::new(ManualClock(AtomicU64::new(START))) }
    }

    fn state(f: &Fixture, retention_days: Option<u64>) -> StoreState {
        StoreState::new(StoreArgs {
            db: f.db.clone(),
            gate: crate::session::FlushGate::default(),
            limits: StoreLimits::default(),
            retention: retention_days.map(|d| Duration::from_secs(d * DAY)),
            clock: Arc::clone(&f.clock) as Arc<dyn Clock>,
            cache_sessions: SIZES_CACHE_SESSIONS,
        })
        .unwrap()
    }

    fn value(json: &str) -> Option<StoredValue> {
        Some(StoredValue { json: json.to_owned(), network: false })
    }

    fn put(state: &mut StoreState, session: &str, key: &str, json: &str) {
        state.commit(session, &[(key.to_owned(), value(json))]).unwrap();
    }

    fn keys_of(f: &Fixture, session: &str) -> usize {
        f.db.scan_prefix(session_prefix(session)).count()
    }

    fn record(f: &Fixture, session: &str) -> Option<u64> {
        f.db.open_tree(SEEN_TREE).unwrap().get(session).unwrap().and_then(|b| decode_seen(&b))
    }

    /// Runs a whole sweep; returns how many steps it took.
    fn sweep(state: &mut StoreState) -> usize {
        assert!(state.start_sweep(), "a sweep was already under way");
        let mut steps = 1;
        while !state.sweep_step().unwrap() {
            steps += 1;
        }
        steps
    }

    /// Writes values the way stores did before retention: no seen-record.
    fn put_raw(f: &Fixture, session: &str, keys: usize) {
        let mut batch = sled::Batch::default();
        for i in 0..keys {
            let v = StoredValue { json: i.to_string(), network: false };
            batch.insert(db_key(session, &format!("k{i}")), encode(&v));
        }
        f.db.apply_batch(batch).unwrap();
    }

    #[test]
    fn a_session_not_seen_for_longer_than_the_retention_is_deleted_and_a_recently_seen_one_kept_ga_7_1() {
        let f = fixture("expire");
        let mut s = state(&f, Some(30));
        put(&mut s, "old", "a", "1");
        put(&mut s, "old", "b", "2");
        put(&mut s, "recent", "a", "3");
        f.clock.set(START + 20 * DAY);
        assert_eq!(s.load("recent", "a").unwrap(), value("3"));
        f.clock.set(START + 31 * DAY);
        assert!(s.sizes.contains("old"));
        sweep(&mut s);
        assert_eq!(keys_of(&f, "old"), 0);
        assert_eq!(record(&f, "old"), None, "the seen-record goes with the session");
        assert!(!s.sizes.contains("old") && s.seen.peek("old").is_none(), "deleted sessions leave the caches");
        assert_eq!(keys_of(&f, "recent"), 1);
        assert_eq!(record(&f, "recent"), Some(START + 20 * DAY));
        assert_eq!(s.load("old", "a").unwrap(), None);
    }

    #[test]
    fn a_session_seen_exactly_the_retention_ago_is_kept_and_one_second_later_deleted_ga_7_1() {
        let f = fixture("boundary");
        let mut s = state(&f, Some(1));
        put(&mut s, "s", "k", "1");
        f.clock.set(START + DAY);
        sweep(&mut s);
        assert_eq!(keys_of(&f, "s"), 1, "exactly the retention keeps");
        f.clock.set(START + DAY + 1);
        sweep(&mut s);
        assert_eq!(keys_of(&f, "s"), 0, "one second past deletes");
    }

    #[test]
    fn an_expired_session_that_comes_back_before_a_sweep_is_found_empty_and_starts_afresh_ga_7_1() {
        let f = fixture("lazy");
        let mut s = state(&f, Some(1));
        put(&mut s, "s", "k", "1");
        f.clock.set(START + DAY);
        assert_eq!(s.load("s", "k").unwrap(), value("1"), "exactly the retention keeps");
        f.clock.set(START + 2 * DAY + 1);
        assert_eq!(s.load("s", "k").unwrap(), None);
        assert_eq!(keys_of(&f, "s"), 0);
        assert_eq!(record(&f, "s"), Some(START + 2 * DAY + 1), "seen again now");
    }

    #[test]
    fn a_busy_session_is_kept_although_its_record_is_written_at_most_once_a_minute_ga_7_1() {
        let f = fixture("throttle");
        let mut s = state(&f, Some(1));
        put(&mut s, "s", "k", "1");
        f.clock.set(START + 59);
        s.load("s", "k").unwrap();
        assert_eq!(record(&f, "s"), Some(START), "not rewritten within a minute");
        f.clock.set(START + 60);
        s.load("s", "k").unwrap();
        assert_eq!(record(&f, "s"), Some(START + 60));
        f.clock.set(START + 100);
        s.load("s", "k").unwrap();
        // On disk the session looks expired; the in-memory time keeps it.
        f.clock.set(START + 60 + DAY + 1);
        sweep(&mut s);
        assert_eq!(keys_of(&f, "s"), 1);
    }

    #[test]
    fn sessions_stored_before_retention_existed_survive_the_first_sweep_and_expire_a_full_retention_later_ga_7_1() {
        let f = fixture("adopt");
        // More sessions than one step examines: adoption takes several steps.
        for i in 0..600 {
            put_raw(&f, &format!("legacy-{i}"), 2);
        }
        // A key that is no session's: never judged, never deleted.
        f.db.insert(b"\xff\xff", b"x".as_slice()).unwrap();
        f.clock.set(START + 3650 * DAY);
        let mut s = state(&f, Some(1));
        assert!(sweep(&mut s) > 2, "adoption is done in bounded steps");
        for i in [0, 299, 599] {
            let session = format!("legacy-{i}");
            assert_eq!(keys_of(&f, &session), 2, "{session} survives the first sweep");
            assert_eq!(record(&f, &session), Some(START + 3650 * DAY), "{session} counts as seen now");
        }
        f.clock.set(START + 3651 * DAY);
        sweep(&mut s);
        assert_eq!(keys_of(&f, "legacy-7"), 2);
        f.clock.set(START + 3651 * DAY + 1);
        sweep(&mut s);
        assert_eq!(f.db.scan_prefix(b"").count(), 1, "every legacy session went; the foreign key stayed");
        assert!(f.db.get(b"\xff\xff").unwrap().is_some());
    }

    #[test]
    fn without_retention_every_session_is_kept_forever_and_no_records_are_written_ga_7_1() {
        let f = fixture("forever");
        let mut s = state(&f, None);
        put(&mut s, "s", "k", "1");
        put_raw(&f, "legacy", 1);
        f.clock.set(START + 100 * 365 * DAY);
        assert!(!s.start_sweep(), "no sweep without retention");
        assert!(s.sweep_step().unwrap());
        assert_eq!(s.load("s", "k").unwrap(), value("1"));
        assert_eq!((keys_of(&f, "s"), keys_of(&f, "legacy")), (1, 1));
        assert_eq!(record(&f, "s"), None);
    }

    #[test]
    fn a_large_expired_session_is_deleted_in_bounded_steps_and_one_touched_midway_is_emptied_first_ga_7_1() {
        let f = fixture("large");
        put_raw(&f, "big", 3 * STEP_KEYS + 10);
        put_raw(&f, "other", 3);
        let mut s = state(&f, Some(1));
        sweep(&mut s);
        f.clock.set(START + DAY + 1);
        assert!(s.start_sweep());
        while keys_of(&f, "big") == 3 * STEP_KEYS + 10 {
            assert!(!s.sweep_step().unwrap());
        }
        let left = keys_of(&f, "big");
        assert!(left > 0 && left < 3 * STEP_KEYS + 10, "one step deletes a bounded batch");
        // The session comes back mid-deletion: it is expired, so it is
        // emptied before it is served, never seen half-deleted.
        assert_eq!(s.load("big", "k0").unwrap(), None);
        assert_eq!(keys_of(&f, "big"), 0);
        put(&mut s, "big", "fresh", "1");
        while !s.sweep_step().unwrap() {}
        assert_eq!(keys_of(&f, "big"), 1, "values written after it came back are kept");
        assert_eq!(keys_of(&f, "other"), 0);
    }

    #[test]
    fn the_sizes_cache_stays_at_its_bound_and_an_evicted_session_still_enforces_the_1_mib_limit_ga_7_3() {
        let f = fixture("cache");
        let mut s = state(&f, Some(30));
        // Four values of exactly 256 KiB fill the session's 1 MiB.
        let quarter = format!("\"{}\"", "x".repeat(256 * 1024 - 2));
        for k in ["a", "b", "c", "d"] {
            put(&mut s, "full", k, &quarter);
        }
        for i in 0..SIZES_CACHE_SESSIONS + 500 {
            s.check_changes(&format!("s{i}"), &[("k".to_owned(), Some(1))]).unwrap();
            assert!(s.sizes.len() <= SIZES_CACHE_SESSIONS);
        }
        assert!(s.seen.len() <= SEEN_CACHE_SESSIONS);
        assert!(!s.sizes.contains("full"), "evicted as least recently used");
        let over = s.check_changes("full", &[("e".to_owned(), Some(1))]).unwrap_err();
        assert!(matches!(over, StoreError::SessionFull(1)), "{over:?}");
        let _ = s.sizes.remove("full");
        let over = s.commit("full", &[("e".to_owned(), value("1"))]).unwrap_err();
        assert!(matches!(over, StoreError::SessionFull(1)), "{over:?}");
        assert_eq!(keys_of(&f, "full"), 4, "a refused commit writes nothing");
        let _ = s.sizes.remove("full");
        s.commit("full", &[("a".to_owned(), None), ("e".to_owned(), value("1"))]).unwrap();
        assert_eq!(s.sizes("full").unwrap().values().sum::<usize>(), 3 * 256 * 1024 + 1);
    }

    #[test]
    fn the_sweep_runs_every_twenty_fourth_of_the_retention_at_most_hourly_and_retention_is_at_least_a_second() {
        assert_eq!(sweep_interval(30 * DAY), Duration::from_secs(3600));
        assert_eq!(sweep_interval(3600), Duration::from_secs(150));
        assert_eq!(sweep_interval(1), Duration::from_secs(1));
        let f = fixture("config");
        let store = SessionStore {
            name: "n".into(),
            backend: crate::session::Backend::Sled {
                db: f.db.clone(),
                gate: crate::session::FlushGate::default(),
                path: None,
            },
            limits: StoreLimits::default(),
            retention: None,
            clock: Arc::new(SystemClock),
            run_watchers: Arc::default(),
            run_log: Arc::default(),
        };
        assert!(matches!(
            store.clone().with_retention(Some(Duration::from_millis(999))),
            Err(StoreError::Retention(_))
        ));
        assert_eq!(
            store.with_retention(Some(Duration::from_secs(1))).unwrap().retention(),
            Some(Duration::from_secs(1))
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_store_actor_sweeps_at_start_and_serves_an_expired_session_empty_ga_7_1() {
        let dir = std::env::temp_dir().join(format!("codemode-retention-actor-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let clock = Arc::new(ManualClock(AtomicU64::new(START)));
        let name = format!("retention-actor-{}", std::process::id());
        let store = SessionStore::open(Some(&dir), StoreLimits::default(), name.clone())
            .unwrap()
            .with_retention(Some(Duration::from_secs(DAY)))
            .unwrap()
            .with_clock(Arc::clone(&clock) as Arc<dyn Clock>);
        let legacy = StoredValue { json: "7".into(), network: false };
        let db = match &store.backend {
            crate::session::Backend::Sled { db, .. } => db,
            #[cfg(feature = "postgres")]
            crate::session::Backend::Pg { .. } => panic!("a sled store"),
        };
        db.insert(db_key("legacy", "k"), encode(&legacy)).unwrap();
        store.start_actor(None).await.unwrap();
        let seen = store.tree(SEEN_TREE).unwrap();
        let mut waited = 0;
        while seen.get("legacy").unwrap().is_none() {
            assert!(waited < 500, "the start sweep never recorded the legacy session");
            tokio::time::sleep(Duration::from_millis(10)).await;
            waited += 1;
        }
        assert_eq!(store.load("legacy", "k").await.unwrap(), Some(legacy));
        clock.set(START + DAY + 1);
        assert_eq!(store.load("legacy", "k").await.unwrap(), None);
        if let Some(actor) = ractor::ActorRef::<super::super::StoreMsg>::where_is(name) {
            actor.stop(None);
        }
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
