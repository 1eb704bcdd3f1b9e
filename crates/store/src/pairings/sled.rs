//! [`SledPairings`]: the node pairings in a tree of the session store's
//! sled database.

use codemode_nodes::{Pairing, PairingFuture, PairingStore, PairingStoreError};

use crate::sessions::sled::FlushGate;

/// The tree of the session store's database that holds the pairings.
pub const PAIRINGS_TREE: &str = "node_pairings";

/// Pairings kept in one sled tree, one JSON record per node id; every
/// write is flushed before it returns, through the database's flush gate
/// (never alongside the session store's own flush). One process opens a
/// sled database, so nothing else writes the tree: [`PairingStore::changes`]
/// is `None`.
///
/// Every call runs on tokio's blocking pool: a read may wait for the disk,
/// a write for its flush, and neither may hold an async worker.
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

    /// Runs `work` on the blocking pool.
    fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Self) -> Result<T, PairingStoreError> + Send + 'static,
    ) -> PairingFuture<'_, T> {
        let this = self.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || work(&this))
                .await
                .map_err(|e| PairingStoreError::new(format!("a node pairing operation failed: {e}")))?
        })
    }

    fn flush(&self) -> Result<(), PairingStoreError> {
        self.gate.flush(&self.tree).map_err(PairingStoreError::new)
    }
}

/// A stored record, read back.
fn decode(id: &str, bytes: &[u8]) -> Result<Pairing, PairingStoreError> {
    serde_json::from_slice(bytes)
        .map_err(|e| PairingStoreError::new(format!("the stored pairing of node {id:?} cannot be read: {e}")))
}

impl PairingStore for SledPairings {
    fn load(&self) -> PairingFuture<'_, Vec<Pairing>> {
        self.blocking(|this| {
            let mut out = Vec::new();
            for entry in &this.tree {
                let (key, value) = entry.map_err(PairingStoreError::new)?;
                match serde_json::from_slice::<Pairing>(&value) {
                    Ok(p) => out.push(p),
                    Err(e) => {
                        tracing::warn!(key = %String::from_utf8_lossy(&key), "unreadable node pairing skipped: {e}");
                    }
                }
            }
            Ok(out)
        })
    }

    fn get(&self, id: &str) -> PairingFuture<'_, Option<Pairing>> {
        let id = id.to_owned();
        self.blocking(move |this| {
            let stored = this.tree.get(id.as_bytes()).map_err(PairingStoreError::new)?;
            stored.map(|bytes| decode(&id, &bytes)).transpose()
        })
    }

    fn save(&self, pairing: &Pairing) -> PairingFuture<'_, ()> {
        let pairing = pairing.clone();
        self.blocking(move |this| {
            let bytes = serde_json::to_vec(&pairing).map_err(PairingStoreError::new)?;
            this.tree.insert(pairing.id.as_bytes(), bytes).map_err(PairingStoreError::new)?;
            this.flush()
        })
    }

    fn update(&self, pairing: &Pairing) -> PairingFuture<'_, bool> {
        let pairing = pairing.clone();
        self.blocking(move |this| {
            let key = pairing.id.as_bytes();
            // Compare-and-swap: the record is replaced only as it was read.
            loop {
                let Some(current) = this.tree.get(key).map_err(PairingStoreError::new)? else { return Ok(false) };
                let stored = decode(&pairing.id, &current)?;
                if stored.secret_sha256 != pairing.secret_sha256 {
                    return Ok(false);
                }
                let next = Pairing { paired_at_ms: stored.paired_at_ms, ..pairing.clone() };
                let bytes = serde_json::to_vec(&next).map_err(PairingStoreError::new)?;
                let swapped =
                    this.tree.compare_and_swap(key, Some(current), Some(bytes)).map_err(PairingStoreError::new)?;
                if swapped.is_ok() {
                    this.flush()?;
                    return Ok(true);
                }
            }
        })
    }

    fn remove(&self, id: &str) -> PairingFuture<'_, bool> {
        let id = id.to_owned();
        self.blocking(move |this| {
            let removed = this.tree.remove(id.as_bytes()).map_err(PairingStoreError::new)?.is_some();
            this.flush()?;
            Ok(removed)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pairings_survive_reopening_the_database() {
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
            SledPairings::new(db.open_tree("pairings").unwrap(), FlushGate::default()).save(&pairing).await.unwrap();
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
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                Err(e) => panic!("the database cannot be reopened: {e}"),
            }
        };
        let store = SledPairings::new(db.open_tree("pairings").unwrap(), FlushGate::default());
        assert_eq!(store.load().await.unwrap(), vec![pairing]);
        assert!(store.remove("n1").await.unwrap());
        assert!(store.load().await.unwrap().is_empty());
        drop(store);
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
