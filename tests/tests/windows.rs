//! exec/wait windows, parking, expiry and abort (GA-1.3, GA-1.5).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use codemode_runtime::{CellResult, ErrorCode, Exec, Limits, OutputEntry, WaitReason};
use codemode_tests::*;
use serde_json::json;

fn fast(timeout_ms: u64) -> Limits {
    Limits { timeout: Duration::from_millis(timeout_ms), ..Limits::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn yield_control_parks_the_cell_and_wait_resolves_it_ga_1_3() {
    let rt = runtime().await;
    let results =
        run_to_end(&rt, "text('before'); const r = await yield_control('checkpoint'); text('after'); return r").await;
    assert_eq!(results.len(), 2);
    let CellResult::Waiting { reason, pending_tool_calls, output, .. } = &results[0] else { panic!() };
    assert_eq!(*reason, WaitReason::Yield);
    assert_eq!(pending_tool_calls[0].id, "bridge:yield:1");
    assert_eq!(output.entries().unwrap(), &[OutputEntry::text("before")]);
    assert_eq!(value(&results[1]), &json!({"status": "yielded", "reason": "checkpoint"}));
    assert_eq!(results[1].output().entries().unwrap(), &[OutputEntry::text("after")], "no entry twice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yield_with_no_reason_resolves_with_null_reason() {
    let rt = runtime().await;
    let results = run_to_end(&rt, "return await yield_control()").await;
    assert_eq!(value(results.last().unwrap()), &json!({"status": "yielded", "reason": null}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_outliving_the_budget_parks_the_cell_and_keeps_running_ga_1_3() {
    let sleep = SleepMs::default();
    let finished = Arc::clone(&sleep.finished);
    let rt = codemode_tests::builder().limits(fast(150)).tool(sleep).start().await.unwrap();
    let reply = rt.session("s").reply("r");
    let first = reply.exec(Exec::code("const r = await sleep_ms({ms: 400}); return r")).await.unwrap();
    let CellResult::Waiting { reason, pending_tool_calls, run_id, .. } = &first else {
        panic!("{}", first.to_model_json())
    };
    assert_eq!(*reason, WaitReason::PendingTools);
    assert_eq!(pending_tool_calls[0].id, "bridge:callValue:1");
    // The tool keeps running while the cell is parked.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(finished.load(Ordering::SeqCst), 1);
    let second = reply.wait(run_id).await.unwrap();
    assert_eq!(value(&second), &json!({"slept": 400}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_work_ending_exactly_at_the_budget_never_fails_the_cell_ga_1_3() {
    let rt = runtime_with(fast(200)).await;
    let results = run_to_end(&rt, "await new Promise(r => setTimeout(r, 200)); return 'done'").await;
    assert_eq!(value(results.last().unwrap()), &json!("done"));
    assert!(results[..results.len() - 1].iter().all(|r| r.status() == "waiting"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpu_loop_past_the_budget_fails_with_timeout_and_the_context_is_gone_ga_1_5() {
    let rt = runtime_with(fast(150)).await;
    let reply = reply(&rt);
    let first = reply.exec(Exec::code("await yield_control(); while (true) {}")).await.unwrap();
    let run_id = first.run_id().unwrap().to_owned();
    let r = reply.wait(&run_id).await.unwrap();
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::Timeout);
    assert!(error.starts_with("code mode timeout exceeded") && error.contains("150 ms"), "{error}");
    let again = reply.wait(&run_id).await.unwrap();
    assert!(failure(&again).1.contains("timed out"), "{}", again.to_model_json());
    assert_eq!(rt.live_cells().await.unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_cannot_be_caught_by_the_guest() {
    let rt = runtime_with(fast(150)).await;
    let r = exec(&rt, "try { while (true) {} } catch (e) { return 'caught' }").await;
    assert_eq!(failure(&r).0, ErrorCode::Timeout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_refuses_unknown_blank_and_foreign_runs_clearly() {
    let rt = runtime().await;
    let mine = rt.session("a").reply("r");
    let theirs = rt.session("b").reply("r");
    let r = mine.wait("nope").await.unwrap();
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::InvalidInput);
    assert!(
        message.starts_with("code mode run is unavailable or expired: it is not running here and no durable record"),
        "{message}"
    );
    assert_eq!(failure(&mine.wait(" ").await.unwrap()).1, "runId must be a non-empty string.");
    let parked = mine.exec(Exec::code("await yield_control(); return 1")).await.unwrap();
    let run_id = parked.run_id().unwrap();
    assert_eq!(failure(&theirs.wait(run_id).await.unwrap()).1, "code mode run belongs to a different session.");
    assert_eq!(failure(&theirs.abort(run_id).await.unwrap()).1, "code mode run belongs to a different session.");
    assert_eq!(value(&mine.wait(run_id).await.unwrap()), &json!(1));
    assert!(failure(&mine.wait(run_id).await.unwrap()).1.contains("already completed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_wait_while_one_is_in_flight_is_refused() {
    let rt = runtime_with(fast(300)).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("await yield_control(); await sleep_ms({ms: 200}); return 1")).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    let (a, b) = tokio::join!(reply.wait(&run_id), async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        reply.wait(&run_id).await
    });
    assert_eq!(value(&a.unwrap()), &json!(1));
    assert!(failure(&b.unwrap()).1.contains("already in flight"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_cell_expires_after_its_idle_ttl_ga_1_5() {
    let limits = Limits { parked_ttl: Duration::from_millis(50), ..Limits::default() };
    let rt = runtime_with(limits).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("await yield_control(); return 1")).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let r = reply.wait(parked.run_id().unwrap()).await.unwrap();
    assert!(failure(&r).1.contains("expired"), "{}", r.to_model_json());
    assert_eq!(rt.live_cells().await.unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_wait_restarts_the_idle_ttl() {
    let limits = Limits { parked_ttl: Duration::from_millis(300), ..Limits::default() };
    let rt = runtime_with(limits).await;
    let reply = reply(&rt);
    let code = "for (let i = 0; i < 4; i++) await yield_control(); return 'kept'";
    let mut r = reply.exec(Exec::code(code)).await.unwrap();
    while let Some(run_id) = r.run_id().map(str::to_owned) {
        tokio::time::sleep(Duration::from_millis(150)).await;
        r = reply.wait(&run_id).await.unwrap();
    }
    assert_eq!(value(&r), &json!("kept"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_fails_the_cell_and_cancels_its_pending_tool_calls_ga_1_5() {
    let sleep = SleepMs::default();
    let (started, finished) = (Arc::clone(&sleep.started), Arc::clone(&sleep.finished));
    let rt = codemode_tests::builder().limits(fast(100)).tool(sleep).start().await.unwrap();
    let reply = rt.session("s").reply("r");
    let parked = reply.exec(Exec::code("await sleep_ms({ms: 400}); return 1")).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    let r = reply.abort(&run_id).await.unwrap();
    assert_eq!(failure(&r), (ErrorCode::Aborted, "code mode execution aborted"));
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!((started.load(Ordering::SeqCst), finished.load(Ordering::SeqCst)), (1, 0), "the call was cancelled");
    assert!(failure(&reply.wait(&run_id).await.unwrap()).1.contains("aborted"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_stops_a_cell_spinning_inside_a_wait() {
    let rt = runtime_with(fast(5_000)).await;
    let reply = reply(&rt);
    let parked = reply.exec(Exec::code("await yield_control(); while (true) {}")).await.unwrap();
    let run_id = parked.run_id().unwrap().to_owned();
    let (waited, aborted) = tokio::join!(reply.wait(&run_id), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        reply.abort(&run_id).await
    });
    assert_eq!(failure(&waited.unwrap()).0, ErrorCode::Aborted);
    // The abort arrives after the cell already ended.
    let aborted = aborted.unwrap();
    assert!(matches!(failure(&aborted).0, ErrorCode::Aborted | ErrorCode::InternalError | ErrorCode::InvalidInput));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_cells_are_bounded_and_freed_when_they_end() {
    let limits = Limits { max_live_cells: 2, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let reply = reply(&rt);
    let a = reply.exec(Exec::code("await yield_control(); return 'a'")).await.unwrap();
    let b = reply.exec(Exec::code("await yield_control(); return 'b'")).await.unwrap();
    assert_eq!((a.status(), b.status()), ("waiting", "waiting"));
    let refused = reply.exec(Exec::code("return 'c'")).await.unwrap();
    assert!(failure(&refused).1.starts_with("too many live code mode runs (2)"));
    assert_eq!(value(&reply.wait(a.run_id().unwrap()).await.unwrap()), &json!("a"));
    assert_eq!(value(&reply.exec(Exec::code("return 'c'")).await.unwrap()), &json!("c"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_is_delivered_incrementally_across_waits() {
    let rt = runtime().await;
    let results =
        run_to_end(&rt, "text(1); await yield_control(); json({n: 2}); await yield_control(); text('3'); return 0")
            .await;
    let outputs: Vec<_> = results.iter().map(|r| r.output().entries().unwrap().to_vec()).collect();
    assert_eq!(
        outputs,
        vec![
            vec![OutputEntry::text("1")],
            vec![OutputEntry::Json { value: json!({"n": 2}) }],
            vec![OutputEntry::text("3")]
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_pending_without_host_work_fails_fast() {
    let rt = runtime().await;
    let r = exec(&rt, "await new Promise(() => undefined)").await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::InternalError);
    assert!(error.starts_with("code mode promise is pending without host work"));
}
