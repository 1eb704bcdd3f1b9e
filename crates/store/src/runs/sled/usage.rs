//! The sled run store's index of stored runs that have not ended, by
//! session and by principal, for the quotas ([`RunStore::usage`]).
//!
//! Derived state, kept in memory: built from the runs tree the first time
//! it is asked (one process at a time opens a sled store, so nobody else
//! changes the tree meanwhile), then kept current by every change of a
//! run. Each change states a run's whole entry (tracked with its size, or
//! forgotten), so applying one twice — a change that raced the first build
//! — counts nothing twice.
//!
//! [`RunStore::usage`]: crate::runs::RunStore::usage

use std::collections::{BTreeSet, HashMap};

use crate::runs::types::RunUsage;

/// What is counted of one stored run.
#[derive(Debug)]
struct Tracked {
    session: String,
    principal: Option<String>,
    bytes: u64,
}

/// The index (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct UsageIndex {
    built: bool,
    runs: HashMap<String, Tracked>,
    by_session: HashMap<String, BTreeSet<String>>,
    by_principal: HashMap<String, BTreeSet<String>>,
}

fn unlink(map: &mut HashMap<String, BTreeSet<String>>, key: &str, run_id: &str) {
    if let Some(set) = map.get_mut(key) {
        set.remove(run_id);
        if set.is_empty() {
            map.remove(key);
        }
    }
}

impl UsageIndex {
    /// Whether the first build happened (changes before it are not kept:
    /// the build reads them from the tree).
    pub(crate) fn built(&self) -> bool {
        self.built
    }

    /// Marks the index built (after `track`ing every stored run).
    pub(crate) fn set_built(&mut self) {
        self.built = true;
    }

    /// Run `run_id` is stored and not ended, with a journal of `bytes`.
    pub(crate) fn track(&mut self, run_id: &str, session: &str, principal: Option<&str>, bytes: u64) {
        if let Some(t) = self.runs.get_mut(run_id) {
            t.bytes = bytes;
            return;
        }
        self.by_session.entry(session.to_owned()).or_default().insert(run_id.to_owned());
        if let Some(p) = principal {
            self.by_principal.entry(p.to_owned()).or_default().insert(run_id.to_owned());
        }
        let tracked = Tracked { session: session.to_owned(), principal: principal.map(str::to_owned), bytes };
        self.runs.insert(run_id.to_owned(), tracked);
    }

    /// Run `run_id` ended (or was deleted).
    pub(crate) fn forget(&mut self, run_id: &str) {
        if let Some(t) = self.runs.remove(run_id) {
            unlink(&mut self.by_session, &t.session, run_id);
            if let Some(p) = &t.principal {
                unlink(&mut self.by_principal, p, run_id);
            }
        }
    }

    fn list(&self, set: Option<&BTreeSet<String>>, limit: usize) -> Vec<(String, u64)> {
        set.into_iter().flatten().take(limit).map(|id| (id.clone(), self.runs.get(id).map_or(0, |t| t.bytes))).collect()
    }

    /// The stored runs of `session` and `principal`, at most `limit` each.
    pub(crate) fn usage(&self, session: &str, principal: Option<&str>, limit: usize) -> RunUsage {
        RunUsage {
            session: self.list(self.by_session.get(session), limit),
            principal: principal.map_or_else(Vec::new, |p| self.list(self.by_principal.get(p), limit)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracking_twice_or_forgetting_twice_counts_once() {
        let mut u = UsageIndex::default();
        u.track("r1", "s", Some("p"), 10);
        u.track("r1", "s", Some("p"), 30);
        u.track("r2", "s", None, 5);
        u.track("r3", "other", Some("p"), 1);
        let got = u.usage("s", Some("p"), 10);
        assert_eq!(got.session, vec![("r1".to_owned(), 30), ("r2".to_owned(), 5)]);
        assert_eq!(got.principal, vec![("r1".to_owned(), 30), ("r3".to_owned(), 1)]);
        assert_eq!(u.usage("s", None, 1).session.len(), 1, "at most the limit");
        u.forget("r1");
        u.forget("r1");
        assert_eq!(u.usage("s", Some("p"), 10).principal, vec![("r3".to_owned(), 1)]);
        u.forget("r2");
        assert!(!u.by_session.contains_key("s"), "empty sets go");
    }
}
