//! Session retention end to end (GA-7.1): a runtime deletes the values of
//! sessions not used for longer than its retention, keeps used ones, and
//! refuses a retention under a second. The store's unit tests cover the
//! edges with a moved clock; these run on the real clock.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use codemode_runtime::{CellResult, CodeMode, Exec};
use codemode_tests::*;
use serde_json::json;

async fn in_session(rt: &CodeMode, session: &str, code: &str) -> CellResult {
    let reply = rt.session(session).reply("r");
    let mut r = reply.exec(Exec::code(code)).await.unwrap();
    while let Some(run_id) = r.run_id().map(str::to_owned) {
        r = reply.wait(&run_id).await.unwrap();
    }
    r
}

/// A store directory of its own, removed on drop.
struct TempStore(PathBuf);

impl TempStore {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("codemode-store-retention-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Self(dir)
    }
}

impl Drop for TempStore {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_unused_for_longer_than_the_retention_loses_its_values_while_a_used_one_keeps_them_ga_7_1() {
    let dir = TempStore::new("expire");
    let rt = codemode_tests::builder()
        .session_store_path(&dir.0)
        .session_retention(Some(Duration::from_secs(3)))
        .start()
        .await
        .unwrap();
    for session in ["idle", "busy"] {
        let r = in_session(&rt, session, "await store('k', 'kept'); return 'saved'").await;
        assert_eq!(value(&r), &json!("saved"));
    }
    // Whole seconds: more than 3 s since `idle` was seen needs 5 s of wall
    // clock; `busy` is used well within every 3 s meanwhile.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        let r = in_session(&rt, "busy", "return await load('k')").await;
        assert_eq!(value(&r), &json!("kept"), "a used session keeps its values");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let r = in_session(&rt, "idle", "return [await load('k')]").await;
    assert_eq!(value(&r), &json!([null]), "an unused session's values are deleted");
    let r = in_session(&rt, "busy", "return await load('k')").await;
    assert_eq!(value(&r), &json!("kept"));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runtime_without_retention_stores_and_loads_as_before_ga_7_1() {
    let dir = TempStore::new("forever");
    let rt = codemode_tests::builder().session_store_path(&dir.0).session_retention(None).start().await.unwrap();
    let r = in_session(&rt, "s", "await store('k', {n: 1}); return 'saved'").await;
    assert_eq!(value(&r), &json!("saved"));
    let r = in_session(&rt, "s", "return await load('k')").await;
    assert_eq!(value(&r), &json!({"n": 1}));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retention_under_one_second_is_refused_when_the_runtime_starts() {
    let err = codemode_tests::builder().session_retention(Some(Duration::from_millis(500))).start().await.unwrap_err();
    let message = err.to_string();
    assert!(message.contains("session retention must be at least one second"), "{message}");
    let ok = codemode_tests::builder().session_retention(Some(Duration::from_secs(1))).start().await;
    assert!(ok.is_ok(), "one second is the shortest retention");
}
