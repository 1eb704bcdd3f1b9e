//! Session retention on sled (see `sessions/retention.rs` for the rules):
//! when each session was last seen, and the sweep.
//!
//! The last-seen times are in the `session_seen` tree (session →
//! big-endian unix seconds). The sweep runs in bounded steps that go back
//! through the actor's mailbox, so requests are never held up for long.
//!
//! A session written before retention existed (or while it was off) has no
//! record: its age is unknown, so the sweep records it as seen now and never
//! deletes it on that sweep.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use super::keys::{io, raw_prefix};
use crate::error::StoreError;
use crate::lru::Lru;
use crate::sessions::retention::Clock;

/// The sled tree of last-seen times.
pub(super) const SEEN_TREE: &str = "session_seen";

/// A session's record is rewritten at most this often: a busy session must
/// not cost a disk write per request. The in-memory time is exact, and the
/// sweep consults it, so the lag never shortens a session's life.
const WRITE_EVERY_SECS: u64 = 60;

/// Sessions whose last-seen time is kept in memory.
pub(super) const SEEN_CACHE_SESSIONS: usize = 4096;

/// One sweep step examines at most this many sessions…
pub(super) const STEP_SESSIONS: usize = 256;
/// …and deletes at most this many keys, then yields the mailbox.
pub(super) const STEP_KEYS: usize = 1024;

/// The per-session value sizes the store actor keeps (a bounded cache):
/// deleting a session's values makes its entry stale, so it goes.
pub(super) type Sizes = Lru<HashMap<String, usize>>;

/// When a session was last seen, and when that was last written to disk.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seen {
    pub(super) seen: u64,
    written: u64,
}

/// A sweep under way: where it is and what it removed so far.
#[derive(Debug)]
struct Sweep {
    phase: Phase,
    sessions: u64,
    keys: u64,
}

#[derive(Debug)]
enum Phase {
    /// Walking the values tree, one seek per session, from this key:
    /// sessions without a record are recorded as seen now.
    Adopt(Vec<u8>),
    /// Walking the records from this session: expired ones are deleted.
    Expire(Vec<u8>),
}

/// The store actor's retention: the last-seen records, their cache, and
/// the sweep under way. Owned by the actor's state; the values it deletes
/// are in `db`, whose size cache (`sizes`) it keeps from going stale.
pub(super) struct Retention {
    db: sled::Db,
    /// Session → when it was last seen (big-endian unix seconds).
    seen_tree: sled::Tree,
    /// In whole seconds; `None` keeps sessions forever.
    retention: Option<u64>,
    clock: Arc<dyn Clock>,
    /// Per recently seen session: when, and when that was written.
    pub(super) seen: Lru<Seen>,
    sweep: Option<Sweep>,
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

pub(super) fn decode_seen(bytes: &[u8]) -> Option<u64> {
    <[u8; 8]>::try_from(bytes).ok().map(u64::from_be_bytes)
}

impl Retention {
    /// The retention of the sessions in `db`, measured with `clock`.
    ///
    /// # Errors
    /// The records' tree cannot be opened.
    pub(super) fn new(db: &sled::Db, retention: Option<Duration>, clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        Ok(Self {
            db: db.clone(),
            seen_tree: db.open_tree(SEEN_TREE).map_err(|e| io(&e))?,
            retention: retention.map(|r| r.as_secs()),
            clock,
            seen: Lru::new(SEEN_CACHE_SESSIONS),
            sweep: None,
        })
    }

    /// The retention in whole seconds; `None`: forever.
    pub(super) fn secs(&self) -> Option<u64> {
        self.retention
    }

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
    pub(super) fn touch(&mut self, sizes: &mut Sizes, session: &str) -> Result<(), StoreError> {
        let Some(retention) = self.retention else { return Ok(()) };
        let now = self.clock.now_secs();
        let last = match self.seen.peek(session) {
            Some(s) => Some(s.seen),
            None => self.recorded_seen(session.as_bytes())?,
        };
        if let Some(last) = last
            && expired(now, last, retention)
        {
            let (keys, _) = self.delete_keys(sizes, session.as_bytes(), usize::MAX)?;
            tracing::info!(
                keys,
                retention_secs = retention,
                "session store: removed an expired session as it came back"
            );
        }
        if self.seen_changed(session, now) {
            self.write_seen(session, now);
        }
        Ok(())
    }

