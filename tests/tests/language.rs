//! The language as the engine gives it: what the runtime's own machinery
//! (the prelude, the guest API's replacements, how a source reaches the
//! engine, the time zone) must not change or show. Each case names the
//! tc39/test262 tests that found it; all run in both isolation modes
//! (scripts/test.sh runs this suite again with `CODEMODE_TEST_ISOLATION=process`).

use codemode_runtime::{CellTimeZone, Limits};
use codemode_tests::*;
use serde_json::json;

/// GA-1.2: local time is the runtime's zone — UTC by default, one
/// configured IANA zone otherwise — with its daylight saving rules, in
/// every local `Date` method (test262 `built-ins/Date/prototype/
/// getTimezoneOffset`, `built-ins/Date/S15.9.3.1_A5_T*` read it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cells_local_time_is_the_runtimes_zone_utc_unless_configured_ga_1_2() {
    let cell = "const d = new Date(0); return [d.getTimezoneOffset(), d.getHours(), d.toString(), \
                new Date(2020, 6, 1).getTimezoneOffset(), new Date(2020, 0, 1, 12).getTime(), \
                Date.parse('2020-01-01T00:00:00')]";
    let utc = runtime().await;
    assert_eq!(
        value(&exec(&utc, cell).await),
        &json!([0, 0, "Thu Jan 01 1970 00:00:00 GMT+0000", 0, 1_577_880_000_000_i64, 1_577_836_800_000_i64])
    );
    let limits = Limits { time_zone: CellTimeZone::named("America/New_York").unwrap(), ..Limits::default() };
    let new_york = runtime_with(limits).await;
    assert_eq!(
        value(&exec(&new_york, cell).await),
        &json!([300, 19, "Wed Dec 31 1969 19:00:00 GMT-0500", 240, 1_577_898_000_000_i64, 1_577_854_800_000_i64])
    );
}

/// GA-1.4: a NUL character is source like any other — in a string, a
/// template and a regular expression (test262 `language/literals/string/
/// legacy-non-octal-escape-sequence-8-strict` and the `\u0000` cases of
/// `built-ins/RegExp` carry one raw).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nul_character_in_the_source_is_source_like_any_other_ga_1_4() {
    let rt = runtime().await;
    let cell = "const s = 'a\u{0}b'; const t = `\u{0}`; return [s.length, s.charCodeAt(1), t.length, /\u{0}/.test(s)]";
    assert!(cell.contains('\0'));
    assert_eq!(value(&exec(&rt, cell).await), &json!([3, 0, 1, true]));
    // A NUL outside a literal is a syntax error at its place, not a refusal.
    let r = exec(&rt, "return 1 +\u{0} 2").await;
    let (code, message) = failure(&r);
    assert_eq!(code, codemode_runtime::ErrorCode::InvalidInput);
    assert!(!message.contains("null bytes"), "{message}");
}

/// GA-1.4: the runtime reads the cell's own promise from the engine,
/// never through `then`, so a guest that deletes, replaces or watches
/// `Promise.prototype.then` or `constructor` still ends with its value and
/// sees no call or lookup of the runtime's (test262 `built-ins/Promise/
/// prototype/then/prop-desc` via `verifyProperty`'s delete, `built-ins/
/// Promise/prototype/finally/this-value-then-*`, `language/statements/
/// for-await-of/async-from-sync-iterator-continuation-abrupt-completion-get-constructor`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_ends_with_its_value_whatever_it_did_to_promise_then_ga_1_4() {
    let rt = runtime().await;
    assert_eq!(value(&exec(&rt, "delete Promise.prototype.then; return 1").await), &json!(1));
    assert_eq!(value(&exec(&rt, "Promise.prototype.then = function () { return 5 }; return 2").await), &json!(2));
    // A thrown error still fails the cell with it.
    let r = exec(&rt, "delete Promise.prototype.then; throw new TypeError('mine')").await;
    assert!(failure(&r).1.starts_with("TypeError: mine\n"), "{r:?}");
    // No lookup or call of the runtime's is seen, also across a host call.
    let watched = "Object.defineProperty(Promise.prototype, 'constructor', \
                   { get() { text('constructor read'); return Promise }, configurable: true }); \
                   const then = Promise.prototype.then; \
                   Promise.prototype.then = function (...a) { text('then called'); return then.apply(this, a) }; \
                   await new Promise((r) => setTimeout(r, 1)); return 3";
    let r = exec(&rt, watched).await;
    assert_eq!(value(&r), &json!(3));
    let seen: Vec<_> = r.output().entries().expect("output fits").to_vec();
    // The guest's own `new Promise` and `await` are the language's: the
    // await reads `constructor` once. Nothing after the return.
    assert_eq!(serde_json::to_value(&seen).unwrap(), json!([{"type": "text", "text": "constructor read"}]));
}

