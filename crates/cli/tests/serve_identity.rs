//! `codemode serve --http` as a shared service: bearer tokens name
//! principals, session keys are scoped to them, ids are never reused across
//! restarts (GA-7).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

const ALICE: &str = "alice-token-0123456789abcdef0123456789";
const BOB: &str = "bob-token-0123456789abcdef0123456789ab";

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-serve-identity-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn start(dir: &std::path::Path, port: u16) -> Server {
    let mut server = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(dir.join("codemode.toml"))
        .arg("--store")
        .arg(dir.join("store"))
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("serving MCP over HTTP") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the server exited before it listened");
    }
    assert!(line.contains("bearer tokens"), "{line}");
    Server(server)
}

fn exec(port: u16, code: &str, token: &str, key: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_http_identity.py");
    let out = Command::new("python3")
        .args([script, &format!("http://127.0.0.1:{port}/mcp"), code, token, key])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A refusal is plain text, not a result.
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&out.stdout).trim().to_owned()))
}

/// Kills the server when the test ends, passing or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn status_without_token(port: u16) -> String {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn principals_never_see_each_others_sessions_even_across_a_restart_ga_7_1() {
    let dir = temp("principals");
    std::fs::write(
        dir.join("codemode.toml"),
        format!(
            "[serve]\ntokens = [{{ token = \"{ALICE}\", principal = \"alice\" }}, {{ token = \"{BOB}\", principal = \"bob\" }}]\n"
        ),
    )
    .unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = start(&dir, port);

    assert!(status_without_token(port).contains("401"), "a request without a token is refused");
    let stored = exec(port, "await store('secret', 'alice-data'); return 1", ALICE, "work");
    assert_eq!(stored["status"], "completed", "{stored}");
    let same = exec(port, "return await load('secret')", ALICE, "work");
    assert_eq!(same["value"], "alice-data", "the same principal and key find their store: {same}");
    let other_principal = exec(port, "return await load('secret')", BOB, "work");
    assert_eq!(other_principal["value"], Value::Null, "bob's `work` is not alice's: {other_principal}");
    // Runs are as private as the store: bob cannot wait on alice's run.
    let parked = exec(port, "await yield_control(); return 'alice-run'", ALICE, "work");
    let run_id = parked["runId"].as_str().unwrap().to_owned();
    let stolen = exec(port, &format!("wait:{run_id}"), BOB, "work");
    assert!(stolen["error"].as_str().unwrap_or_default().contains("different session"), "{stolen}");
    let own = exec(port, &format!("wait:{run_id}"), ALICE, "work");
    assert_eq!(own["value"], "alice-run", "{own}");
    let unnamed = exec(port, "return await load('secret')", ALICE, "-");
    assert_eq!(unnamed["value"], Value::Null, "a connection without a key gets a fresh session: {unnamed}");
    let unnamed_store = exec(port, "await store('fresh', 1); return 1", BOB, "-");
    assert_eq!(unnamed_store["status"], "completed");

    // A restart (kill -9) on the same store: nothing of one client reaches
    // another, and named sessions come back to their own principal only.
    // SIGKILL, as `Child::kill` sends.
    drop(server);
    let server = start(&dir, port);
    let after = exec(port, "return await load('secret')", ALICE, "work");
    assert_eq!(after["value"], "alice-data", "{after}");
    for (token, key) in [(BOB, "work"), (BOB, "-"), (ALICE, "-")] {
        let r = exec(port, "return [await load('secret'), await load('fresh')]", token, key);
        assert_eq!(r["value"], serde_json::json!([null, null]), "{token} {key}: {r}");
    }
    let bad_key = exec(port, "return 1", ALICE, "alice/../bob");
    assert!(bad_key.to_string().contains("session key"), "{bad_key}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_connection_s_named_session_runs_stay_resumable_past_the_grace_ga_1_5() {
    let dir = temp("grace");
    std::fs::write(
        dir.join("codemode.toml"),
        format!("[serve]\ndispose_grace_ms = 4000\ntokens = [{{ token = \"{ALICE}\", principal = \"alice\" }}]\n"),
    )
    .unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let _server = start(&dir, port);
    // Within the grace, another connection of the same principal and key
    // may still wait on the run.
    let resumed = exec(port, "relay:await yield_control(); return 'kept'", ALICE, "k");
    assert_eq!(resumed["value"], "kept", "{resumed}");
    // Past the grace too: a named session's runs are durable,
    // only the closed connection's saved results are freed.
    let second = exec(port, "await yield_control(); return 'still here'", ALICE, "k");
    let run_id = second["runId"].as_str().unwrap().to_owned();
    std::thread::sleep(std::time::Duration::from_millis(6000));
    let late = exec(port, &format!("wait:{run_id}"), ALICE, "k");
    assert_eq!(late["value"], "still here", "{late}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serving_http_on_a_non_loopback_address_without_tokens_is_refused() {
    let dir = temp("exposed");
    std::fs::write(dir.join("codemode.toml"), "").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("--config")
        .arg(dir.join("codemode.toml"))
        .arg("--store")
        .arg(dir.join("store"))
        .args(["serve", "--http", "0.0.0.0:0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("without authentication") && stderr.contains("[serve] tokens"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
