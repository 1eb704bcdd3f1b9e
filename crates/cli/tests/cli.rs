//! The `codemode` binary, run as a real process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

mod common;

use common::OtlpReceiver;

fn codemode() -> Command {
    Command::new(env!("CARGO_BIN_EXE_codemode"))
}

/// A command with its own temporary store, so parallel tests never share a
/// database.
fn isolated(name: &str) -> Command {
    let mut c = codemode();
    c.arg("--store").arg(temp_store(name));
    c
}

#[test]
fn exec_runs_the_hello_example_to_completion() {
    let out = isolated("hello")
        .args(["exec", "--json", concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hello.js")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["status"], "completed");
    assert_eq!(line["value"]["waitedAtLeast10ms"], true);
    assert_eq!(line["output"][0]["text"], "hello from a cell");
}

/// The shutdown after a one-shot `exec` used to wait for ended cells'
/// states that were parked in the root supervisor's mailbox, hitting its
/// 5 s bound in about half the runs. The bound here is generous: it tells a
/// hang from a slow machine, it does not measure speed.
#[test]
fn exec_exits_promptly_after_printing_its_result_every_time() {
    let store = temp_store("prompt-exit");
    for run in 0..20 {
        let began = std::time::Instant::now();
        let out = codemode()
            .arg("--store")
            .arg(&store)
            .args(["exec", "--json", concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hello.js")])
            .output()
            .unwrap();
        let took = began.elapsed();
        assert!(out.status.success(), "run {run}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(took < std::time::Duration::from_secs(2), "run {run} took {took:?} to exit");
    }
}

#[test]
fn exec_keeps_waiting_until_the_cell_settles_and_prints_each_result() {
    let mut child =
        codemode().args(["exec", "--json", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"text('a'); await yield_control('x'); text('b'); return 2").unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["status"].as_str(), lines[1]["status"].as_str()), (Some("waiting"), Some("completed")));
    assert_eq!(lines[1]["value"], 2);
}

/// GA-1.1: `exec --json` takes a TypeScript cell, across a yield.
#[test]
fn exec_json_runs_a_typescript_cell_across_a_yield() {
    let mut child =
        codemode().args(["exec", "--json", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let code = "interface R { n: number }\nconst r: R = { n: 2 };\nawait yield_control('x' as string);\nreturn r.n!;";
    child.stdin.take().unwrap().write_all(code.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[1]["value"], 2, "{lines:?}");
}

#[test]
fn exec_exits_non_zero_when_the_cell_fails() {
    let mut child = isolated("fails").args(["exec", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"ls -la").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("not shell commands"));
}

#[test]
fn session_keeps_parked_cells_alive_across_requests() {
    let mut child = isolated("session").arg("session").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |request: &str| -> Value {
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let parked = ask(r#"{"op":"exec","code":"const r = await yield_control('p'); return r.reason","title":"t"}"#);
    assert_eq!(parked["status"], "waiting");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let done = ask(&format!(r#"{{"op":"wait","runId":"{run_id}"}}"#));
    assert_eq!((done["status"].as_str(), done["value"].as_str()), (Some("completed"), Some("p")));
    let bad = ask(r#"{"op":"launch"}"#);
    assert_eq!(bad["code"], "invalid_input");
    let parked = ask(r#"{"op":"exec","code":"await yield_control(); return 1"}"#);
    let aborted = ask(&format!(r#"{{"op":"abort","runId":"{}"}}"#, parked["runId"].as_str().unwrap()));
    assert_eq!(aborted["code"], "aborted");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// `codemode --config CONFIG --store STORE exec --json EXTRA… -` with
/// `code` on stdin, run to its end.
fn exec_stdin(config: &std::path::Path, store: &std::path::Path, extra: &[&str], code: &str) -> std::process::Output {
    let mut child = codemode()
        .arg("--config")
        .arg(config)
        .arg("--store")
        .arg(store)
        .args(["exec", "--json"])
        .args(extra)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(code.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn temp_store(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn session_process(store: &std::path::Path) -> (std::process::Child, impl FnMut(&str) -> Value) {
    let mut child = codemode()
        .arg("--store")
        .arg(store)
        .arg("session")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let ask = move |request: &str| -> Value {
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    };
    (child, ask)
}

#[test]
fn a_stored_value_survives_killing_the_process_ga_7_1() {
    let store = temp_store("restart");
    let (mut first, mut ask) = session_process(&store);
    let done = ask(r#"{"op":"exec","code":"await store('summary', {unpaid: 3, tons: 42}); return 'stored'"}"#);
    assert_eq!(done["status"], "completed", "{done}");
    // No clean shutdown: the commit was on disk before `completed` was sent.
    first.kill().unwrap();
    first.wait().unwrap();
    let (mut second, mut ask) = session_process(&store);
    let loaded = ask(r#"{"op":"exec","code":"return await load('summary')"}"#);
    assert_eq!(loaded["value"], serde_json::json!({"unpaid": 3, "tons": 42}), "{loaded}");
    second.kill().unwrap();
    second.wait().unwrap();
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn an_unreadable_store_is_reported_and_left_untouched() {
    let store = temp_store("corrupt");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("conf"), b"this is not a sled configuration").unwrap();
    let out = codemode().arg("--store").arg(&store).args(["exec", "-"]).stdin(Stdio::null()).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot be opened") && stderr.contains("was not modified"), "{stderr}");
    assert_eq!(std::fs::read(store.join("conf")).unwrap(), b"this is not a sled configuration");
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn serve_works_with_the_python_mcp_client_across_calls() {
    let store = temp_store("serve");
    let prompt = isolated("serve-prompt").args(["prompt", "--json"]).output().unwrap();
    assert!(prompt.status.success());
    let d: Value = serde_json::from_slice(&prompt.stdout).unwrap();
    let expected = serde_json::json!({
        "exec": {"description": d["exec"]["description"], "inputSchema": d["exec"]["inputSchema"]},
        "wait": {"description": d["wait"]["description"], "inputSchema": d["wait"]["inputSchema"]},
    });
    let expected_path = std::env::temp_dir().join(format!("codemode-expected-{}.json", std::process::id()));
    std::fs::write(&expected_path, expected.to_string()).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_client.py");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_codemode")])
        .arg(&store)
        .arg(&expected_path)
        .arg(port.to_string())
        .output()
        .expect("python3 runs (the test script installs the `mcp` package)");
    assert!(
        out.status.success(),
        "python MCP client failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("ok\n"), "{text}");
    // /health and /metrics after the cells the client ran.
    assert!(text.contains("{\"status\":\"ok\",\"liveCells\":0}"), "{text}");
    assert!(text.contains("codemode_cells_total{status=\"completed\"} 4"), "{text}");
    // Shell source is refused at admission: it never becomes a cell (every
    // end state is exported from the start, at zero).
    assert!(text.contains("codemode_cells_total{status=\"failed\"} 0"), "{text}");
    assert!(text.contains("codemode_build_info{version=\""), "{text}");
    assert!(text.contains("# TYPE codemode_nested_calls_total counter"), "{text}");
    #[cfg(target_os = "linux")]
    assert!(text.contains("process_resident_memory_bytes "), "{text}");
    assert!(text.contains("codemode_cell_active_seconds_count 4"), "{text}");
    assert!(text.contains("codemode_cell_queue_seconds_count 4"), "{text}");
    assert!(text.contains("codemode_parked_cells 0"), "{text}");
    assert!(text.contains("codemode_results_saved_bytes_total 7"), "{text}");
    let _ = std::fs::remove_dir_all(&store);
}

fn write_config(name: &str, text: &str) -> std::path::PathBuf {
    let dir = temp_store(name);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("codemode.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn config_check_names_a_bad_key_and_a_bad_range() {
    let bad_key = write_config("badkey", "[limits]\ntimeout = 5\n");
    let out = codemode().arg("--config").arg(&bad_key).args(["config", "check"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown field `timeout`"));
    let bad_range = write_config("badrange", "[limits]\nmax_in_flight = 500\n");
    let out = codemode().arg("--config").arg(&bad_range).args(["config", "check"]).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("limits.max_in_flight = 500 is out of range: allowed 1..=128")
    );
    let good = write_config("good", "[limits]\nmax_in_flight = 8\n");
    let out = codemode().arg("--config").arg(&good).args(["config", "check"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("max_in_flight = 8") && text.contains("timeout_ms = 10000"), "{text}");
}

/// The npm package `@modelcontextprotocol/server-everything`'s script,
/// installed by scripts/test.sh.
fn server_everything() -> &'static str {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/.npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
    );
    assert!(std::path::Path::new(script).exists(), "run ./scripts/test.sh: it installs server-everything");
    script
}

#[test]
fn config_check_connects_each_mcp_server_and_names_the_one_that_cannot_start_ga_9() {
    let everything = server_everything();
    let config = write_config(
        "mcpcheck",
        &format!(
            "[[mcp_servers]]\nname = \"everything\"\ncommand = [\"node\", \"{everything}\", \"stdio\"]\n\n\
             [[mcp_servers]]\nname = \"missing\"\ncommand = [\"/nonexistent/mcp-server\"]\n"
        ),
    );
    let out = codemode().arg("--config").arg(&config).args(["config", "check"]).output().unwrap();
    assert!(!out.status.success(), "a server that cannot start fails the check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("# mcp server `everything`: connected"), "{text}");
    assert!(text.contains("# mcp server `missing`: cannot connect"), "{text}");
    assert!(text.contains("/nonexistent/mcp-server"), "the reason names the program: {text}");
}

#[test]
fn command_tools_run_python_and_fail_clearly() {
    let dir = temp_store("cmdtools");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("double.py"),
        "import json, sys\nx = json.load(sys.stdin)\nprint(json.dumps({'doubled': x['n'] * 2}))\n",
    )
    .unwrap();
    std::fs::write(dir.join("fail.py"), "import sys\nsys.stderr.write('no such city')\nsys.exit(3)\n").unwrap();
    std::fs::write(
        dir.join("hang.py"),
        "import os, time\nopen(os.environ['PIDFILE'], 'w').write(str(os.getpid()))\ntime.sleep(60)\n",
    )
    .unwrap();
    std::fs::write(dir.join("garbage.py"), "print('not json')\n").unwrap();
    let pidfile = dir.join("hang.pid");
    let config = format!(
        r#"
[[tools]]
name = "double"
description = "Doubles n."
command = ["python3", "{d}/double.py"]
input_schema = {{ type = "object", properties = {{ n = {{ type = "number" }} }}, required = ["n"] }}

[[tools]]
name = "fails"
description = "Always exits 3."
command = ["python3", "{d}/fail.py"]

[[tools]]
name = "hangs"
description = "Never answers."
# The shell writes its pid (kept by `exec`) at once: a Python start-up
# slower than the timeout on a loaded machine left no pid file to check.
command = ["sh", "-c", "echo $$ > \"$PIDFILE\"; exec python3 {d}/hang.py"]
timeout_ms = 2000

[[tools]]
name = "garbage"
description = "Prints text."
command = ["python3", "{d}/garbage.py"]
"#,
        d = dir.display()
    );
    let config_path = write_config("cmdtools-config", &config);
    let code = "const out = [await double({n: 21})]; \
        for (const t of [fails, hangs, garbage]) { try { await t({}) } catch (e) { out.push(e.message) } } return out";
    let mut child = codemode()
        .arg("--config")
        .arg(&config_path)
        .arg("--store")
        .arg(dir.join("store"))
        .args(["exec", "--json", "-"])
        .env("PIDFILE", &pidfile)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(code.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = &line["value"];
    assert_eq!(v[0], serde_json::json!({"doubled": 42}), "{line}");
    assert!(v[1].as_str().unwrap().contains("exited with status 3: no such city"), "{v}");
    assert!(v[2].as_str().unwrap().contains("timed out after 2000 ms and was killed"), "{v}");
    assert!(v[3].as_str().unwrap().contains("printed invalid JSON"), "{v}");
    // The hung child is gone.
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    assert!(!std::path::Path::new(&format!("/proc/{}", pid.trim())).exists(), "child {pid} still running");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repl_runs_each_entry_as_a_cell_with_multi_line_input_and_history() {
    let mut child = isolated("repl").arg("repl").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"text('first')\nconst xs = [\n1, 2]; return xs.length\nawait yield_control('p'); return 'later'\n:wait\n:history\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("first\ncompleted: null"), "{text}");
    assert!(text.contains("completed: 2"), "{text}");
    assert!(text.contains("waiting (yield)") && text.contains("completed: \"later\""), "{text}");
    assert!(text.contains("  2  const xs = [\n     1, 2]; return xs.length"), "{text}");
}

#[test]
fn prompt_and_search_show_configured_tools() {
    let config = write_config(
        "promptsearch",
        "[[tools]]\nname = \"invoice_lookup\"\ndescription = \"Find overdue invoices for a customer.\"\ncommand = [\"true\"]\n",
    );
    let prompt =
        codemode().arg("--config").arg(&config).arg("--store").arg(temp_store("ps1")).arg("prompt").output().unwrap();
    let text = String::from_utf8_lossy(&prompt.stdout);
    assert!(text.contains("- invoice_lookup Record<string, unknown> -> ?"), "{text}");
    assert!(!text.contains("overdue"), "descriptions stay out of the prompt");
    let search = codemode()
        .arg("--config")
        .arg(&config)
        .arg("--store")
        .arg(temp_store("ps2"))
        .args(["search", "overdue invoices"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&search.stdout);
    assert!(text.contains("invoice_lookup"), "{text}");
}

#[test]
fn spans_reach_an_otlp_receiver_with_a_child_per_nested_call() {
    let receiver = OtlpReceiver::start();
    let port = receiver.port;
    let dir = temp_store("otlp");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("echo.py"), "import json, sys\nprint(json.dumps(json.load(sys.stdin)))\n").unwrap();
    let config = write_config(
        "otlp-config",
        &format!(
            "[telemetry]\notlp_endpoint = \"http://127.0.0.1:{port}\"\nservice_name = \"codemode-test\"\n\n\
             [[tools]]\nname = \"echo\"\ndescription = \"Echo.\"\ncommand = [\"python3\", \"{}/echo.py\"]\n",
            dir.display()
        ),
    );
    let out = exec_stdin(
        &config,
        &dir.join("store"),
        &["--title", "traced cell"],
        "const a = await echo({n: 1}); const b = await echo({n: 2}); return [a, b]",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let spans = receiver.spans();
    let cell = spans.iter().find(|s| s["name"] == "cell").unwrap_or_else(|| panic!("no cell span in {spans:?}"));
    let calls: Vec<&Value> = spans.iter().filter(|s| s["name"] == "host_call").collect();
    assert_eq!(calls.len(), 2, "{spans:?}");
    for call in calls {
        assert_eq!(call["parentSpanId"], cell["spanId"]);
        assert_eq!(call["traceId"], cell["traceId"]);
    }
    let attributes = cell["attributes"].to_string();
    assert!(attributes.contains("traced cell") && attributes.contains("completed"), "{attributes}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_over_streamable_http_works_with_the_python_mcp_client() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let store = temp_store("http");
    let mut server = codemode()
        .arg("--store")
        .arg(&store)
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the server says it listens.
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.contains("serving MCP over HTTP"), "{line}");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_client.py");
    let out = Command::new("python3").arg(script).arg(format!("http://127.0.0.1:{port}/mcp")).output().unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
    let _ = std::fs::remove_dir_all(&store);
}

#[test]
fn configured_mcp_servers_are_reachable_from_exec() {
    let everything = server_everything();
    let config = write_config(
        "mcpconfig",
        &format!(
            "[[mcp_servers]]\nname = \"everything\"\ncommand = [\"node\", \"{everything}\", \"stdio\"]\ncall_timeout_ms = 10000\n"
        ),
    );
    let out = exec_stdin(
        &config,
        &temp_store("mcpconfig-store"),
        &[],
        "return (await MCP.everything.getSum({a: 20, b: 22})).content[0].text",
    );
    // An MCP result is network-derived: the model text is wrapped (GA-9.3).
    let text = String::from_utf8_lossy(&out.stdout);
    let body = text.split("\n---\n").nth(1).and_then(|b| b.split("\n<<<END_EXTERNAL_UNTRUSTED_CONTENT").next());
    let line: Value = serde_json::from_str(body.unwrap_or_default()).unwrap_or_default();
    assert!(text.starts_with("SECURITY NOTICE"), "{text}");
    assert!(line["value"].as_str().unwrap_or_default().contains("42"), "{text}");
}

#[test]
fn bench_runs_every_scenario_and_writes_a_json_report() {
    let dir = temp_store("bench");
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.json");
    let out = codemode()
        .current_dir(&dir)
        .args(["bench", "--runs", "3", "--warmup", "1", "--parked", "2,3", "--cold-runs", "1"])
        .args(["--throughput-ms", "50", "--json"])
        .arg(&report)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    for row in [
        "1 trivial cell",
        "2 100 sequential",
        "3 100 noop calls",
        "4 yield_control + wait",
        "5 parked x2",
        "5 parked x3",
    ] {
        assert!(stdout.contains(row), "missing {row:?} in\n{stdout}");
    }
    assert!(stdout.contains("6 first exec, fresh process") && stdout.contains("7 throughput"), "{stdout}");
    assert!(stdout.contains("TypeScript costs (p50 6b - twin)"), "{stdout}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["trivial"]["n"], 3);
    assert_eq!(json["parked"][1]["count"], 3);
    assert_eq!(json["coldFirstExecMs"]["n"], 1);
    assert_eq!(
        (&json["coldTypeScriptMs"]["n"], &json["coldTypeScriptTwinMs"]["n"]),
        (&serde_json::json!(1), &serde_json::json!(1))
    );
    assert!(json["throughput"]["cells"].as_u64().unwrap() > 0);
    // --compare without the reference installed says what to do.
    let out = codemode()
        .env_remove("NODE24")
        .args(["bench", "--runs", "1", "--warmup", "0", "--only", "trivial", "--compare"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--compare needs NODE24 and OPENCLAW_PROJECT"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The local-time corpus: every `Date` use that reads the zone.
const LOCAL_TIME_CELL: &str = r#"const d = new Date(0);
return [d.getTimezoneOffset(), d.toString(), new Date(2020, 0, 1).getTime(),
  new Date("2020-01-01T00:00:00").getTime(), d.getHours(), d.toLocaleDateString(),
  d.toTimeString(), new Date(1593561600000).getTimezoneOffset(), typeof new Date().getFullYear()]"#;

/// GA-1.2: a cell's local time is the configured zone (UTC unless
/// `limits.time_zone` says otherwise), in both engine homes, whatever the
/// host's `TZ` says — a confined worker reads no zone file and does not
/// crash, and thread mode does not see the host's zone.
#[test]
fn a_cells_local_time_is_the_configured_zone_in_both_modes_whatever_the_hosts_tz_ga_1_2() {
    let utc = serde_json::json!([
        0,
        "Thu Jan 01 1970 00:00:00 GMT+0000",
        1_577_836_800_000_i64,
        1_577_836_800_000_i64,
        0,
        "01/01/1970",
        "00:00:00 GMT+0000",
        0,
        "number"
    ]);
    let berlin = serde_json::json!([
        -60,
        "Thu Jan 01 1970 01:00:00 GMT+0100",
        1_577_833_200_000_i64,
        1_577_833_200_000_i64,
        1,
        "01/01/1970",
        "01:00:00 GMT+0100",
        -120,
        "number"
    ]);
    for isolation in ["thread", "process"] {
        for (zone, expected) in [(None, &utc), (Some("Europe/Berlin"), &berlin)] {
            let zone_line = zone.map(|z| format!("time_zone = \"{z}\"\n")).unwrap_or_default();
            let name = format!("tz-{isolation}-{}", zone.unwrap_or("utc").replace('/', "-"));
            let config = write_config(&name, &format!("[limits]\nisolation = \"{isolation}\"\n{zone_line}"));
            for host_tz in ["Asia/Tokyo", "America/New_York"] {
                let mut child = codemode()
                    .env("TZ", host_tz)
                    .arg("--config")
                    .arg(&config)
                    .arg("--store")
                    .arg(temp_store(&format!("{name}-store")))
                    .args(["exec", "--json", "-"])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                child.stdin.take().unwrap().write_all(LOCAL_TIME_CELL.as_bytes()).unwrap();
                let out = child.wait_with_output().unwrap();
                let line: Value = serde_json::from_slice(&out.stdout)
                    .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
                assert_eq!(line["status"], "completed", "{isolation} {zone:?} TZ={host_tz}: {line}");
                assert_eq!(&line["value"], expected, "{isolation} {zone:?} TZ={host_tz}");
            }
        }
    }
}

/// The processes whose environment holds `marker`.
fn processes_marked(marker: &str) -> Vec<u32> {
    let needle = format!("CODEMODE_TEST_MARKER={marker}");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()))
        })
        .collect()
}

/// Waits (bounded: the servers' grace and a margin) until no process holds
/// `marker`; the ones still there.
fn left_behind(marker: &str) -> Vec<u32> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(6);
    loop {
        let left = processes_marked(marker);
        if left.is_empty() || std::time::Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A stdio MCP server ends with the codemode process that started it,
/// however that process ends in order: `exec` finishing after a cell ran
/// one of the server's long-running tasks, `session` ending on a closed
/// input, and `serve` shut down by SIGTERM — no process of the server's
/// group is left (GA-9).
#[test]
fn a_stdio_mcp_server_ends_with_the_exec_or_session_that_started_it_ga_9() {
    let everything = server_everything();
    let marker =
        format!("{}-{}", std::process::id(), std::time::SystemTime::now().elapsed().map_or(0, |d| d.as_nanos()));
    let config = write_config(
        "mcp-ends",
        &format!(
            "[[mcp_servers]]\nname = \"everything\"\ncommand = [\"node\", \"{everything}\", \"stdio\"]\n\
             env = {{ CODEMODE_TEST_MARKER = \"{marker}\" }}\n"
        ),
    );
    let cell = "const r = await MCP.everything.simulateResearchQuery({ topic: 'code mode', ambiguous: false }); \
                return Object.keys(r).length > 0";
    let out = exec_stdin(&config, &temp_store("mcp-ends-exec"), &[], cell);
    // The result comes wrapped in the untrusted-content envelope (the
    // cell saw MCP data): its JSON line.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line: Value = stdout.lines().find_map(|l| serde_json::from_str(l).ok()).unwrap_or_default();
    assert_eq!(line["status"], "completed", "{stdout}");
    assert_eq!(left_behind(&marker), Vec::<u32>::new(), "exec left its MCP server running");

    let mut session = codemode()
        .arg("--config")
        .arg(&config)
        .arg("--store")
        .arg(temp_store("mcp-ends-session"))
        .arg("session")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while processes_marked(&marker).is_empty() {
        assert!(std::time::Instant::now() < deadline, "the session never started its MCP server");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    drop(session.stdin.take());
    assert!(session.wait().unwrap().success());
    assert_eq!(left_behind(&marker), Vec::<u32>::new(), "session left its MCP server running");

    // `serve`, shut down by SIGTERM while its MCP client is still connected.
    let mut serve = codemode()
        .arg("--config")
        .arg(&config)
        .arg("--store")
        .arg(temp_store("mcp-ends-serve"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Its answer to `initialize` means it serves (its signal handlers are
    // in place, its MCP servers started).
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    writeln!(serve.stdin.as_mut().unwrap(), "{initialize}").unwrap();
    let mut answer = String::new();
    BufReader::new(serve.stdout.take().unwrap()).read_line(&mut answer).unwrap();
    assert!(answer.contains("\"id\":1"), "{answer}");
    assert!(!processes_marked(&marker).is_empty(), "serve started its MCP server");
    let term = Command::new("kill").args(["-TERM", &serve.id().to_string()]).status().unwrap();
    assert!(term.success());
    assert!(serve.wait().unwrap().success());
    assert_eq!(left_behind(&marker), Vec::<u32>::new(), "serve left its MCP server running");
}
