//! No value is silently lost or changed (GA-1.4, GA-4.1, GA-4.4, GA-11.2).
//!
//! Rules under test: a lone UTF-16 surrogate crosses into the host as
//! U+FFFD, in both directions and on every path; a value nested more than
//! 512 levels deep is refused with an error naming the bound, never turned
//! into `null`; host requests still running when the cell returns are
//! drained before it answers.

use codemode_runtime::{CellResult, OutputEntry};
use codemode_tests::{exec, failure, reply, runtime, value};
use serde_json::{Value, json};

const FFFD: &str = "\u{fffd}";

fn entries(result: &CellResult) -> Vec<OutputEntry> {
    match result {
        CellResult::Completed { output, .. } | CellResult::Failed { output, .. } => {
            output.entries().expect("output not truncated").to_vec()
        }
        other => panic!("unexpected {}", other.to_model_json()),
    }
}

fn warnings(result: &CellResult) -> &[String] {
    match result {
        CellResult::Completed { warnings, .. } => warnings,
        other => panic!("expected completed, got {}", other.to_model_json()),
    }
}

/// `[[…[1]…]]` nested `levels` deep, built in the guest.
fn nested(levels: usize) -> String {
    format!("let v = 1; for (let i = 0; i < {levels}; i++) v = [v];")
}

fn depth_of(mut v: &Value) -> usize {
    let mut levels = 0;
    while let Value::Array(a) = v {
        levels += 1;
        v = &a[0];
    }
    levels
}

#[tokio::test]
async fn a_lone_surrogate_in_a_returned_value_crosses_as_u_fffd_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "return ['ok', '\\ud83e', {'\\udd9e': 'a \\udd9e b'}, '\\ud83e\\udd9e'];").await;
    assert_eq!(value(&r), &json!(["ok", FFFD, {FFFD: format!("a {FFFD} b")}, "\u{1f99e}"]));
    assert!(warnings(&r).is_empty());
}

#[tokio::test]
async fn console_text_and_json_keep_entries_with_lone_surrogates_as_u_fffd_ga_4_1() {
    let rt = runtime().await;
    let r =
        exec(&rt, "console.log('a \\udd9e b'); text('\\ud83e'); text({s: '\\ud83e'}); json({s: '\\udd9e'}); return 1;")
            .await;
    assert_eq!(value(&r), &json!(1));
    assert_eq!(
        entries(&r),
        vec![
            OutputEntry::text(format!("a {FFFD} b")),
            OutputEntry::text(FFFD),
            OutputEntry::text(format!("{{\"s\":\"{FFFD}\"}}")),
            OutputEntry::Json { value: json!({"s": FFFD}) },
        ]
    );
}

#[tokio::test]
async fn an_error_message_with_a_lone_surrogate_is_kept_with_u_fffd_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "throw new Error('bad \\ud83e thing');").await;
    let (_, message) = failure(&r);
    assert!(message.starts_with(&format!("Error: bad {FFFD} thing")), "{message}");
    let r = exec(&rt, "throw 'bad \\ud83e thing';").await;
    assert_eq!(failure(&r).1, format!("Uncaught bad {FFFD} thing"));
}

#[tokio::test]
async fn a_tool_receives_and_returns_lone_surrogates_as_u_fffd_ga_11_2() {
    let rt = runtime().await;
    let r = exec(&rt, "return await echo_tool({value: 'x \\ud83e'});").await;
    assert_eq!(value(&r), &json!({"name": "echo_tool", "input": {"value": format!("x {FFFD}")}}));
    // Tool output → guest: the guest sees U+FFFD, a real character.
    let r = exec(&rt, "const r = await echo_tool({value: '\\udd9e'}); return r.input.value.charCodeAt(0);").await;
    assert_eq!(value(&r), &json!(0xfffd));
}

#[tokio::test]
async fn store_and_results_keep_lone_surrogates_as_u_fffd_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "await store('s', {t: 'a \\ud83e'}); return await load('s');").await;
    assert_eq!(value(&r), &json!({"t": format!("a {FFFD}")}));
    let r = exec(&rt, "return await load('s');").await;
    assert_eq!(value(&r), &json!({"t": format!("a {FFFD}")}));
    let r = exec(&rt, "const d = await results.save(['\\ud83e']); return await results.load(d.id);").await;
    assert_eq!(value(&r), &json!([FFFD]));
}

