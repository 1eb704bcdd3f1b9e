//! Parked runs survive a deploy that changes the tool list (GA-1.3): a run
//! parked by one configuration is resumed, on the same store, by a
//! runtime whose native tools and MCP servers were added to, reordered or
//! removed. Requests are matched by identity (catalog id, MCP server
//! name), the replayed cell gets the tool globals and the `MCP` namespace
//! it started with, and only a *live* call to something the deploy removed
//! fails — saying so — as it would in a fresh cell.

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, CodeModeBuilder, Exec, McpServerConfig, RunsConfig, StoreBackend};
use codemode_tests::Named;
use serde_json::{Value, json};

fn fixture(name: &str) -> McpServerConfig {
    McpServerConfig::stdio(name, env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new()).call_timeout(Duration::from_secs(5))
}

fn store_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-deploys-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A runtime on the sled store at `dir`, retrying while the previous
/// runtime's handles are still being dropped.
async fn start(dir: &Path, builder: impl Fn() -> CodeModeBuilder) -> CodeMode {
    for _ in 0..100 {
        let started = builder()
            .store_backend(StoreBackend::Sled { path: Some(dir.to_owned()) })
            .runs(RunsConfig { evict_after: None, ..RunsConfig::default() })
            .start()
            .await;
        if let Ok(rt) = started {
            return rt;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the store at {} never opened", dir.display());
}

/// Parks `code` under `before`, stops that runtime, and waits on the run
/// under `after` (same store): the resumed result.
async fn park_then_deploy(
    name: &str,
    code: &str,
    before: impl Fn() -> CodeModeBuilder,
    after: impl Fn() -> CodeModeBuilder,
    mcp: bool,
) -> CellResult {
    let dir = store_dir(name);
    let rt = start(&dir, before).await;
    if mcp {
        assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    }
    let parked = rt.session("s").reply("r").exec(Exec::code(code)).await.unwrap();
    let CellResult::Waiting { run_id, .. } = &parked else { panic!("{parked:?}") };
    let run_id = run_id.clone();
    rt.shutdown().await;
    drop(rt);
    let rt = start(&dir, after).await;
    if mcp {
        // Its live calls need the servers up (the replay does not: the
        // namespace and the answered calls come from the journal).
        rt.mcp_ready(Duration::from_secs(10)).await;
    }
    let done = rt.session("s").reply("r").wait(&run_id).await.unwrap();
    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    done
}

fn value(result: &CellResult) -> &Value {
    match result {
        CellResult::Completed { value, .. } => value,
        other => panic!("expected completed, got {other:?}"),
    }
}

const CALLS_BOTH: &str = "const a = await alpha({n: 1}); const b = await beta({n: 2}); \
                          await yield_control('deploy'); return {a, b, again: await alpha({n: 3})};";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_parked_before_a_deploy_that_adds_a_tool_before_the_others_completes_after_it_ga_1_3() {
    let (alpha, beta) = (Named::new("alpha"), Named::new("beta"));
    let (a, b) = (alpha.clone(), beta.clone());
    let done = park_then_deploy(
        "added",
        CALLS_BOTH,
        move || codemode_tests::builder().tool(a.clone()).tool(b.clone()),
        || codemode_tests::builder().tool(Named::new("gamma")).tool(alpha.clone()).tool(beta.clone()),
        false,
    )
    .await;
    assert_eq!(value(&done)["b"], json!({"tool": "beta", "input": {"n": 2}}), "{done:?}");
    assert_eq!(value(&done)["again"], json!({"tool": "alpha", "input": {"n": 3}}));
    // Journaled calls never ran again: alpha twice (once live after the
    // resume), beta once.
    assert_eq!((alpha.calls(), beta.calls()), (2, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_parked_before_a_deploy_that_reorders_the_tools_completes_after_it_ga_1_3() {
    let done = park_then_deploy(
        "reordered",
        CALLS_BOTH,
        || codemode_tests::builder().tool(Named::new("alpha")).tool(Named::new("beta")),
        || codemode_tests::builder().tool(Named::new("beta")).tool(Named::new("alpha")),
        false,
    )
    .await;
    assert_eq!(value(&done)["a"], json!({"tool": "alpha", "input": {"n": 1}}), "{done:?}");
    assert_eq!(value(&done)["again"], json!({"tool": "alpha", "input": {"n": 3}}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_the_deploy_removed_still_replays_from_the_journal_and_only_a_live_call_to_it_fails_ga_1_3() {
    // beta answered before the park: replayed. After the resume it is
    // called again, live: that call fails, saying beta was removed.
    let code = "const b = await beta({n: 1}); await yield_control(); \
                let live; try { live = await beta({n: 2}); } catch (e) { live = e.message; } \
                return {b, live, kinds: [typeof beta, catalog.all().map((h) => h.name)]};";
    let done = park_then_deploy(
        "removed",
        code,
        || codemode_tests::builder().tool(Named::new("alpha")).tool(Named::new("beta")),
        || codemode_tests::builder().tool(Named::new("alpha")),
        false,
    )
    .await;
    let v = value(&done);
    assert_eq!(v["b"], json!({"tool": "beta", "input": {"n": 1}}), "{done:?}");
    let live = v["live"].as_str().unwrap();
    assert!(live.contains("beta is no longer configured") && live.contains("removed after this run started"), "{live}");
    assert_eq!(
        v["kinds"],
        json!(["function", ["alpha", "beta"]]),
        "the replayed cell keeps the globals it started with"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_calls_replay_across_a_deploy_that_adds_a_server_before_theirs_or_removes_it_ga_1_3_ga_9() {
    let code = "const e = await MCP.fixture.echo({hello: 'world'}); await yield_control(); \
                let live; try { live = (await MCP.fixture.echo({after: true})).structuredContent; } \
                catch (err) { live = err.message; } \
                return {e: e.structuredContent, live, servers: Object.keys(MCP)};";
    // A server sorted (and indexed) before `fixture`: every index moves.
    let done = park_then_deploy(
        "mcp-added",
        code,
        || codemode_tests::builder().mcp_server(fixture("fixture")),
        || codemode_tests::builder().mcp_server(fixture("aaa")).mcp_server(fixture("fixture")),
        true,
    )
    .await;
    let v = value(&done);
    assert_eq!(v["e"], json!({"hello": "world"}), "{done:?}");
    assert_eq!(v["live"], json!({"after": true}), "the live call reached `fixture`, not `aaa`");
    assert_eq!(v["servers"], json!(["fixture", "$api"]), "the namespace the run started with");
    // The server removed: its journaled call replays; a live one fails.
    let done = park_then_deploy(
        "mcp-removed",
        code,
        || codemode_tests::builder().mcp_server(fixture("fixture")),
        || codemode_tests::builder().tool(Named::new("alpha")),
        true,
    )
    .await;
    let v = value(&done);
    assert_eq!(v["e"], json!({"hello": "world"}), "{done:?}");
    assert!(v["live"].as_str().unwrap().contains("MCP server `fixture` is no longer configured"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_cell_keeps_its_globals_so_a_tool_the_deploy_added_cannot_change_its_path_ga_1_3() {
    // The cell tests for a tool it did not have when it started; after a
    // deploy that adds it, the replay must take the path it took.
    let code = "const first = typeof gamma === 'function' ? await gamma({}) : await alpha({}); \
                await yield_control(); return first;";
    let done = park_then_deploy(
        "diverges",
        code,
        || codemode_tests::builder().tool(Named::new("alpha")),
        || codemode_tests::builder().tool(Named::new("gamma")).tool(Named::new("alpha")),
        false,
    )
    .await;
    // The replayed cell keeps its own globals: no `gamma`, so it takes the
    // same branch and completes (a fresh cell would see gamma).
    assert_eq!(value(&done), &json!({"tool": "alpha", "input": {}}), "{done:?}");
}
