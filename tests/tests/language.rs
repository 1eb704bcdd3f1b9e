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
