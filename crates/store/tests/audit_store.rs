//! The operators' audit trail, on every backend: what is recorded reads
//! back newest first, in pages, as it was recorded (settled with its
//! outcome later), and survives the process (sled reopened).

use codemode_store::audit::{AuditEntry, AuditStore, MAX_AUDIT_FIELD_BYTES, MAX_AUDIT_PAGE};
use codemode_store::{OpenOptions, StoreBackend};

fn entry(i: u64, reason: Option<String>) -> AuditEntry {
    AuditEntry {
        seq: 0,
        at_ms: codemode_store::runs::now_ms() + i,
        operator: "ops-alice".into(),
        action: if reason.is_some() { "deny".into() } else { "approve".into() },
        run_id: format!("run_{i:032x}"),
        approvals: vec![format!("appr_{i}")],
        reason,
        ok: i.is_multiple_of(2),
        outcome: format!("outcome {i}"),
    }
}

async fn the_trail_reads_back_newest_first_in_pages(audit: &dyn AuditStore) {
    let mut seqs = Vec::new();
    for i in 0..5 {
        seqs.push(audit.record(entry(i, (i == 3).then(|| "x".repeat(MAX_AUDIT_FIELD_BYTES + 10)))).await.unwrap());
    }
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "numbered in order: {seqs:?}");
    let newest = audit.list(None, 2).await.unwrap();
    assert_eq!(newest.iter().map(|e| e.seq).collect::<Vec<_>>(), [seqs[4], seqs[3]]);
    assert_eq!(newest[1].reason.as_ref().map(String::len), Some(MAX_AUDIT_FIELD_BYTES), "a long reason is cut");
    let next = audit.list(Some(newest[1].seq), 2).await.unwrap();
    assert_eq!(next.iter().map(|e| e.seq).collect::<Vec<_>>(), [seqs[2], seqs[1]]);
    let mut expected = entry(2, None);
    expected.seq = seqs[2];
    expected.at_ms = next[0].at_ms;
    assert_eq!(next[0], expected, "read back as recorded");
    assert!(audit.list(None, MAX_AUDIT_PAGE + 1).await.unwrap().len() <= MAX_AUDIT_PAGE);
    // Settling rewrites how the action went, and nothing else.
    assert!(audit.settle(seqs[2], true, "y".repeat(MAX_AUDIT_FIELD_BYTES + 10)).await.unwrap());
    let settled = audit.list(Some(seqs[3]), 1).await.unwrap().remove(0);
    assert_eq!((settled.seq, settled.ok, settled.outcome.len()), (seqs[2], true, MAX_AUDIT_FIELD_BYTES));
    assert_eq!(
        AuditEntry { ok: expected.ok, outcome: expected.outcome.clone(), ..settled },
        expected,
        "the rest as recorded"
    );
    assert!(!audit.settle(u64::MAX / 2, true, "gone".into()).await.unwrap(), "an entry no longer kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_trail_holds_on_sled_and_survives_a_reopen() {
    let dir = std::env::temp_dir().join(format!("codemode-audit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let backend = StoreBackend::Sled { path: Some(dir.clone()) };
    {
        let db = codemode_store::open(&backend, OpenOptions::named("audit-a")).await.unwrap();
        the_trail_reads_back_newest_first_in_pages(db.audit.as_ref()).await;
    }
    let db = codemode_store::open(&backend, OpenOptions::named("audit-b")).await.unwrap();
    assert_eq!(db.audit.list(None, 10).await.unwrap().len(), 5, "kept across a reopen");
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_trail_holds_on_postgresql() {
    let url = codemode_store::postgres::test_database().await;
    let backend = StoreBackend::Postgres { url, pool_size: 2 };
    let db = codemode_store::open(&backend, OpenOptions::named("audit-pg")).await.unwrap();
    the_trail_reads_back_newest_first_in_pages(db.audit.as_ref()).await;
    let other = codemode_store::open(&backend, OpenOptions::named("audit-pg-2")).await.unwrap();
    assert_eq!(other.audit.list(None, 10).await.unwrap().len(), 5, "every process on the database sees it");
}
