//! `codemode serve` lifecycle: graceful shutdown on real
//! signals, `/ready` against `/health`, and the probe listener's HTTP.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::Value;

mod common;

use common::{OtlpReceiver, PATIENCE, Server, http, temp};

/// A server with `config` and a shutdown grace of `grace_ms`.
fn start(name: &str, config: &str, grace_ms: u64) -> Server {
    Server::start("lifecycle", name, config, &["--shutdown-grace-ms", &grace_ms.to_string()])
}

impl Server {
    fn signal(&self, signal: Signal) {
        kill(Pid::from_raw(i32::try_from(self.child.id()).unwrap()), signal).unwrap();
    }

    /// The exit status, waiting up to `patience`.
    fn exit_within(&mut self, patience: Duration) -> ExitStatus {
        let deadline = Instant::now() + patience;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit within {patience:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Polls `/health` until `n` cells are live.
    fn wait_live_cells(&self, n: u64) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let (_, _, body) = http(&self.probes, "GET", "/health");
            if serde_json::from_str::<Value>(&body).ok().and_then(|v| v["liveCells"].as_u64()) == Some(n) {
                return;
            }
            assert!(Instant::now() < deadline, "never saw {n} live cells: {body}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Starts one `exec` of `code` through the Python MCP client.
    fn exec(&self, code: &str) -> Child {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_lifecycle.py");
        Command::new("python3")
            .args([script, &self.mcp, code])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3 runs (the test script installs the `mcp` package)")
    }

    /// A Python MCP client connected now, which calls `exec` of `code`
    /// when fired: Python's start-up cannot outlast a drain.
    fn exec_on_cue(&self, code: &str) -> Cued {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_lifecycle.py");
        let mut child = Command::new("python3")
            .args([script, &self.mcp, code, "--on-stdin"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3 runs (the test script installs the `mcp` package)");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "connected", "the client did not connect");
        Cued { child, stdout }
    }
}

/// A connected client waiting for its cue to call `exec`.
struct Cued {
    child: Child,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Cued {
    /// Calls `exec` now; the result the client printed.
    fn fire(mut self) -> Value {
        writeln!(self.child.stdin.as_mut().unwrap()).unwrap();
        let mut text = String::new();
        self.stdout.read_to_string(&mut text).unwrap();
        let mut stderr = String::new();
        self.child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        assert!(self.child.wait().unwrap().success(), "{stderr}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }
}

/// The result the Python client printed.
fn result_of(client: Child) -> Value {
    let out = client.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

const SHORT_CELL: &str = "await new Promise(r => setTimeout(r, 300)); return 'done';";

#[test]
fn sigterm_lets_a_running_cell_finish_then_the_server_exits_0() {
    let mut server = start("finish", "", 30_000);
    let client = server.exec(SHORT_CELL);
    server.wait_live_cells(1);
    server.signal(Signal::SIGTERM);
    let result = result_of(client);
    assert_eq!((&result["status"], &result["value"]), (&Value::from("completed"), &Value::from("done")), "{result}");
    let status = server.exit_within(PATIENCE);
    let log = server.rest_of_log();
    assert!(status.success(), "{status:?}\n{log}");
    assert!(
        log.contains("shutdown (SIGTERM): admitting no new cells; waiting up to 30000 ms for 1 running call(s)"),
        "{log}"
    );
    assert!(log.contains("shutdown: no call is running"), "the cell ended within the grace:\n{log}");
    assert!(log.contains("shutdown: complete"), "{log}");
}

#[test]
fn during_shutdown_a_new_exec_is_refused_and_ready_fails_while_health_stays_up() {
    let mut server = start("refuse", "", 60_000);
    let (status, _, body) = http(&server.probes, "GET", "/ready");
    assert_eq!((status.as_str(), body.as_str()), ("HTTP/1.1 200 OK", "{\"ready\":true}"));
    let running = server.exec("await new Promise(r => setTimeout(r, 3000)); return 'slow';");
    let late = server.exec_on_cue("return 1");
    server.wait_live_cells(1);
    server.signal(Signal::SIGTERM);
    server.wait_for("admitting no new cells");

    let (status, _, body) = http(&server.probes, "GET", "/ready");
    assert_eq!(status, "HTTP/1.1 503 Service Unavailable", "{body}");
    let why: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(why["ready"], false, "{body}");
    assert!(why["reason"].as_str().unwrap().contains("shutting down"), "{body}");
    let (status, _, _) = http(&server.probes, "GET", "/health");
    assert_eq!(status, "HTTP/1.1 200 OK", "liveness holds during the drain");

    let refused = late.fire();
    assert_eq!((&refused["status"], &refused["code"]), (&Value::from("failed"), &Value::from("runtime_unavailable")));
    assert!(
        refused["error"].as_str().unwrap().contains("shutting down (SIGTERM) and admits no new cells"),
        "{refused}"
    );

    let finished = result_of(running);
    assert_eq!(finished["value"], "slow", "{finished}");
    let status = server.exit_within(PATIENCE);
    assert!(status.success(), "{status:?}\n{}", server.rest_of_log());
}

#[test]
fn a_second_sigterm_during_the_grace_exits_at_once_with_a_failure_status() {
    // The cell would outlive the test's patience; only the second signal
    // can end the drain in time.
    let mut server = start("twice", "[limits]\ntimeout_ms = 60000\n", 600_000);
    let mut client = server.exec("await new Promise(r => setTimeout(r, 59000)); return 'late';");
    server.wait_live_cells(1);
    server.signal(Signal::SIGTERM);
    server.wait_for("admitting no new cells");
    server.signal(Signal::SIGTERM);
    let status = server.exit_within(Duration::from_secs(30));
    let log = server.rest_of_log();
    assert_eq!(status.code(), Some(143), "128 + SIGTERM, as if unhandled: {status:?}\n{log}");
    assert!(log.contains("second shutdown signal (SIGTERM): exiting now with 1 call(s) still running"), "{log}");
    // Its server is gone: the client fails, which is not what this tests.
    let _ = client.kill();
    let _ = client.wait();
}

#[test]
fn a_call_that_outlives_the_grace_is_cut_off_and_the_server_still_exits_0() {
    let mut server = start("cut", "[limits]\ntimeout_ms = 60000\n", 500);
    let mut client = server.exec("await new Promise(r => setTimeout(r, 59000)); return 'late';");
    server.wait_live_cells(1);
    server.signal(Signal::SIGTERM);
    let status = server.exit_within(PATIENCE);
    let log = server.rest_of_log();
    assert!(status.success(), "{status:?}\n{log}");
    assert!(log.contains("shutdown: 1 call(s) still running after the 500 ms grace"), "{log}");
    // It says what survives: parked runs are journaled on this sled store.
    assert!(
        log.contains(
            "shutdown: stopping 1 live cell(s), 0 of them parked: parked runs are journaled and survive it: \
                      the next codemode process on this store resumes them"
        ),
        "{log}"
    );
    // Its server is gone mid-call: the client fails, which is not what
    // this tests.
    let _ = client.kill();
    let _ = client.wait();
}

#[test]
fn with_journaling_off_the_shutdown_says_parked_cells_do_not_survive() {
    let mut server = start("journal-off", "[runs]\njournal = \"off\"\n", 500);
    let mut client = server.exec("await yield_control('parked'); return 'resumed';");
    server.wait_live_cells(1);
    server.signal(Signal::SIGTERM);
    let status = server.exit_within(PATIENCE);
    let log = server.rest_of_log();
    assert!(status.success(), "{status:?}\n{log}");
    assert!(
        log.contains(
            "1 of them parked: runs are not journaled here ([runs] journal = \"off\", or a temporary store), \
                      so none of them survives the restart"
        ),
        "{log}"
    );
    let _ = client.kill();
    let _ = client.wait();
}

#[test]
fn ready_fails_while_a_required_mcp_server_is_down_and_an_optional_one_does_not_matter() {
    let config = "[[mcp_servers]]\nname = \"optional\"\ncommand = [\"/nonexistent/codemode-test-a\"]\n\n\
                  [[mcp_servers]]\nname = \"needed\"\ncommand = [\"/nonexistent/codemode-test-b\"]\nrequired = true\n";
    let server = start("required", config, 1_000);
    let (status, _, body) = http(&server.probes, "GET", "/ready");
    assert_eq!(status, "HTTP/1.1 503 Service Unavailable", "{body}");
    assert!(body.contains("required MCP server `needed` is not connected"), "{body}");
    let (status, _, _) = http(&server.probes, "GET", "/health");
    assert_eq!(status, "HTTP/1.1 200 OK");

    let optional_only = "[[mcp_servers]]\nname = \"optional\"\ncommand = [\"/nonexistent/codemode-test-a\"]\n";
    let server = start("optional", optional_only, 1_000);
    let (status, _, body) = http(&server.probes, "GET", "/ready");
    assert_eq!(status, "HTTP/1.1 200 OK", "{body}");
}

#[test]
fn the_probe_listener_answers_head_like_get_refuses_other_methods_and_ignores_query_strings() {
    let server = start("http", "", 1_000);
    let (status, head, body) = http(&server.probes, "GET", "/metrics?x=1");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(head.contains("content-type: text/plain; version=0.0.4"), "{head}");
    assert!(body.contains("codemode_parked_cells"), "{body}");

    for path in ["/metrics", "/health?verbose", "/ready"] {
        let (get_status, get_head, get_body) = http(&server.probes, "GET", path);
        let (status, head, body) = http(&server.probes, "HEAD", path);
        assert_eq!(status, get_status, "{path}");
        assert_eq!(body, "", "HEAD has no body: {path}");
        let length = |h: &str| h.lines().find(|l| l.starts_with("content-length:")).map(str::to_owned);
        assert!(length(&head).is_some(), "{head}");
        if path != "/metrics" {
            // The metrics text changes between requests; these do not.
            assert_eq!(length(&head), length(&get_head), "{path}");
            assert_eq!(length(&get_head), Some(format!("content-length: {}", get_body.len())));
        }
    }

    for method in ["POST", "PUT", "DELETE"] {
        let (status, head, _) = http(&server.probes, method, "/health");
        assert_eq!(status, "HTTP/1.1 405 Method Not Allowed", "{method}");
        assert!(head.contains("allow: get, head"), "{head}");
    }
    let (status, _, body) = http(&server.probes, "GET", "/metricsx");
    assert_eq!(status, "HTTP/1.1 404 Not Found");
    assert!(body.contains("/ready"), "{body}");
    assert_eq!(http(&server.probes, "GET", "/?/metrics").0, "HTTP/1.1 404 Not Found");
}

#[test]
fn sigterm_ends_a_stdio_server_with_status_0() {
    let dir = temp("lifecycle", "stdio");
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--store")
        .arg(dir.join("store"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // An answer to `initialize` means it serves, signal handlers installed.
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    writeln!(child.stdin.as_mut().unwrap(), "{initialize}").unwrap();
    let mut answer = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut answer).unwrap();
    assert!(answer.contains("\"id\":1"), "{answer}");
    kill(Pid::from_raw(i32::try_from(child.id()).unwrap()), Signal::SIGTERM).unwrap();
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the stdio server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut log = String::new();
    child.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    drop(child.stdin.take());
    assert!(status.success(), "{status:?}\n{log}");
    assert!(log.contains("shutdown: complete"), "{log}");
}

#[test]
fn the_span_of_a_cell_that_finished_during_the_drain_is_exported_before_the_exit() {
    let receiver = OtlpReceiver::start();
    let port = receiver.port;
    // The batch exporter would hold the span for seconds: only the flush
    // at shutdown can deliver it before the process is gone.
    let config = format!("[telemetry]\notlp_endpoint = \"http://127.0.0.1:{port}\"\n");
    let mut server = start("otlp", &config, 30_000);
    let client = server.exec(SHORT_CELL);
    server.wait_live_cells(1);
    server.signal(Signal::SIGTERM);
    assert_eq!(result_of(client)["status"], "completed");
    let status = server.exit_within(PATIENCE);
    let log = server.rest_of_log();
    assert!(status.success(), "{status:?}\n{log}");
    assert!(log.contains("shutdown: flushing telemetry"), "{log}");
    let spans = receiver.spans();
    let names: Vec<&Value> = spans.iter().map(|span| &span["name"]).collect();
    assert!(names.contains(&&Value::from("cell")), "no cell span in {spans:?}");
}
