//! The audit trail on PostgreSQL ([`PgAudit`]): one table every process on
//! the database shares.

use super::{AuditEntry, AuditError, AuditFuture, AuditStore, MAX_AUDIT_ENTRIES, MAX_AUDIT_PAGE, cut, oldest_kept};
use crate::postgres::{Cache, Pg, big, describe, unbig};

/// The trail in `codemode_operator_audit` (migration 7): the entry's JSON
/// beside its number and time. A record and the pruning past the bounds
/// are one statement.
#[derive(Clone, Debug)]
pub struct PgAudit {
    pg: Pg,
}

impl PgAudit {
    /// The trail of `pg`'s database.
    #[must_use]
    pub fn new(pg: &Pg) -> Self {
        Self { pg: pg.clone() }
    }

    async fn do_record(&self, entry: AuditEntry) -> Result<u64, AuditError> {
        let client = self.pg.client().await.map_err(|e| AuditError(e.to_string()))?;
        let json = serde_json::to_string(&entry).map_err(|e| AuditError(e.to_string()))?;
        let row = client
            .cached()
            .query_one(
                "WITH added AS (
                     INSERT INTO codemode_operator_audit (at_ms, entry) VALUES ($1, $2) RETURNING seq),
                 pruned AS (
                     DELETE FROM codemode_operator_audit
                     WHERE seq <= (SELECT seq FROM added) - $3 OR at_ms < $4)
                 SELECT seq FROM added",
                &[&big(entry.at_ms), &json, &big(MAX_AUDIT_ENTRIES), &big(oldest_kept(entry.at_ms))],
            )
            .await
            .map_err(|e| AuditError(describe(&e)))?;
        Ok(unbig(row.get(0)))
    }

    async fn do_settle(&self, seq: u64, ok: bool, mut outcome: String) -> Result<bool, AuditError> {
        cut(&mut outcome);
        let client = self.pg.client().await.map_err(|e| AuditError(e.to_string()))?;
        // One statement: the entry's other fields are left as recorded.
        let changed = client
            .cached()
            .execute(
                "UPDATE codemode_operator_audit
                 SET entry = (entry::jsonb || jsonb_build_object('ok', $2::boolean, 'outcome', $3::text))::text
                 WHERE seq = $1",
                &[&big(seq), &ok, &outcome],
            )
            .await
            .map_err(|e| AuditError(describe(&e)))?;
        Ok(changed > 0)
    }

    async fn do_list(&self, before: Option<u64>, limit: usize) -> Result<Vec<AuditEntry>, AuditError> {
        let client = self.pg.client().await.map_err(|e| AuditError(e.to_string()))?;
        let limit = big(limit.min(MAX_AUDIT_PAGE) as u64);
        let rows = client
            .cached()
            .query(
                "SELECT seq, entry FROM codemode_operator_audit WHERE seq < $1 ORDER BY seq DESC LIMIT $2",
                &[&before.map_or(i64::MAX, big), &limit],
            )
            .await
            .map_err(|e| AuditError(describe(&e)))?;
        rows.iter()
            .map(|row| {
                let seq = unbig(row.get(0));
                let text: String = row.get(1);
                let mut entry: AuditEntry = serde_json::from_str(&text)
                    .map_err(|e| AuditError(format!("audit entry {seq} cannot be read: {e}")))?;
                entry.seq = seq;
                Ok(entry)
            })
            .collect()
    }
}

impl AuditStore for PgAudit {
    fn record(&self, entry: AuditEntry) -> AuditFuture<'_, u64> {
        Box::pin(self.do_record(entry.bounded()))
    }

    fn settle(&self, seq: u64, ok: bool, outcome: String) -> AuditFuture<'_, bool> {
        Box::pin(self.do_settle(seq, ok, outcome))
    }

    fn list(&self, before: Option<u64>, limit: usize) -> AuditFuture<'_, Vec<AuditEntry>> {
        Box::pin(self.do_list(before, limit))
    }
}
