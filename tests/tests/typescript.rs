//! TypeScript cells (GA-1.1): types stripped in place, so errors point at
//! the cell as written; what cannot be stripped is refused naming the
//! construct; a generic call means what TypeScript says in every cell,
//! while comparisons TypeScript reads as comparisons stay JavaScript;
//! stripped cells are journaled as written and replay the same on another
//! runtime; restart-safe cells take TypeScript too.

use std::time::Duration;

use codemode_runtime::{CellResult, ErrorCode, Exec, Phase, RunsConfig, StoreBackend};
use codemode_tests::*;
use serde_json::json;

fn failed(result: &CellResult) -> (ErrorCode, Phase, &str) {
    match result {
        CellResult::Failed { code, phase, error, .. } => (*code, *phase, error.as_str()),
        other => panic!("expected failed, got {}", other.to_model_json()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runtime_throw_after_multi_line_interfaces_reports_its_own_line_ga_1_1() {
    let rt = runtime().await;
    let code = "interface Order {\n  id: number;\n  lines: Array<{\n    sku: string;\n    qty: number;\n  }>;\n}\n\
                const order: Order = { id: 7, lines: [] };\nthrow new Error(`empty order ${order.id}`);";
    let r = exec(&rt, code).await;
    let (code_, _, error) = failed(&r);
    assert_eq!(code_, ErrorCode::InternalError);
    assert!(error.starts_with("Error: empty order 7\n"), "{error}");
    assert!(error.contains("user.js:9:"), "the throw is on line 9 as written: {error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_type_error_column_is_the_one_in_the_cell_as_written_ga_1_1() {
    let rt = runtime().await;
    // `v.n!.m` throws at `.m`, column 11 of line 3 as written.
    let code = "type N = { n?: { m: number } };\nconst v: N = {};\nreturn v.n!.m;";
    let r = exec(&rt, code).await;
    let (_, _, error) = failed(&r);
    assert!(error.starts_with("TypeError:"), "{error}");
    assert!(error.contains("user.js:3:"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_syntax_error_in_typescript_points_at_its_position_as_written_ga_1_1() {
    let rt = runtime().await;
    let r = exec(&rt, "const ok: number = 1;\nconst bad: string = ;\nreturn ok;").await;
    let (code, phase, error) = failed(&r);
    assert_eq!((code, phase), (ErrorCode::InvalidInput, Phase::Input));
    assert!(error.starts_with("SyntaxError at user.js:2:21: "), "{error}");
    assert!(error.contains("correct the TypeScript source"), "{error}");
    // Plain JavaScript keeps the engine's own error.
    let js = exec(&rt, "const a = 1;\nconst b = ;").await;
    let (_, _, error) = failed(&js);
    assert!(error.starts_with("SyntaxError at user.js:2:11: ") && error.contains("JavaScript source"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_enum_is_refused_naming_it_and_what_to_write_instead_ga_1_1() {
    let rt = runtime().await;
    let r = exec(&rt, "const x = 1;\nenum Color { Red }\nreturn Color.Red;").await;
    let (code, phase, error) = failed(&r);
    assert_eq!((code, phase), (ErrorCode::InvalidInput, Phase::Input));
    assert!(error.starts_with("SyntaxError at user.js:2:1: "), "{error}");
    assert!(error.contains("enum") && error.contains("`const` object"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_safe_cell_may_be_typescript_ga_1_1_ga_7_8() {
    let rt = runtime().await;
    let r = reply(&rt).exec(Exec::code("const n: number = 2;\nreturn n * 3;").restart_safe(true)).await.unwrap();
    assert_eq!(value(&r), &json!(6));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_typescript_cell_is_replayed_from_its_source_as_written_ga_1_3() {
    let dir = std::env::temp_dir().join(format!("codemode-ts-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runtime_on = |evict: Option<Duration>| {
        let dir = dir.clone();
        async move {
            codemode_tests::builder()
                .tool(Echo)
                .store_backend(StoreBackend::Sled { path: Some(dir) })
                .runs(RunsConfig { evict_after: evict, ..RunsConfig::default() })
                .start()
                .await
                .unwrap()
        }
    };
    let code = "interface Echoed { input: { value: string } }\n\
                const first = (await echo_tool({ value: 'a' })) as Echoed;\n\
                await yield_control('park');\n\
                const second = (await echo_tool({ value: 'b' })) as Echoed;\n\
                return [first.input.value, second.input.value];";
    let first = runtime_on(None).await;
    let parked = reply(&first).exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("parked").to_owned();
    first.shutdown().await;
    drop(first);
    // Another runtime on the same store replays the run from its journal.
    let second = runtime_on(None).await;
    let done = reply(&second).wait(&run_id).await.unwrap();
    assert_eq!(value(&done), &json!(["a", "b"]));
    second.shutdown().await;
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The deepest nesting a 4 KiB TypeScript cell can have (the stripper's
/// worst case, stripped on the JS thread) neither crashes the process nor
/// harms the next cell; nor does a 60 KiB one (stripped on a thread of its
/// own).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_most_deeply_nested_typescript_cells_end_without_harm_ga_1_1() {
    let rt = runtime().await;
    for size in [4_000, 60_000] {
        let depth = (size - 40) / 2;
        let code = format!("const x: number = {}1{};\nreturn x", "(".repeat(depth), ")".repeat(depth));
        let r = exec(&rt, &code).await;
        // QuickJS may refuse the nesting itself; either way the cell ends.
        assert!(
            matches!(&r, CellResult::Completed { .. }) || failed(&r).0 == ErrorCode::InvalidInput,
            "{}",
            r.to_model_json()
        );
    }
    assert_eq!(value(&exec(&rt, "const n: number = 2; return n").await), &json!(2));
}

/// A generic call that is also valid JavaScript (there, comparisons) gets
/// its TypeScript meaning alone in a cell, as it does beside other
/// TypeScript.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generic_call_that_is_also_javascript_means_the_call_alone_in_a_cell_ga_1_1() {
    let rt = runtime().await;
    for code in [
        "return JSON.parse<Array>(\"[1]\")",
        "const n: number = 1;\nreturn JSON.parse<Array>(\"[1]\")",
        "const parse = (s) => JSON.parse(s);\nreturn parse < Array > (\"[1]\");",
        "return String.raw<Row>`[1]`.length === 3 ? [1] : null",
    ] {
        assert_eq!(value(&exec(&rt, code).await), &json!([1]), "{code}");
    }
    // The store's `load<Row>(key)`, in a cell of its own.
    let reply = reply(&rt);
    let stored = reply.exec(Exec::code("await store('k', {id: 7}); return 1")).await.unwrap();
    assert_eq!(value(&stored), &json!(1));
    let loaded = reply.exec(Exec::code("const row = await load<Row>('k');\nreturn row.id")).await.unwrap();
    assert_eq!(value(&loaded), &json!(7));
}

/// Comparisons TypeScript reads as comparisons too keep their JavaScript
/// meaning, in a cell that has none of the text the TypeScript reading
/// needs and in one that does; what TypeScript reads as a generic call is
/// one, as `tsc` reads it: `f < b > (3)`, and `f < a, b > (3)` in a list
/// (`(a < b) > c` is the comparison).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comparisons_typescript_also_reads_as_comparisons_keep_their_meaning_ga_1_1() {
    let rt = runtime().await;
    let plain = "const a = 1, b = 2, c = 0;\nreturn [a < b > c, a < b && c > a, a < b > -c, c > a];";
    assert_eq!(value(&exec(&rt, plain).await), &json!([true, false, true, false]));
    let code = "const a = 1, b = 2, c = 0, f = (x) => x * 10;\n\
                return [a < b > c, a < b && c > (a), (a < b) > (c), a < b > -c, f(a) < b];";
    assert_eq!(value(&exec(&rt, code).await), &json!([true, false, true, true, false]));
    let code = "const a = 1, b = 2, f = (x) => x * 10;\nreturn [f < b > (3), [f < a, b > (3)]];";
    assert_eq!(value(&exec(&rt, code).await), &json!([30, [30]]));
    // Stripped or not, errors are at their place in the cell as written.
    let r = exec(&rt, "const f = (x) => x;\nreturn f<Row>(missing);").await;
    let (_, _, error) = failed(&r);
    assert!(error.starts_with("ReferenceError: missing is not defined") && error.contains("user.js:2:"), "{error}");
}
