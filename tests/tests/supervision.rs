//! Supervision and isolation: one cell's crash or state never reaches
//! another, and a crashed service actor is restarted by the root
//! supervisor while cells go on.

use std::time::Duration;

use codemode_runtime::{CodeMode, CrashTarget, ErrorCode, Exec, McpServerConfig, NodesConfig, Phase};
use codemode_tests::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_cell_fails_alone_beside_healthy_ones() {
    let rt = runtime().await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("await yield_control(); return 'healthy'")).await.unwrap();
    let crashed = reply.exec(Exec::code("await panic_tool({}); return 'unreachable'")).await.unwrap();
    let codemode_runtime::CellResult::Failed { code, phase, error, .. } = &crashed else { panic!() };
    assert_eq!((*code, *phase), (ErrorCode::InternalError, Phase::Host));
    assert!(error.contains("crashed"), "{error}");
    assert_eq!(value(&reply.wait(parked.run_id().unwrap()).await.unwrap()), &json!("healthy"));
    assert_eq!(value(&exec(&rt, "return 'next'").await), &json!("next"));
    // The crashed cell is forgotten, not leaked.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(rt.live_cells().await.unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_cells_are_isolated_from_each_other() {
    let rt = runtime().await;
    let runs = (0..12).map(|i| {
        let rt = rt.clone();
        async move {
            run_to_end(
                &rt,
                &format!("globalThis.mine = {i}; await yield_control(); await noop(); return [mine, typeof other]"),
            )
            .await
        }
    });
    let all = futures_join(runs.collect()).await;
    for (i, results) in all.iter().enumerate() {
        assert_eq!(value(results.last().unwrap()), &json!([i, "undefined"]));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_that_never_settles_parks_until_aborted_and_others_go_on() {
    let rt = runtime_with(codemode_runtime::Limits { timeout: Duration::from_millis(100), ..Default::default() }).await;
    let reply = reply(&rt);
    let forever = reply.exec(Exec::code("while (true) await new Promise(r => setTimeout(r, 10));")).await.unwrap();
    let run_id = forever.run_id().expect("parks with pending timers").to_owned();
    let again = reply.wait(&run_id).await.unwrap();
    assert_eq!(again.run_id(), Some(run_id.as_str()), "still parked after another window");
    assert_eq!(value(&exec(&rt, "return 'others run'").await), &json!("others run"));
    assert_eq!(failure(&reply.abort(&run_id).await.unwrap()).0, ErrorCode::Aborted);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disposing_a_parked_cell_ends_it_quietly() {
    let rt = runtime().await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("await yield_control(); return 1")).await.unwrap();
    let run_id = parked.run_id().unwrap();
    assert!(reply.dispose(run_id).await.unwrap());
    assert!(!reply.dispose(run_id).await.unwrap());
    assert!(failure(&reply.wait(run_id).await.unwrap()).1.contains("disposed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_many_cells_frees_their_engines() {
    let rt = runtime().await;
    for _ in 0..200 {
        let r =
            exec(&rt, "const o = {f() { return o }}; setTimeout(() => o.f(), 100000); await yield_control(); return 1")
                .await;
        assert_eq!(r.status(), "waiting");
        reply(&rt).dispose(r.run_id().unwrap()).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(rt.live_cells().await.unwrap(), 0);
}

/// Polls until `actor` was restarted `n` times (generous timeout: the
/// first restart waits 10 ms, the machine may be slow).
async fn restarted(rt: &CodeMode, actor: &str, n: u64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let now = rt.metrics().actor_restarts.get(actor).copied().unwrap_or(0);
        if now >= n {
            assert_eq!(now, n, "{actor} restarted more often than it crashed");
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "{actor} was not restarted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Polls `check` until it holds (generous timeout).
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !check().await {
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_executor_is_restarted_and_parked_cells_go_on() {
    let rt = runtime().await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("await yield_control(); return 'survived'")).await.unwrap();
    assert!(rt.crash_actor_for_test(CrashTarget::Executor));
    restarted(&rt, "executor", 1).await;
    assert_eq!(value(&exec(&rt, "return 'new cells run'").await), &json!("new cells run"));
    // Cells are the root's children, not the executor's: a parked cell
    // outlives the executor's crash and is still reachable.
    assert_eq!(value(&reply.wait(parked.run_id().unwrap()).await.unwrap()), &json!("survived"));
    assert_eq!(rt.live_cells().await.unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_catalog_is_restarted_and_search_answers_again() {
    let rt = runtime().await;
    assert_eq!(rt.search("noop", 3).await.unwrap()[0].callable_name, "noop");
    assert!(rt.crash_actor_for_test(CrashTarget::Catalog));
    restarted(&rt, "catalog", 1).await;
    assert_eq!(rt.search("noop", 3).await.unwrap()[0].callable_name, "noop");
    let r = exec(&rt, "return (await catalog.search('echo')).length > 0").await;
    assert_eq!(value(&r), &json!(true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_store_is_restarted_on_the_same_database_and_writes_still_persist() {
    let dir = std::env::temp_dir().join(format!("codemode-supervision-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rt = codemode_tests::builder().session_store_path(&dir).start().await.unwrap();
    let reply = rt.session("s").reply("r");
    let before = reply.exec(Exec::code("await store('before', 1); return 'stored'")).await.unwrap();
    assert_eq!(value(&before), &json!("stored"));
    let parked = reply
        .exec(Exec::code("await yield_control(); await store('parked', 2); return await load('before')"))
        .await
        .unwrap();
    assert!(rt.crash_actor_for_test(CrashTarget::Store));
    restarted(&rt, "store", 1).await;
    let after = reply.exec(Exec::code("await store('after', 3); return await load('before')")).await.unwrap();
    assert_eq!(value(&after), &json!(1));
    // The cell parked across the crash still stores and loads.
    assert_eq!(value(&reply.wait(parked.run_id().unwrap()).await.unwrap()), &json!(1));
    rt.shutdown().await;
    drop((reply, rt));
    // A new runtime on the same directory sees every write: before, across
    // and after the crash.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let rt = loop {
        match codemode_tests::builder().session_store_path(&dir).start().await {
            Ok(rt) => break rt,
            Err(e) => assert!(tokio::time::Instant::now() < deadline, "the store's directory is not released: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let r = rt
        .session("s")
        .reply("r2")
        .exec(Exec::code("return [await load('before'), await load('parked'), await load('after')]"))
        .await
        .unwrap();
    assert_eq!(value(&r), &json!([1, 2, 3]));
    rt.shutdown().await;
    drop(rt);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_caught_by_a_store_crash_fails_with_a_typed_error_and_cells_go_on() {
    let rt = runtime().await;
    let parked = reply(&rt).exec(Exec::code("await yield_control(); return await load('k')")).await.unwrap();
    assert!(rt.crash_actor_for_test(CrashTarget::Store));
    // Queued behind the crash (or sent while the store restarts): it fails
    // with the store's typed error instead of hanging; a request sent after
    // the restart succeeds.
    match rt.fork_session("s", "t").await {
        Ok(()) => {}
        Err(codemode_runtime::CodeModeError::Store(codemode_store::StoreError::Unavailable)) => {}
        Err(other) => panic!("not the store's error: {other:?}"),
    }
    let r = exec(&rt, "try { return [await load('k')] } catch (e) { return e.message }").await;
    assert!(value(&r) == &json!([null]) || value(&r).to_string().contains("unavailable"), "{r:?}");
    restarted(&rt, "store", 1).await;
    assert_eq!(value(&reply(&rt).wait(parked.run_id().unwrap()).await.unwrap()), &json!(null));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_results_cache_is_restarted_and_saves_again() {
    let rt = runtime().await;
    let reply = reply(&rt);
    let saved = reply.exec(Exec::code("return (await results.save({n: 1})).id")).await.unwrap();
    let id = value(&saved).as_str().unwrap().to_owned();
    let held = |rt: &CodeMode| rt.metrics().results_held.map(|h| h.entries);
    assert_eq!(held(&rt), Some(1));
    assert!(rt.crash_actor_for_test(CrashTarget::Results));
    restarted(&rt, "results", 1).await;
    // The crashed cache's results are gone, and a load says so in the guest.
    let r = reply
        .exec(Exec::code(format!("try {{ await results.load('{id}'); return 'found' }} catch (e) {{ return 'gone' }}")))
        .await
        .unwrap();
    assert_eq!(value(&r), &json!("gone"));
    assert_eq!(held(&rt), Some(0), "the gauge says what the restarted cache holds");
    let r = reply
        .exec(Exec::code("const s = await results.save({n: 2}); return (await results.load(s.id)).n"))
        .await
        .unwrap();
    assert_eq!(value(&r), &json!(2));
    assert_eq!(held(&rt), Some(1));
    assert_eq!(rt.metrics().results_saved, 2, "saves stay counted across the restart");
}

/// More than ten crashes within a minute and the child is given up: it is
/// not restarted again, the give-up is counted, requests to it fail with a
/// typed guest error, and every other part of the runtime goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_results_cache_that_crashes_too_often_is_given_up_and_cells_go_on() {
    let rt = runtime().await;
    // Ten restarts with back-off 10 ms doubling (~10 s in all), then the
    // eleventh crash within the minute gives it up.
    for n in 1..=10 {
        assert!(rt.crash_actor_for_test(CrashTarget::Results));
        restarted(&rt, "results", n).await;
    }
    assert!(rt.crash_actor_for_test(CrashTarget::Results));
    eventually("the results cache is given up", || {
        let rt = rt.clone();
        async move { rt.metrics().actor_give_ups.get("results").copied() == Some(1) }
    })
    .await;
    let r =
        exec(&rt, "try { await results.save({n: 1}); return 'saved' } catch (e) { return 'refused: ' + e.message }")
            .await;
    let text = value(&r).as_str().unwrap().to_owned();
    assert!(text.starts_with("refused: ") && text.len() > "refused: ".len(), "{text}");
    assert_eq!(rt.metrics().actor_restarts.get("results"), Some(&10), "a given-up child is not restarted");
    // Everything else still works: tools, the store, the catalog.
    assert_eq!(value(&exec(&rt, "await noop(); await store('k', 1); return 'stored'").await), &json!("stored"));
    assert_eq!(value(&exec(&rt, "return (await load('k')) + 1").await), &json!(2));
    assert_eq!(rt.search("noop", 3).await.unwrap()[0].callable_name, "noop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_mcp_server_actor_is_restarted_and_its_tools_answer_again() {
    let fixture = McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(5));
    let rt = codemode_tests::builder().tool(Noop).mcp_server(fixture).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture server connects");
    let call = "return (await MCP.accounting.echo({a: 1})).content[0].text";
    assert_eq!(value(&exec(&rt, call).await), &json!("echo"));
    assert!(rt.crash_actor_for_test(CrashTarget::McpServer(0)));
    restarted(&rt, "mcp_server", 1).await;
    // The restarted actor reconnects into the hub's view; until then a call
    // fails with a typed error, never hangs.
    eventually("the MCP server answers again", || {
        let rt = rt.clone();
        async move { matches!(exec(&rt, call).await, codemode_runtime::CellResult::Completed { value, .. } if value == json!("echo")) }
    })
    .await;
    assert_eq!(value(&exec(&rt, "await noop(); return 'cells run'").await), &json!("cells run"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_node_registry_is_restarted_and_answers() {
    let config = NodesConfig { tokens: vec!["token".into()], ..NodesConfig::default() };
    let rt = codemode_tests::builder().nodes(config, Some("127.0.0.1:0".into())).start().await.unwrap();
    let registry = rt.node_registry().unwrap().clone();
    assert!(!registry.pairing_code().await.unwrap().is_empty());
    assert!(rt.crash_actor_for_test(CrashTarget::NodeRegistry));
    restarted(&rt, "node_registry", 1).await;
    // The handle reaches the new actor.
    assert!(!registry.pairing_code().await.unwrap().is_empty());
    assert!(registry.pending().await.unwrap().is_empty());
    assert!(registry.list().is_empty());
    assert_eq!(value(&exec(&rt, "return (await nodes.list()).length").await), &json!(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_runtime_refuses_new_work() {
    let rt = runtime().await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("await yield_control(); return 1")).await.unwrap();
    rt.shutdown().await;
    assert!(reply.exec(Exec::code("return 1")).await.is_err());
    assert!(reply.wait(parked.run_id().unwrap()).await.is_err());
    assert!(rt.live_cells().await.is_err());
    // The services stopped with it (none was restarted).
    assert!(rt.search("noop", 1).await.is_err());
    assert!(rt.fork_session("s", "t").await.is_err());
    assert_eq!(rt.metrics().actor_restarts.values().sum::<u64>(), 0, "stopping is not crashing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_executor_answers_readiness_probes_again_after_a_restart_and_refuses_them_after_shutdown() {
    let rt = runtime().await;
    rt.executor_ready(Duration::from_secs(10)).await.expect("a fresh runtime is ready");
    assert!(rt.crash_actor_for_test(CrashTarget::Executor));
    // A probe queued behind the crash says so (`Stopped`); once the root
    // has restarted the executor, probes answer again.
    restarted(&rt, "executor", 1).await;
    rt.executor_ready(Duration::from_secs(30)).await.expect("ready again after the restart");
    rt.shutdown().await;
    let refused = rt.executor_ready(Duration::from_secs(10)).await.expect_err("a stopped runtime is not ready");
    assert!(matches!(refused, codemode_runtime::NotReady::Runtime(_)), "{refused:?}");
}

async fn futures_join<T>(futs: Vec<impl std::future::Future<Output = T> + Send + 'static>) -> Vec<T>
where
    T: Send + 'static,
{
    let handles: Vec<_> = futs.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}
