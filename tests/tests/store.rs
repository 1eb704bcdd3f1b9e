//! The session store (GA-7): limits at their edges, buffering, commit on
//! completion only, isolation and forks.

use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, ErrorCode, Exec, Limits};
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_value_is_loaded_by_a_later_cell_as_a_detached_copy_ga_7_1_ga_7_4() {
    let rt = runtime().await;
    let r = in_session(&rt, "s", "await store('shipmentSummary', {unpaid: 3, totalTons: 42}); return 'saved'").await;
    assert_eq!(value(&r), &json!("saved"));
    let r = in_session(
        &rt,
        "s",
        "const a = await load('shipmentSummary'); a.unpaid = 99; const b = await load('shipmentSummary'); \
        return [a.unpaid, b, await load('missing')]",
    )
    .await;
    assert_eq!(value(&r), &json!([99, {"unpaid": 3, "totalTons": 42}, null]));
    let r = in_session(&rt, "s", "return typeof (await load('missing'))").await;
    assert_eq!(value(&r), &json!("undefined"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_are_non_empty_strings_of_at_most_256_units_ga_7_2() {
    let rt = runtime().await;
    let r = in_session(&rt, "s", "const out = []; for (const k of ['k'.repeat(256), 'k'.repeat(257), '', 7, '🦞'.repeat(128), '🦞'.repeat(128) + 'x']) { \
        try { await store(k, 1); out.push('ok') } catch (e) { out.push(e.name) } } return out").await;
    assert_eq!(value(&r), &json!(["ok", "TypeError", "TypeError", "TypeError", "ok", "TypeError"]));
    let r = in_session(&rt, "s", "try { await load('') } catch (e) { return [e.name, e.message] }").await;
    assert_eq!(
        value(&r),
        &json!(["TypeError", "Code Mode store key must be a non-empty string of at most 256 characters."])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_of_exactly_256_kib_is_stored_and_one_byte_more_is_refused_ga_7_3() {
    let rt = runtime().await;
    // A JSON string of n characters takes n + 2 bytes.
    let r = in_session(&rt, "s", "await store('exact', 'x'.repeat(262144 - 2)); \
        try { await store('over', 'x'.repeat(262144 - 1)) } catch (e) { return [e.name, e.message, (await load('exact')).length, await load('over')] }").await;
    assert_eq!(
        value(&r),
        &json!(["RangeError", "Code Mode store value exceeds 256 KiB of serialized JSON.", 262142, null])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_1_mib_session_total_holds_for_buffered_writes_ga_7_3() {
    let rt = runtime().await;
    // Four values of exactly 256 KiB fill 1 MiB exactly; one more byte does not fit.
    let r = in_session(
        &rt,
        "s",
        "for (let i = 0; i < 4; i++) await store('k' + i, 'x'.repeat(262142)); \
        try { await store('one_more', 1) } catch (e) { return [e.name, e.message] } return 'fit'",
    )
    .await;
    assert_eq!(
        value(&r),
        &json!(["RangeError", "Code Mode store exceeds 1 MiB of serialized JSON; delete keys or store less data."])
    );
    // Overwriting and deleting count what replaces what.
    let r = in_session(
        &rt,
        "s",
        "await store('k0', 1); await store('more', 'x'.repeat(1000)); await store('k1', undefined); \
        return [await load('k0'), (await load('more')).length, await load('k1')]",
    )
    .await;
    assert_eq!(value(&r), &json!([1, 1000, null]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_undefined_deletes_the_key_ga_7_4() {
    let rt = runtime().await;
    in_session(&rt, "s", "await store('k', 1); return 1").await;
    in_session(&rt, "s", "await store('k', undefined); return 1").await;
    assert_eq!(value(&in_session(&rt, "s", "return [await load('k')]").await), &json!([null]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_sees_its_own_buffered_writes_also_after_wait_ga_7_5() {
    let rt = runtime().await;
    let reply = rt.session("s").reply("r");
    let parked = reply
        .exec(Exec::code(
            "await store('k', {v: 1}); await yield_control(); await store('k2', 2); \
        return [await load('k'), await load('k2')]",
        ))
        .await
        .unwrap();
    // Not visible to other cells while the writer has not completed.
    assert_eq!(value(&in_session(&rt, "s", "return [await load('k')]").await), &json!([null]));
    let done = reply.wait(parked.run_id().unwrap()).await.unwrap();
    assert_eq!(value(&done), &json!([{"v": 1}, 2]));
    assert_eq!(value(&in_session(&rt, "s", "return await load('k2')").await), &json!(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_of_failed_timed_out_and_aborted_cells_are_discarded_ga_7_6() {
    let rt = runtime_with(Limits { timeout: Duration::from_millis(200), ..Limits::default() }).await;
    let failed = in_session(&rt, "s", "await store('failed', 1); throw new Error('boom')").await;
    assert_eq!(failure(&failed).0, ErrorCode::InternalError);
    let timed_out = in_session(&rt, "s", "await store('timed_out', 1); while (true) {}").await;
    assert_eq!(failure(&timed_out).0, ErrorCode::Timeout);
    let reply = rt.session("s").reply("r");
    let parked = reply.exec(Exec::code("await store('aborted', 1); await yield_control(); return 1")).await.unwrap();
    reply.abort(parked.run_id().unwrap()).await.unwrap();
    let expired_ttl =
        in_session(&rt, "s", "return [await load('failed'), await load('timed_out'), await load('aborted')]").await;
    assert_eq!(value(&expired_ttl), &json!([null, null, null]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_cells_racing_the_1_mib_limit_commit_in_order_and_the_second_fails_cleanly_ga_7_6() {
    let rt = runtime().await;
    let reply = rt.session("s").reply("r");
    // 600 KB each: either cell fits alone, both do not.
    let code = |k: &str| {
        format!(
            "for (const s of ['', '2', '3']) await store('{k}' + s, 'x'.repeat(200000)); await yield_control(); return '{k}'"
        )
    };
    let a = reply.exec(Exec::code(code("a"))).await.unwrap();
    let b = reply.exec(Exec::code(code("b"))).await.unwrap();
    assert_eq!(value(&reply.wait(a.run_id().unwrap()).await.unwrap()), &json!("a"));
    let second = reply.wait(b.run_id().unwrap()).await.unwrap();
    let (_, error) = failure(&second);
    assert!(error.starts_with("RangeError: Code Mode store exceeds 1 MiB"), "{error}");
    let r = in_session(&rt, "s", "return [typeof (await load('a')), typeof (await load('b'))]").await;
    assert_eq!(value(&r), &json!(["string", "undefined"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_isolated_and_a_fork_starts_from_its_parent_then_diverges_ga_7_7() {
    let rt = runtime().await;
    in_session(&rt, "parent", "await store('k', 'parent value'); return 1").await;
    assert_eq!(value(&in_session(&rt, "other", "return [await load('k')]").await), &json!([null]));
    rt.fork_session("parent", "child").await.unwrap();
    assert_eq!(value(&in_session(&rt, "child", "return await load('k')").await), &json!("parent value"));
    in_session(&rt, "child", "await store('k', 'child value'); return 1").await;
    assert_eq!(value(&in_session(&rt, "parent", "return await load('k')").await), &json!("parent value"));
    assert!(rt.fork_session("parent", "child").await.is_err(), "a fork never overwrites a session");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_safe_and_headless_cells_reject_store_and_load_ga_7_8() {
    let rt = runtime().await;
    let reply = rt.session("s").reply("r");
    let r = reply
        .exec(Exec::code("try { await store('k', 1) } catch (e) { return e.message }").restart_safe(true))
        .await
        .unwrap();
    assert!(value(&r).as_str().unwrap().contains("restart-safe"), "{}", r.to_model_json());
    let r = rt.headless().exec(Exec::code("try { await load('k') } catch (e) { return e.message }")).await.unwrap();
    assert!(value(&r).as_str().unwrap().contains("headless"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_of_expired_and_disposed_cells_are_discarded_ga_7_6() {
    let rt = runtime_with(Limits { parked_ttl: Duration::from_millis(50), ..Limits::default() }).await;
    let reply = rt.session("s").reply("r");
    let expired = reply.exec(Exec::code("await store('expired', 1); await yield_control(); return 1")).await.unwrap();
    let disposed = reply.exec(Exec::code("await store('disposed', 1); await yield_control(); return 1")).await.unwrap();
    reply.dispose(disposed.run_id().unwrap()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(failure(&reply.wait(expired.run_id().unwrap()).await.unwrap()).1.contains("expired"));
    let r = in_session(&rt, "s", "return [await load('expired'), await load('disposed')]").await;
    assert_eq!(value(&r), &json!([null, null]));
}
