//! Console bounds at their edges and the output budget (GA-4).

use codemode_runtime::{CellResult, ErrorCode, Limits, Output, OutputEntry};
use codemode_tests::*;
use serde_json::json;

/// The text of the single console line a cell printed.
async fn line(code: &str) -> String {
    let rt = runtime().await;
    let r = exec(&rt, code).await;
    match r.output() {
        Output::Entries(e) if e.len() == 1 => match &e[0] {
            OutputEntry::Text { text } => text.clone(),
            other => panic!("not text: {other:?}"),
        },
        other => panic!("expected one entry, got {other:?}"),
    }
}

fn array_of(n: usize) -> String {
    format!("[{}]", vec!["1"; n].join(","))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_inspects_exactly_100_values_per_call_ga_4_5() {
    // outer + (1 + 49) + (1 + 48) = 100 values.
    let at = line(&format!("console.log([{}, {}])", array_of(49), array_of(48))).await;
    assert!(!at.contains("[truncated]"), "{at}");
    let over = line(&format!("console.log([{}, {}])", array_of(49), array_of(49))).await;
    assert!(over.ends_with(",1,\"[truncated]\"]]"), "{over}");
    assert_eq!(over.matches('1').count(), 49 + 48, "the 101st value is not shown");
    // Once the budget is spent, later arguments are cut too.
    let args = line(&format!("console.log({}, {}, 'late')", array_of(49), array_of(49))).await;
    assert!(args.ends_with(" [truncated]"), "{args}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_shows_50_properties_per_object_ga_4_5() {
    let obj = |n: usize| format!("Object.fromEntries(Array.from({{length: {n}}}, (_, i) => ['k' + i, i]))");
    let at = line(&format!("console.log({})", obj(50))).await;
    assert!(at.ends_with("\"k49\":49}") && !at.contains("truncated"), "{at}");
    let over = line(&format!("console.log({})", obj(51))).await;
    assert!(over.ends_with("\"k49\":49,\"…\":\"[truncated]\"}"), "{over}");
    let arr = line(&format!("console.log({})", array_of(51))).await;
    assert_eq!(arr, format!("[{},\"[truncated]\"]", vec!["1"; 50].join(",")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_shows_4_object_levels_ga_4_5() {
    assert_eq!(line("console.log({a: {b: {c: {d: 1}}}})").await, r#"{"a":{"b":{"c":{"d":1}}}}"#);
    assert_eq!(line("console.log({a: {b: {c: {d: {e: 1}}}}})").await, r#"{"a":{"b":{"c":{"d":"[truncated]"}}}}"#);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_cuts_strings_and_keys_at_512_units_ga_4_6() {
    assert_eq!(line("console.log('s'.repeat(512))").await, "s".repeat(512));
    assert_eq!(line("console.log('s'.repeat(513))").await, format!("{}…[truncated]", "s".repeat(512)));
    let key = line("console.log({['k'.repeat(513)]: 1})").await;
    assert_eq!(key, format!("{{\"{}…[truncated]\":1}}", "k".repeat(512)));
    let at = line("console.log({['k'.repeat(512)]: 1})").await;
    assert_eq!(at, format!("{{\"{}\":1}}", "k".repeat(512)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_never_splits_a_surrogate_pair_ga_4_6() {
    // Unit 512 would be the high half of 🦞: the whole pair goes.
    let s = line("console.log('a'.repeat(511) + '🦞')").await;
    assert_eq!(s, format!("{}…[truncated]", "a".repeat(511)));
    let kept = line("console.log('a'.repeat(510) + '🦞')").await;
    assert_eq!(kept, format!("{}🦞", "a".repeat(510)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_messages_keep_4096_units_ga_4_6() {
    let args = |last: usize| format!("console.log(...Array(7).fill('a'.repeat(512)), 'b'.repeat({last}))");
    let at = line(&args(505)).await;
    assert_eq!(at.encode_utf16().count(), 4096);
    assert!(!at.ends_with("[truncated]"));
    let over = line(&args(506)).await;
    assert_eq!(over.encode_utf16().count(), 4096 + "…[truncated]".encode_utf16().count());
    assert!(over.ends_with("b…[truncated]"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_budget_ends_in_exactly_one_marker_that_survives_a_wait_ga_4_7() {
    let rt = runtime().await;
    let results = run_to_end(
        &rt,
        "for (let i = 0; i < 20000; i++) console.log(); await yield_control(); \
         console.log('after exhaustion'); text('text still works'); return 1",
    )
    .await;
    let first = results[0].output().entries().expect("within maxOutputBytes");
    let markers = first.iter().filter(|e| **e == OutputEntry::text("[console output truncated]")).count();
    assert_eq!(markers, 1);
    assert_eq!(first.last(), Some(&OutputEntry::text("[console output truncated]")));
    assert!(first.len() < 700, "{} entries", first.len());
    let last = results.last().unwrap();
    assert_eq!(last.output().entries().unwrap(), &[OutputEntry::text("text still works")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_methods_are_exactly_five_frozen_and_never_throw_ga_4_1() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const r = [console.error('x'), console.log(new Proxy({}, {get() { throw 1 }, ownKeys() { throw 1 }}))]; \
         return [Object.keys(console), Object.isFrozen(console), typeof console.table, r]",
    )
    .await;
    assert_eq!(value(&r), &json!([["log", "info", "warn", "error", "debug"], true, "undefined", [null, null]]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_output_counts_against_max_output_bytes_ga_4_8() {
    let rt = runtime_with(Limits { max_output_bytes: 1024, ..Limits::default() }).await;
    let results =
        run_to_end(&rt, "for (let i = 0; i < 100; i++) console.log('line', i); await yield_control(); return 'ok'")
            .await;
    let CellResult::Waiting { output: Output::Truncated(marker), .. } = &results[0] else {
        panic!("{}", results[0].to_model_json())
    };
    assert!(marker.prefix.starts_with("[{\"type\":\"text\",\"text\":\"line 0\"}"));
    assert!(serde_json::to_string(marker).unwrap().len() <= 768);
    assert_eq!(value(&results[1]), &json!("ok"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_captures_values_when_emitted_without_running_getters() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "let ran = 0; const o = {n: 1, get g() { ran++; return 1 }, toJSON() { ran++; return 'x' }, list: [1]}; \
         json(o); text(o); o.n = 2; o.list.push(2); return ran",
    )
    .await;
    assert_eq!(value(&r), &json!(0));
    assert_eq!(
        r.output().entries().unwrap(),
        &[OutputEntry::Json { value: json!({"n": 1, "list": [1]}) }, OutputEntry::text(r#"{"n":1,"list":[1]}"#)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cycle_in_json_output_is_a_type_error_the_guest_can_catch() {
    let rt = runtime().await;
    let r = exec(&rt, "const o = {}; o.o = o; try { json(o) } catch (e) { return [e.name, e.message] }").await;
    assert_eq!(value(&r), &json!(["TypeError", "value has a cycle at $.o"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn final_value_getters_run_once_per_occurrence_even_across_a_park() {
    let rt = runtime().await;
    let results = run_to_end(
        &rt,
        "let calls = 0; const o = {get g() { return ++calls }}; await yield_control(); return [o, o, () => calls]",
    )
    .await;
    assert_eq!(value(results.last().unwrap()), &json!([{"g": 1}, {"g": 2}, null]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_final_value_becomes_a_marker_and_an_oversized_error_keeps_its_head() {
    let rt = runtime_with(Limits { max_output_bytes: 1024, ..Limits::default() }).await;
    // The budget's last quarter is the final value's: a marker with a prefix
    // always fits there (a budget with no room at all is an
    // `output_limit_exceeded`, unit-tested in the ledger).
    let r = exec(&rt, "return 'x'.repeat(100000)").await;
    let CellResult::Completed { value, .. } = &r else { panic!("{}", r.to_model_json()) };
    assert_eq!(value["truncated"], json!(true));
    assert_eq!(value["omittedBytes"].as_u64().unwrap() + value["prefix"].as_str().unwrap().len() as u64, 100_002);
    let r = exec(&rt, "throw new Error('x'.repeat(100000))").await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::InternalError);
    assert!(error.ends_with(" [error truncated]") && error.starts_with("Error: xxx"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_windows_output_streams_while_it_runs_and_the_result_still_has_it_all_ga_4_8() {
    use codemode_runtime::{OutputStream, RunEvent, Streamed};
    let rt = runtime().await;
    let mut events = rt.run_events();
    let (stream, mut rx) = OutputStream::channel(16);
    let code = "text('a'); await new Promise(r => setTimeout(r, 50)); json({b: 1}); return 'done'";
    let reply = reply(&rt);
    let result = reply.exec(codemode_runtime::Exec::code(code).stream(stream)).await.unwrap();
    let mut streamed = Vec::new();
    while let Ok(Streamed::Entries(entries)) = rx.try_recv() {
        streamed.extend(entries);
    }
    let CellResult::Completed { output, .. } = &result else { panic!("{result:?}") };
    assert_eq!(output.entries().unwrap(), streamed.as_slice(), "the stream had what the result has, in order");
    assert_eq!(streamed.len(), 2);
    let mut reported = Vec::new();
    while let Ok(Ok(event)) = tokio::time::timeout(std::time::Duration::from_millis(100), events.recv()).await {
        if let RunEvent::Output { entries, .. } = event {
            reported.extend(entries);
        }
    }
    assert_eq!(reported, streamed, "run events carry the same entries");
}
