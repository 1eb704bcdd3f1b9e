//! [`SledAudit`]: the audit trail in a tree of the sled database.

use std::sync::{Arc, Mutex, PoisonError};

use super::{AuditEntry, AuditError, AuditFuture, AuditStore, MAX_AUDIT_ENTRIES, MAX_AUDIT_PAGE, cut, oldest_kept};
use crate::sessions::sled::FlushGate;

/// The tree of the session store's database that holds the trail.
pub const AUDIT_TREE: &str = "operator_audit";

/// The trail in one sled tree: key the entry's `seq` (big-endian, so the
/// tree's order is the trail's), value its JSON. Every record is flushed
/// through the database's flush gate before it returns. One process opens
/// a sled database, so a lock in this handle is enough to number entries.
#[derive(Clone, Debug)]
pub struct SledAudit {
    tree: sled::Tree,
    gate: FlushGate,
    /// Held while an entry is numbered and written.
    numbering: Arc<Mutex<()>>,
}

impl SledAudit {
    /// The trail kept in `tree`, flushed through `gate`.
    pub(crate) fn new(tree: sled::Tree, gate: FlushGate) -> Self {
        Self { tree, gate, numbering: Arc::default() }
    }

    fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Self) -> Result<T, AuditError> + Send + 'static,
    ) -> AuditFuture<'_, T> {
        let this = self.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || work(&this))
                .await
                .map_err(|e| AuditError(format!("an audit trail operation failed: {e}")))?
        })
    }

    fn record_now(&self, mut entry: AuditEntry) -> Result<u64, AuditError> {
        let failed = |e: sled::Error| AuditError(e.to_string());
        let _numbering = self.numbering.lock().unwrap_or_else(PoisonError::into_inner);
        let last = self.tree.last().map_err(failed)?.map(|(key, _)| seq_of(&key)).transpose()?.unwrap_or(0);
        entry.seq = last + 1;
        let bytes = serde_json::to_vec(&entry).map_err(|e| AuditError(e.to_string()))?;
        self.tree.insert(entry.seq.to_be_bytes(), bytes).map_err(failed)?;
        // Past the bounds: the oldest by count, then by age.
        let floor = entry.seq.saturating_sub(MAX_AUDIT_ENTRIES);
        let oldest = oldest_kept(entry.at_ms);
        for item in self.tree.iter() {
            let (key, value) = item.map_err(failed)?;
            // An entry this build cannot read goes only by count, never
            // silently by an age it cannot tell.
            let old =
                seq_of(&key)? <= floor || serde_json::from_slice::<AuditEntry>(&value).is_ok_and(|e| e.at_ms < oldest);
            if !old {
                break;
            }
            self.tree.remove(key).map_err(failed)?;
        }
        self.gate.flush(&self.tree).map_err(failed)?;
        Ok(entry.seq)
    }

    fn settle_now(&self, seq: u64, ok: bool, mut outcome: String) -> Result<bool, AuditError> {
        let failed = |e: sled::Error| AuditError(e.to_string());
        let _numbering = self.numbering.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(bytes) = self.tree.get(seq.to_be_bytes()).map_err(failed)? else { return Ok(false) };
        let mut entry = serde_json::from_slice::<AuditEntry>(&bytes)
            .map_err(|e| AuditError(format!("audit entry {seq} cannot be read: {e}")))?;
        cut(&mut outcome);
        (entry.ok, entry.outcome) = (ok, outcome);
        let bytes = serde_json::to_vec(&entry).map_err(|e| AuditError(e.to_string()))?;
        self.tree.insert(seq.to_be_bytes(), bytes).map_err(failed)?;
        self.gate.flush(&self.tree).map_err(failed)?;
        Ok(true)
    }

    fn list_now(&self, before: Option<u64>, limit: usize) -> Result<Vec<AuditEntry>, AuditError> {
        let limit = limit.min(MAX_AUDIT_PAGE);
        let end = before.unwrap_or(u64::MAX);
        let mut out = Vec::new();
        for item in self.tree.range(..end.to_be_bytes()).rev().take(limit) {
            let (key, value) = item.map_err(|e| AuditError(e.to_string()))?;
            let entry = serde_json::from_slice::<AuditEntry>(&value).map_err(|e| {
                AuditError(format!("audit entry {} cannot be read: {e}", seq_of(&key).unwrap_or_default()))
            })?;
            out.push(entry);
        }
        Ok(out)
    }
}

fn seq_of(key: &[u8]) -> Result<u64, AuditError> {
    let bytes: [u8; 8] = key.try_into().map_err(|_| AuditError(format!("an audit key of {} bytes", key.len())))?;
    Ok(u64::from_be_bytes(bytes))
}

impl AuditStore for SledAudit {
    fn record(&self, entry: AuditEntry) -> AuditFuture<'_, u64> {
        let entry = entry.bounded();
        self.blocking(move |this| this.record_now(entry))
    }

    fn settle(&self, seq: u64, ok: bool, outcome: String) -> AuditFuture<'_, bool> {
        self.blocking(move |this| this.settle_now(seq, ok, outcome))
    }

    fn list(&self, before: Option<u64>, limit: usize) -> AuditFuture<'_, Vec<AuditEntry>> {
        self.blocking(move |this| this.list_now(before, limit))
    }
}
