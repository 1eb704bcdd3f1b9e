//! `codemode serve` as an MCP server, driven by the official Python MCP
//! client against a real `codemode` process: structured results
//! with an output schema, unknown arguments refused, `command` as an alias
//! of `code`, sessions closed with 200, one-shot clients told why they
//! cannot `wait`, and network-derived results wrapped for the model
//! (GA-9.3) — in `serve` and in `exec --json`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-serve-mcp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `@modelcontextprotocol/server-everything`, installed by scripts/test.sh,
/// as the `[[mcp_servers]]` entry of a config in `dir`.
fn everything_config(dir: &std::path::Path) -> std::path::PathBuf {
    let everything = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/.npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
    );
    assert!(std::path::Path::new(everything).exists(), "run ./scripts/test.sh: it installs server-everything");
    let config = dir.join("codemode.toml");
    std::fs::write(
        &config,
        format!(
            "[[mcp_servers]]\nname = \"everything\"\ncommand = [\"node\", \"{everything}\", \"stdio\"]\ncall_timeout_ms = 10000\n"
        ),
    )
    .unwrap();
    config
}

/// Kills the server when the test ends, passing or not.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &std::path::Path, config: Option<&std::path::Path>) -> Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_codemode"));
    if let Some(config) = config {
        command.arg("--config").arg(config);
    }
    let mut child = command
        .arg("--store")
        .arg(dir.join("store"))
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("serving MCP over HTTP") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the server exited before it listened");
    }
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    Server { child, port }
}

/// What the Python client saw for each call, and at the session's end.
struct Session {
    calls: Vec<Value>,
    end: Value,
}

/// Makes `calls` (`[tool, arguments]` pairs) in one MCP session.
fn session(server: &Server, calls: &Value) -> Session {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_client.py");
    let out = Command::new("python3")
        .args([script, &format!("http://127.0.0.1:{}/mcp", server.port), "calls", &calls.to_string()])
        .output()
        .expect("python3 runs (the test script installs the `mcp` package)");
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let mut lines: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let end = lines.pop().unwrap();
    Session { calls: lines, end }
}

