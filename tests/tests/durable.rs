//! Durable runs in one process (issue 17): an idle parked run leaves memory
//! for its journal and is resumed by replay, with the same clock, the same
//! random sequence, its uncommitted store writes and no output twice; a
//! second runtime on the same sled store resumes what the first parked.

use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, Exec, OutputEntry, RunsConfig, StoreBackend};
use codemode_tests::*;
use serde_json::json;

fn store_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-durable-rt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

async fn durable_runtime(path: &std::path::Path, evict_after: Option<Duration>) -> CodeMode {
    CodeMode::builder()
        .tool(Echo)
        .store_backend(StoreBackend::Sled { path: Some(path.to_owned()) })
        .runs(RunsConfig { evict_after, ..RunsConfig::default() })
        .start()
        .await
        .unwrap()
}

/// Waits until no cell is live (the parked one was evicted).
async fn until_evicted(rt: &CodeMode) {
    for _ in 0..200 {
        if rt.live_cells().await.unwrap() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the parked cell was never evicted");
}

const CELL: &str = "text('one'); \
    const t = Date.now(); const d = new Date().getTime(); const p = performance.now(); \
    const r1 = Math.random(); const e = await echo_tool({value: 'a'}); \
    await store('k', {v: 1}); \
    await yield_control('park'); \
    text('two'); \
    const r2 = Math.random(); \
    return {t, d, p, r1, r2, e, loaded: await load('k'), later: Date.now() >= t}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evicted_run_resumes_by_replay_with_its_clock_randomness_writes_and_output_once() {
    // The same cell twice: kept in memory, and evicted then replayed.
    let kept_dir = store_dir("kept");
    let kept = durable_runtime(&kept_dir, None).await;
    let evicted_dir = store_dir("evicted");
    let evicting = durable_runtime(&evicted_dir, Some(Duration::from_millis(50))).await;
    for rt in [&kept, &evicting] {
        let reply = reply(rt);
        let parked = reply.exec(Exec::code(CELL)).await.unwrap();
        let CellResult::Waiting { run_id, output, .. } = &parked else { panic!("{parked:?}") };
        assert_eq!(output.entries().unwrap(), &[OutputEntry::text("one")]);
        if std::ptr::eq(rt, &evicting) {
            until_evicted(rt).await;
        }
        let done = reply.wait(run_id).await.unwrap();
        let CellResult::Completed { value, output, .. } = &done else { panic!("{done:?}") };
        assert_eq!(output.entries().unwrap(), &[OutputEntry::text("two")], "output delivered once");
        assert_eq!(value["e"], json!({"name": "echo_tool", "input": {"value": "a"}}));
        assert_eq!(value["loaded"], json!({"v": 1}), "the buffered write survived");
        assert_eq!(value["later"], json!(true));
        assert_ne!(value["r1"], value["r2"], "the random sequence went on, not over");
        // Committed with the run's end.
        let after = reply.exec(Exec::code("return await load('k')")).await.unwrap();
        assert_eq!(value_of(&after), &json!({"v": 1}));
    }
    kept.shutdown().await;
    evicting.shutdown().await;
    let _ = std::fs::remove_dir_all(&kept_dir);
    let _ = std::fs::remove_dir_all(&evicted_dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_cell_sees_the_clock_and_random_values_it_saw_before() {
    let dir = store_dir("clock");
    let rt = durable_runtime(&dir, Some(Duration::from_millis(20))).await;
    let reply = reply(&rt);
    let code = "const a = [Date.now(), new Date().toISOString(), performance.now(), Math.random()]; \
                json(a); await yield_control(); return a";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let CellResult::Waiting { run_id, output, .. } = &parked else { panic!("{parked:?}") };
    let OutputEntry::Json { value: seen } = &output.entries().unwrap()[0] else { panic!() };
    until_evicted(&rt).await;
    tokio::time::sleep(Duration::from_millis(30)).await;
    let done = reply.wait(run_id).await.unwrap();
    assert_eq!(value_of(&done), seen, "the replay read the journaled values, not new ones");
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_runtime_on_the_same_store_resumes_what_the_first_parked() {
    let dir = store_dir("restart");
    let first = durable_runtime(&dir, None).await;
    let parked = reply(&first)
        .exec(Exec::code("const x = await echo_tool({value: 'b'}); await yield_control(); return x.input"))
        .await
        .unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    first.shutdown().await;
    drop(first);
    let second = durable_runtime(&dir, None).await;
    let done = reply(&second).wait(&run_id).await.unwrap();
    assert_eq!(value_of(&done), &json!({"value": "b"}), "{done:?}");
    // Another session cannot reach it.
    let foreign = second.session("someone-else").reply("r").wait(&run_id).await.unwrap();
    assert!(failure(&foreign).1.contains("unavailable") || failure(&foreign).1.contains("different session"));
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

fn value_of(result: &CellResult) -> &serde_json::Value {
    value(result)
}
