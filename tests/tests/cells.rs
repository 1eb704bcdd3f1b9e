//! Cells and contexts (GA-1.1, GA-1.2, GA-1.4): what runs, what is refused.

use codemode_runtime::{CellResult, ErrorCode, Exec, Phase};
use codemode_tests::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_exec_starts_a_fresh_context_ga_1_2() {
    let rt = runtime().await;
    assert_eq!(value(&exec(&rt, "globalThis.privateCell = 73; var leaked = 1; return privateCell").await), &json!(73));
    assert_eq!(
        value(&exec(&rt, "return [typeof privateCell, typeof leaked]").await),
        &json!(["undefined", "undefined"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn return_and_top_level_await_work_but_a_trailing_expression_is_not_the_value_ga_1_4() {
    let rt = runtime().await;
    assert_eq!(value(&exec(&rt, "const x = await Promise.resolve(20); return x + 1").await), &json!(21));
    assert_eq!(value(&exec(&rt, "1 + 1").await), &json!(null));
    assert_eq!(value(&exec(&rt, "return").await), &json!(null));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_syntax_error_fails_as_invalid_input_with_the_user_line_and_runs_nothing_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "text('ran');\nconst b = ;\nreturn 1;").await;
    let CellResult::Failed { code, error, phase, output, .. } = &r else { panic!("{}", r.to_model_json()) };
    assert_eq!((*code, *phase), (ErrorCode::InvalidInput, Phase::Input));
    assert!(error.starts_with("SyntaxError at user.js:2:11: "), "{error}");
    assert!(error.contains("No tools were dispatched"), "{error}");
    assert!(output.is_empty(), "nothing ran");
    // A corrected follow-up succeeds.
    assert_eq!(value(&exec(&rt, "const b = 2;\nreturn b;").await), &json!(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thrown_error_fails_with_name_message_and_the_user_line_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "const x = 1;\nnull.foo;\nreturn x;").await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::InternalError);
    assert_eq!(error, "TypeError: cannot read property 'foo' of null\n    at <anonymous> (user.js:2:1)\n");
    let r = exec(&rt, "function inner() {\n  throw new RangeError('too far');\n}\ninner();").await;
    let (_, error) = failure(&r);
    assert!(error.starts_with("RangeError: too far\n    at inner (user.js:2:"), "{error}");
    let r = exec(&rt, "throw 'plain string'").await;
    assert_eq!(failure(&r).1, "Uncaught plain string");
    let r = exec(&rt, "throw {code: 7}").await;
    assert_eq!(failure(&r).1, "Uncaught {\"code\":7}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shell_shaped_source_is_refused_before_running() {
    let rt = runtime().await;
    for code in ["ls -la", "cat file | grep x", "pwd"] {
        let r = exec(&rt, code).await;
        let CellResult::Failed { code: c, error, phase, .. } = &r else { panic!() };
        assert_eq!((*c, *phase), (ErrorCode::InvalidInput, Phase::Input));
        assert!(error.contains("not shell commands") && error.contains("catalog.search"), "{error}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_and_require_are_refused_before_running() {
    let rt = runtime().await;
    for code in
        ["import fs from \"fs\"; return 1", "const fs = require(\"fs\"); return 1", "return await import(\"fs\")"]
    {
        let r = exec(&rt, code).await;
        let CellResult::Failed { code: c, error, phase, .. } = &r else { panic!() };
        assert_eq!((*c, *phase), (ErrorCode::InvalidInput, Phase::Input), "{code}");
        assert!(error.contains("module access is disabled"), "{error}");
    }
    // Reaching for Node's globals at run time is the same mistake.
    let r = exec(&rt, "return process.env").await;
    assert_eq!(failure(&r).0, ErrorCode::InvalidInput);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_and_browser_globals_are_undefined_and_host_hooks_unreachable() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "return [typeof process, typeof require, typeof module, typeof fetch, typeof setInterval, \
         Object.getOwnPropertyNames(globalThis).filter(k => /host|settle|__/.test(k))]",
    )
    .await;
    assert_eq!(value(&r), &json!(["undefined", "undefined", "undefined", "undefined", "undefined", []]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lazily_loaded_globals_ignore_guest_patches_and_can_be_replaced_ga_4_1_ga_3() {
    let rt = runtime().await;
    // console, TextEncoder, catalog and nodes load on first use; their
    // internals were captured before guest code ran.
    let r = exec(
        &rt,
        "JSON.stringify = () => 'patched'; Object.freeze = (o) => o; Array.isArray = () => false;          console.log({a: [1]}); const frozen = Object.isFrozen(console);          const d = Object.getOwnPropertyDescriptor(globalThis, 'console');          const bytes = new TextEncoder().encode('é').length;          TextDecoder = 'replaced';          return [frozen, 'value' in d, d.enumerable, bytes, TextDecoder, typeof catalog.search, typeof nodes.get]",
    )
    .await;
    assert_eq!(value(&r), &json!([true, true, false, 2, "replaced", "function", "function"]));
    assert_eq!(r.output().entries(), Some(&[codemode_runtime::OutputEntry::text("{\"a\":[1]}")][..]));
    // Freezing globalThis first leaves the lazy globals usable.
    let r =
        exec(&rt, "Object.freeze(globalThis); console.log('still'); return [typeof console.log, console === console]")
            .await;
    assert_eq!(value(&r), &json!(["function", true]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_code_and_overlong_titles_are_refused() {
    let rt = runtime().await;
    let reply = reply(&rt);
    let r = reply.exec(Exec::code("  \n")).await.unwrap();
    assert!(failure(&r).1.contains("non-empty"));
    let at = reply.exec(Exec::code("return 1").title("t".repeat(120))).await.unwrap();
    assert_eq!(value(&at), &json!(1));
    let over = reply.exec(Exec::code("return 1").title("t".repeat(121))).await.unwrap();
    assert_eq!(failure(&over), (ErrorCode::InvalidInput, "title must be at most 120 characters."));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn returned_values_cross_as_json_ga_1_4() {
    let rt = runtime().await;
    let r = exec(&rt, "return {a: undefined, b: () => 1, c: Symbol('x'), d: [undefined, () => 1], e: new Date(0), f: new Map([[1,2]]), g: NaN, h: -0, i: 10n}").await;
    assert_eq!(value(&r), &json!({"d": [null, null], "e": {}, "f": {}, "g": null, "h": 0, "i": "10"}));
    let r = exec(&rt, "return {z: 1, a: 2, m: 3}").await;
    assert_eq!(serde_json::to_string(value(&r)).unwrap(), r#"{"z":1,"a":2,"m":3}"#, "key order is kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cyclic_return_value_is_a_clear_error_not_a_hang() {
    let rt = runtime().await;
    let r = exec(&rt, "const o = {a: {}}; o.a.back = o; return o;").await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::InternalError);
    assert!(error.contains("cycle at $.a.back"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_are_async_globals_resolving_to_their_details_ga_6_1() {
    let rt = runtime().await;
    let r = exec(&rt, "return [typeof noop, await noop(), await echo_tool({value: 'ship'})]").await;
    assert_eq!(value(&r), &json!(["function", {"ok": true}, {"name": "echo_tool", "input": {"value": "ship"}}]));
    let r = exec(&rt, "try { await fail_tool({}) } catch (e) { return [e.message, e.code, e instanceof Error] }").await;
    assert_eq!(value(&r), &json!(["fail_tool always fails", "tool_error", true]));
}
