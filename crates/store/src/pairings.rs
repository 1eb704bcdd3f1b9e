//! The node pairings' table in the session store's database.
//!
//! `codemode-nodes` defines what a pairing store does ([`PairingStore`]);
//! this is its sled implementation. It lives here, beside the other sled
//! code, and this crate depends on `codemode-nodes` for the trait only:
//! nodes depends on neither this crate nor sled, so the arrow adds no
//! cycle, and the node registry stays free of any database.

use codemode_nodes::{Pairing, PairingStore, PairingStoreError};

use crate::session::FlushGate;

/// The tree of the session store's database that holds the pairings.
pub const PAIRINGS_TREE: &str = "node_pairings";

/// Pairings kept in one sled tree, one JSON record per node id; every
/// write is flushed before it returns, through the database's flush gate
/// (never alongside the session store's own flush).
#[derive(Clone, Debug)]
pub struct SledPairings {
    tree: sled::Tree,
    gate: FlushGate,
}

impl SledPairings {
    /// Pairings kept in `tree`, flushed through `gate`.
    pub(crate) fn new(tree: sled::Tree, gate: FlushGate) -> Self {
        Self { tree, gate }
    }
}

impl PairingStore for SledPairings {
    fn load(&self) -> Result<Vec<Pairing>, PairingStoreError> {
        let mut out = Vec::new();
        for entry in &self.tree {
            let (key, value) = entry.map_err(PairingStoreError::new)?;
            match serde_json::from_slice::<Pairing>(&value) {
                Ok(p) => out.push(p),
                Err(e) => tracing::warn!(key = %String::from_utf8_lossy(&key), "unreadable node pairing skipped: {e}"),
            }
        }
        Ok(out)
    }

    fn save(&self, pairing: &Pairing) -> Result<(), PairingStoreError> {
        let bytes = serde_json::to_vec(pairing).map_err(PairingStoreError::new)?;
        self.tree.insert(pairing.id.as_bytes(), bytes).map_err(PairingStoreError::new)?;
        self.gate.flush(&self.tree).map_err(PairingStoreError::new)?;
        Ok(())
    }

    fn remove(&self, id: &str) -> Result<(), PairingStoreError> {
        self.tree.remove(id.as_bytes()).map_err(PairingStoreError::new)?;
        self.gate.flush(&self.tree).map_err(PairingStoreError::new)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_survive_reopening_the_database() {
        let dir = std::env::temp_dir().join(format!("codemode-pairings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let pairing = Pairing {
            id: "n1".into(),
            name: "Laptop".into(),
            platform: "linux".into(),
            commands: vec!["device.status".into()],
            // SHA-256 of "s", as the registry keeps a secret.
            secret_sha256: "043a718774c572bd8a25adbeb1bfcd5c0256ae11cecf9f9c3f925d0e52beaf89".into(),
            paired_at_ms: 1,
            last_seen_ms: 2,
        };
        {
            let db = sled::open(&dir).unwrap();
            SledPairings::new(db.open_tree("pairings").unwrap(), FlushGate::default()).save(&pairing).unwrap();
        }
        // Reopened at once, the database's lock can still be held for a
        // moment: by sled's own threads winding down, or by a child another
        // test in this process is spawning (between its fork and exec it
        // holds copies of our descriptors). Retry briefly.
        let mut tries = 0;
        let db = loop {
            match sled::open(&dir) {
                Ok(db) => break db,
                Err(_) if tries < 100 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("the database cannot be reopened: {e}"),
            }
        };
        let store = SledPairings::new(db.open_tree("pairings").unwrap(), FlushGate::default());
        assert_eq!(store.load().unwrap(), vec![pairing]);
        store.remove("n1").unwrap();
        assert!(store.load().unwrap().is_empty());
        drop(store);
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
