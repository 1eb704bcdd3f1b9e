//! The global object a cell sees, by name. The engine's context is built
//! for speed (which intrinsics, which parts of the prelude load lazily);
//! this pins what the guest sees, so no change to how a context is made
//! adds or drops a global (GA-1.2, GA-3.1).

use codemode_tests::*;
use serde_json::Value;

/// Every own property of `globalThis` in a fresh cell of a runtime with
/// no tools, sorted (tools add their globals).
const GLOBALS: &[&str] = &[
    "API",
    "AggregateError",
    "Array",
    "ArrayBuffer",
    "AsyncDisposableStack",
    "Atomics",
    "BigInt",
    "BigInt64Array",
    "BigUint64Array",
    "Boolean",
    "DOMException",
    "DataView",
    "Date",
    "DisposableStack",
    "Error",
    "EvalError",
    "FinalizationRegistry",
    "Float16Array",
    "Float32Array",
    "Float64Array",
    "Function",
    "Infinity",
    "Int16Array",
    "Int32Array",
    "Int8Array",
    "InternalError",
    "Iterator",
    "JSON",
    "MCP",
    "Map",
    "Math",
    "NaN",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RangeError",
    "ReferenceError",
    "Reflect",
    "RegExp",
    "Set",
    "SharedArrayBuffer",
    "String",
    "SuppressedError",
    "Symbol",
    "SyntaxError",
    "TextDecoder",
    "TextEncoder",
    "TypeError",
    "URIError",
    "Uint16Array",
    "Uint32Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "atob",
    "btoa",
    "catalog",
    "clearTimeout",
    "console",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "eval",
    "globalThis",
    "isFinite",
    "isNaN",
    "json",
    "load",
    "namespaces",
    "nodes",
    "parseFloat",
    "parseInt",
    "performance",
    "queueMicrotask",
    "results",
    "setTimeout",
    "store",
    "text",
    "undefined",
    "unescape",
    "yield_control",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_cell_sees_exactly_the_promised_globals_ga_1_2_ga_3_1() {
    let rt = codemode_tests::builder().start().await.expect("runtime starts");
    let r = exec(&rt, "return Object.getOwnPropertyNames(globalThis).sort()").await;
    let Value::Array(names) = value(&r) else { panic!("{}", r.to_model_json()) };
    let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
    assert_eq!(names, GLOBALS);
    // Touching every global (materialising what loads lazily) changes
    // nothing about the set.
    let touched = exec(
        &rt,
        "for (const n of Object.getOwnPropertyNames(globalThis)) void globalThis[n]; \
         return Object.getOwnPropertyNames(globalThis).sort()",
    )
    .await;
    assert_eq!(value(&touched), value(&r));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_arrays_and_base64_added_on_first_touch_look_as_if_always_there_ga_1_2() {
    let rt = codemode_tests::builder().start().await.expect("runtime starts");
    // A cell naming `Object.defineProperty` gets every intrinsic before it
    // runs: the order a full context has.
    let full = exec(&rt, "void Object.defineProperty; return Object.getOwnPropertyNames(globalThis)").await;
    let touched =
        exec(&rt, "const a = new Uint8Array([104, 105]); void btoa; return Object.getOwnPropertyNames(globalThis)")
            .await;
    assert_eq!(value(&touched), value(&full), "same names in the same order after the first touch");
    let r = exec(
        &rt,
        "const a = new Uint8Array([1, 2]); let err; try { atob('%'); } catch (e) { err = e; } \
         return [a instanceof Uint8Array, Object.getPrototypeOf(Int8Array) === Object.getPrototypeOf(Uint8Array), \
         err instanceof DOMException, err.name, btoa('hi'), new TextEncoder().encode('hi') instanceof Uint8Array]",
    )
    .await;
    assert_eq!(value(&r), &serde_json::json!([true, true, true, "InvalidCharacterError", "aGk=", true]));
    let frozen = exec(&rt, "Object.freeze(globalThis); return [typeof Uint8Array, typeof atob]").await;
    assert_eq!(value(&frozen), &serde_json::json!(["function", "function"]), "a cell that freezes first sees them");
}
