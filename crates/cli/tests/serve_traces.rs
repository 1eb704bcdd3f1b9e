//! Traces of `codemode serve`, end to end: the real binary,
//! driven by the official Python MCP client over stdio, exports its spans
//! over OTLP/HTTP (JSON) to a receiver in this test.

use std::io::Write;
use std::process::Command;

use serde_json::{Value, json};

mod common;

use common::OtlpReceiver;

/// The caller's trace and span, as its `traceparent` names them.
const CALLER_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-traces-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every span the receiver got. Each export must decode as the official
/// OTLP `ExportTraceServiceRequest` (opentelemetry-proto), with as many
/// spans as the JSON the assertions read.
fn spans(receiver: &OtlpReceiver) -> Vec<Value> {
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    let exports = receiver.bodies("/v1/traces");
    let typed: usize = exports
        .iter()
        .map(|body| {
            let request: ExportTraceServiceRequest = serde_json::from_value(body.clone())
                .unwrap_or_else(|e| panic!("not an OTLP trace export: {e}: {body}"));
            request.resource_spans.iter().flat_map(|rs| &rs.scope_spans).map(|ss| ss.spans.len()).sum::<usize>()
        })
        .sum();
    let spans = common::spans_of(&exports);
    assert_eq!(typed, spans.len(), "the typed decoding and the JSON disagree");
    spans
}

/// The value of attribute `key` in an OTLP JSON attribute list, unwrapped
/// (`{"stringValue": "x"}` is `"x"`).
fn attr(attributes: &Value, key: &str) -> Option<Value> {
    attributes
        .as_array()?
        .iter()
        .find(|a| a["key"] == key)
        .and_then(|a| a["value"].as_object()?.values().next().cloned())
}

/// The span's status code: 0 unset, 1 OK, 2 ERROR (OTLP's enum).
fn status_code(span: &Value) -> i64 {
    match &span["status"]["code"] {
        Value::Number(n) => n.as_i64().unwrap_or(-1),
        Value::Null => 0,
        other => panic!("unexpected status code {other}"),
    }
}

/// A config exporting to the receiver on `port`, with tools `echo` and
/// `fail` and then `extra`, in a fresh directory.
fn configured(name: &str, port: u16, extra: &str) -> std::path::PathBuf {
    let dir = temp(name);
    std::fs::write(dir.join("echo.py"), "import json, sys\nprint(json.dumps(json.load(sys.stdin)))\n").unwrap();
    std::fs::write(dir.join("fail.py"), "import sys\nsys.exit('no luck')\n").unwrap();
    let config = format!(
        "[telemetry]\notlp_endpoint = \"http://127.0.0.1:{port}\"\nservice_name = \"codemode-traces-test\"\n\n\
         [[tools]]\nname = \"echo\"\ndescription = \"Echo.\"\ncommand = [\"python3\", \"{dir}/echo.py\"]\n\n\
         [[tools]]\nname = \"fail\"\ndescription = \"Fail.\"\ncommand = [\"python3\", \"{dir}/fail.py\"]\n",
        dir = dir.display()
    );
    std::fs::write(dir.join("codemode.toml"), config + extra).unwrap();
    dir
}

/// Runs `tests/mcp_traces.py` with `args`; the result of each call.
fn client(args: &[&std::ffi::OsStr]) -> Vec<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_traces.py");
    let out = Command::new("python3").arg(script).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The spans received once `cells` cell spans and `calls` `tools/call`
/// spans are among them. Spans come in batches, the last when the server
/// flushes as it exits, which may be after the client has returned.
fn exported(receiver: &OtlpReceiver, cells: usize, calls: usize) -> Vec<Value> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let count = |spans: &[Value], prefix: &str| {
        spans.iter().filter(|s| s["name"].as_str().is_some_and(|n| n.starts_with(prefix))).count()
    };
    let mut got = spans(receiver);
    while (count(&got, "cell") < cells || count(&got, "tools/call") < calls) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
        got = spans(receiver);
    }
    got
}