    /// Notes `session` seen at `now` in memory; returns whether its record
    /// is due to be written.
    fn seen_changed(&mut self, session: &str, now: u64) -> bool {
        if let Some(s) = self.seen.get_mut(session) {
            s.seen = s.seen.max(now);
            return now.saturating_sub(s.written) >= WRITE_EVERY_SECS;
        }
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

    /// Writes `session`'s record as seen at `now`. A failure is retried at
    /// the next touch; until then the in-memory time keeps it alive.
    fn write_seen(&mut self, session: &str, now: u64) {
        match self.seen_tree.insert(session.as_bytes(), &now.to_be_bytes()) {
            Ok(_) => {
                if let Some(s) = self.seen.get_mut(session) {
                    s.written = now;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, session, "session store: could not record when a session was last seen");
            }
        }
    }

    /// Deletes up to `budget` values of `session`; when none remain, also
    /// its record. Returns the keys deleted and whether the session is gone.
    fn delete_keys(&mut self, sizes: &mut Sizes, session: &[u8], budget: usize) -> Result<(usize, bool), StoreError> {
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
            sizes.remove(name);
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
        self.sweep = Some(Sweep { phase: Phase::Adopt(Vec::new()), sessions: 0, keys: 0 });
        true
    }

    /// Abandons the sweep under way: the next one starts over.
    pub(super) fn abandon_sweep(&mut self) {
        self.sweep = None;
    }

    /// Runs one bounded step of the sweep under way; returns whether the
    /// sweep is finished (or none was under way). A failed step abandons
    /// the sweep: the next one starts over.
    ///
    /// # Errors
    /// Reading or writing the database failed.
    pub(super) fn sweep_step(&mut self, sizes: &mut Sizes) -> Result<bool, StoreError> {
        let (Some(retention), Some(mut sweep)) = (self.retention, self.sweep.take()) else { return Ok(true) };
        if !self.advance(sizes, &mut sweep, retention)? {
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
    fn advance(&mut self, sizes: &mut Sizes, sweep: &mut Sweep, retention: u64) -> Result<bool, StoreError> {
        let now = self.clock.now_secs();
        let mut examined = 0;
        let mut key_budget = STEP_KEYS;
        while examined < STEP_SESSIONS && key_budget > 0 {
            examined += 1;
            let finished = match &mut sweep.phase {
                Phase::Adopt(cursor) => self.adopt_next(cursor, now)?,
                Phase::Expire(cursor) => {
                    let Some((deleted, done)) = self.expire_next(sizes, cursor, now, retention, key_budget)? else {
                        return Ok(true);
                    };
                    key_budget -= deleted;
                    sweep.keys += deleted as u64;
                    sweep.sessions += u64::from(done);
                    false
                }
            };
            if finished {
                sweep.phase = Phase::Expire(Vec::new());
            }
        }
        Ok(false)
    }

    /// Adoption: records the session at `cursor` as seen now when it has
    /// no record, and moves the cursor past it; returns whether the values
    /// tree is done.
    fn adopt_next(&mut self, cursor: &mut Vec<u8>, now: u64) -> Result<bool, StoreError> {
        let Some(item) = self.db.range(cursor.as_slice()..).next() else { return Ok(true) };
        let (key, _) = item.map_err(|e| io(&e))?;
        let Some(session) = session_of(&key) else {
            // Not a session value: not ours to judge, left alone.
            *cursor = after(&key);
            return Ok(false);
        };
        if self.recorded_seen(session)?.is_none() {
            self.seen_tree.insert(session, &now.to_be_bytes()).map_err(|e| io(&e))?;
        }
        match successor(&key[..4 + session.len()]) {
            Some(next) => {
                *cursor = next;
                Ok(false)
            }
            None => Ok(true),
        }
    }

    /// Expiry: deletes (up to `budget` keys of) the session recorded at
    /// `cursor` when it expired, and moves the cursor past it once it is
    /// gone or kept. Returns the keys deleted and whether the session is
    /// done with, or `None` when the records are done.
    fn expire_next(
        &mut self,
        sizes: &mut Sizes,
        cursor: &mut Vec<u8>,
        now: u64,
        retention: u64,
        budget: usize,
    ) -> Result<Option<(usize, bool)>, StoreError> {
        let Some(item) = self.seen_tree.range(cursor.as_slice()..).next() else { return Ok(None) };
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
            return Ok(Some((0, false)));
        }
        let (deleted, done) = self.delete_keys(sizes, &session, budget)?;
        if done {
            *cursor = after(&session);
        }
        Ok(Some((deleted, done)))
    }
}
