//! Supervision and isolation: one cell's crash or state never reaches another.

use std::time::Duration;

use codemode_runtime::{ErrorCode, Exec, Phase};
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
