//! Golden tests: every `tests/golden/*.js` cell, and every
//! `tests/golden/typescript/*.ts` cell (TypeScript as models write it,
//! stripped or refused), runs to the end (calling `wait` while it parks)
//! and its results must equal the `.json` file beside it. A first-line
//! comment `// limits: {"max_output_bytes": 1024}` sets limits. Run with
//! `UPDATE_GOLDEN=1` to rewrite the expected files, then review the diff.

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode_runtime::{CellResult, Limits};
use codemode_tests::*;
use serde_json::Value;

fn limits_for(code: &str) -> Limits {
    let mut limits = Limits::default();
    let Some(spec) = code.lines().next().and_then(|l| l.strip_prefix("// limits:")) else {
        return limits;
    };
    let spec: Value = serde_json::from_str(spec.trim()).expect("limits line is JSON");
    for (key, v) in spec.as_object().expect("limits line is an object") {
        let n = v.as_u64().expect("limit values are integers");
        match key.as_str() {
            "max_output_bytes" => limits.max_output_bytes = n as usize,
            "timeout_ms" => limits.timeout = Duration::from_millis(n),
            other => panic!("unknown golden limit {other}"),
        }
    }
    limits
}

/// Results with run ids, result ids and the receipt's measurements
/// (CPU, waits, heap: this machine's, not the cell's) replaced, so the
/// text is stable.
fn normalized(results: &[CellResult]) -> String {
    let mut out = String::new();
    for r in results {
        let mut v = serde_json::to_value(r).unwrap();
        if v.get("runId").is_some() {
            v["runId"] = Value::String("<run>".into());
        }
        for measured in ["guestCpuUs", "hostWaitUs", "heapPeakBytes"] {
            v["telemetry"][measured] = Value::String("<measured>".into());
        }
        let mut text = serde_json::to_string_pretty(&v).unwrap();
        while let Some(at) = text.find("result_") {
            let end = at + "result_".len() + 32;
            if end > text.len() || !text[at + 7..end].bytes().all(|b| b.is_ascii_hexdigit()) {
                break;
            }
            text.replace_range(at..end, "<result>");
        }
        out.push_str(&text);
        out.push('\n');
    }
    out
}

fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<_>, Vec<_>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                if let Some(x) = x {
                    out.push_str(&format!("{:>4} - {x}\n", i + 1));
                }
                if let Some(y) = y {
                    out.push_str(&format!("{:>4} + {y}\n", i + 1));
                }
            }
        }
    }
    out
}

fn cases(dir: &str, extension: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the golden directory exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_cells_produce_their_expected_results() {
    check_golden(cases("golden", "js"), 1).await;
}

/// GA-1.1: TypeScript cells in the style models write (annotations,
/// interfaces, generics, `as`, `satisfies`, `!`, classes with modifiers, a
/// type guard) run with their types stripped; what cannot be stripped
/// (`enum`, `namespace`, parameter properties, decorators, `<T>x`) fails
/// naming the construct and what to write instead, at its position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_golden_cells_produce_their_expected_results() {
    check_golden(cases("golden/typescript", "ts"), 40).await;
}

/// GA-1.5: every result a golden cell produces is what the published
/// `outputSchema` of `exec`/`wait` says a result is (the schema is derived
/// from the result types; this checks the runtime fills them as the
/// schema says, on real cells).
fn check_against_the_published_schema(file: &Path, results: &[CellResult], failures: &mut Vec<String>) {
    static VALIDATOR: std::sync::LazyLock<jsonschema::Validator> = std::sync::LazyLock::new(|| {
        jsonschema::validator_for(&codemode_runtime::result_schema()).expect("the published schema compiles")
    });
    for result in results {
        let mut structured = serde_json::to_value(result).unwrap();
        if result.untrusted().is_some() {
            structured["untrusted"] = Value::Bool(true);
        }
        let errors: Vec<String> = VALIDATOR.iter_errors(&structured).map(|e| e.to_string()).collect();
        if !errors.is_empty() {
            failures.push(format!("{}: a result breaks the published schema: {errors:?}", file.display()));
        }
    }
}

async fn check_golden(files: Vec<PathBuf>, at_least: usize) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    assert!(files.len() >= at_least, "{} golden cells, expected at least {at_least}", files.len());
    for file in files {
        let code = std::fs::read_to_string(&file).unwrap();
        let rt = runtime_with(limits_for(&code)).await;
        let results = run_to_end(&rt, &code).await;
        check_against_the_published_schema(&file, &results, &mut failures);
        let actual = normalized(&results);
        let expected_path = file.with_extension("json");
        if update {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!("{}:\n{}", file.display(), diff(&expected, &actual)));
        }
    }
    assert!(failures.is_empty(), "golden mismatches (rerun with UPDATE_GOLDEN=1 to accept):\n{}", failures.join("\n"));
}