/// The structured content of a call, after checking that it conforms to
/// the output schema and equals the text block's JSON.
fn structured(call: &Value) -> &Value {
    assert_eq!(call["schemaErrors"], json!([]), "{call}");
    let text: Value = serde_json::from_str(call["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, call["structured"], "the text and the structured content say the same");
    &call["structured"]
}

#[test]
fn exec_and_wait_return_structured_content_that_matches_the_text_and_the_output_schema() {
    let dir = temp("structured");
    let server = serve(&dir, None);
    let s = session(
        &server,
        &json!([
            ["exec", {"code": "text('hi'); return {n: 1}", "title": "completed"}],
            ["exec", {"code": "await yield_control('pause'); return 2"}],
            ["wait", {"runId": "$lastRunId"}],
            ["exec", {"code": "throw new Error('boom')"}],
        ]),
    );
    let completed = structured(&s.calls[0]);
    assert_eq!(completed["status"], "completed");
    assert_eq!(completed["value"], json!({"n": 1}));
    assert_eq!(completed["output"], json!([{"type": "text", "text": "hi"}]));
    assert_eq!(s.calls[0]["isError"], false);
    let waiting = structured(&s.calls[1]);
    assert_eq!((&waiting["status"], &waiting["reason"]), (&json!("waiting"), &json!("yield")));
    let resumed = structured(&s.calls[2]);
    assert_eq!((&resumed["status"], &resumed["value"]), (&json!("completed"), &json!(2)), "{resumed}");
    let failed = structured(&s.calls[3]);
    assert_eq!((&failed["status"], &failed["code"]), (&json!("failed"), &json!("internal_error")));
    assert_eq!(s.calls[3]["isError"], true);
    assert!(failed.get("untrusted").is_none(), "no network content, no mark");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_argument_is_refused_with_invalid_input_naming_it() {
    let dir = temp("unknown");
    let server = serve(&dir, None);
    let s = session(
        &server,
        &json!([
            ["exec", {"code": "return 1", "cod": "return 2"}],
            ["wait", {"runId": "run_x", "timeout": 5}],
            ["exec", {"code": "return 1", "language": "typescript"}],
            ["exec", {"code": "return 1", "restartSafe": "yes"}],
        ]),
    );
    for (call, name) in [(&s.calls[0], "`cod`"), (&s.calls[1], "`timeout`")] {
        let r = structured(call);
        assert_eq!((&r["code"], &r["phase"]), (&json!("invalid_input"), &json!("input")), "{r}");
        assert!(r["error"].as_str().unwrap().contains(&format!("does not take {name}")), "{r}");
        assert_eq!(call["isError"], true);
    }
    assert_eq!(
        structured(&s.calls[2])["error"],
        "Code Mode takes no language or typecheck: write JavaScript, or TypeScript whose types are stripped \
         (not checked). Remove language and typecheck; use API.read(...) for tool types."
    );
    assert_eq!(structured(&s.calls[3])["error"], "restartSafe must be a boolean.");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_is_an_alias_of_code_and_must_match_it_when_both_are_given() {
    let dir = temp("command");
    let server = serve(&dir, None);
    let s = session(
        &server,
        &json!([
            ["exec", {"command": "return 'via command'"}],
            ["exec", {"code": "return 1", "command": "return 1"}],
            ["exec", {"code": "return 1", "command": "return 2"}],
            ["exec", {"title": "nothing to run"}],
            ["exec", {"command": "type V = string;\nconst v: V = 'typed';\nreturn v as V;"}],
        ]),
    );
    assert_eq!(structured(&s.calls[0])["value"], "via command");
    assert_eq!(structured(&s.calls[4])["value"], "typed", "GA-1.1: serve takes TypeScript");
    assert_eq!(structured(&s.calls[1])["value"], 1);
    assert_eq!(structured(&s.calls[2])["error"], "code and command must match when both are provided.");
    assert_eq!(structured(&s.calls[3])["error"], "code or command must be a non-empty string.");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn closing_a_streamable_http_session_is_answered_200_and_an_unknown_session_404() {
    let dir = temp("delete");
    let server = serve(&dir, None);
    let s = session(&server, &json!([["exec", {"code": "return 1"}]]));
    assert_eq!(s.end["deletes"], json!([200]), "{}", s.end);
    assert_eq!(s.end["warnings"], json!([]), "no 'Session termination failed': {}", s.end);
    assert_eq!(s.end["unknownDelete"], 404, "{}", s.end);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wait_on_a_run_unknown_to_this_server_s_store_says_no_durable_record_exists() {
    let dir = temp("oneshot");
    // The run was started by another server process on another store (on
    // the same store, or a shared PostgreSQL one, it would resume:
    // tests/durable*.rs).
    let first = serve(&dir.join("a"), None);
    let s = session(&first, &json!([["exec", {"code": "await yield_control(); return 1"}]]));
    let run_id = structured(&s.calls[0])["runId"].as_str().unwrap().to_owned();
    drop(first);
    let second = serve(&dir.join("b"), None);
    let s = session(&second, &json!([["wait", {"runId": run_id}]]));
    let r = structured(&s.calls[0]);
    assert_eq!(r["code"], "invalid_input");
    let error = r["error"].as_str().unwrap();
    assert!(error.contains("no durable record of it exists"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_mcp_result_is_wrapped_in_the_text_and_marked_untrusted_in_structured_content_ga_9_3() {
    let dir = temp("untrusted");
    let config = everything_config(&dir);
    let server = serve(&dir, Some(&config));
    let code = "return (await MCP.everything.getSum({a: 20, b: 22})).content[0].text";
    // The server connects to its MCP server in the background: retry until
    // cells see it.
    let mut attempts = 0;
    let call = loop {
        let s = session(&server, &json!([["exec", {"code": code}]]));
        let call = s.calls[0].clone();
        if call["structured"]["status"] == "completed" || attempts == 40 {
            break call;
        }
        attempts += 1;
        std::thread::sleep(std::time::Duration::from_millis(250));
    };
    assert_eq!(call["schemaErrors"], json!([]), "{call}");
    let r = &call["structured"];
    assert_eq!(r["status"], "completed", "{r}");
    assert!(r["value"].as_str().unwrap().contains("42"), "{r}");
    assert_eq!(r["untrusted"], true, "structured content is plain, marked untrusted: {r}");
    let text = call["text"].as_str().unwrap();
    assert!(text.starts_with("SECURITY NOTICE"), "{text}");
    assert!(text.contains("<<<EXTERNAL_UNTRUSTED_CONTENT id="), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exec_json_wraps_the_result_of_a_cell_that_touched_mcp_ga_9_3() {
    let dir = temp("exec-json");
    let config = everything_config(&dir);
    let exec = |code: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .arg("--config")
            .arg(&config)
            .arg("--store")
            .arg(dir.join("store"))
            .args(["exec", "--json", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(code.as_bytes()).unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    let wrapped = exec("return (await MCP.everything.getSum({a: 20, b: 22})).content[0].text");
    assert!(wrapped.starts_with("SECURITY NOTICE"), "{wrapped}");
    assert!(wrapped.contains("\"status\":\"completed\"") && wrapped.contains("42"), "{wrapped}");
    assert!(wrapped.trim_end().ends_with(">>>"), "{wrapped}");
    // A cell that touched nothing from the network stays one JSON line.
    let plain: Value = serde_json::from_str(&exec("return 1 + 1")).unwrap();
    assert_eq!(plain["value"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}