/// GA-7.1: the guest API's own promises are chained with the intrinsics
/// captured before guest code ran: `store` and `load` work, and call or
/// read nothing of the guest's, after the guest replaced
/// `Promise.prototype.then` and watches `constructor` (test262
/// `built-ins/Promise/prototype/then/ctor-custom`,
/// `built-ins/Promise/prototype/then/capability-executor-not-callable`
/// show the lookups `then` makes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guest_apis_promises_call_nothing_the_guest_replaced_ga_7_1() {
    let rt = runtime().await;
    let cell = "const then = Promise.prototype.then; let calls = 0, reads = 0; \
                Promise.prototype.then = function (...a) { calls++; return then.apply(this, a) }; \
                Object.defineProperty(Promise.prototype, 'constructor', \
                  { get() { reads++; return Promise }, configurable: true }); \
                const stored = store('k', 2); const afterStore = [calls, reads]; await stored; \
                const loaded = load('k'); const afterLoad = [calls, reads]; const v = await loaded; \
                return [v, afterStore, afterLoad, calls]";
    // Each guest `await` reads `constructor` once, as the language does
    // (the one read before `load`); the runtime's own chaining reads and
    // calls nothing.
    assert_eq!(value(&exec(&rt, cell).await), &json!([2, [0, 0], [0, 1], 0]));
}

/// GA-1.5: `Date` is the engine's own intrinsic (its clock reads answered
/// by the host beneath it) and `Math.random` is shaped as the engine's:
/// plain functions that are not constructors, with the intrinsics'
/// lengths, names, descriptors and property order (test262 `built-ins/
/// Date/now/not-a-constructor`, `built-ins/Math/random/not-a-constructor`,
/// `built-ins/Date/prototype/S15.9.4.1_A1_T2` (`Date.prototype` is not
/// writable), `built-ins/Function/prototype/toString/built-in-function-object`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn date_and_math_random_are_shaped_as_the_engines_own_ga_1_5() {
    let rt = runtime().await;
    let cell = "const isCtor = (f) => { try { Reflect.construct(function () {}, [], f); return true } catch { return false } }; \
                const shape = (f) => [isCtor(f), Reflect.ownKeys(f), f.name, f.length, String(f)]; \
                const d = Object.getOwnPropertyDescriptor(Date, 'prototype'); \
                return [shape(Date.now), shape(Math.random), Reflect.ownKeys(Date), [d.writable, d.enumerable, d.configurable], \
                        Date.prototype.constructor === Date, String(Date), typeof Date(), typeof Date.now(), \
                        Math.random() < 1, Object.getOwnPropertyDescriptor(Math, 'random').writable]";
    assert_eq!(
        value(&exec(&rt, cell).await),
        &json!([
            [false, ["length", "name"], "now", 0, "function now() {\n    [native code]\n}"],
            [false, ["length", "name"], "random", 0, "function random() {\n    [native code]\n}"],
            ["length", "name", "now", "parse", "UTC", "prototype"],
            [false, false, false],
            true,
            "function Date() {\n    [native code]\n}",
            "string",
            "number",
            true,
            true
        ])
    );
}