/// Serves `calls` (`[tool, arguments, _meta]`) over stdio in one MCP session
/// with a config that exports to the receiver; returns each call's result
/// and every exported span.
fn serve(name: &str, calls: Value) -> (Vec<Value>, Vec<Value>) {
    serve_with(name, "", calls)
}

/// [`serve`] with `extra` config.
fn serve_with(name: &str, extra: &str, calls: Value) -> (Vec<Value>, Vec<Value>) {
    let receiver = OtlpReceiver::start();
    let dir = configured(name, receiver.port, extra);
    // One cell per exec.
    let (cells, call_count) =
        calls.as_array().map_or((0, 0), |calls| (calls.iter().filter(|c| c[0] == "exec").count(), calls.len()));
    let (config, store, calls) = (dir.join("codemode.toml"), dir.join("store"), calls.to_string());
    let binary = std::ffi::OsStr::new(env!("CARGO_BIN_EXE_codemode"));
    let results =
        client(&["stdio".as_ref(), binary, config.as_os_str(), store.as_os_str(), std::ffi::OsStr::new(&calls)]);
    let spans = exported(&receiver, cells, call_count);
    let _ = std::fs::remove_dir_all(&dir);
    (results, spans)
}

fn traceparent(span: &str) -> Value {
    json!({"traceparent": format!("00-{CALLER_TRACE}-{span}-01"), "tracestate": "caller=1"})
}

fn cell_of<'a>(spans: &'a [Value], title: &str) -> &'a Value {
    spans
        .iter()
        .find(|s| s["name"] == "cell" && attr(&s["attributes"], "title") == Some(json!(title)))
        .unwrap_or_else(|| panic!("no cell span titled {title:?} in {spans:#?}"))
}

fn parent_of<'a>(spans: &'a [Value], span: &Value) -> &'a Value {
    spans
        .iter()
        .find(|s| s["spanId"] == span["parentSpanId"])
        .unwrap_or_else(|| panic!("no parent of {span} in {spans:#?}"))
}

#[test]
fn a_cell_called_with_a_traceparent_in_meta_joins_the_callers_trace_with_a_host_call_per_tool_call_and_park_events() {
    let code = "const a = await echo({n: 1}); let code = null; \
                try { await fail({}) } catch (e) { code = e.code } \
                await yield_control('pause'); return [a, code]";
    let (results, spans) = serve(
        "joined",
        json!([
            ["exec", {"title": "joined", "code": code}, traceparent(CALLER_SPAN)],
            ["wait", {"runId": "$lastRunId"}, null],
        ]),
    );
    assert_eq!(results[0]["status"], "waiting", "{results:?}");
    assert_eq!(results[1]["status"], "completed", "{results:?}");

    let cell = cell_of(&spans, "joined");
    let call = parent_of(&spans, cell);
    assert_eq!(call["name"], "tools/call exec");
    assert_eq!(call["traceId"], CALLER_TRACE);
    assert_eq!(call["parentSpanId"], CALLER_SPAN);
    assert_eq!(cell["traceId"], CALLER_TRACE);

    assert_eq!(status_code(cell), 1, "{cell}");
    let attributes = &cell["attributes"];
    assert_eq!(attr(attributes, "status"), Some(json!("completed")));
    assert_eq!(attr(attributes, "error.code"), None);
    let session = attr(attributes, "codemode.session").and_then(|v| v.as_str().map(str::to_owned)).unwrap();
    assert!(session.len() == 16 && session.chars().all(|c| c.is_ascii_hexdigit()), "{session}");
    assert!(attr(attributes, "queue_ms").is_some() && attr(attributes, "duration_ms").is_some(), "{attributes}");

    let events: Vec<&Value> = cell["events"].as_array().map(|e| e.iter().collect()).unwrap_or_default();
    let names: Vec<&Value> = events.iter().map(|e| &e["name"]).collect();
    assert_eq!(names, [&json!("waiting"), &json!("wait")], "{events:?}");
    assert_eq!(attr(&events[0]["attributes"], "reason"), Some(json!("yield")));

    let calls: Vec<&Value> = spans.iter().filter(|s| s["name"] == "host_call").collect();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    for call in &calls {
        assert_eq!(call["parentSpanId"], cell["spanId"]);
        assert_eq!(call["traceId"], CALLER_TRACE);
    }
    let by_tool = |tool: &str| *calls.iter().find(|c| attr(&c["attributes"], "tool") == Some(json!(tool))).unwrap();
    assert_eq!(attr(&by_tool("echo")["attributes"], "outcome"), Some(json!("ok")));
    assert_eq!(status_code(by_tool("echo")), 1);
    assert_eq!(attr(&by_tool("fail")["attributes"], "outcome"), Some(json!("error")));
    assert_eq!(status_code(by_tool("fail")), 2);
}

