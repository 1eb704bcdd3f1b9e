//! Limits at their edges: memory, stack, host-request admission, timers.

use std::time::Duration;

use codemode_runtime::{ErrorCode, Limits};
use codemode_tests::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_limit_holds_and_the_next_cell_still_runs() {
    let limits = Limits { memory_limit_bytes: 16 * 1024 * 1024, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let r = exec(&rt, "const a = []; while (true) a.push(new Array(1e6).fill(1));").await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::InternalError);
    assert!(
        error.starts_with("InternalError: out of memory (the cell exceeded its memory limit of 16777216 bytes"),
        "{error}"
    );
    // A cell that stays under the limit allocates what it needs.
    let r = exec(&rt, "const a = new Array(1e5).fill(1); return a.length").await;
    assert_eq!(value(&r), &json!(100_000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_string_is_stopped_by_the_memory_limit() {
    let limits = Limits { memory_limit_bytes: 8 * 1024 * 1024, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let r = exec(&rt, "return 'x'.repeat(64 * 1024 * 1024).length").await;
    assert!(failure(&r).1.contains("out of memory"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stack_is_deep_enough_for_ordinary_recursion_and_bounded_for_runaway_recursion() {
    let rt = runtime().await;
    let r = exec(&rt, "function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } return f(5000)").await;
    assert_eq!(value(&r), &json!(5000));
    let r = exec(&rt, "function f(n) { return 1 + f(n + 1) } return f(0)").await;
    assert!(failure(&r).1.starts_with("RangeError: Maximum call stack size exceeded"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_requests_are_admitted_up_to_in_flight_plus_queued_exactly() {
    let rt = runtime().await;
    // 16 in flight + 128 queued = 144 requests outstanding at once.
    let at = exec(
        &rt,
        "const ps = []; for (let i = 0; i < 144; i++) ps.push(noop({})); await Promise.all(ps); return ps.length",
    )
    .await;
    assert_eq!(value(&at), &json!(144));
    let over =
        exec(&rt, "const ps = []; for (let i = 0; i < 145; i++) ps.push(noop({})); await Promise.all(ps); return 1")
            .await;
    let (code, error) = failure(&over);
    assert_eq!(code, ErrorCode::InvalidInput);
    assert!(
        error.starts_with("code mode bridge queue limit exceeded (128 requests queued; 16 in-flight slots)"),
        "{error}"
    );
    // As the reference: the cell asked for more than it may (GA-11.2).
    assert_eq!(failed_phase(&over), codemode_runtime::Phase::Input);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queue_overflow_is_sticky_even_when_the_guest_catches_it() {
    let rt = runtime().await;
    let r = exec(&rt, "const ps = []; try { for (let i = 0; i < 200; i++) ps.push(noop({})); } catch (e) { return 'caught' } return 1").await;
    assert_eq!(failure(&r).0, ErrorCode::InvalidInput);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_calls_beyond_the_in_flight_slots_queue_and_all_complete() {
    let limits = Limits { max_in_flight: 2, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let r = exec(&rt, "const rs = await Promise.all([1,2,3,4,5].map(i => sleep_ms({ms: 20}))); return rs.length").await;
    assert_eq!(value(&r), &json!(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_timers_all_fire_in_delay_order_ga_5_1() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const order = []; await new Promise(done => { let left = 1000; \
         for (let i = 0; i < 1000; i++) setTimeout(() => { order.push(i); if (--left === 0) done(); }, 1000 - i); }); \
         return [order.length, order[0], order[999]]",
    )
    .await;
    assert_eq!(value(&r), &json!([1000, 999, 0]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_timers_are_bounded_exactly() {
    let limits = Limits { max_timers: 10, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let at = exec(&rt, "for (let i = 0; i < 10; i++) setTimeout(() => {}, 1); return 1").await;
    assert_eq!(value(&at), &json!(1));
    let over = exec(&rt, "for (let i = 0; i < 11; i++) setTimeout(() => {}, 1); return 1").await;
    assert!(failure(&over).1.starts_with("code mode timer limit exceeded (10 live timers)"));
    // Fired and cleared timers free their slots.
    let reuse =
        exec(&rt, "for (let i = 0; i < 30; i++) { const t = setTimeout(() => {}, 1000); clearTimeout(t); } return 1")
            .await;
    assert_eq!(value(&reuse), &json!(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_timeout_checks_its_callback_and_coerces_its_delay_ga_5_1() {
    let rt = runtime().await;
    let r = exec(&rt, "setTimeout('nope', 1)").await;
    assert!(failure(&r).1.starts_with("TypeError: setTimeout callback must be a function"));
    let r = exec(
        &rt,
        "const got = []; await new Promise(done => { setTimeout((a, b) => got.push(a + b), '5', 'x', 'y'); \
         setTimeout(() => got.push('nan'), NaN); setTimeout(() => got.push('neg'), -10); setTimeout(done, 20); }); \
         return [got, typeof setTimeout(() => {}, 0), typeof setInterval]",
    )
    .await;
    assert_eq!(value(&r), &json!([["nan", "neg", "xy"], "number", "undefined"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clear_timeout_cancels_a_timer_created_before_an_earlier_pause_ga_5_2() {
    let rt = runtime().await;
    let results = run_to_end(
        &rt,
        "let fired = []; const id = setTimeout(() => fired.push(1), 50); await yield_control(); \
         clearTimeout(id); await new Promise(r => setTimeout(r, 100)); return fired;",
    )
    .await;
    assert_eq!(value(results.last().unwrap()), &json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timers_survive_parking_ga_5_1() {
    let rt = runtime().await;
    let results = run_to_end(
        &rt,
        "const fired = []; setTimeout(() => fired.push('t'), 30); await yield_control(); \
        await new Promise(r => setTimeout(r, 60)); return fired",
    )
    .await;
    assert_eq!(value(results.last().unwrap()), &json!(["t"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_thrown_by_a_timer_callback_fails_the_cell() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "setTimeout(() => { throw new Error('boom') }, 1); await new Promise(r => setTimeout(r, 30)); return 1",
    )
    .await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::InternalError);
    assert!(error.starts_with("Error: boom (in a setTimeout callback)"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headless_cells_run_to_completion_in_one_call() {
    let limits = Limits { headless_timeout: Duration::from_secs(2), headless_max_tool_calls: 2, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let headless = rt.headless();
    let r = headless
        .exec(codemode_runtime::Exec::code(
            "const y = await yield_control('x'); await noop(); await noop(); return y.status",
        ))
        .await
        .unwrap();
    assert_eq!(value(&r), &json!("yielded"));
    let over = headless
        .exec(codemode_runtime::Exec::code("for (let i = 0; i < 3; i++) await noop(); return 1"))
        .await
        .unwrap();
    assert_eq!(failure(&over).0, ErrorCode::ToolBudgetExceeded);
    let slow = headless.exec(codemode_runtime::Exec::code("await sleep_ms({ms: 5000}); return 1")).await.unwrap();
    assert_eq!(failure(&slow).0, ErrorCode::Timeout);
}

fn cpu_limited(cpu_ms: u64, timeout_ms: u64) -> Limits {
    Limits {
        cpu_budget: Some(Duration::from_millis(cpu_ms)),
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_loop_past_the_cpu_budget_times_out_long_before_the_window_ga_1_5() {
    let rt = runtime_with(cpu_limited(100, 60_000)).await;
    let r = exec(&rt, "let n = 0; while (true) n++;").await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::Timeout);
    assert!(error.starts_with("code mode CPU budget exceeded: the cell's own code used more than this run's 100 ms"));
    let receipt = r.telemetry();
    assert!(receipt.guest_cpu_us >= 100_000, "{receipt:?}");
    // The next cell has a budget of its own.
    assert_eq!(value(&exec(&rt, "return 1").await), &json!(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_on_a_slow_tool_does_not_spend_the_cpu_budget_ga_1_5() {
    let rt = runtime_with(cpu_limited(50, 10_000)).await;
    let r = exec(&rt, "await sleep_ms({ms: 300}); await new Promise(r => setTimeout(r, 100)); return 'done'").await;
    assert_eq!(value(&r), &json!("done"));
    let receipt = r.telemetry();
    assert!(receipt.host_wait_us >= 400_000, "{receipt:?}");
    assert!(receipt.guest_cpu_us < 50_000, "{receipt:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cpu_budget_counts_the_whole_run_across_its_windows_ga_1_3() {
    // The first window parks on a slow call; the busy loop of the second
    // window uses the run's budget.
    let rt = runtime_with(cpu_limited(100, 2_000)).await;
    let results = run_to_end(&rt, "await sleep_ms({ms: 2100}); let n = 0; while (true) n++;").await;
    let (parked, last) = (&results[0], results.last().unwrap());
    assert_eq!(parked.status(), "waiting");
    assert_eq!(failure(last).0, ErrorCode::Timeout, "{}", last.to_model_json());
    assert!(failure(last).1.starts_with("code mode CPU budget exceeded"), "{}", failure(last).1);
    // Receipts only grow from window to window.
    assert!(parked.telemetry().guest_cpu_us <= last.telemetry().guest_cpu_us);
    assert!(parked.telemetry().host_wait_us <= last.telemetry().host_wait_us);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_result_carries_a_receipt_of_what_the_cell_cost() {
    let rt = runtime().await;
    // The heap's peak is counted as the engine allocates (GA-1.2 receipt,
    // runtime-semantics §3.5): the array of 1e5 numbers is in it.
    let r = exec(&rt, "text('hello'); globalThis.a = new Array(1e5).fill(1); await noop({}); return a.length").await;
    let receipt = *r.telemetry();
    assert_eq!(receipt.call_count, 1);
    assert!(receipt.guest_cpu_us > 0, "{receipt:?}");
    assert!(receipt.heap_peak_bytes > 800_000, "the array of 1e5 numbers is in the heap: {receipt:?}");
    assert!(receipt.output_bytes > 0, "{receipt:?}");
    let quiet = exec(&rt, "return 1").await;
    // The output budget counts the final value too: `1` is one byte.
    assert_eq!(quiet.telemetry().output_bytes, 1);
}
