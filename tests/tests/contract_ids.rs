//! Contract items that no other test names at the id level (GA-1.1, GA-4.2,
//! GA-4.3, GA-4.4, GA-6.4, GA-8.3, GA-8.4, GA-9.2, GA-9.7, GA-11.1).

use std::time::Duration;

use codemode_runtime::{CodeMode, ErrorCode, Exec, McpServerConfig};
use codemode_tests::*;
use serde_json::json;

/// The text of the cell's only output entry.
async fn printed(rt: &CodeMode, code: &str) -> String {
    let r = exec(rt, code).await;
    let entries = r.output().entries().expect("output fits").to_vec();
    assert_eq!(entries.len(), 1, "{entries:?}");
    match &entries[0] {
        codemode_runtime::OutputEntry::Text { text } => text.clone(),
        other => panic!("not text: {other:?}"),
    }
}

/// GA-1.1 says cells are plain JavaScript; codemode does better and accepts
/// TypeScript by erasing its types, while a plain JavaScript cell is never
/// touched and TypeScript that needs code generated is refused by name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn type_annotations_are_erased_and_plain_javascript_is_unchanged_ga_1_1() {
    let rt = runtime().await;
    assert_eq!(value(&exec(&rt, "const n: number = 1; return n").await), &json!(1));
    assert_eq!(value(&exec(&rt, "const n = 1; return n").await), &json!(1));
    let r = exec(&rt, "enum E { A } return E.A").await;
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::InvalidInput, "{r:?}");
    assert!(message.contains("enum"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_levels_prefix_their_message_join_with_spaces_and_keep_printf_tokens_ga_4_2() {
    let rt = runtime().await;
    assert_eq!(printed(&rt, "console.warn('a', 1, '%s')").await, "[warn] a 1 %s");
    assert_eq!(printed(&rt, "console.info('i')").await, "[info] i");
    assert_eq!(printed(&rt, "console.error('e')").await, "[error] e");
    assert_eq!(printed(&rt, "console.debug('d')").await, "[debug] d");
    assert_eq!(printed(&rt, "console.log('%d%%', 'x')").await, "%d%% x");
    let r = exec(&rt, "return [typeof console.table, typeof console.dir, typeof console.trace]").await;
    assert_eq!(value(&r), &json!(["undefined", "undefined", "undefined"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_prints_strings_unquoted_objects_as_compact_json_and_never_runs_getters_or_to_json_ga_4_3() {
    let rt = runtime().await;
    assert_eq!(printed(&rt, "console.log('plain', {a: [1, 'x']})").await, r#"plain {"a":[1,"x"]}"#);
    let text = printed(
        &rt,
        "let ran = false; const o = {toJSON() { ran = true; return 1 }, get g() { ran = true; return 2 }}; \
         console.log(o, new Error('boom')); if (ran) throw new Error('ran')",
    )
    .await;
    assert!(text.contains("boom"), "errors include their message: {text}");
    assert!(!text.contains("\"g\":2"), "getters are not called: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cycles_accessors_and_unawaited_promises_print_as_placeholders_ga_4_4() {
    let rt = runtime().await;
    let text = printed(
        &rt,
        "const a = {}; a.self = a; const g = {get x() { return 1 }}; console.log(a, g, Promise.resolve(1))",
    )
    .await;
    assert!(text.contains("[Circular]"), "{text}");
    assert!(text.contains("[Accessor]"), "{text}");
    assert!(text.contains("[Unawaited Promise"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_value_is_saved_previewed_and_observed_in_a_later_exec_before_filtering_ga_6_4() {
    let rt = runtime().await;
    let reply = reply(&rt);
    let saved = reply
        .exec(Exec::code("const rows = Array.from({length: 50}, (_, i) => ({i})); return await results.save(rows)"))
        .await
        .unwrap();
    let id = value(&saved)["id"].as_str().expect("a result id").to_owned();
    let later = reply
        .exec(Exec::code(format!("const rows = await results.load('{id}'); return rows.filter(r => r.i % 10 === 0)")))
        .await
        .unwrap();
    assert_eq!(value(&later), &json!([{"i": 0}, {"i": 10}, {"i": 20}, {"i": 30}, {"i": 40}]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_trusted_output_schema_becomes_an_output_hint_and_native_tools_say_native_ga_8_3_ga_8_4() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const [c] = await catalog.search('contract_tool', {limit: 1}); const [e] = await catalog.search('echo_tool', {limit: 1}); \
         return [c.callableName, typeof c.output, e.callableName, e.output, c.source, e.source]",
    )
    .await;
    let v = value(&r);
    assert_eq!(v[0], "contract_tool");
    assert_eq!(v[1], "string", "a trusted outputSchema gives an output hint: {v}");
    assert_eq!((v[2].as_str(), &v[3]), (Some("echo_tool"), &serde_json::Value::Null), "{v}");
    assert_eq!((v[4].as_str(), v[5].as_str()), (Some("native"), Some("native")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_index_globals_are_called_directly_and_handles_serve_lookups_ga_11_1() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const direct = await echo_tool({value: 'a'}); const [h] = await catalog.search('echo', {limit: 1}); \
         const schema = await h.describe(); const viaHandle = await h({value: 'b'}); \
         return [direct.input.value, viaHandle.input.value, typeof schema]",
    )
    .await;
    assert_eq!(value(&r), &json!(["a", "b", "object"]));
}

async fn mcp_runtime() -> CodeMode {
    let fixture = McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(5));
    let rt = codemode_tests::builder().tool(Echo).mcp_server(fixture).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture server connects");
    rt
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_descriptions_are_capped_at_512_units_without_splitting_pairs_and_carry_no_hints_ga_9_2() {
    let rt = mcp_runtime().await;
    let r = exec(
        &rt,
        "const [h] = (await catalog.search('long description', {limit: 20})).filter(h => h.source === 'mcp' && /long/i.test(h.callableName)); \
         return [h.description.length, /[\\uD800-\\uDBFF]$/.test(h.description), h.input === undefined || h.input === null, h.output === undefined || h.output === null]",
    )
    .await;
    let v = value(&r);
    assert!(v[0].as_u64().unwrap() <= 512, "{v}");
    assert_eq!(&v[1], false, "no lone high surrogate at the cut: {v}");
    assert_eq!((&v[2], &v[3]), (&json!(true), &json!(true)), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_all_keeps_listing_only_native_handles_after_a_search_finds_mcp_tools_ga_9_7() {
    let rt = mcp_runtime().await;
    let r = exec(
        &rt,
        "const before = catalog.all().map(h => h.source); const found = await catalog.search('invoices'); \
         const after = catalog.all().map(h => h.source); return [before, found.some(h => h.source === 'mcp'), after]",
    )
    .await;
    assert_eq!(value(&r), &json!([["native"], true, ["native"]]));
    assert!(!rt.exec_tool_description().exec.description.contains("listInvoices("), "not in the trusted quick index");
}