#[test]
fn a_failed_cell_has_error_status_and_the_protocols_error_code() {
    let (results, spans) = serve(
        "failed",
        json!([
            ["exec", {"title": "throws", "code": "throw new Error('boom')"}, null],
            ["exec", {"title": "too long", "code": "while (true) {}"}, null],
        ]),
    );
    for (result, title) in results.iter().zip(["throws", "too long"]) {
        assert_eq!(result["status"], "failed", "{result}");
        let cell = cell_of(&spans, title);
        assert_eq!(status_code(cell), 2, "{cell}");
        assert_eq!(attr(&cell["attributes"], "error.code"), Some(result["code"].clone()), "{cell}");
    }
    let timed_out = cell_of(&spans, "too long");
    assert_eq!(attr(&timed_out["attributes"], "error.code"), Some(json!("timeout")));
    assert_eq!(attr(&timed_out["attributes"], "status"), Some(json!("timed_out")));
    assert_eq!(timed_out["status"]["message"], "timed_out");
}

#[test]
fn an_invalid_traceparent_is_ignored_and_the_call_starts_a_new_trace() {
    let (results, spans) = serve(
        "invalid",
        json!([["exec", {"title": "fresh", "code": "return 1"}, {"traceparent": "00-not-a-trace-01"}]]),
    );
    assert_eq!(results[0]["status"], "completed", "{results:?}");
    let cell = cell_of(&spans, "fresh");
    let call = parent_of(&spans, cell);
    assert_eq!(call["name"], "tools/call exec");
    assert!(call["parentSpanId"].as_str().unwrap_or_default().is_empty(), "{call}");
    assert_ne!(call["traceId"], CALLER_TRACE);
}

