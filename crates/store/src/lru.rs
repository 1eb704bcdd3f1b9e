//! A small bounded map that forgets its least recently used entries.
//!
//! The store actor keeps per-session state that can be rebuilt from disk
//! (value sizes, last-seen times); this bounds it by the number of sessions
//! in use rather than the number ever seen. Eviction is batched (down to
//! 7/8 of the capacity) so finding the oldest entries, a linear pass, is
//! paid once per many inserts.

use std::collections::HashMap;

/// A map of at most `cap` entries, keyed by session name.
#[derive(Debug)]
pub(crate) struct Lru<V> {
    map: HashMap<String, (u64, V)>,
    /// Recency counter: bumped on every use, so ticks are unique.
    tick: u64,
    cap: usize,
}

impl<V> Lru<V> {
    /// An empty map holding at most `cap` entries (at least one).
    pub(crate) fn new(cap: usize) -> Self {
        Self { map: HashMap::new(), tick: 0, cap: cap.max(1) }
    }

    /// How many entries are held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether `key` is held.
    pub(crate) fn contains(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// The value of `key`, without counting as a use.
    pub(crate) fn peek(&self, key: &str) -> Option<&V> {
        self.map.get(key).map(|(_, v)| v)
    }

    /// The value of `key`, counted as its most recent use.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.tick += 1;
        let tick = self.tick;
        self.map.get_mut(key).map(|(t, v)| {
            *t = tick;
            v
        })
    }

    /// Inserts (or replaces) `key` as the most recent entry and returns the
    /// entries evicted to stay within the capacity; never the new one.
    pub(crate) fn insert(&mut self, key: String, value: V) -> Vec<(String, V)> {
        self.tick += 1;
        self.map.insert(key, (self.tick, value));
        if self.map.len() <= self.cap {
            return Vec::new();
        }
        let keep = (self.cap - self.cap / 8).max(1);
        let evict = self.map.len() - keep;
        let mut ticks: Vec<u64> = self.map.values().map(|(t, _)| *t).collect();
        // `evict < len`, so the index exists; ticks are unique, so exactly
        // `evict` entries are at or below the threshold, the newest is not.
        let (_, threshold, _) = ticks.select_nth_unstable(evict - 1);
        let threshold = *threshold;
        let old: Vec<String> = self.map.iter().filter(|(_, (t, _))| *t <= threshold).map(|(k, _)| k.clone()).collect();
        old.into_iter().filter_map(|k| self.map.remove(&k).map(|(_, v)| (k, v))).collect()
    }

    /// Forgets `key`.
    pub(crate) fn remove(&mut self, key: &str) -> Option<V> {
        self.map.remove(key).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_never_holds_more_than_its_capacity_and_evicts_the_least_recently_used() {
        let mut lru = Lru::new(8);
        for i in 0..8 {
            assert!(lru.insert(format!("s{i}"), i).is_empty());
        }
        // s0 is used again, so s1 is now the oldest.
        assert_eq!(lru.get_mut("s0"), Some(&mut 0));
        let mut evicted = lru.insert("s8".into(), 8);
        evicted.sort();
        assert_eq!(evicted, vec![("s1".to_owned(), 1), ("s2".to_owned(), 2)]);
        assert_eq!(lru.len(), 7);
        assert!(lru.contains("s0") && lru.contains("s8"));
        for i in 9..1000 {
            let _ = lru.insert(format!("s{i}"), i);
            assert!(lru.len() <= 8);
        }
        assert!(lru.contains("s999"));
    }

    #[test]
    fn a_capacity_of_one_keeps_only_the_newest_entry() {
        let mut lru = Lru::new(0);
        let _ = lru.insert("a".into(), 1);
        assert_eq!(lru.insert("b".into(), 2), vec![("a".to_owned(), 1)]);
        assert_eq!(lru.peek("b"), Some(&2));
        assert_eq!(lru.remove("b"), Some(2));
        assert_eq!(lru.len(), 0);
    }
}