#[tokio::test]
async fn a_value_nested_exactly_512_levels_crosses_whole_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, &format!("{} return v;", nested(512))).await;
    assert_eq!(depth_of(value(&r)), 512);
    let r = exec(&rt, &format!("{} json(v); return 1;", nested(512))).await;
    let all = entries(&r);
    let [OutputEntry::Json { value }] = all.as_slice() else { panic!("one json entry") };
    assert_eq!(depth_of(value), 512);
}

#[tokio::test]
async fn a_value_nested_513_levels_fails_the_cell_naming_the_bound_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, &format!("{} return v;", nested(513))).await;
    let (_, message) = failure(&r);
    assert!(
        message.starts_with("RangeError: the returned value is nested more than 512 levels deep (at $[0]"),
        "{message}"
    );
    let r = exec(&rt, &format!("{} try {{ json(v); }} catch (e) {{ return e.message; }} return 'kept';", nested(513)))
        .await;
    assert!(value(&r).as_str().unwrap().starts_with("the json() value is nested more than 512 levels deep"), "{r:?}");
}

#[tokio::test]
async fn a_tool_input_nested_too_deep_is_refused_not_nulled_ga_11_2() {
    let rt = runtime().await;
    let code =
        format!("{} try {{ await echo_tool({{value: v}}); }} catch (e) {{ return [e.name, e.message]; }}", nested(512));
    let r = exec(&rt, &code).await;
    let v = value(&r);
    assert_eq!(v[0], "RangeError");
    assert!(v[1].as_str().unwrap().starts_with("the tool input is nested more than 512 levels deep"), "{v}");
}

#[tokio::test]
async fn a_store_not_awaited_before_return_commits_with_the_cell_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "store('k', 1); return 1;").await;
    assert_eq!(value(&r), &json!(1));
    assert!(warnings(&r).is_empty(), "{:?}", warnings(&r));
    let r = exec(&rt, "return await load('k');").await;
    assert_eq!(value(&r), &json!(1));
}

#[tokio::test]
async fn a_tool_call_not_awaited_before_return_runs_to_the_end_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "sleep_ms({ms: 50}); store('after', 2); return 'done';").await;
    assert_eq!(value(&r), &json!("done"));
    let r = reply(&rt).exec(codemode_runtime::Exec::code("return await load('after');")).await.unwrap();
    assert_eq!(value(&r), &json!(2));
}

#[tokio::test]
async fn throwing_undefined_or_null_says_what_was_thrown_ga_1_4() {
    let rt = runtime().await;
    for bare in ["undefined", "null"] {
        let r = exec(&rt, &format!("throw {bare};")).await;
        let (_, message) = failure(&r);
        assert!(message.starts_with(&format!("the cell threw {bare}: no error object")), "{message}");
    }
}

#[tokio::test]
async fn stack_frames_name_only_user_code_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "function f() { throw new Error('x'); }\nf();").await;
    let (_, message) = failure(&r);
    assert!(!message.contains("<null>"), "{message}");
    assert!(message.contains("user.js:"), "{message}");
    // Guest-visible stacks: no unnamed `<null>:0:1` frames either.
    let r = exec(&rt, "let a, b; try { null.x } catch (e) { a = e.stack } try { await fail_tool() } catch (e) { b = e.stack } return [a, b];").await;
    let v = value(&r);
    assert!(v[0].as_str().unwrap().starts_with("    at <anonymous> (user.js:"), "{v}");
    assert!(!v[0].as_str().unwrap().contains("<null>"), "{v}");
    assert!(!v[1].as_str().unwrap().contains("<null>"), "{v}");
}

#[tokio::test]
async fn running_out_of_memory_says_so_instead_of_uncaught_null_ga_1_4() {
    let limits = codemode_runtime::Limits { memory_limit_bytes: 8 << 20, ..codemode_runtime::Limits::default() };
    let rt = codemode_tests::runtime_with(limits).await;
    for code in [
        "let a = []; for (let i = 0; i < 3e6; i++) a.push({i, s: 'abc' + i}); return a;",
        "const a = []; for (let i = 0; i < 1e6; i++) a.push('x'.repeat(100) + i); return a;",
    ] {
        let r = exec(&rt, code).await;
        let (_, message) = failure(&r);
        assert!(!message.starts_with("Uncaught"), "{message}");
        assert!(message.contains("out of memory") || message.contains("memory limit"), "{message}");
    }
}