#[test]
fn with_the_collector_down_a_failed_export_is_logged_at_warn() {
    // A port nothing listens on: connections are refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = temp("down");
    std::fs::write(dir.join("codemode.toml"), format!("[telemetry]\notlp_endpoint = \"http://127.0.0.1:{port}\"\n"))
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(dir.join("codemode.toml"))
        .arg("--store")
        .arg(dir.join("store"))
        .args(["exec", "--json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"return 1").unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("telemetry: exporting spans failed")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains("WARN"), "{stderr}");
}

#[test]
fn over_http_the_traceparent_header_parents_the_call() {
    use std::io::BufRead;
    let receiver = OtlpReceiver::start();
    let dir = configured("http", receiver.port, "");
    let mut server = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(dir.join("codemode.toml"))
        .arg("--store")
        .arg(dir.join("store"))
        .args(["serve", "--http", "127.0.0.1:0"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("serving MCP over HTTP at ") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the server exited before it listened");
    }
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_owned();
    let calls = json!([["exec", {"title": "over http", "code": "return await echo({n: 1})"}, null]]).to_string();
    let traceparent = format!("00-{CALLER_TRACE}-{CALLER_SPAN}-01");
    let results = client(&["http".as_ref(), url.as_ref(), traceparent.as_ref(), calls.as_ref()]);
    // SIGTERM: the server drains, flushes its spans and exits.
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(server.id()).unwrap()),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let spans = exported(&receiver, 1, 1);
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(results[0]["status"], "completed", "{results:?}");
    let cell = cell_of(&spans, "over http");
    let call = parent_of(&spans, cell);
    assert_eq!(call["name"], "tools/call exec");
    assert_eq!(call["traceId"], CALLER_TRACE);
    assert_eq!(call["parentSpanId"], CALLER_SPAN);
    let host_call = spans.iter().find(|s| s["name"] == "host_call").unwrap();
    assert_eq!(host_call["parentSpanId"], cell["spanId"]);
    assert_eq!(attr(&host_call["attributes"], "outcome"), Some(json!("ok")));
}

#[test]
fn an_mcp_call_that_is_not_answered_in_time_is_a_host_call_with_outcome_timeout() {
    let everything = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/.npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
    );
    assert!(std::path::Path::new(everything).exists(), "run ./scripts/test.sh: it installs server-everything");
    let extra = format!(
        "\n[[mcp_servers]]\nname = \"everything\"\ncommand = [\"node\", \"{everything}\", \"stdio\"]\ncall_timeout_ms = 1000\n"
    );
    let code = "await MCP.everything.echo({message: 'hi'}); \
                try { await MCP.everything.triggerLongRunningOperation({duration: 5, steps: 1}); return 'answered' } \
                catch (e) { return 'late' }";
    let (results, spans) = serve_with("mcp-timeout", &extra, json!([["exec", {"title": "slow", "code": code}, null]]));
    assert_eq!(results[0]["value"], "late", "{results:?}");
    let cell = cell_of(&spans, "slow");
    let calls: Vec<&Value> = spans.iter().filter(|s| s["name"] == "host_call").collect();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    let outcomes: Vec<(Option<Value>, i64)> =
        calls.iter().map(|c| (attr(&c["attributes"], "outcome"), status_code(c))).collect();
    assert!(outcomes.contains(&(Some(json!("ok")), 1)), "{outcomes:?}");
    assert!(outcomes.contains(&(Some(json!("timeout")), 2)), "{outcomes:?}");
    for call in calls {
        assert_eq!(call["parentSpanId"], cell["spanId"]);
        assert_eq!(attr(&call["attributes"], "server"), Some(json!("everything")));
    }
}

/// `serve` runs cells in engine worker processes by default, and the
/// pool's counts reach OTLP as well as `/metrics`: workers alive, started,
/// crashed, failed to start and recycled.
#[test]
fn the_engine_worker_pool_is_counted_over_otlp_metrics() {
    let receiver = OtlpReceiver::start();
    let dir = configured("workers", receiver.port, "");
    std::fs::write(
        dir.join("codemode.toml"),
        std::fs::read_to_string(dir.join("codemode.toml"))
            .unwrap()
            .replace("[telemetry]\n", "[telemetry]\nmetrics_interval_ms = 100\n"),
    )
    .unwrap();
    let (config, store) = (dir.join("codemode.toml"), dir.join("store"));
    let calls = json!([["exec", {"title": "one", "code": "return 1"}, null]]).to_string();
    let binary = std::ffi::OsStr::new(env!("CARGO_BIN_EXE_codemode"));
    let results =
        client(&["stdio".as_ref(), binary, config.as_os_str(), store.as_os_str(), std::ffi::OsStr::new(&calls)]);
    assert_eq!(results[0]["status"], "completed", "{}", results[0]);
    let names = [
        "codemode.engine_workers.alive",
        "codemode.engine_workers.started",
        "codemode.engine_workers.crashed",
        "codemode.engine_workers.start_failures",
        "codemode.engine_workers.recycled",
    ];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let exported = loop {
        let exported = serde_json::to_string(&receiver.bodies("/v1/metrics")).unwrap();
        if names.iter().all(|n| exported.contains(&format!("\"{n}\""))) || std::time::Instant::now() > deadline {
            break exported;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    for name in names {
        assert!(exported.contains(&format!("\"{name}\"")), "{name} was not exported: {exported}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
