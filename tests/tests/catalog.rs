//! The guest catalog: tools as globals, handles, search, describe, API files
//! (GA-2, GA-6.1, GA-8, GA-11).

use std::sync::Arc;

use codemode_runtime::{CodeMode, ErrorCode, Limits, Tool, ToolFuture, ToolOutput, ToolSource};
use codemode_tests::*;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_returns_frozen_cached_callable_handles_ga_8_6() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const [h] = await catalog.search('echo'); const again = await catalog.search('echo_tool'); \
         return [h === again[0], Object.isFrozen(again), Object.isFrozen(h), typeof h, await h({value: 'x'}), \
                 await catalog.search('zebra')]",
    )
    .await;
    assert_eq!(value(&r), &json!([true, true, true, "function", {"name": "echo_tool", "input": {"value": "x"}}, []]));
    let telemetry = match &r {
        codemode_runtime::CellResult::Completed { telemetry, .. } => *telemetry,
        _ => unreachable!(),
    };
    assert_eq!((telemetry.search_count, telemetry.call_count, telemetry.describe_count), (3, 1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn returned_handles_serialize_as_bounded_metadata_ga_8_1() {
    let rt = runtime().await;
    let r =
        exec(&rt, "const [h] = await catalog.search('contract_tool'); json([h]); return {h, viaToJSON: h.toJSON()}")
            .await;
    let meta = json!({"callableName": "contract_tool", "toolName": "contract_tool", "label": "Contract tool",
        "description": "Returns {ok} exactly as given.", "source": "native", "input": "{ ok?: unknown }", "output": "{ ok: boolean }"});
    assert_eq!(value(&r), &json!({"h": meta, "viaToJSON": meta}));
    assert_eq!(r.output().entries().unwrap()[0], codemode_runtime::OutputEntry::Json { value: json!([meta]) });
    let text = r.to_model_json();
    assert!(
        !text.contains("openclaw") && !text.contains("native:") && !text.contains("null"),
        "no internal ids or nulls: {text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn describe_gives_the_full_schemas_ga_8_2() {
    let rt = runtime().await;
    let r = exec(&rt, "const [h] = await catalog.search('contract_tool'); return await h.describe()").await;
    let d = value(&r);
    assert_eq!(d["name"], json!("contract_tool"));
    assert_eq!(d["callableName"], json!("contract_tool"));
    assert_eq!(d["parameters"], json!({"type": "object", "properties": {"ok": {}}}));
    assert_eq!(d["outputSchema"]["required"], json!(["ok"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_all_lists_native_handles_sorted_by_callable_name_ga_8_8() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const all = catalog.all(); return [Object.isFrozen(all), all === catalog.all(), all.map(h => h.callableName)]",
    )
    .await;
    assert_eq!(
        value(&r),
        &json!([true, true, ["contract_tool", "echo_tool", "fail_tool", "noop", "panic_tool", "sleep_ms"]])
    );
}

/// A refused call says its effect is `none`, a call that ran and failed
/// `unknown`; both carry the user frames of the call site. A failure the
/// cell does not catch fails it in phase `bridge`, as in the reference.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_errors_carry_their_effect_status_and_call_site_and_an_uncaught_one_is_a_bridge_failure_ga_11_2() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const seen = [];\n\
         try { await echo_tool({value: 3}) } catch (e) { seen.push([e.code, e.effectStatus, e.location]) }\n\
         try {\n  await fail_tool({})\n} catch (e) { seen.push([e.code, e.effectStatus, e.location]) }\n\
         return seen",
    )
    .await;
    let v = value(&r);
    assert_eq!((&v[0][0], &v[0][1]), (&json!("input_contract"), &json!("none")), "{v}");
    assert_eq!(v[1][1], json!("unknown"), "{v}");
    assert!(v[0][2].as_str().is_some_and(|l| l.contains("user.js:2:")), "the refused call's line: {v}");
    assert!(v[1][2].as_str().is_some_and(|l| l.contains("user.js:4:")), "the failed call's line: {v}");
    let uncaught = exec(&rt, "return await fail_tool({})").await;
    assert_eq!(failed_phase(&uncaught), codemode_runtime::Phase::Bridge, "{}", uncaught.to_model_json());
    let thrown = exec(&rt, "throw new Error('mine')").await;
    assert_eq!(failed_phase(&thrown), codemode_runtime::Phase::Guest, "the guest's own error stays guest");
}

/// A tool error's `.location` is at most 8 KiB of user frames whatever
/// the stack it was called from. QuickJS writes at most 64 frames, but a
/// guest's `Error.prepareStackTrace` writes the stack it likes: a short
/// one (kept as written until the call fails) and one past the bound
/// kept (read at once) give the same innermost frames, and the longer is
/// cut at the bound (GA-11.2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_errors_location_is_at_most_8_kib_of_user_frames_at_any_stack_length_ga_11_2() {
    let rt = runtime().await;
    let location = async |frames: usize| {
        let code = format!(
            "Error.prepareStackTrace = () => 'Error\\n' + '    at frame (user.js:2:5)\\n'.repeat({frames});\n\
             try {{ await fail_tool({{}}) }} catch (e) {{ return e.location }}"
        );
        let r = exec(&rt, &code).await;
        value(&r).as_str().unwrap_or_else(|| panic!("a location: {}", r.to_model_json())).to_owned()
    };
    let (short, long) = (location(10).await, location(2000).await);
    assert_eq!(short.lines().count(), 10, "{short}");
    assert!(long.len() <= 8192 && long.len() > 8192 - 64, "cut at the bound: {} bytes", long.len());
    let whole_lines = long.lines().count() - 1;
    for line in short.lines().chain(long.lines().take(whole_lines)) {
        assert_eq!(line.trim(), "at frame (user.js:1:5)", "a user frame, at its place in the cell");
    }
}

/// The prelude makes its tables (which errors came from the host, the
/// handles' metadata, the MCP handles, timers) on first use, which may be
/// after guest code ran: a cell that replaced `Map`, `WeakMap` and
/// `WeakSet` first changes none of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_the_prelude_makes_late_ignore_constructors_a_cell_replaced_first_ga_1_2_ga_11_2() {
    let rt = runtime().await;
    let fake = "const fake = function () { return { get() { return { callableName: 'forged' } }, set() { return this }, \
                add() { return this }, has() { return true }, delete() { return true } } };\n\
                globalThis.Map = fake; globalThis.WeakMap = fake; globalThis.WeakSet = fake;\n";
    let thrown = exec(&rt, &format!("{fake}throw new Error('mine')")).await;
    assert_eq!(failed_phase(&thrown), codemode_runtime::Phase::Guest, "the guest's own error stays guest");
    let r = exec(
        &rt,
        &format!(
            "{fake}const h = echo_tool;\nconst order = [];\nsetTimeout(() => order.push('t'), 0);\n\
             await new Promise((r) => setTimeout(r, 5));\n\
             return [h.callableName, catalog.all().length, order, h]"
        ),
    )
    .await;
    let v = value(&r);
    assert_eq!([&v[0], &v[1], &v[2]], [&json!("echo_tool"), &json!(6), &json!(["t"])], "{}", r.to_model_json());
    assert_eq!(v[3]["callableName"], "echo_tool", "a returned handle is its own metadata: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_input_is_a_type_error_naming_the_field_and_the_tool_does_not_run_ga_11_2() {
    let rt = runtime().await;
    let r = exec(&rt, "try { await echo_tool({value: 3}) } catch (e) { return [e.name, e.code, e.message] }").await;
    let v = value(&r);
    assert_eq!(v[0], json!("TypeError"));
    assert_eq!(v[1], json!("input_contract"));
    assert!(v[2].as_str().unwrap().starts_with("echo_tool input is invalid: $.value: expected string, got integer."));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_output_schema_is_checked_after_the_call() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const good = await contract_tool({ok: true}); try { await contract_tool({ok: 'yes'}) } \
        catch (e) { return [good, e.code, e.message] }",
    )
    .await;
    let v = value(&r);
    assert_eq!(v[0], json!({"ok": true}));
    assert_eq!(v[1], json!("output_contract"));
    assert!(v[2].as_str().unwrap().contains("$.ok: expected boolean, got string"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_files_are_records_with_declarations_ga_2_1_ga_2_2() {
    let rt = runtime().await;
    let r = exec(
        &rt,
        "const list = await API.list('tools/c'); const f = await API.read('tools/contract_tool.d.ts'); \
        let missing; try { await API.read('tools/nope.d.ts') } catch (e) { missing = e.message } \
        return {list, path: f.path, bytes: f.bytes, fn: f.content.match(/declare function \\w+/g), missing}",
    )
    .await;
    let v = value(&r);
    assert_eq!(v["list"]["files"][0]["path"], json!("tools/contract_tool.d.ts"));
    assert_eq!(v["fn"], json!(["declare function contract_tool"]));
    assert_eq!(v["bytes"], v["list"]["files"][0]["bytes"]);
    assert!(v["missing"].as_str().unwrap().contains("API.list()"));
}

struct Named(&'static str, ToolSource);

impl Tool for Named {
    fn name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &str {
        "A tool with a tricky name."
    }
    fn source(&self) -> ToolSource {
        self.1
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        let name = self.0;
        Box::pin(async move { Ok(ToolOutput::json(json!({"called": name}))) })
    }
}

async fn named_runtime(names: &[&'static str]) -> CodeMode {
    let mut b = codemode_tests::builder();
    for n in names {
        b = b.tool(Named(n, ToolSource::Native));
    }
    b.start().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reserved_and_colliding_names_get_stable_suffixes_ga_6_1() {
    let rt = named_runtime(&["catalog", "class", "llm-task", "llm_task", "9patch"]).await;
    let r = exec(&rt, "return catalog.all().map(h => [h.toolName, h.callableName])").await;
    let pairs: Vec<(String, String)> = serde_json::from_value(value(&r).clone()).unwrap();
    let name = |tool: &str| pairs.iter().find(|(t, _)| t == tool).unwrap().1.clone();
    assert!(name("catalog").starts_with("catalog_") && name("catalog").len() == "catalog_".len() + 8);
    assert!(name("class").starts_with("class_"));
    assert_eq!(name("llm_task"), "llm_task");
    assert!(name("llm-task").starts_with("llm_task_"));
    assert_eq!(name("9patch"), "tool_9patch");
    // Every callable name is a working global, and `catalog` is still the catalog.
    let calls = format!(
        "return [typeof catalog.search, await {}(), await {}(), await tool_9patch()]",
        name("catalog"),
        name("class")
    );
    assert_eq!(
        value(&exec(&rt, &calls).await),
        &json!(["function", {"called": "catalog"}, {"called": "class"}, {"called": "9patch"}])
    );
    let again = named_runtime(&["catalog", "class", "llm-task", "llm_task", "9patch"]).await;
    assert_eq!(value(&exec(&again, "return catalog.all().map(h => [h.toolName, h.callableName])").await), value(&r));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exact_callable_spelling_beats_a_case_insensitive_match_ga_8_7() {
    let rt = named_runtime(&["Fetch", "fetch"]).await;
    let r = exec(&rt, "return [(await catalog.search('Fetch')).map(h => h.callableName), (await catalog.search('fetch')).map(h => h.callableName), (await catalog.search('FETCH')).length]").await;
    assert_eq!(value(&r), &json!([["Fetch"], ["fetch"], 1]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_tools_defer_their_schemas_ga_8_2() {
    let rt = codemode_tests::builder().tool(Named("client_thing", ToolSource::Client)).start().await.unwrap();
    let r = exec(&rt, "const [h] = await catalog.search('client_thing'); return h").await;
    assert_eq!(value(&r)["source"], json!("client"));
    assert_eq!(value(&r)["input"], json!("unknown"));
    assert!(value(&r).get("output").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_limits_are_validated_and_clamped() {
    let tools: Vec<Arc<dyn Tool>> = (0..60)
        .map(|i| {
            Arc::new(Named(Box::leak(format!("alpha_search_tool_{i:02}").into_boxed_str()), ToolSource::Native))
                as Arc<dyn Tool>
        })
        .collect();
    let mut b = codemode_tests::builder();
    for t in tools {
        b = b.tool_arc(t);
    }
    let rt = b.start().await.unwrap();
    let r = exec(&rt, "return [(await catalog.search('tricky name')).length, (await catalog.search('tricky name', {limit: 3})).length, \
        (await catalog.search('tricky name', {limit: 500})).length, await catalog.search('tricky', {limit: 1.5}).catch(e => e.message)]").await;
    assert_eq!(value(&r), &json!([8, 3, 50, "limit must be a positive integer."]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_whose_matches_do_not_fit_is_refused_and_a_narrower_one_works_ga_8_6() {
    let tools: Vec<Arc<dyn Tool>> = (0..50)
        .map(|i| {
            Arc::new(Named(
                Box::leak(format!("tool_with_a_rather_long_descriptive_name_number_{i:02}").into_boxed_str()),
                ToolSource::Native,
            )) as Arc<dyn Tool>
        })
        .collect();
    let mut b = codemode_tests::builder().limits(Limits { max_output_bytes: 1024, ..Limits::default() });
    for t in tools {
        b = b.tool_arc(t);
    }
    let rt = b.start().await.unwrap();
    let r = exec(&rt, "return await catalog.search('tricky name', {limit: 50})").await;
    let (code, error) = failure(&r);
    assert_eq!(code, ErrorCode::InternalError);
    assert!(regex_like(error, &["search", "narrow", "limit"]), "{error}");
    let narrow = exec(
        &rt,
        "const r = await catalog.search('tricky name', {limit: 1}); return [r.length, Object.isFrozen(r), typeof r[0]]",
    )
    .await;
    assert_eq!(value(&narrow), &json!([1, true, "function"]));
}

fn regex_like(text: &str, words: &[&str]) -> bool {
    let lower = text.to_lowercase();
    let mut at = 0;
    for w in words {
        match lower[at..].find(w) {
            Some(i) => at += i + w.len(),
            None => return false,
        }
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exec_description_carries_the_quick_index_without_descriptions_ga_6_2_ga_6_3() {
    let rt = runtime().await;
    let d = rt.exec_tool_description();
    let text = &d.exec.description;
    let index_at = text.find("Enabled async tool globals").expect("index present");
    let index = &text[index_at..];
    assert!(
        index.contains("- contract_tool { ok?: unknown } -> { ok: boolean }\n- echo_tool { value?: string } -> ?\n"),
        "{index}"
    );
    assert!(!text.contains("Echoes its input"), "descriptions stay deferred");
    assert_eq!(d.wait.input_schema["required"], json!(["runId"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_of_1024_tools_fits_its_budget_and_is_identical_across_rebuilds_ga_6_2() {
    async fn build() -> String {
        let mut b = codemode_tests::builder();
        for i in 0..1024 {
            b = b.tool(Named(Box::leak(format!("tool_{i:04}").into_boxed_str()), ToolSource::Native));
        }
        b.start().await.unwrap().exec_tool_description().exec.description
    }
    let (a, b) = (build().await, build().await);
    assert_eq!(a, b);
    let index = &a[a.find("Enabled async tool globals").unwrap()..];
    assert!(index.encode_utf16().count() <= 8000);
    assert!(index.contains("- tool_0000 ") && !index.contains("- tool_1023 "));
    assert!(
        index.contains(
            "additional tools omitted from this prompt index. Use catalog.search(query); results are callable."
        )
    );
}

struct InBandError(Value, Option<&'static str>);

impl Tool for InBandError {
    fn name(&self) -> &str {
        "flaky"
    }
    fn description(&self) -> &str {
        "Reports failure in-band."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        let (details, text) = (self.0.clone(), self.1.map(str::to_owned));
        Box::pin(async move { Ok(ToolOutput { details, text, is_error: true }) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_in_band_error_without_a_message_gains_the_tool_text_ga_11_2() {
    let rt = codemode_tests::builder()
        .tool(InBandError(json!({"status": 503}), Some("upstream unavailable")))
        .start()
        .await
        .unwrap();
    assert_eq!(
        value(&exec(&rt, "return await flaky()").await),
        &json!({"status": 503, "message": "upstream unavailable"})
    );
    let rt =
        codemode_tests::builder().tool(InBandError(json!({"error": "kept"}), Some("ignored"))).start().await.unwrap();
    assert_eq!(value(&exec(&rt, "return await flaky()").await), &json!({"error": "kept"}));
}

struct BadSchema;

impl Tool for BadSchema {
    fn name(&self) -> &str {
        "bad_schema"
    }
    fn description(&self) -> &str {
        "Has an unusable schema."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"x": {"type": "string", "pattern": "("}}})
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async { Ok(ToolOutput::json(Value::Null)) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_and_invalid_registrations_fail_before_any_cell_runs() {
    let dup = codemode_tests::builder().tool(Noop).tool(Noop).start().await.unwrap_err();
    assert_eq!(dup.to_string(), "invalid tool registration: two tools are named `noop`; tool names must be unique");
    let bad = codemode_tests::builder().tool(BadSchema).start().await.unwrap_err();
    assert!(bad.to_string().contains("tool `bad_schema` has an unusable input schema: invalid pattern"), "{bad}");
}

/// A native tool whose input schema uses `if`/`then`/`else`: a `file`
/// target needs a `path`, any other needs a `url`.
struct Fetcher;

impl Tool for Fetcher {
    fn name(&self) -> &str {
        "fetch_target"
    }
    fn description(&self) -> &str {
        "Fetches a file or a URL."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object",
            "properties": {"kind": {"enum": ["file", "web"]}, "path": {"type": "string"}, "url": {"type": "string"}},
            "required": ["kind"],
            "if": {"properties": {"kind": {"const": "file"}}},
            "then": {"required": ["path"]},
            "else": {"required": ["url"]}})
    }
    fn call(&self, input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async move { Ok(ToolOutput::json(json!({"fetched": input}))) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_input_failing_an_if_then_else_schema_is_an_input_contract_type_error_and_the_tool_does_not_run_ga_11_2() {
    let rt = codemode_tests::builder().tool(Fetcher).start().await.unwrap();
    let r = exec(
        &rt,
        "const ok = await fetch_target({kind: 'file', path: 'a.txt'}); \
         try { await fetch_target({kind: 'file', url: 'https://example.invalid'}); return 'ran' } \
         catch (e) { return [ok, e.name, e.code, e.message] }",
    )
    .await;
    let v = value(&r);
    assert_eq!(v[0], json!({"fetched": {"kind": "file", "path": "a.txt"}}));
    assert_eq!((&v[1], &v[2]), (&json!("TypeError"), &json!("input_contract")));
    let message = v[3].as_str().unwrap();
    assert!(
        message
            .starts_with("fetch_target input is invalid: $: missing required property `path`. The tool was not run;"),
        "{message}"
    );
}

/// A native tool whose input schema does not compile.
struct NumericType;

impl Tool for NumericType {
    fn name(&self) -> &str {
        "numeric_type"
    }
    fn description(&self) -> &str {
        "Has an input schema with a numeric type."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"a": {"type": 12}}})
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async { Ok(ToolOutput::json(json!({}))) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_whose_schema_does_not_compile_is_refused_at_start_naming_the_tool_and_the_place() {
    let err = codemode_tests::builder().tool(NumericType).start().await.unwrap_err().to_string();
    assert!(err.contains("tool `numeric_type` has an unusable input schema"), "{err}");
    assert!(err.contains("#/properties/a/type"), "{err}");
}
